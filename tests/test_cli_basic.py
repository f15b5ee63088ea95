"""The show and moves commands, as a user runs them."""

import json
import subprocess
import sys

from typer.testing import CliRunner

from bgtools.cli.app import app

runner = CliRunner()


def test_show_json_fields():
    r = runner.invoke(app, ["show", "4HPwATDgc/ABMA", "--json"])
    assert r.exit_code == 0, r.output
    info = json.loads(r.stdout)
    assert info["position_id"] == "4HPwATDgc/ABMA"
    assert info["pips"] == [167, 167]
    assert len(info["board"]) == 2 and all(len(s) == 25 for s in info["board"])
    assert info["xgid"].startswith("XGID=-b----E-C---eE---c-e----B-:")
    assert len(info["match_id"]) == 12


def test_show_board_and_xgid_and_gnubgid():
    r = runner.invoke(app, ["show", "XGID=-b----E-C---eE---c-e----B-:1:1:1:52:2:4:0:9:10"])
    assert r.exit_code == 0, r.output
    assert "9-point match" in r.stdout and "cube 2" in r.stdout
    r = runner.invoke(app, ["show", "4HPwATDgc/ABMA:cInqAAAAAAAE"])
    assert r.exit_code == 0 and "dice 52" in r.stdout and "7-point match" in r.stdout


def test_show_bad_id_is_one_line_error():
    r = runner.invoke(app, ["show", "4HPwATDgc/ABM"])
    assert r.exit_code == 2
    assert "14" in r.stderr and "Traceback" not in r.output


def test_moves_table_and_json():
    r = runner.invoke(app, ["moves", "4HPwATDgc/ABMA", "31"])
    assert r.exit_code == 0
    assert "8/5 6/5" in r.stdout and r.stdout.count("\n") == 16
    r = runner.invoke(app, ["moves", "4HPwATDgc/ABMA", "31", "--json"])
    rec = json.loads(r.stdout)
    assert rec["dice"] == "31" and len(rec["plays"]) == 16
    assert {"move": "8/5 6/5", "position_id": "sGfwATDgc/ABMA"} in rec["plays"]


def test_moves_input_file_with_bad_lines(tmp_path):
    f = tmp_path / "in.txt"
    f.write_text("4HPwATDgc/ABMA 31\nnot-an-id 31\n4HPwATDgc/ABMA 71\n\nNjuHAAmGYBh4XA 66\nNjuHAAmGYBh4XA 42\n")
    r = runner.invoke(app, ["moves", "--input", str(f), "--json"])
    assert r.exit_code == 2
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert [x["dice"] for x in lines] == ["31", "66", "42"]
    assert lines[1]["plays"] == [] and len(lines[2]["plays"]) == 3
    errs = r.stderr.splitlines()
    assert len(errs) == 2 and errs[0].startswith("bgtools: error: line 2:") and "line 3:" in errs[1]


def test_moves_stdin():
    r = runner.invoke(app, ["moves", "--input", "-", "--json"], input="4HPwATDgc/ABMA 66\n")
    assert r.exit_code == 0
    plays = [p["move"] for p in json.loads(r.stdout)["plays"]]
    assert "24/18(2) 13/7(2)" in plays and len(plays) == len(set(plays)) == 11


def test_python_dash_m_and_version():
    out = subprocess.run([sys.executable, "-m", "bgtools", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("bgtools ")
