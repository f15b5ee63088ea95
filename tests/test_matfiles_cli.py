"""`bgtools check` and `bgtools convert`."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bgtools.cli.app import app
from bgtools.formats import read_match

DATA = Path(__file__).parent / "data" / "matches"
HAL = DATA / "realmatches/halheinrich-bgmatchformat"
runner = CliRunner()


def test_check_json_fields_and_exit_status():
    r = runner.invoke(app, ["check", "--json", str(DATA / "selfplay/004.mat"), str(HAL / "cube_take.mat")])
    assert r.exit_code == 1
    recs = [json.loads(x) for x in r.stdout.splitlines()]
    assert recs[0]["games"] == 4 and recs[0]["plays"] == 143 and recs[0]["doubles"] == 7
    assert recs[0]["final_score"] == [12, 2] and recs[0]["errors"] == []
    e = recs[1]["errors"][0]
    assert e["line"] == 10 and e["game"] == 1 and "no checker" in e["message"]


def test_check_clean_folder_and_glob_exit_zero():
    r = runner.invoke(app, ["check", str(DATA / "selfplay/oldmoves"), str(DATA / "selfplay/00[12].mat")])
    assert r.exit_code == 0, r.stdout
    assert r.stdout.count("games") == 5


def test_check_missing_and_garbage_exit_two(tmp_path):
    junk = tmp_path / "junk.mat"
    junk.write_bytes(b"\x00\xffnot a match\n")
    r = runner.invoke(app, ["check", str(junk), str(tmp_path / "missing.mat")])
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_check_stdin():
    r = runner.invoke(app, ["check", "--json", "-"], input=(DATA / "selfplay/001.mat").read_bytes())
    assert r.exit_code == 0 and json.loads(r.stdout)["plays"] == 55


def test_convert_file_and_folder(tmp_path):
    src = DATA / "selfplay/011.mat"
    for suffix in ("sgf", "json", "mat"):
        out = tmp_path / f"x.{suffix}"
        r = runner.invoke(app, ["convert", str(src), "-o", str(out)])
        assert r.exit_code == 0, r.output
        assert read_match(out) == read_match(src)
    r = runner.invoke(app, ["convert", str(DATA / "selfplay/oldmoves"), "--out-dir", str(tmp_path / "conv"), "--to",
                            "sgf"])
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in (tmp_path / "conv").iterdir()) == ["011.sgf", "012.sgf", "017.sgf"]
    assert not list(tmp_path.rglob("*.tmp"))


def test_convert_bad_input_leaves_no_output(tmp_path):
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;FF[4]GM[6];W[31hefe]")
    out = tmp_path / "out.mat"
    r = runner.invoke(app, ["convert", str(bad), "-o", str(out)])
    assert r.exit_code == 2 and not out.exists() and "Traceback" not in r.output
    r = runner.invoke(app, ["convert", str(DATA / "selfplay/001.mat"), "-o", str(tmp_path / "x.xyz")])
    assert r.exit_code == 2
