"""``bgtools annotate`` / ``report`` as a user runs them, and gnubg reading our annotated SGF."""

import json
import shutil
import subprocess
import textwrap
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from bgtools.cli.app import app
from bgtools.formats import read_match

runner = CliRunner()
DATA = Path(__file__).parent / "data" / "matches"
M002 = str(DATA / "selfplay" / "002.mat")
M001 = str(DATA / "selfplay" / "001.mat")
GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")


@pytest.fixture(autouse=True)
def _cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("BGTOOLS_CACHE_DIR", str(tmp_path / "cache"))


def test_annotate_json_lines():
    r = runner.invoke(app, ["annotate", M002, "--ply", "0", "--json", "--no-cache"])
    assert r.exit_code == 0, r.output
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert rows and {"checker", "cube"} == {x["kind"] for x in rows}
    first = rows[0]
    assert (first["game"], first["move_number"], first["player"], first["dice"], first["played"]) == \
        (1, 1, 0, "31", "8/5 6/5")
    for x in rows:
        for k in ("game", "move_number", "player", "kind", "dice", "played", "best", "equity_loss", "error_class"):
            assert k in x
    assert {x["played"] for x in rows if x["kind"] == "cube"} >= {"double", "take"}


def test_annotate_writes_every_format_and_the_cache_fills(tmp_path):
    out = tmp_path / "out"
    r = runner.invoke(app, ["annotate", M001, M002, "--ply", "0", "--out-dir", str(out), "-f",
                            "json,jsonl,csv,parquet,sgf,html", "--jobs", "2"])
    assert r.exit_code == 0, r.output
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(f"{s}{x}" for s in ("001", "002") for x in (
        ".analysis.json", ".analysis.jsonl", ".analysis.csv", ".analysis.parquet", ".analysed.sgf", ".report.html"))
    doc = json.loads((out / "002.analysis.json").read_text())
    assert doc["format"] == "bgtools-match" and doc["analysis"]["decisions"]
    assert len(doc["analysis"]["summary"]) == 2
    csv = pd.read_csv(out / "002.analysis.csv")
    pq = pd.read_parquet(out / "002.analysis.parquet")
    assert list(csv["row_key"]) == list(pq["row_key"]) and csv["row_key"].str.startswith(M002 + ":").all()
    m = read_match(str(out / "002.analysed.sgf"))
    assert [g.actions for g in m.games] == [g.actions for g in read_match(M002).games]
    notes = [n for g in m.games for n in g.notes]
    assert sum("A" in n for n in notes) > 20 and sum("DA" in n for n in notes) > 5
    assert (tmp_path / "cache" / "evals.sqlite").exists()


def test_annotate_summary_and_errors(tmp_path):
    r = runner.invoke(app, ["annotate", M001, "--ply", "0", "--no-cache"])
    assert r.exit_code == 0 and "unforced moves" in r.stdout and "PR" in r.stdout
    r = runner.invoke(app, ["annotate", str(tmp_path / "missing.mat")])
    assert r.exit_code == 2 and "no such file" in r.stderr and "Traceback" not in r.output
    r = runner.invoke(app, ["annotate", M001, "--format", "pdf", "--out-dir", str(tmp_path)])
    assert r.exit_code == 2 and "--format pdf" in r.stderr
    r = runner.invoke(app, ["annotate", M001, "--ply", "7"])
    assert r.exit_code == 2
    bad = tmp_path / "bad.mat"
    bad.write_text(" 1 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   42: 24/10\n")
    r = runner.invoke(app, ["annotate", str(bad), "--ply", "0", "--no-cache", "--out-dir", str(tmp_path / "o")])
    assert r.exit_code == 1 and "bad.mat" in r.stderr and "Traceback" not in r.output
    errs = r.stderr.splitlines()[:-1]  # the last line says what was written
    assert len(errs) == 2 and all(x.startswith("bgtools: error:") for x in errs)
    assert "'24/10'" in errs[0] and "games 1 not analysed" in errs[1]
    out = tmp_path / "o" / "bad.analysis.json"
    assert json.loads(out.read_text())["analysis"]["skipped_games"] == [1]


def test_report_command(tmp_path):
    out = tmp_path / "r.html"
    r = runner.invoke(app, ["report", M001, "-o", str(out), "--ply", "0", "--no-cache"])
    assert r.exit_code == 0, r.output
    assert out.read_text().startswith("<!DOCTYPE html>")
    r = runner.invoke(app, ["report", M001, "-o", str(tmp_path / "nofolder" / "r.html")])
    assert r.exit_code == 2 and not (tmp_path / "nofolder").exists()


@pytest.mark.gnubg
@pytest.mark.skipif(GNUBG is None, reason="gnubg is not installed")
def test_gnubg_loads_our_annotated_sgf(tmp_path):
    """gnubg reads our A/DA/LU/skill properties back as its own analysis."""
    from bgtools.analysis import analyse_match, annotated_match
    from bgtools.formats.sgf import format_sgf

    m = read_match(M002)
    a = analyse_match(m, ply=0, cache=None)
    sgf = tmp_path / "a.sgf"
    sgf.write_text(format_sgf(annotated_match(m, a)))
    script = tmp_path / "s.py"
    script.write_text(textwrap.dedent(f"""
        import gnubg, json
        gnubg.command('load match "{sgf}"')
        m = gnubg.match(analysis=1)
        out = []
        for g in m["games"]:
            for x in g["game"]:
                an = x.get("analysis") or {{}}
                out.append({{"action": x.get("action"), "imove": an.get("imove"),
                            "best": an["moves"][0]["score"] if an.get("moves") else None,
                            "luck": an.get("luck-value"), "skill": an.get("skill"),
                            "nd": an.get("nd-cubeful-eq")}})
        print("JSON" + json.dumps(out))
    """))
    p = subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], capture_output=True, text=True, timeout=120)
    line = next(x for x in p.stdout.splitlines() if x.startswith("JSON"))
    got = json.loads(line[4:])
    checker = {(d.game, d.action_index): d for d in a.decisions if d.kind == "checker" and not d.forced}
    ours = [d for d in a.decisions if d.kind == "checker"]
    moves = [x for x in got if x["action"] == "move"]
    assert len(moves) == len(ours)
    n = 0
    for x, d in zip(moves, ours):
        assert x["luck"] == pytest.approx(d.luck, abs=1e-4)
        if not d.forced:
            n += 1
            assert x["imove"] == d.played_index
            assert x["best"] == pytest.approx(d.candidates[0].equity, abs=1e-5)
            assert (x.get("skill") or "none") == d.error_class
    assert n == len(checker) > 20
    doubles = [x for x in got if x["action"] == "double"]
    ours_d = [d for d in a.decisions if d.played == "double"]
    assert [x["nd"] for x in doubles] == pytest.approx([d.cube.mwc[0] for d in ours_d], abs=1e-5)
