"""The cube decision by rollout: one cubeful rollout per cube branch, the same dice in both."""

from __future__ import annotations

from bgtools.core.matchstate import parse_any_id
from bgtools.core.position import Position
from bgtools.rollouts import RolloutSettings, rollout
from bgtools.rollouts.cuberollout import cube_rollout

DP_MONEY = "5yMAALgAAAAAAA"  # gnubg 2-ply: Double, pass (cube.jsonl)


def test_a_clear_pass_rolls_out_as_double_pass():
    r = cube_rollout(Position.from_id(DP_MONEY), None, RolloutSettings(trials=144, seed=3))
    assert r.action == "Double, pass", r
    assert r.double_take > r.double_pass == 1.0


def test_the_branches_are_the_two_cube_states_of_plain_rollouts():
    pos = Position.initial()
    s = RolloutSettings(trials=144, seed=5, cubeful=True, truncate=6)
    r = cube_rollout(pos, None, s)
    nd = rollout(pos, None, s)
    assert r.no_double == nd.cubeful_equity and r.no_double_se == nd.cubeful_equity_se
    pos2, st = parse_any_id("4HPwATDgc/ABMA:QQkAAAAAAAAA")  # the same board, cube 2 owned by the opponent
    dt = rollout(pos2, st, s)
    assert st.cube == 2 and st.cube_owner != st.player_on_roll
    assert abs(r.double_take - 2.0 * dt.cubeful_equity) < 1e-12


def test_no_cube_action_in_the_crawford_game():
    pos, st = parse_any_id("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:6:2:1:7:10")
    r = cube_rollout(pos, st, RolloutSettings(trials=36, seed=1, truncate=4))
    assert r.action == "no cube action available" and r.double_take is None


def test_match_values_are_normalised_with_the_winning_chances_beside():
    pos, st = parse_any_id("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:2:4:0:7:10")
    r = cube_rollout(pos, st, RolloutSettings(trials=72, seed=2, truncate=4))
    assert r.mwc is not None and 0.0 < r.mwc[0] < 1.0 and r.double_pass == 1.0


def test_rollout_command_gives_the_cube_decision():
    import json

    from typer.testing import CliRunner

    from bgtools.cli.app import app

    r = CliRunner().invoke(app, ["rollout", DP_MONEY, "--cube-decision", "--trials", "144", "--jobs", "1", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["action"] == "Double, pass" and d["double_pass"] == 1.0 and d["trials"] == 144
