"""Reading, exporting and checking a .mat file a game at a time (issue 38 items 9 and 8):
the streamed reading is the whole reading, memory does not grow with the file, and a money
session whose score passes what a Match ID holds still exports its rows."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import tracemalloc
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.cli.app import app
from bgtools.core import matchstate
from bgtools.export import export_files
from bgtools.export import writer
from bgtools.formats import convert, read_match
from bgtools.formats import read as readmod
from bgtools.formats.read import GameReader
from bgtools.model.match import match_summary
from bgtools.model.problems import MatchFileError

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data" / "matches"
SESSION = ROOT / "samples" / "selfplay-money-beavers.mat"
runner = CliRunner()


def _session(path: Path, games: int, first_score: int = 0) -> Path:
    """A money session of ``games`` games repeating the sample session's (renumbered); the score
    lines start at ``first_score`` for the first player and add one a game."""
    text = SESSION.read_text(encoding="utf-8")
    parts = re.split(r"(?m)^(?= Game \d+\s*$)", text)
    bodies = [p.split("\n", 2)[2] for p in parts[1:]]  # after the game and score lines
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(parts[0])
        for k in range(games):
            fh.write(f" Game {k + 1}\n" + f" Alice : {first_score + k}".ljust(32) + f"Bob : {k}\n")
            fh.write(bodies[k % len(bodies)])
    return path


def _same_reading(path: Path) -> None:
    try:
        whole = read_match(path, name=str(path))
    except MatchFileError as e:
        with pytest.raises(MatchFileError) as ei:
            list(GameReader(path, name=str(path)))
        assert str(ei.value) == str(e)
        return
    reader = GameReader(path, name=str(path))
    read = list(reader)
    games = [g for _, g in read]
    m = reader.match()
    assert tuple(games) == whole.games
    rules = (whole.players, whole.length, whole.crawford, whole.jacoby, whole.beavers, whole.tags)
    assert all((h.players, h.length, h.crawford, h.jacoby, h.beavers, h.tags) == rules for h, _ in read)
    assert (m.players, m.length, m.crawford, m.jacoby, m.beavers, m.tags, m.format, m.source) == \
        (whole.players, whole.length, whole.crawford, whole.jacoby, whole.beavers, whole.tags, whole.format,
         whole.source)
    assert [str(e) for e in m.errors] == [str(e) for e in whole.errors]
    assert [str(w) for w in m.warnings] == [str(w) for w in whole.warnings]
    assert [(g.number, g.line, g.score, g.result, g.crawford) for g in m.games] == \
        [(g.number, g.line, g.score, g.result, g.crawford) for g in whole.games]
    assert (reader.plays, reader.doubles) == (whole.plays, whole.doubles)


def _mutants(tmp: Path, n: int) -> list[Path]:
    """Real .mat files with lines dropped, repeated, cut, tabbed, re-encoded, beaver cells and
    match lines added: what a piecewise reading could read otherwise than the whole."""
    rng = random.Random(38)
    src = sorted(DATA.rglob("*.mat")) + sorted(DATA.rglob("*.txt"))
    junk = ["  3) Beavers => 4", " Game 7", "  Game 2 ", " 5 point match", "; 3 point match", "garbage ))) ::",
            "\t12) 31: 8/5 6/5\t42: 8/4", "  4)  Doubles => 2   Beavers => 4", " Alice : 3     Bob : x", "",
            "  5) raccoons => 8", " Wins 2 points and the match", "\xe9t\xe9 : 0    Bob : 0", " GAME 4"]
    out = []
    for k in range(n):
        lines = rng.choice(src).read_bytes().split(b"\n")
        for _ in range(rng.randint(1, 6)):
            op, i = rng.random(), rng.randrange(len(lines))
            if op < 0.25:
                del lines[i]
            elif op < 0.45:
                lines.insert(i, rng.choice(junk).encode("latin-1" if rng.random() < 0.3 else "utf-8"))
            elif op < 0.6:
                lines.insert(i, lines[rng.randrange(len(lines))])
            elif op < 0.7:
                lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
            elif op < 0.8:
                lines[i] = lines[i].replace(b" ", b"\t", 1)
            else:
                lines[i] += b"  \r"
        data = b"\n".join(lines)
        if k % 3 == 0:
            data = data.rstrip(b"\n")
        if k % 7 == 0:
            data = b"\xef\xbb\xbf" + data
        p = tmp / f"m{k:03d}.mat"
        p.write_bytes(data)
        out.append(p)
    return out


def test_streamed_reading_is_the_whole_reading(tmp_path, monkeypatch):
    """Every game read in its own piece (the smallest pieces), real files and mutated ones."""
    monkeypatch.setattr(readmod, "CHUNK_LINES", 1)
    game = "  1) 31: 8/5 6/5   42: 8/4 6/4\n      Wins 1 point\n\n"
    (tmp_path / "late.mat").write_text(f" 0 point match\n\n Game 1\n{game} Game 2\n{game} Game 3\n"
                                       f" Ann : 2                       Bo : 0\n{game}")  # players named in game 3
    files = sorted(DATA.rglob("*.mat")) + sorted(DATA.rglob("*.txt")) + _mutants(tmp_path, 150) + \
        [tmp_path / "late.mat"]
    streamed = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for f in files:
            _same_reading(f)
            streamed += readmod._scan_mat(f)[0] is not None
    assert streamed > 0.8 * len(files)  # most are streamed (the others are read whole)


def _export_peak(path: Path, out: Path) -> int:
    tracemalloc.start()
    try:
        export_files([str(path)], str(out))
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_export_memory_does_not_grow_with_the_file(tmp_path, monkeypatch):
    """Issue 38 item 9: a 4x longer session exports in about the same memory (it grew with
    the whole match, its replayed positions and its rows), and writes the same rows."""
    monkeypatch.setattr(writer, "CHUNK_ROWS", 1000, raising=False)
    monkeypatch.setattr(readmod, "CHUNK_LINES", 200, raising=False)
    small, big = _session(tmp_path / "small.mat", 20), _session(tmp_path / "big.mat", 80)
    export_files([str(small)], str(tmp_path / "warm.csv"))  # kernels, caches
    p_small = _export_peak(small, tmp_path / "small.csv")
    p_big = _export_peak(big, tmp_path / "big.csv")
    # what stays is each game's summary (number, score, result, problems: about 1.5 KB a game);
    # reading the match whole grew 3x here, and keeping each game's replayed steps 1.9x
    assert p_big < 1.4 * p_small, (p_small, p_big)
    rows = (tmp_path / "big.csv").read_text().count("\n") - 1
    assert rows == len([1 for g in read_match(big).games for _ in g.actions]) > 4000


def test_check_reads_game_by_game_with_the_same_report(tmp_path, monkeypatch):
    monkeypatch.setattr(readmod, "CHUNK_LINES", 1)
    big = _session(tmp_path / "s.mat", 30)
    files = [str(big), str(DATA / "selfplay" / "001.mat"), str(DATA / "realmatches" / "kevung-gbf" / "test.mat")]
    r = runner.invoke(app, ["check", "--json", *files])
    got = [json.loads(line) for line in r.stdout.splitlines()]
    wholes = [readmod.read_file(Path(f), name=f) for f in files]  # the whole reading, its warnings too
    want = [match_summary(w.match, w.warnings) for w in wholes]
    assert got == want and got[0]["plays"] > 500 and got[0]["doubles"] > 10
    assert got[2]["warnings"]  # (replay warnings: carried by check --json, issue 38 item 13)


def test_money_score_past_the_match_id_range_exports_its_rows(tmp_path):
    """Issue 38 item 8: a money session whose running score passes 32,767 (the Match ID's
    15-bit field): the rows are exported, the Match ID left empty there, said once."""
    path = _session(tmp_path / "rich.mat", 6, first_score=32_765)
    out = tmp_path / "rich.csv"
    r = subprocess.run([sys.executable, "-m", "bgtools", "export", str(path), "-o", str(out)], capture_output=True,
                       text=True, timeout=300)  # (the warnings as the command line shows them: not under pytest)
    assert r.returncode == 0, r.stderr
    said = [ln for ln in r.stderr.splitlines() if "Match ID" in ln]
    assert len(said) == 1 and said[0].startswith(f"bgtools: warning: {path}:") and "32768" in said[0]
    assert "unexpected" not in r.stderr and "Traceback" not in r.stderr
    from bgtools.export import read_csv

    df = read_csv(out)
    assert len(df) == sum(len(g.actions) for g in read_match(path).games)
    past = df.score_player.where(df.player == "Alice", df.score_opponent) > matchstate.MAX_MATCH_LENGTH
    assert past.any() and (~past).any()
    assert df.match_id[past].isna().all() and df.match_id[~past].notna().all()
    assert df.xgid.notna().all() and df.position_id.notna().all()
    # check reads it as before, with no error
    assert runner.invoke(app, ["check", str(path)]).exit_code == 0


def test_match_length_past_the_match_id_range_is_refused_like_check(tmp_path):
    path = tmp_path / "long.mat"
    path.write_text(" 99999999 point match\n\n Game 1\n A : 0                        B : 0\n"
                    "  1) 31: 8/5 6/5                   42: 8/4 6/4\n")
    c = runner.invoke(app, ["check", str(path)])
    e = runner.invoke(app, ["export", str(path), "-o", str(tmp_path / "long.csv")])
    assert c.exit_code == e.exit_code == 2
    line = f"bgtools: error: {path}: match length 99999999: over 32767, the longest match a Match ID can hold"
    assert line in c.stderr.splitlines() and line in e.stderr.splitlines()
    assert "unexpected" not in e.stderr


def test_one_match_length_limit():
    """Issue 34: the 15-bit limit is one constant (core.matchstate), the one convert uses."""
    assert convert.MAX_MATCH_LENGTH is matchstate.MAX_MATCH_LENGTH == 2**15 - 1
    with pytest.raises(matchstate.MatchIDError):
        matchstate.MatchState(match_length=matchstate.MAX_MATCH_LENGTH + 1)
    assert matchstate.MatchState(match_length=matchstate.MAX_MATCH_LENGTH).match_id()
    src = "\n".join(p.read_text() for p in (ROOT / "bgtools").rglob("*.py"))
    assert len(re.findall(r"2\s*\*\*\s*15\s*-\s*1|32767(?![\d.])", src)) == 1


def test_streamed_file_reading_is_the_whole_reading(tmp_path, monkeypatch):
    """Issues 38 items 9 and 13 together: ``read_file(stream=True)`` (what check, export and
    annotate read) gives the whole reading's verdict, errors, warnings (the replay's too) and
    counts, real files and mutated ones, unreadable ones included, with and without steps."""
    monkeypatch.setattr(readmod, "CHUNK_LINES", 1)
    (tmp_path / "long.mat").write_text(" 99999999 point match\n\n Game 1\n A : 0                        B : 0\n"
                                       "  1) 31: 8/5 6/5                   42: 8/4 6/4\n")
    (tmp_path / "none.mat").write_text(" Game 1\n A : 0                        B : 0\n  1) 31: 8/5 6/5\n")
    files = sorted(DATA.rglob("*.mat")) + sorted(DATA.rglob("*.txt")) + _mutants(tmp_path, 60) + \
        [tmp_path / "long.mat", tmp_path / "none.mat"]
    verdicts: dict[str, int] = {}
    warned = 0
    for k, f in enumerate(files):
        steps = k % 4 == 0 or f.name == "long.mat"
        whole = readmod.read_file(f, name=str(f), keep_steps=steps)
        got = readmod.read_file(f, name=str(f), keep_steps=steps, stream=True)
        assert got.verdict == whole.verdict, f
        assert [str(e) for e in got.errors] == [str(e) for e in whole.errors], f
        assert [str(w) for w in got.warnings] == [str(w) for w in whole.warnings], f
        assert (got.actions, got.plays, got.doubles) == (whole.actions, whole.plays, whole.doubles), f
        assert (got.match.players, got.match.length, got.match.final_score, len(got.match.games)) == \
            (whole.match.players, whole.match.length, whole.match.final_score, len(whole.match.games)), f
        verdicts[whole.verdict] = verdicts.get(whole.verdict, 0) + 1
        warned += bool(whole.warnings)
    assert verdicts.get("unreadable", 0) >= 2 and verdicts.get("errors") and verdicts.get("ok") and warned
