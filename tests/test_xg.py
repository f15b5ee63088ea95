"""eXtreme Gammon .xg/.xgp: the real files against SOURCES.md and their .mat/.sgf twins, the
analysis they carry, damaged and crafted archives (one-line errors, bounded memory), gnubg."""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import textwrap
import tracemalloc
import zlib
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from binfiles import REC, XG_DIR, build_xg, first_game_records, small_xg, xg_parts
from bgtools.base.errors import BgtoolsError
from bgtools.formats import read_match, read_matches
from bgtools.formats import xg as xgmod
from bgtools.formats.matfile import write_mat
from bgtools.formats.sgf import format_sgf
from bgtools.formats.read import MATCH_SUFFIXES, detect_binary
from bgtools.formats.xg import parse_xg, record_counts, xg_level
from bgtools.model import MatchFileError
from bgtools.model.game import Double, Drop, Resign, Roll, Take
from bgtools.model.replay import replay_game

DATA = Path(__file__).parent / "data" / "matches" / "realmatches"

#: SOURCES.md (gammonview's gvformat): players (sorted), length, record counts
SOURCES = {
    "1-Intermediate-Round1-Unger-Kozoman-11pt.xg": (["Davor KOZOMAN", "Kévin UNGER"], 11, 5, 235, 234),
    "2-Intermediate-Round2-Unger-Lahme-7pt.xg": (["Kévin UNGER", "Susanne LAHME"], 7, 8, 359, 356),
    "Lux Heuler-Franzosen 7 point match 12.08.2024.xg": (["Franzosen", "Lux Heuler"], 7, 7, 257, 254),
    "Squire-Jørgensen-Harmand-Unger 7 point match 18-08-2024.xg": (["Harmand/Unger", "Squire/Jørgensen"], 7, 8, 339, 337),
    "charlot1-charlot2_7p_2025-11-08-2305.xg": (["charlot1", "charlot2"], 7, 4, 192, 189),
    "match_with_comment.xg": (["Kévin UNGER", "Nicolas HARMAND"], 9, 8, 184, 179),
    "ronde1-UngerHarmand-FriebeJacobi-7pt.xg": (["FRIEBE JACOBI", "Kévin UNGER Nicolas HARMAND"], 7, 4, 198, 196),
    "ronde3-UngerHarmand-HuyckLarsen.xg": (["Johan HUYCK Michael LARSEN", "Kévin UNGER Nicolas HARMAND"], 7, 4, 183, 182),
    "test.xg": (["Kévin Unger", "Maxence Job"], 7, 7, 337, 334),
}
#: the one file with a move that breaks the rules: game 7, move 26 plays 14/11 8/5 with a 43
ILLEGAL = {"Squire-Jørgensen-Harmand-Unger 7 point match 18-08-2024.xg": (7, 26)}
#: .xg -> (its .mat twin, its SGF twin, gnubg 1.07's plays, doubles, final score)
TWINS = {
    "test.xg": (DATA / "kevung-gbf" / "test.mat", DATA / "kevung-gbf" / "test.sgf.gz", 297, 7, (7, 4)),
    "charlot1-charlot2_7p_2025-11-08-2305.xg": (
        DATA / "kevung-gnubgparser" / "charlot1-charlot2_7p_2025-11-08-2305.mat",
        DATA / "kevung-gnubgparser" / "charlot1-charlot2_7p_2025-11-08-2305.sgf.gz", 171, 4, (9, 2)),
}


@pytest.fixture(scope="module")
def matches():
    return {p.name: read_match(p) for p in sorted(XG_DIR.glob("*.xg"))}


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_real_files_match_sources(name, matches):
    players, length, games, cubes, moves = SOURCES[name]
    m = matches[name]
    data = (XG_DIR / name).read_bytes()
    counts = record_counts(data)
    assert (counts["header_match"], counts["header_game"], counts["cube"], counts["move"]) == (1, games, cubes, moves)
    assert counts["footer_game"] == games and counts["footer_match"] == 1
    assert m.format == "xg" and sorted(m.players) == players and m.length == length
    assert len(m.games) == games
    assert sum(isinstance(a, Roll) for g in m.games for a in g.actions) == moves
    # every cube record is a decision before a roll, a double answered by a drop, or the
    # decision of a player who resigned instead of rolling
    drops = sum(isinstance(a, Drop) for g in m.games for a in g.actions)
    resigned_unrolled = sum(1 for g in m.games for i, a in enumerate(g.actions) if isinstance(a, Resign)
                            and not (i and isinstance(g.actions[i - 1], Roll) and g.actions[i - 1].status == "rolled"))
    assert moves + drops + resigned_unrolled == cubes
    # the match footer's final score: the last game in full (as gnubg counts), or capped at the length
    footer = (counts["final_1"], counts["final_2"])
    assert footer in (m.final_score, tuple(min(x, length) for x in m.final_score))
    for g, nxt in zip(m.games, m.games[1:]):
        assert g.final_score == nxt.score
    if name in ILLEGAL:
        (e,) = m.errors
        assert (e.game, e.move) == ILLEGAL[name] and "not a legal play for 43" in e.message
        assert name in str(e)
    else:
        assert m.errors == []
        assert all(g.result is not None for g in m.games)


def _cube_actions(g):
    return [(type(a).__name__, a.player, getattr(a, "cube", 0)) for a in g.actions
            if isinstance(a, (Double, Take, Drop))]


@pytest.mark.parametrize("name", sorted(TWINS))
def test_twins_same_games(name, matches):
    mat, sgf, plays, doubles, final = TWINS[name]
    m = matches[name]
    assert (m.plays, m.doubles, m.final_score) == (plays, doubles, final)
    for twin in (read_match(mat), read_match(sgf)):
        assert twin.players == m.players and twin.length == m.length
        assert len(twin.games) == len(m.games)
        for gi, (a, b) in enumerate(zip(m.games, twin.games)):
            assert a.score == b.score
            assert [r.dice for r in a.actions if isinstance(r, Roll)] == \
                   [r.dice for r in b.actions if isinstance(r, Roll)]
            after_a = [s.play.after.position_id() if s.play else None for s in replay_game(m, a, gi)
                       if isinstance(s.action, Roll)]
            after_b = [s.play.after.position_id() if s.play else None for s in replay_game(twin, b, gi)
                       if isinstance(s.action, Roll)]
            assert after_a == after_b
            assert _cube_actions(a) == _cube_actions(b)
            assert a.result == b.result


def test_level_codes_and_analysis(matches):
    # test.xg was analysed at "XG Roller++" (code 1002); its opening play comes from the book (998)
    assert [xg_level(c) for c in (0, 2, 6, 100, 998, 1000, 1001, 1002, -1)] == [
        "1-ply", "3-ply", "7-ply", "rollout", "book", "XG Roller", "XG Roller+", "XG Roller++", ""]
    m = matches["test.xg"]
    rolls = [a for g in m.games for a in g.actions if isinstance(a, Roll)]
    levels = Counter(a.analysis.level for a in rolls)
    assert levels.most_common(1)[0][0] == "XG Roller++"
    assert set(levels) <= {"XG Roller++", "4-ply", "3-ply", "2-ply"}
    first = rolls[0].analysis
    assert first.candidates[0].level == "book" and first.played == 0 and first.error == 0
    # the file's error is the gap between the best candidate and the play made
    gaps = [abs(a.analysis.error - (a.analysis.best_equity - a.analysis.candidates[a.analysis.played].equity))
            for a in rolls if a.analysis.error is not None and a.analysis.played >= 0]
    assert len(gaps) > 250 and sum(g < 2e-4 for g in gaps) >= len(gaps) - 2  # 301 of 302 here
    # the 11 at game 1, move 2 (24/23 23/22 22/21 21/20) cost 0.056: second of ten candidates
    a = m.games[0].actions[3]
    assert a.dice == (1, 1) and a.analysis.played == 1 and len(a.analysis.candidates) == 10
    assert a.analysis.error == pytest.approx(0.0561, abs=1e-4)
    assert a.analysis.luck == pytest.approx(-0.0345, abs=1e-4)
    # cube: every double carries no double / double-take / double-pass figures
    dbl = [a for g in m.games for a in g.actions if isinstance(a, Double)]
    assert len(dbl) == 7 and all(d.analysis.double_pass == pytest.approx(1.0) for d in dbl)
    wrong = [d for d in dbl if d.analysis.cube_error and d.analysis.cube_error > 0.1]
    assert wrong and all(d.analysis.no_double > d.analysis.double_take for d in wrong)
    # equality of actions ignores the analysis
    assert a == Roll(a.player, a.dice, a.steps, a.status)


def test_comments_member(matches):
    m = matches["match_with_comment.xg"]
    notes = [a.analysis.comment for g in m.games for a in g.actions if getattr(a, "analysis", None)
             and a.analysis.comment]
    assert "coup assez difficile" in notes and len(notes) >= 2


def test_detection_by_content_and_folders(tmp_path):
    data = small_xg()
    assert detect_binary(data) == "xg" and detect_binary(data[4:], "x.xg") == "xg"
    assert detect_binary(data[4:]) is None
    assert {".xg", ".xgp", ".bgf"} <= set(MATCH_SUFFIXES)
    m = read_match(data)
    assert m.format == "xg" and len(m.games) == 1 and m.errors == []
    # named .dat: still read as XG (content), mixed with a text file in a folder
    (tmp_path / "a.dat").write_bytes(data)
    assert read_match(tmp_path / "a.dat").format == "xg"
    (tmp_path / "b.xg").write_bytes(data)
    (tmp_path / "c.mat").write_text(" 1 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n")
    got = {Path(x.source).name: x.format for x in read_matches([tmp_path])}
    assert got == {"b.xg": "xg", "c.mat": "mat"}


# ----------------------------------------------------------------------------- damage
def _err(data: bytes, name: str = "broken.xg") -> str:
    with pytest.raises(MatchFileError) as ei:
        parse_xg(data, name)
    msg = str(ei.value)
    assert "\n" not in msg and msg.startswith(name + ": ")
    return msg


def test_damaged_archives_one_line_errors():
    data = small_xg()
    head, members = xg_parts(data)
    start = len(head)
    bad = bytearray(data)
    bad[start + 100] ^= 0xFF
    assert "archive CRC mismatch" in _err(bytes(bad))
    assert "CRC mismatch" in _err(build_xg(head, members, crcs={"temp.xg": 12345}))
    assert "no RGMH magic" in _err(b"XXXX" + data[4:])
    assert "shorter than" in _err(data[:100])
    # index mismatch: the trailer claims more entries than the index holds
    t = bytearray(data)
    struct.pack_into("<i", t, len(t) - 32, 5)
    assert "index holds 1 entries, the trailer says 5" in _err(bytes(t))
    # a member that points past the data
    e = build_xg(head, {"temp.xg": members["temp.xg"]}, raw={"temp.xg": zlib.compress(members["temp.xg"])[:-30]})
    msg = _err(e)
    assert "cut short" in msg or "CRC" in msg
    assert "no temp.xg" in _err(build_xg(head, {"temp.xgi": b"x" * 10}))


def test_truncated_archive_keeps_games_before_the_damage():
    data = (XG_DIR / "test.xg").read_bytes()
    cut = data[: len(data) // 2]
    m = read_match(cut, name="half.xg")
    assert 1 <= len(m.games) < 7
    assert [g.errors for g in m.games] == [[]] * len(m.games)
    (fe,) = m.file_errors
    assert "truncated" in fe.message and str(fe).startswith("half.xg: ")
    full = read_match(data)
    assert m.games == full.games[: len(m.games)]
    with pytest.raises(MatchFileError, match="truncated"):
        read_match(cut, name="half.xg", strict=True)


def test_unknown_record_type_and_bad_records():
    head, members = xg_parts((XG_DIR / "test.xg").read_bytes())
    recs = bytearray(members["temp.xg"])
    # record 70 is inside game 2: the first game is kept
    recs[70 * REC + 8] = 9
    m = parse_xg(build_xg(head, {"temp.xg": bytes(recs)}), "t.xg")
    assert len(m.games) == 1
    (e,) = m.file_errors
    assert "record 70: unknown record type 9" in e.message and e.game == 2
    # dice out of range in a move record of game 1
    recs = bytearray(members["temp.xg"])
    k = next(i for i in range(1, 60) if recs[i * REC + 8] == 3)
    struct.pack_into("<i", recs, k * REC + 100, 9)
    m = parse_xg(build_xg(head, {"temp.xg": bytes(recs)}), "t.xg")
    assert m.games == () and "dice 9" in m.file_errors[0].message
    # a temp.xg that does not start with a match header
    with pytest.raises(MatchFileError, match="match header"):
        parse_xg(build_xg(head, {"temp.xg": bytes(recs[REC:])}), "t.xg")
    # a record count over the limit is cut there, and said so
    old = xgmod.MAX_RECORDS
    xgmod.MAX_RECORDS = 10
    try:
        m = parse_xg(build_xg(head, {"temp.xg": members["temp.xg"]}), "t.xg")
    finally:
        xgmod.MAX_RECORDS = old
    assert any("over the limit of 10" in e.message for e in m.file_errors)


def test_illegal_move_is_a_problem_with_game_and_move():
    head, members = xg_parts(small_xg())
    recs = bytearray(members["temp.xg"])
    k = [i for i in range(1, 60) if recs[i * REC + 8] == 3][4]  # the fifth move of game 1
    struct.pack_into("<8i", recs, k * REC + 68, 0, 23, -1, -1, -1, -1, -1, -1)  # 1/24: backwards
    m = read_match(build_xg(head, {"temp.xg": bytes(recs)}), name="ill.xg")
    (e,) = m.errors
    assert (e.game, e.move) == (1, 5) and str(e).startswith("ill.xg: game 1, move 5: ")


def test_decompression_bomb_refused_with_bounded_memory():
    head, members = xg_parts(small_xg())
    bomb = bytes(60 * 1024 * 1024)  # 60 MB of zeros: about 60 kB compressed, just over 1000x
    # honest index: the declared size is over 1000x the compressed size, refused before inflating
    tracemalloc.start()
    try:
        msg = _err(build_xg(head, {"temp.xg": members["temp.xg"], "temp.xgc": bomb}), "bomb.xg")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "decompression bomb" in msg and "temp.xgc" in msg and peak < 8 * 1024 * 1024
    # lying index (declares 1000 bytes): inflating stops at the bound, memory stays near it
    lying = build_xg(head, {"temp.xg": members["temp.xg"], "temp.xgc": bomb}, osizes={"temp.xgc": 1000})
    old = xgmod.MAX_MEMBER
    xgmod.MAX_MEMBER = 2 * 1024 * 1024
    tracemalloc.start()
    try:
        msg = _err(lying, "bomb.xg")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        xgmod.MAX_MEMBER = old
    assert "inflates past 2097152 bytes" in msg and peak < 12 * 1024 * 1024
    # without the patched bound, the 1000x ratio stops it before its 60 MB are out
    assert "decompression bomb" in _err(lying, "bomb.xg")
    # a truncated BGF-style gzip is no bomb, but the same bound applies to gzip (wbits=31)
    with pytest.raises(ValueError, match="decompression bomb"):
        xgmod.inflate_bounded(__import__("gzip").compress(bomb), "gz", wbits=31)


def test_xgp_position_file():
    """An .xgp: match header, one game header from an edited position, a cube and a move record."""
    head, members = xg_parts(small_xg())
    recs = members["temp.xg"]
    gh = bytearray(recs[REC:2 * REC])
    struct.pack_into("<26b", gh, 21, *([0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 1, 1]))
    body = recs[:REC] + bytes(gh) + recs[2 * REC:4 * REC]
    m = read_match(build_xg(head, {"temp.xg": body}), name="pos.xgp")
    assert m.tags.get("XG position") == "1" and len(m.games) == 1
    (g,) = m.games
    assert g.props.get("_setup") and [type(a) for a in g.actions] == [Roll]
    assert g.actions[0].status == "unchecked" and g.actions[0].analysis.candidates
    # the game header left blank (as XG writes for game 1), the position in the cube record
    gh = bytearray(recs[REC:2 * REC])
    cu = bytearray(recs[2 * REC:3 * REC])
    struct.pack_into("<26b", cu, 36, *([0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 1, 1]))
    body = recs[:REC] + bytes(gh) + bytes(cu) + recs[3 * REC:4 * REC]
    m = read_match(build_xg(head, {"temp.xg": body}), name="pos2.xgp")
    assert m.tags.get("XG position") == "1" and m.games[0].props.get("_setup") and m.errors == []


# ----------------------------------------------------------------------------- fuzz
_SMALL = small_xg()
_HEAD, _MEMBERS = xg_parts(_SMALL)


def _only_our_errors(data: bytes, name: str) -> None:
    try:
        m = read_match(data, name=name)
    except BgtoolsError as e:
        msg = str(e)
        assert name in msg and "\n" not in msg
        return
    for e in m.errors:
        assert name in str(e)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(_SMALL) - 1), st.integers(0, 255)), min_size=1, max_size=8))
def test_fuzz_mutated_file_bytes(muts):
    b = bytearray(_SMALL)
    for i, v in muts:
        b[i] = v
    _only_our_errors(bytes(b), "fuzz.xg")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, len(_SMALL)))
def test_fuzz_truncation(n):
    _only_our_errors(_SMALL[:n], "cut.xg")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(_MEMBERS["temp.xg"]) - 1), st.integers(0, 255)), min_size=1, max_size=12))
def test_fuzz_mutated_records_with_good_crcs(muts):
    recs = bytearray(_MEMBERS["temp.xg"])
    for i, v in muts:
        recs[i] = v
    _only_our_errors(build_xg(_HEAD, {"temp.xg": bytes(recs)}), "rec.xg")


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 60), st.integers(0, 3))
def test_fuzz_wrong_crcs(delta, which):
    data = bytearray(_SMALL)
    pos = [len(data) - 36, len(data) - 36 - 10, len(_HEAD) + 5, len(_HEAD) + 50][which]
    data[pos] = (data[pos] + delta) % 256
    with pytest.raises(BgtoolsError) as ei:
        read_match(bytes(data), name="crc.xg", strict=True)
    assert "crc.xg" in str(ei.value)


def test_first_game_helper_is_a_valid_file():
    recs = _MEMBERS["temp.xg"]
    assert first_game_records(recs) == recs and len(recs) % REC == 0


# ----------------------------------------------------------------------------- gnubg
GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")

_SCRIPT = textwrap.dedent("""
    import gnubg, json
    out = []
    gnubg.command('import mat "%s"')
    m = gnubg.match()
    for g in m['games']:
        out.append([[a.get('action'), a.get('player'), list(a.get('dice', ())), a.get('board')]
                    for a in g['game']] + [[g['info'].get('winner'), g['info'].get('points-won')]])
    json.dump(out, open(%r, 'w'))
""")


@pytest.mark.gnubg
@pytest.mark.skipif(GNUBG is None, reason="gnubg is not installed")
@pytest.mark.parametrize("name", ["test.xg", "charlot1-charlot2_7p_2025-11-08-2305.xg"])
def test_convert_to_mat_then_gnubg_rebuilds_the_same_games(name, tmp_path, matches):
    m = matches[name]
    mine, twin = tmp_path / "x.mat", TWINS[name][0]
    write_mat(m, mine)
    got = {}
    for label, path in (("mine", mine), ("twin", twin)):
        res = tmp_path / f"{label}.json"
        script = tmp_path / f"{label}.py"
        script.write_text(_SCRIPT % (str(path), str(res)))
        subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], check=True, capture_output=True, timeout=300,
                       env=dict(os.environ, HOME=str(tmp_path)))
        got[label] = json.loads(res.read_text())
    assert len(got["mine"]) == len(m.games)
    assert got["mine"] == got["twin"]
    moves = sum(1 for g in got["mine"] for a in g[:-1] if a[0] == "move")  # dances included
    assert moves == sum(1 for g in m.games for a in g.actions if isinstance(a, Roll) and a.status != "rolled")


# ----------------------------------------------------------------------------- export, SGF, annotate
def test_export_columns_carry_the_file_analysis(matches):
    import bgtools

    m = matches["test.xg"]
    df = bgtools.to_dataframe([m])
    acts = [a for g in m.games for a in g.actions]
    assert len(df) == len(acts)
    rolls = df[df.action == "roll"]
    want = [a.analysis.error for a in acts if isinstance(a, Roll)]
    got = [None if v is pd.NA or v != v else float(v) for v in rolls.file_equity_loss]
    assert got == [None if w is None else pytest.approx(w) for w in want]
    assert rolls.file_luck.notna().sum() > 300 and set(rolls.file_eval_level.dropna()) <= {"XG Roller++", "4-ply"}
    dbl = df[df.action == "double"]
    assert len(dbl) == 7 and dbl.file_equity_loss.notna().all() and dbl.file_luck.isna().all()
    assert df[df.action == "win"].file_equity_loss.isna().all()
    # a text format has no file analysis: the columns are there, empty
    txt = bgtools.to_dataframe([read_match(TWINS["test.xg"][0])])
    assert txt.file_equity_loss.isna().all() and txt.file_eval_level.isna().all()


def test_sgf_writer_carries_the_file_analysis(matches):
    m = matches["test.xg"]
    back = read_match(format_sgf(m))
    assert back.games == m.games
    n = back.games[0].notes[3]  # the 11 of game 1 that cost 0.056 (doubtful)
    assert n["A"][0] == "1" and len(n["A"]) == 11 and n["LU"] == ["-0.03454"] and "DO" in n
    assert "play error 0.0561" in n["C"][0] and "XG Roller++" in n["C"][0]
    dbl = [(gi, k) for gi, g in enumerate(m.games) for k, a in enumerate(g.actions) if isinstance(a, Double)]
    gi, k = dbl[-1]
    assert "no double" in back.games[gi].notes[k]["C"][0]


def test_annotate_puts_the_file_figures_beside_ours(tmp_path):
    from bgtools.analysis.annotate import AnnotateTask, annotate_file, output_paths
    from bgtools.analysis.records import AnalysisSettings

    path = tmp_path / "small.xg"
    path.write_bytes(small_xg())
    outs = output_paths(str(path), str(tmp_path), ["json"])
    res = annotate_file(AnnotateTask(str(path), outs, AnalysisSettings(ply=0), False, True, True))
    assert not res.problems, res.problems
    doc = json.loads(Path(outs["json"]).read_text())
    fc = doc["analysis"]["file_comparison"]
    lines = [json.loads(x) for x in res.lines]
    with_file = [x for x in lines if "file" in x]
    checker = [x for x in with_file if x["kind"] == "checker"]
    assert fc["source"] == "xg" and fc["checker"]["compared"] == len(checker) > 20
    assert fc["checker"]["same_class"] == sum(x["file"]["our_class"] == x["file"]["file_class"] for x in checker)
    for x in with_file:
        assert x["file"]["our_class"] == x["error_class"] and x["file"]["our_loss"] == pytest.approx(x["equity_loss"])
    assert 0 <= fc["all"]["rate"] <= 1 and fc["all"]["compared"] == len(with_file)
    m = read_match(path)
    rolls = [a for a in m.games[0].actions if isinstance(a, Roll)]
    assert sum(1 for a in rolls if a.analysis.error is not None) >= fc["checker"]["compared"]


@pytest.mark.gnubg
@pytest.mark.skipif(GNUBG is None, reason="gnubg is not installed")
def test_gnubg_shows_the_file_analysis_of_the_sgf(tmp_path, matches):
    m = matches["test.xg"]
    sgf = tmp_path / "a.sgf"
    sgf.write_text(format_sgf(m))
    script = tmp_path / "s.py"
    res = tmp_path / "out.json"
    script.write_text(textwrap.dedent(f"""
        import gnubg, json
        gnubg.command('load match "{sgf}"')
        g = gnubg.match()['games'][0]['game']
        out = []
        for a in g[:6]:
            an = a.get('analysis') or {{}}
            out.append([a.get('comment'), [round(x['score'], 5) for x in an.get('moves', ())]])
        json.dump(out, open({str(res)!r}, 'w'))
    """))
    subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], check=True, capture_output=True, timeout=300,
                   env=dict(os.environ, HOME=str(tmp_path)))
    got = json.loads(res.read_text())
    a = m.games[0].actions[3]
    comment, scores = got[3]
    assert "play error 0.0561" in comment
    assert scores == pytest.approx([c.equity for c in a.analysis.candidates], abs=2e-5)


def test_annotate_prints_how_our_classes_agree_with_the_files(tmp_path, monkeypatch):
    """`bgtools annotate X.xg` as a user runs it: the summary names the file's analysis."""
    from typer.testing import CliRunner

    from bgtools.cli.app import app

    monkeypatch.setenv("BGTOOLS_CACHE_DIR", str(tmp_path))
    xg = sorted((Path(__file__).parent / "data" / "matches" / "realmatches" / "xg-kevung-gbf").glob("charlot*.xg"))[0]
    r = CliRunner().invoke(app, ["annotate", str(xg), "--ply", "0", "--out-dir", str(tmp_path), "-f", "json"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / (xg.name[:-3] + ".analysis.json")).exists()  # the .xg suffix is stripped
    r = CliRunner().invoke(app, ["annotate", str(xg), "--ply", "0"])
    assert "checker decisions vs eXtreme Gammon:" in r.stdout and "same class" in r.stdout


def test_many_member_bomb_inflates_only_the_members_read():
    """Issue 38 item 6: many extra members, each under the per-member and ratio limits, with
    honest sizes and CRCs (the real file: 62 of 255 MiB, 15.8 GiB in all).  Only temp.xg and
    temp.xgc are inflated, so memory stays that of the game records whatever the others hold."""
    head, members = xg_parts(small_xg())
    extra = bytes(range(256)) * 4096  # 1 MiB, about 250x compressible: under both limits
    comp = zlib.compress(extra)
    assert len(extra) < xgmod.MAX_MEMBER and len(extra) < len(comp) * xgmod.MAX_RATIO
    many = {"temp.xg": members["temp.xg"]} | {f"temp.xgr{k}": extra for k in range(60)}
    data = build_xg(head, many, raw={f"temp.xgr{k}": comp for k in range(60)})
    assert len(data) < 1_000_000  # 60 MiB once inflated
    tracemalloc.start()
    try:
        m = parse_xg(data, "many.xg")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(m.games) == 1 and not m.file_errors
    assert peak < 4 * 1024 * 1024  # inflating every member held 60 MiB
    assert set(xgmod.read_archive(data).members) == {"temp.xg"}
    # a member the reader needs twice (the second would replace the first): refused
    twice = build_xg(head, {"temp.xg": members["temp.xg"], "temp.xgc": b"{\\rtf1 a}\r\n"})
    t = bytearray(twice)
    index_end = len(t) - 36
    regsize = struct.unpack_from("<i", t, index_end + 12)[0]
    index = bytearray(zlib.decompress(bytes(t[index_end - regsize:index_end])))
    index[532:532 + 8] = bytes([7]) + b"temp.xg"  # the second entry renamed temp.xg
    assert "appears twice" in _err(_with_index(twice, bytes(index)), "twice.xg")


def _with_index(data: bytes, index: bytes) -> bytes:
    """``data`` (an XG file) with its archive index replaced (compressed again, CRC and trailer mended)."""
    end = len(data) - 36
    _crc, count, ver, regsize, arcsize, creg = struct.unpack_from("<Iiiiii", data, end)
    body = data[end - regsize - arcsize:end - regsize]
    cindex = zlib.compress(index)
    trailer = struct.pack("<Iiiiii", zlib.crc32(body + cindex), count, ver, len(cindex), arcsize, 1)
    return data[:end - regsize] + cindex + trailer + data[end + 24:]


def test_total_inflated_size_is_bounded(monkeypatch):
    """The members read are bounded together too (MAX_TOTAL), declared or actual: a clear
    one-line error naming the file, before inflating past the bound."""
    head, members = xg_parts(small_xg())
    comments = b"{\\rtf1 " + " ".join(map(str, range(40_000))).encode() + b"}\r\n"
    data = build_xg(head, {"temp.xg": members["temp.xg"], "temp.xgc": comments})
    assert len(parse_xg(data, "ok.xg").games) == 1
    monkeypatch.setattr(xgmod, "MAX_TOTAL", len(members["temp.xg"]) + 100_000)
    msg = _err(data, "total.xg")
    assert msg.startswith("total.xg: ") and "in all" in msg and "decompression bomb" in msg
    # a lying index (temp.xgc declares 10 bytes): inflating stops at what is left of the bound
    lying = build_xg(head, {"temp.xg": members["temp.xg"], "temp.xgc": comments}, osizes={"temp.xgc": 10})
    msg = _err(lying, "lying.xg")
    assert "temp.xgc" in msg and "decompression bomb" in msg


def test_gzipped_match_text_is_inflated_within_the_bounds(tmp_path, monkeypatch):
    """A .mat.gz / .sgf.gz is inflated with the same bounds (it was inflated whole, unbounded);
    a gzip file of several members still reads."""
    import gzip

    text = (DATA / "kevung-gbf" / "test.mat").read_bytes()
    (tmp_path / "two.mat.gz").write_bytes(gzip.compress(text[:1000]) + gzip.compress(text[1000:]))
    assert read_match(tmp_path / "two.mat.gz").games == read_match(DATA / "kevung-gbf" / "test.mat").games
    (tmp_path / "bomb.mat.gz").write_bytes(gzip.compress(text + b"\n" * (40 * 1024 * 1024), 1))
    monkeypatch.setattr(xgmod, "MAX_MEMBER", 8 * 1024 * 1024)  # 256 MiB in use: a test that stays small
    tracemalloc.start()
    try:
        with pytest.raises(MatchFileError) as ei:
            read_match(tmp_path / "bomb.mat.gz")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    msg = str(ei.value)
    assert msg.startswith(str(tmp_path / "bomb.mat.gz") + ": ") and "decompression bomb" in msg
    assert peak < 24 * 1024 * 1024
