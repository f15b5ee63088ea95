"""``bgtools scoremap`` (the cube action at every score) and ``bgtools hint --rolls`` (the best
play of every roll): they agree with ``eval`` and ``hint`` at each score and roll."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from bgtools.analysis.scoremap import SHORT_ACTIONS, score_map, short_action
from bgtools.cli.app import app
from bgtools.core.matchstate import MatchState
from bgtools.core.position import Position
from bgtools.engine.assess import assess_position
from bgtools.engine.evaluation import rank_plays
from bgtools.engine.cubeful.scoreplay import best_play_per_roll, rank_plays_at_score

runner = CliRunner()
POS = Position.from_id("sOvBADQc3y4AQA")  # a middle game from issue 35 (XG: no double at 7-away 5-away)


@pytest.mark.parametrize("length, ply", [(5, 0), (3, 1)])
def test_scoremap_agrees_with_eval_at_every_score(length, ply):
    m = score_map(POS, length, ply)
    assert len(m.cells) == length * length
    for a in range(1, length + 1):
        for b in range(1, length + 1):
            state = MatchState(match_length=length, score=(length - a, length - b), player_on_roll=0, turn=0)
            e = assess_position(POS, state, ply)
            c = m.cell(a, b)
            assert c.away == (a, b)
            assert e.cube is not None
            assert c.advice.action == e.cube.action, (a, b)
            assert c.advice.available == e.cube.available
            if c.advice.available:
                got = (c.advice.no_double, c.advice.double_take, c.advice.double_pass)
                want = (e.cube.no_double, e.cube.double_take, e.cube.double_pass)
                assert got == pytest.approx(want, abs=1e-9), (a, b)
                assert c.double_margin == pytest.approx(min(want[1], want[2]) - want[0])
            else:
                assert c.short == "-" and a == 1  # only the 1-away player on roll has no cube
    money = assess_position(POS, None, ply, jacoby=True, beavers=True)
    assert money.cube is not None and m.money.advice.action == money.cube.action
    assert m.money.advice.no_double == pytest.approx(money.cube.no_double, abs=1e-9)


def test_short_names_cover_every_action_word():
    assert short_action("Double, take") == "D/T" and short_action("Redouble, pass") == "D/P"
    assert short_action("Too good to redouble, pass") == "TG/P" and short_action("No double, beaver") == "ND/B"
    assert short_action("Optional double, take") == "D/T"
    assert short_action("no cube action available") == "-"
    assert set(SHORT_ACTIONS) >= {"ND/T", "D/T", "D/P", "TG/P", "-"}


def test_scoremap_command_table_json_and_svg(tmp_path):
    r = runner.invoke(app, ["scoremap", "sOvBADQc3y4AQA", "--length", "3"])
    assert r.exit_code == 0, r.output
    assert "3a-3a" in r.stdout and "money" in r.stdout
    r = runner.invoke(app, ["scoremap", "sOvBADQc3y4AQA", "--length", "3", "--json"])
    d = json.loads(r.stdout)
    assert d["length"] == 3 and len(d["scores"]) == 9 and d["money"]["money"]
    assert d["scores"][0]["away"] == [1, 1] and d["scores"][0]["short"] == "-"
    svg = tmp_path / "map.svg"
    r = runner.invoke(app, ["scoremap", "sOvBADQc3y4AQA", "--length", "3", "-o", str(svg)])
    assert r.exit_code == 0, r.output
    root = ET.fromstring(svg.read_text())
    cells = [g for g in root.iter("{http://www.w3.org/2000/svg}g")]
    assert len(cells) == 10  # 9 scores and money
    titles = [g.find("{http://www.w3.org/2000/svg}title").text for g in cells]
    assert titles == [c["action"] for c in d["scores"]] + [d["money"]["action"]]


def test_scoremap_refuses_bad_input():
    assert runner.invoke(app, ["scoremap", "sOvBADQc3y4AQA", "--length", "26"]).exit_code == 2
    assert runner.invoke(app, ["scoremap", "sOvBADQc3y4AQA", "--ply", "3"]).exit_code == 2
    r = runner.invoke(app, ["scoremap", "not-an-id"])
    assert r.exit_code == 2 and r.stderr.startswith("bgtools: error:") and "Traceback" not in r.output


def test_best_play_per_roll_is_hints_first_play():
    rows = best_play_per_roll(POS, None, 0)
    assert len(rows) == 21 and rows[0].dice == (6, 6) and rows[-1].dice == (1, 1)
    assert sum(r.best is not None for r in rows) >= 15
    for r in rows:
        ranked = rank_plays(POS, r.dice, 0)
        if not ranked:  # a roll that cannot be played (a checker on the bar)
            assert r.best is None and r.plays == 0 and r.margin is None
            continue
        assert r.best is not None and r.best.play.notation() == ranked[0].play.notation()
        assert r.best.equity == pytest.approx(ranked[0].equity) and r.plays == len(ranked)
        assert r.margin == pytest.approx(ranked[0].equity - ranked[1].equity) if len(ranked) > 1 else r.margin is None
    state = MatchState.from_match_id("MAHqAAAAEAAE")  # 7-point match, 7-away 5-away
    at_score = best_play_per_roll(POS, state, 0)
    for r in [r for r in at_score if r.best is not None][:4]:
        want = rank_plays_at_score(POS, r.dice, state, 0)[0]
        assert r.best is not None and r.best.play.notation() == want.play.notation()
        assert r.best.equity == pytest.approx(want.equity)


def test_hint_rolls_command():
    r = runner.invoke(app, ["hint", "sOvBADQc3y4AQA:MAHqAAAAEAAE", "--rolls", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert [x["dice"] for x in d["rolls"]][:3] == ["66", "65", "64"] and len(d["rolls"]) == 21
    assert d["equity_at"].startswith("7-point match")
    r = runner.invoke(app, ["hint", "sOvBADQc3y4AQA", "--rolls"])
    assert r.exit_code == 0 and r.stdout.count("\n") == 23
    r = runner.invoke(app, ["hint", "sOvBADQc3y4AQA", "31", "--rolls"])
    assert r.exit_code == 2 and "give no dice" in r.stderr
