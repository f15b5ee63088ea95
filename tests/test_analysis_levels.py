"""Analysis levels (bgtools.analysis.levels, ``annotate --level``): the screen, the 3-ply tier on
close decisions, the rollout tier on errors and close decisions, and what each decision records."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.analysis import AnalysisSettings, analyse_match
from bgtools.analysis.levels import CLOSE_CHECKER, analyse_level, is_close
from bgtools.cli.app import app
from bgtools.formats import read_match

#: the first game of samples/selfplay-7pt.mat: 36 decisions, a double, a take, a redouble and a drop
GAME = Path(__file__).parent / "data" / "levels" / "game1-7pt.mat"
TRIALS = 72


@pytest.fixture(scope="module")
def match():
    return read_match(str(GAME), keep_steps=True)


@pytest.fixture(scope="module")
def screen(match):
    return analyse_level(match, AnalysisSettings(level="strong"), cache=None)


@pytest.fixture(scope="module")
def rolled(match):
    return analyse_level(match, AnalysisSettings(level="rollout", rollout_trials=TRIALS), cache=None)


def _plain(d):
    return replace(d, tier="", file=None)


def test_strong_is_the_2_ply_analysis(match, screen):
    plain = analyse_match(match, settings=AnalysisSettings(ply=2), cache=None)
    assert [_plain(d) for d in screen.decisions] == [_plain(d) for d in plain.decisions]
    assert screen.players_summary == plain.players_summary
    assert {d.tier for d in screen.decisions if not d.forced} == {"screen"}
    assert screen.level["revalued"] == {"screen": 36} and screen.level["share"] == {"screen": 1.0}
    # the late-game plays the screen settled by rollouts (analysis.endgame) are counted
    settled = sum(1 for d in screen.decisions if d.kind == "checker" and d.candidates and d.candidates[0].trials)
    assert screen.level["endgame_settled"] == settled
    assert screen.level["endgame_trials"] == AnalysisSettings().endgame_trials


def test_fast_is_a_0_ply_screen(match):
    a = analyse_level(match, AnalysisSettings(level="fast"), cache=None)
    checker = [d for d in a.decisions if d.kind == "checker" and not d.forced]
    assert checker and {d.method for d in checker} == {"0-ply"}
    assert a.level["screen_ply"] == 0 and set(a.level["revalued"]) == {"screen"}


def test_deep_revalues_the_close_decisions_at_3_ply(match, screen):
    a = analyse_level(match, AnalysisSettings(level="deep"), cache=None)
    close = {(d.row_key, d.kind) for d in screen.decisions if is_close(d)}
    deep = {(d.row_key, d.kind) for d in a.decisions if d.tier == "deep"}
    # the close ones, and an answer whose double was close (they share one valuation)
    assert close and close <= deep
    assert all(kind == "cube" for _, kind in deep - close)
    for d in a.decisions:
        if d.tier == "deep":
            assert d.method == "3-ply"
            if d.kind == "checker":
                assert d.equity_loss == pytest.approx(max(0.0, d.candidates[0].equity
                                                          - d.candidates[d.played_index].equity))
        elif not d.forced:
            assert d.tier == "screen" and d.method in ("2-ply", "0-ply", "1-ply")
    lv = a.level
    assert lv["revalued"]["deep"] == len(deep) and lv["share"]["deep"] == round(len(deep) / 36, 4)
    # a close checker play: the screen's two best within the margin
    d = next(d for d in screen.decisions if (d.row_key, d.kind) in close and d.kind == "checker")
    assert d.candidates[0].equity - d.candidates[1].equity < CLOSE_CHECKER


def test_rollout_tier_rolls_out_errors_and_close_decisions(match, rolled):
    rows = [d for d in rolled.decisions if d.tier == "rollout"]
    assert rows and rolled.level["revalued"]["rollout"] == len(rows)
    assert rolled.level["rollout_trials"] == TRIALS
    from bgtools.engine.nets.nn import load_default_network

    # the tier plays the shipped rollout net, and says so (the screen's values name the analysis net);
    # test_candidates_share_the_dice checks the values are that net's rollouts
    assert rolled.level["rollout_net"] == load_default_network("rollout").version
    assert load_default_network("analysis").version in rolled.evaluator
    assert any(d.kind == "cube" for d in rows) and any(d.kind == "checker" for d in rows)
    for d in rows:
        assert d.method == "rollout"
        if d.kind == "checker":
            rolled_out = [c for c in d.candidates if c.trials]
            assert len(rolled_out) >= 2 and all(c.trials == TRIALS and c.se is not None and c.se > 0
                                                for c in rolled_out)
            assert d.candidates[d.played_index].trials == TRIALS  # the play made is always rolled out
            assert d.candidates[0].trials and d.candidates[0].equity == max(c.equity for c in rolled_out)
            assert d.equity_loss == pytest.approx(d.candidates[0].equity - d.candidates[d.played_index].equity)
        else:
            assert d.cube.trials == TRIALS and all(s > 0 for s in d.cube.se)
    # an answer is valued with its double, from the doubler's side
    cubes = [d for d in rolled.decisions if d.kind == "cube" and d.played != "no double"]
    assert [d.played for d in cubes] == ["double", "take", "double", "pass"]
    for double, answer in zip(cubes[::2], cubes[1::2]):
        assert answer.cube == double.cube and answer.tier == double.tier
    # what the tiers before it did not re-value and did not call an error or close stays as screened
    for d in rolled.decisions:
        if not d.forced and d.tier == "screen":
            assert d.error_class == "none" and not is_close(d)
    lines = [json.loads(x) for x in rolled.json_lines()]
    roll = [x for x in lines if x.get("tier") == "rollout" and x["kind"] == "checker"]
    assert roll and all(x["method"] == "rollout" and "se" in x["candidates"][0] for x in roll)


def test_candidates_share_the_dice(match, rolled):
    """Each rolled-out candidate's value is that of its own rollout with the same seed: the
    dice depend on (seed, trial) only, so every candidate of a decision saw the same dice."""
    from bgtools.core.matchstate import MatchState
    from bgtools.core.position import Position
    from bgtools.model.resolve import apply_steps
    from bgtools.rollouts import Job, RolloutSettings, rollout_many

    d = next(d for d in rolled.decisions if d.tier == "rollout" and d.kind == "checker")
    rs = RolloutSettings(trials=TRIALS, seed=1, cubeful=True, variance_reduction=True, truncate=7)
    pos = Position.from_id(d.position_id)
    me = Job.make(pos, MatchState.from_match_id(d.match_id, strict=False), met=rs.table)
    c = next(c for c in d.candidates if c.trials)
    job = replace(me, board=apply_steps(pos, c.steps)[0].to_array(), info=me.info.flipped())
    alone = next(rollout_many([job], rs))
    assert -alone.cubeful_equity == pytest.approx(c.equity, abs=1e-12)
    assert alone.cubeful_equity_se == pytest.approx(c.se, abs=1e-12)
    # the differences from the best, measured trial by trial on the same dice: the best's is 0, and
    # the others' are below what independent dice would give (sqrt of the sum of the two variances)
    rolled_out = [c for c in d.candidates if c.trials]
    best = rolled_out[0]
    assert best.diff_se == 0.0
    assert all(0.0 < c.diff_se for c in rolled_out[1:])
    assert any(c.diff_se < (c.se ** 2 + best.se ** 2) ** 0.5 for c in rolled_out[1:])


def test_annotate_level_options(tmp_path):
    r = CliRunner().invoke(app, ["annotate", str(GAME), "--level", "deeper"])
    assert r.exit_code == 2 and "--level deeper" in r.output
    r = CliRunner().invoke(app, ["annotate", str(GAME), "--level", "deep", "--ply", "2"])
    assert r.exit_code == 2 and "not both" in r.output
    r = CliRunner().invoke(app, ["annotate", str(GAME), "--level", "rollout", "--rollout-trials", "1"])
    assert r.exit_code == 2
    r = CliRunner().invoke(app, ["annotate", str(GAME), "--level", "deep", "--no-cache"])
    assert r.exit_code == 0, r.output
    line = next(x for x in r.output.splitlines() if "level deep" in x)
    assert "36 decisions" in line and "screen 36 (100%" in line and "deep " in line
