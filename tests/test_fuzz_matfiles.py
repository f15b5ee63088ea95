"""Fuzzing: mutated real match files raise nothing but bgtools' documented MatchFileError."""

from __future__ import annotations

import gzip
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgtools.formats import read_match

from bgtools.model import MatchFileError
from bgtools.formats.matchjson import format_json
from bgtools.formats.matfile import format_mat
from bgtools.formats.sgf import format_sgf

DATA = Path(__file__).parent / "data" / "matches"
pytestmark = __import__("pytest").mark.filterwarnings("ignore::bgtools.model.replay.MatchWarning")  # XG "???" rolls
SEEDS = [
    (DATA / "selfplay/011.mat").read_bytes(),
    (DATA / "realmatches/bgchallenge/bg176365983_1648962042.txt").read_bytes(),
    (DATA / "realmatches/kevung-gbf/test.mat").read_bytes()[:4000],
    (DATA / "realmatches/halheinrich-bgmatchformat/cube_take.mat").read_bytes(),
    gzip.decompress((DATA / "realmatches/gnu-gibbon/7point.sgf.gz").read_bytes())[:3000],
    (DATA / "selfplay/oldmoves/017.oldmoves").read_bytes(),
]


@st.composite
def mutated(draw):
    data = draw(st.sampled_from(SEEDS))
    lines = data.split(b"\n")
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "cut", "bytes", "encoding", "edit"]))
        n = len(lines)
        i, j = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        if op == "delete" and n > 1:
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "cut":
            lines = lines[: i + 1]
            lines[-1] = lines[-1][: draw(st.integers(0, max(0, len(lines[-1]))))]
        elif op == "bytes":
            blob = draw(st.binary(min_size=1, max_size=8))
            k = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:k] + blob + lines[i][k:]
        elif op == "encoding":
            text = b"\n".join(lines).decode("utf-8", "replace")
            enc = draw(st.sampled_from(["latin-1", "utf-16", "cp1252"]))
            lines = text.encode(enc, "replace").split(b"\n")
        elif op == "edit":
            k = draw(st.integers(0, len(lines[i])))
            ch = draw(st.sampled_from([b"9", b"0", b"/", b"*", b":", b")", b" ", b"?", b"Doubles => 64 "]))
            lines[i] = lines[i][:k] + ch + lines[i][k + 1:]
    return b"\n".join(lines)


@settings(max_examples=int(__import__("os").environ.get("FUZZ_EXAMPLES", "80")), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_files_raise_only_documented_errors(data):
    try:
        m = read_match(data)
    except MatchFileError as e:
        assert str(e)
        return
    for e in m.errors:
        assert e.message and e.line >= 0
    # whatever was read can be written in every format and read back
    for text, fmt in ((format_mat(m), "mat"), (format_sgf(m), "sgf"), (format_json(m), "json")):
        try:
            read_match(text, format=fmt)
        except MatchFileError:
            pass


@settings(max_examples=int(__import__("os").environ.get("FUZZ_EXAMPLES", "80")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(mutated())
def test_mutated_files_replay_the_same_with_and_without_the_compiled_kernel(monkeypatch, data):
    import warnings

    from bgtools.formats.read import PARSERS, decode_bytes, detect_format
    from bgtools.model.replay import _Replayer, finish_match

    text = decode_bytes(data)
    try:
        m = PARSERS[detect_format(text)](text, "fuzz")
    except MatchFileError:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fast = finish_match(m)
        with monkeypatch.context() as mp:
            mp.setattr(_Replayer, "_fast", lambda self, idx, a, pos: None)
            mp.setattr(_Replayer, "_plays", lambda self, idx: 0)  # (the kernel's run of plays too)
            slow = finish_match(m)
    assert fast == slow
    for gf, gs in zip(fast.games, slow.games):
        assert gf.result == gs.result
        assert [str(e) for e in gf.errors] == [str(e) for e in gs.errors]
