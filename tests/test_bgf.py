"""BGBlitz .bgf: the real files against SOURCES.md, the Smile decoder, the analysis they carry,
damaged files (one-line errors, bounded memory) and fuzzing."""

from __future__ import annotations

import gzip
import json
import math
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from binfiles import BGF_DIR, bgf_parts, build_bgf, smile_dumps
from bgtools.base.errors import BgtoolsError
from bgtools.formats import read_match
from bgtools.formats import smile
from bgtools.formats.bgf import is_bgf, load_bgf_tree, parse_bgf
from bgtools.formats.read import detect_binary
from bgtools.model import MatchFileError
from bgtools.model.game import Double, Drop, Roll, Take

#: SOURCES.md (gammonview's gvformat): players (sorted), length (0 = money), games, plies
SOURCES = {
    "3WNK_g1Z-PLsh_HyvQ5j4a.bgf": (["Iris09", "Jade1"], 7, 7, 272),
    "5nqfGw9bWG3deTaU.bgf": (["Marion_Castlebury", "Rowan_Pryce"], 7, 6, 247),
    "B4_SrGcsKAQmoTyHlgJCbM.bgf": (["Bluepoint02", "Fox"], 0, 3, 64),
    "C07OQCKyw4Pe-CnjFiAMYO.bgf": (["Bluepoint02", "Fox"], 0, 7, 289),
    "MYdvw1qGuyaRUH__.bgf": (["Jade1", "Kestrelcove1"], 5, 3, 132),
    "Sz-2PgKnvb6aFls69-qFXg.bgf": (["Fox", "Lanternwood_123"], 0, 6, 244),
    "UL-CV6F9jMM-E1Pu.bgf": (["Dunes_04", "Jade1"], 5, 5, 206),
    "XCu3RJ0UvDg_Tldl.bgf": (["Emberoak05", "Jade1"], 5, 2, 112),
    "baR-U643iUDpvzTC.bgf": (["Amberdice01", "Jade1"], 5, 3, 99),
    "eXBNG5wZHS5Alu3P.bgf": (["Emberoak05", "Jade1"], 5, 3, 209),
    "uwvEbd63UvdX7SDin5o_Iw.bgf": (["Fox", "Harbor8"], 0, 9, 227),
}
#: 5nqf...: game 1, move 18 is written 14/10 13/12 with a 13 (its candidates are 13 plays)
ILLEGAL = {"5nqfGw9bWG3deTaU.bgf": (1, 18)}
#: money sessions stopped in the middle of a game (wonPoints 0): the game is left open
OPEN = {"B4_SrGcsKAQmoTyHlgJCbM.bgf": 3, "Sz-2PgKnvb6aFls69-qFXg.bgf": 6}


def _plies(tree) -> int:
    """Entries that are plays, dances, cube actions or the end of a game (not the 7/9 markers)."""
    return sum(1 for g in tree["games"] for e in g["moves"] if not (e["green"] == 7 and e["red"] == 9))


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_real_files_match_sources(name):
    players, length, games, plies = SOURCES[name]
    data = (BGF_DIR / name).read_bytes()
    assert is_bgf(data) and detect_binary(data) == "bgf"
    tree = load_bgf_tree(data)
    assert _plies(tree) == plies
    m = read_match(BGF_DIR / name)
    assert m.format == "bgf" and sorted(m.players) == players and m.length == length
    assert len(m.games) == games
    entries = Counter()
    for g in tree["games"]:
        for e in g["moves"]:
            entries["roll" if e["green"] != 7 or e["red"] == 5 else {1: "double", 2: "take", 3: "drop", 4: "end",
                                                                       9: "mark"}[e["red"]]] += 1
    acts = Counter(type(a).__name__ for g in m.games for a in g.actions)
    assert (acts["Roll"], acts["Double"], acts["Take"], acts["Drop"]) == (
        entries["roll"], entries["double"], entries["take"], entries["drop"])
    assert acts["Win"] == entries["end"] - (1 if name in OPEN else 0)
    # the scores of each game follow from the one before; the final score is the file's
    for g, nxt in zip(m.games, m.games[1:]):
        assert g.final_score == nxt.score
    if length:
        assert tuple(min(x, length) for x in m.final_score) == (tree["finalGreen"], tree["finalRed"])
    if name in ILLEGAL:
        (e,) = m.errors
        assert (e.game, e.move) == ILLEGAL[name] and str(e).startswith(str(BGF_DIR / name))
    else:
        assert m.errors == []
    if name in OPEN:
        assert m.games[OPEN[name] - 1].result is None


def test_analysis_carried():
    m = read_match(BGF_DIR / "XCu3RJ0UvDg_Tldl.bgf")
    first = m.games[0].actions[0]
    an = first.analysis
    assert isinstance(first, Roll) and an.source == "bgblitz" and an.level == "3-ply"
    assert an.played == 0 and len(an.candidates) == 8 and an.error == 0.0
    assert an.luck == pytest.approx(0.00059859)
    assert an.candidates[0].equity == pytest.approx(0.00213701)
    assert an.candidates[0].probs[0] == pytest.approx(0.49891954)
    rolls = [a for g in m.games for a in g.actions if isinstance(a, Roll) and a.analysis.error is not None]
    # the file's per-player checker error totals are the sum of the per-play errors
    tree = load_bgf_tree((BGF_DIR / "XCu3RJ0UvDg_Tldl.bgf").read_bytes())
    for side, key in ((0, "prGreen"), (1, "prRed")):
        total = sum(a.analysis.error for a in rolls if a.player == side)
        assert total == pytest.approx(-float(tree[key]["checkerError"]), abs=1e-5)
    cube = [a for g in m.games for a in g.actions if isinstance(a, (Double, Take, Drop))]
    assert cube and all(a.analysis is not None and a.analysis.no_double is not None for a in cube)
    # ... and so are the cube error totals (not doubling on a roll, doubling, taking or passing)
    for side, key in ((0, "prGreen"), (1, "prRed")):
        total = sum((a.analysis.cube_error or 0) + (a.analysis.take_error or 0)
                    for g in m.games for a in g.actions if getattr(a, "analysis", None) and a.player == side)
        assert total == pytest.approx(-float(tree[key]["cubeError"]), abs=1e-5)
    assert -float(tree["prGreen"]["cubeError"]) > 0.3


# ----------------------------------------------------------------------------- Smile
def test_smile_tokens():
    doc = {"a": 1, "neg": -7, "big": 123456789, "huge": -(2 ** 40), "f": 0.25, "t": True, "n": None,
           "s": "", "tiny": "x", "long": "y" * 80, "uni": "Kévin", "list": [1, [2, {"z": False}]],
           "wide": "é" * 40}
    assert smile.loads(smile_dumps(doc)) == doc
    # shared names and values: back references to names/strings seen before
    data = (b":)\n\x03\xf8" + b"\xfa\x80a\x40x\xfb" + b"\xfa\x40\x01\xfb" + b"\xf9")
    assert smile.loads(data) == [{"a": "x"}, {"a": "x"}]
    assert smile.loads(b":)\n\x00\x28" + bytes([0x04, 0x00, 0x00, 0x00, 0x00])) == 2.0
    for bad, what in [(b"xx", "header"), (b":)\n\x00\xfa\x80a", "end of data"),
                      (b":)\n\x00\x2c", "reserved token"), (b":)\n\x00\xfa\x40\xc2\xfb", "undefined shared name"),
                      (b":)\n\x00" + b"\xf8" * 300, "nesting too deep"), (b":)\n\x00\xc2\xc2", "trailing")]:
        with pytest.raises(smile.SmileError, match=what):
            smile.loads(bad)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2 ** 62), 2 ** 62) | st.text(max_size=90)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda kids: st.lists(kids, max_size=5) | st.dictionaries(st.text(max_size=70), kids, max_size=5),
    max_leaves=25)


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_smile_roundtrip(v):
    got = smile.loads(smile_dumps(v))
    assert json.dumps(got, sort_keys=True) == json.dumps(v, sort_keys=True) or (
        isinstance(v, float) and math.isclose(got, v))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200), st.integers(0, 3))
def test_smile_fuzz_only_smile_errors(body, flags):
    try:
        smile.loads(b":)\n" + bytes([flags]) + body)
    except smile.SmileError as e:
        assert "Smile: " in str(e) and "byte" in str(e)


# ----------------------------------------------------------------------------- damage
SMALL = (BGF_DIR / "XCu3RJ0UvDg_Tldl.bgf").read_bytes()
HEADER, BODY = bgf_parts(SMALL)


def _err(data: bytes, name="broken.bgf") -> str:
    with pytest.raises(MatchFileError) as ei:
        parse_bgf(data, name)
    msg = str(ei.value)
    assert msg.startswith(name + ": ") and "\n" not in msg
    return msg


def test_damaged_files_one_line_errors():
    assert "cut short" in _err(SMALL[: len(SMALL) // 2])
    assert "not a JSON header" in _err(b"{nope\n" + SMALL[len(HEADER):])
    assert "not a BGBlitz header" in _err(b'{"format":"XYZ"}\n' + SMALL[len(HEADER):])
    assert "no line break" in _err(b'{"format":"BGF"}')
    assert "Smile" in _err(build_bgf(HEADER, BODY[:5000]))
    assert "corrupt compressed data" in _err(HEADER + b"\x1f\x8b" + b"\x00" * 50)
    assert "no list of games" in _err(build_bgf(HEADER, smile_dumps({"games": 3})))
    bomb = build_bgf(HEADER, bytes(50 * 1024 * 1024))
    assert "decompression bomb" in _err(bomb)
    # a bad entry: the games before it kept, the problem named with its game
    tree = load_bgf_tree(SMALL)
    tree["games"][1]["moves"][3]["green"] = 12
    m = parse_bgf(build_bgf(HEADER, smile_dumps(tree)), "e.bgf")
    assert len(m.games) == 2 and m.games[0] == parse_bgf(SMALL).games[0]
    (e,) = m.file_errors
    assert e.game == 2 and "dice 12" in e.message and str(e).startswith("e.bgf: game 2")
    with pytest.raises(MatchFileError):
        parse_bgf(build_bgf(HEADER, smile_dumps(tree)), "e.bgf", strict=True)


def test_plain_json_body():
    tree = load_bgf_tree(SMALL)
    data = b'{"format":"BGF","version":"1.0","compress":false,"useSmile":false}\n' + json.dumps(tree).encode()
    m = read_match(data)
    assert m.format == "bgf" and m.games == read_match(SMALL).games


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(BODY) - 1), st.integers(0, 255)), min_size=1, max_size=10))
def test_fuzz_mutated_body(muts):
    b = bytearray(BODY)
    for i, v in muts:
        b[i] = v
    try:
        m = read_match(build_bgf(HEADER, bytes(b)), name="fz.bgf")
    except BgtoolsError as e:
        assert "fz.bgf" in str(e) and "\n" not in str(e)
        return
    assert all("fz.bgf" in str(e) for e in m.errors)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, len(SMALL)))
def test_fuzz_truncation(n):
    try:
        read_match(SMALL[:n], name="cut.bgf")
    except BgtoolsError as e:
        assert "cut.bgf" in str(e) or n < len(HEADER)


def test_smile_decoder_agrees_with_gammonview():
    """Optional oracle (pip gammonview, MIT; skipped without it): its own Smile decoder gives the
    same tree for every real file."""
    gv = pytest.importorskip("gvformat.bgf")
    for name in sorted(SOURCES):
        _, body = bgf_parts((BGF_DIR / name).read_bytes())
        assert smile.loads(body) == gv.decode_smile(body), name


def test_file_is_not_gnubg_bgf_text(tmp_path):
    # gnubg's own .bgf is BGRoom text: not taken for BGBlitz
    p = tmp_path / "room.bgf"
    p.write_text("; BGRoom\n")
    assert detect_binary(p.read_bytes(), str(p)) is None
    assert gzip.decompress(SMALL[len(HEADER):])[:3] == b":)\n"
    with pytest.raises(MatchFileError):
        read_match(p)  # read as .mat text, which it is not
