"""Checker play at a match score: gammons count as the score says."""

from __future__ import annotations

import numpy as np

from bgtools.core.matchstate import parse_any_id
from bgtools.engine.evaluation import rank_plays
from bgtools.engine.cubeful.scoreplay import rank_plays_at_score

BOARD = "XGID=-b----E-C---eE---c-e----B-"


def test_at_double_match_point_only_winning_counts():
    pos, dmp = parse_any_id(BOARD + ":0:0:1:61:6:6:0:7:10")  # 1-away/1-away after the Crawford game
    ranked = rank_plays_at_score(pos, (6, 1), dmp)
    values = np.array([r.equity for r in ranked])
    wins = np.array([r.probs[0] for r in ranked])
    assert np.allclose(values, 2.0 * wins - 1.0, atol=1e-9)  # the cube is dead, gammons are worthless
    assert list(wins) == sorted(wins, reverse=True)


def test_money_and_match_rankings_use_the_same_candidates():
    pos, state = parse_any_id(BOARD + ":0:0:1:42:0:0:0:5:10")
    money = rank_plays(pos, (4, 2))
    match = rank_plays_at_score(pos, (4, 2), state)
    assert {r.play.after_id for r in money} == {r.play.after_id for r in match}
    assert match[0].diff == 0.0 and all(r.diff <= 0.0 for r in match)


def test_hint_ranks_by_the_score_of_a_match_id():
    import json

    from typer.testing import CliRunner

    from bgtools.cli.app import app

    r = CliRunner().invoke(app, ["hint", BOARD + ":0:0:1:61:6:6:0:7:10", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["equity_at"] == "7-point match, 1-away 1-away"
    p = d["plays"][0]
    assert abs(p["equity"] - (2.0 * p["probs"][0] - 1.0)) < 1e-9
