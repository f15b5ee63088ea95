"""`bgtools eval` and a dice-less `bgtools hint` give the cube decision, as a user types them."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from bgtools.cli.app import app

MONEY = "4HPwATDgc/ABMA"
MATCH = "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:1:0:7:10"  # 7-point match, cube 2 owned by the roller
CRAWFORD = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:6:2:1:7:10"


def _run(*args: str):
    r = CliRunner().invoke(app, list(args))
    assert r.exit_code == 0, r.output
    return r


def test_eval_json_carries_the_cube_decision_at_money():
    d = json.loads(_run("eval", MONEY, "--json").stdout)
    c = d["cube"]
    assert c["action"] in ("No double, take", "No double, beaver")
    assert {"no_double", "double_take", "double_pass", "take_point", "gammon_values"} <= set(c)
    assert c["double_pass"] == 1.0 and c["no_double"] < c["double_pass"]
    assert d["rules"] == "money, Jacoby on, beavers on"
    assert "mwc" not in c


def test_eval_text_and_the_cube_switch():
    out = _run("eval", MONEY).stdout
    assert "Proper cube action: No double" in out and "1. No double" in out
    assert "cube decision" not in _run("eval", MONEY, "--no-cube").stdout
    assert "cube" not in json.loads(_run("eval", MONEY, "--json", "--no-cube").stdout)


def test_money_rules_from_the_options():
    plain = json.loads(_run("eval", MONEY, "--json", "--no-jacoby", "--no-beavers").stdout)
    assert plain["rules"] == "money, Jacoby off, beavers off"
    assert plain["cube"]["action"] == "No double, take"  # without beavers no beaver is proposed
    assert plain["cube"]["gammon_values"]["gammon_on_roll"] == 1.0  # gammons count without Jacoby


def test_match_score_gives_match_winning_chances_and_redoubles():
    d = json.loads(_run("eval", MATCH, "--json").stdout)
    c = d["cube"]
    assert d["rules"] == "7-point match, 4-away 6-away"
    assert set(c["mwc"]) == {"no_double", "double_take", "double_pass"}
    assert "redouble" in c["action"].lower()
    assert 0.0 < c["mwc"]["no_double"] < 1.0


def test_crawford_game_has_no_cube_action():
    d = json.loads(_run("eval", CRAWFORD, "--json").stdout)
    assert d["cube"]["action"] == "no cube action available"
    assert "no cube action available" in _run("eval", CRAWFORD).stdout


def test_hint_without_dice_answers_the_cube_question():
    out = _run("hint", MONEY).stdout
    assert "Proper cube action:" in out
    d = json.loads(_run("hint", MATCH, "--json").stdout)
    assert d["cube"]["action"]


def test_eval_input_file_one_json_line_per_id(tmp_path):
    f = tmp_path / "ids.txt"
    f.write_text(f"{MONEY}\n{MATCH}\n")
    lines = _run("eval", "--input", str(f), "--json", "--ply", "1").stdout.splitlines()
    assert [json.loads(x)["cube"]["ply"] for x in lines] == [1, 1]
