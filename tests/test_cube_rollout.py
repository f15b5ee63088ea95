"""The cube decision by rollout: one cubeful rollout per cube branch, the same dice in both."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bgtools.core.matchstate import parse_any_id
from bgtools.core.position import Position
from bgtools.rollouts import Job, RolloutSettings, rollout, rollout_many
from bgtools.rollouts.cuberollout import cube_rollout

DP_MONEY = "5yMAALgAAAAAAA"  # gnubg 2-ply: Double, pass (cube.jsonl)
DP_CONTACT = "sJ/BASTYzsHBAA"  # gnubg 2-ply and our 0-ply: Double, pass, not a sure win (cube.jsonl)


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


# ---- the first turn, the Jacoby rule and checker play at the score inside the rollout kernel
def test_a_plain_cubeful_rollout_doubles_on_the_first_turn():
    from bgtools.engine.cubeful.cubesearch import cube_advice_at

    pos = Position.from_id(DP_CONTACT)
    assert cube_advice_at(pos, None, 0).action == "Double, pass"  # our 0-ply decision: double, pass
    s = RolloutSettings(trials=144, seed=3, cubeful=True)
    plain = rollout(pos, None, s)
    assert plain.cubeful_equity == 1.0 and plain.cubeful_equity_se == 0.0  # every trial: double, pass
    assert plain.plies == 0  # ... before the first roll
    job = Job.make(pos, None)
    nd = next(rollout_many([replace(job, first_cube=False)], s))
    assert nd.plies > 0  # the no-double branch of a cube decision plays on


def _sure_gammon() -> Position:
    """The player on roll bears off his last checker with any roll; the opponent has none off."""
    import numpy as np

    b = np.zeros((2, 25), np.int8)
    b[1, 0] = 1  # on roll: one checker on his 1-point
    b[0, 5] = 15  # the opponent: all fifteen on his own 6-point
    return Position.from_array(b)


@pytest.mark.parametrize("jacoby, points", [(True, 1.0), (False, 2.0)])
def test_jacoby_a_gammon_with_the_cube_centred_counts_single_in_rollouts(jacoby, points):
    s = RolloutSettings(trials=36, seed=1, cubeful=True, bearoff_truncation=False, jacoby=jacoby)
    r = rollout(_sure_gammon(), None, s)
    assert r.probs[1] == 1.0 and r.equity == 2.0  # cubeless: a gammon
    assert r.cubeful_equity == points  # too good to double: played out, single under Jacoby


def test_cubeful_checker_play_at_double_match_point_maximises_winning_chances():
    import numpy as np

    from bgtools.core.movegen import legal_plays
    from bgtools.engine.evaluation import default_evaluator, invert_probs, static_probs
    from bgtools.engine.nets.nn import NeuralEvaluator
    from bgtools.rollouts.dice import roll_dice

    pos, st = parse_any_id("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:6:6:0:7:10")  # 1-away 1-away
    seed = 11
    dice = roll_dice(seed, 0, 1)[0]
    plays = legal_plays(pos, dice)
    rollout_net = NeuralEvaluator(default_evaluator().rollout_weights)  # the net rollouts play
    probs = invert_probs(static_probs(np.stack([p.after.to_array() for p in plays]), rollout_net))
    r = rollout(pos, st, RolloutSettings(trials=1, seed=seed, cubeful=True, truncate=1))
    # the trial stops after the first play and evaluates it: the play with the best winning chance
    assert r.probs[0] == pytest.approx(float(probs[:, 0].max()), abs=1e-6)
    cubeless = rollout(pos, st, RolloutSettings(trials=1, seed=seed, cubeful=False, truncate=1))
    best_equity = int(np.argmax(2 * probs[:, 0] - 1 + probs[:, 1] + probs[:, 2] - probs[:, 3] - probs[:, 4]))
    assert cubeless.probs[0] == pytest.approx(float(probs[best_equity, 0]), abs=1e-6)
