"""The shortcuts taken for reading speed (issue 16) give what the plain ways give.

* the grammar's coarse terminals (lines of plays as one token, a cube or result cell
  as one token, blank lines folded into the newline) parse to the same lines as the same
  grammar without them, on every sample file and on lines cut short;
* the replay kernel picks among plays that differ only in hits by the written stars as
  :func:`bgtools.core.moveparse.parse_play` does, without leaving the roll to Python;
* rolls are packed for the kernel the same way whatever the order they come in.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from bgtools.core.moveparse import AmbiguousMoveError, IllegalMoveError, parse_play
from bgtools.core.position import Position
from bgtools.formats.matfile import mat_lines, parse_mat
from bgtools.formats.matgrammar import build_parser, grammar_text, parse_lines
from bgtools.formats.read import decode_bytes
from bgtools.model.game import Game, Roll
from bgtools.model.match import Match
from bgtools.model.replay import _Replayer, finish_match
from bgtools.model.replay_kernel import PATHS, PYTHON, STEPS, pack_rolls

DATA = Path(__file__).parent / "data" / "matches"
MAT_FILES = sorted(p for p in DATA.rglob("*") if p.suffix in (".mat", ".txt"))


def _fine_grammar() -> str:
    """mat.lark without its coarse terminals: plays, cube and result cells token by token."""
    g = grammar_text()
    for coarse in ("    | file MOVE_ROWS", "    | file GAME_HEAD", "    | file TAGS", "DOUBLE_CELL | ", "BEAVER_CELL | ",
                   "WIN_CELL | ", "LOSS_CELL | "):
        assert coarse in g, coarse
        lines = g.split("\n")
        g = "\n".join(ln for ln in lines if not ln.startswith(coarse)) if coarse.startswith("    |") \
            else g.replace(coarse, "")
    one = "_NL: /\\n[ \\t]*/"
    assert "_NL: /(?:\\n[ \\t]*)+/" in g
    return g.replace("_NL: /(?:\\n[ \\t]*)+/", one)


@pytest.fixture(scope="module")
def fine():
    return build_parser(_fine_grammar(), cache=False)


def test_the_fine_grammar_is_really_finer(fine):
    text = ("  1) 31: 8/5 6/5                    64: 24/18 13/9\n\n\n  2)  Doubles => 2\n"
            "  3) 64: Cannot Move     31: 8/5 6/5\n")
    tokens = [t.type for t in build_parser(lexer="basic").lex(text)]
    fine_tokens = [t.type for t in build_parser(_fine_grammar(), lexer="basic", cache=False).lex(text)]
    assert tokens == ["MOVE_ROWS"]  # cube cells are read inside it too
    assert fine_tokens == ["MOVENO", "PLAY", "PLAY", "_NL", "_NL", "_NL", "MOVENO", "DOUBLES", "ARROW", "INT", "_NL",
                           "MOVENO", "PLAY", "CANNOT", "PLAY", "_NL"]


def test_coarse_terminals_parse_every_sample_file_the_same(fine):
    assert len(MAT_FILES) > 50
    rows = 0
    for p in MAT_FILES:
        lines = mat_lines(decode_bytes(p.read_bytes()))
        got = parse_lines(lines)
        assert got == parse_lines(lines, fine), p.name
        rows += sum(1 for x in got if x[0] == "move_line")
    assert rows > 5000


@pytest.mark.parametrize("line", [
    "  3) 42: 8/4 6/4     Doubles =>",  # cut short: the error is where it stops, as token by token
    "  3) 42: 8/4 6/4     Doubles => 2  Takes",
    "  3)  Doubles => 4                 Beavers => 8",
    "  3) 42: 8/4 6/4     Raccoons=>16",
    "      Wins 2 points and the match",
    "                                  Wins1 point",
    "      Loses 3 points",
    "  3) 31: 8/5 6/5 bogus",
    "  3) 31: 8/5 6/5        64: 24/18 13/9 and more",
    "  3)                             53: 8/3 6/3",
    "  3) 64: 24/18 13/9",
    "  3) 11: Illegal play (0;0;0;0;0;A;B;0;0;0;1;0;0;) 11:",
    "  3) 31: 8/5 6/5   11: Illegal play (0;) 11: 6/5",
    "  3) 21: ???            64: Cannot Move",
    "  3) 64: Cannot Move     31: 8/5 6/5",
    "  3) 31: 8/5 6/5         64: can't   move",
    "  3) 64: 8/5 Cannot Move",
    "  3)                     64: Cannot Move",
    " Game 12",
    " Game x",
])
def test_coarse_terminals_parse_odd_lines_the_same(fine, line):
    lines = [" 7 point match", "", " Game 1", " A : 0      B : 0", "", line, "", "", "  9) 31: 8/5 6/5"]
    got = parse_lines(lines)
    assert got == parse_lines(lines, fine)
    assert got[-1][1] == 9  # blank lines folded into one newline keep the line numbers


def _match(position: Position, dice, text) -> Match:
    """A one-roll game played from ``position`` (a game set up by a preceding board edit)."""
    from bgtools.model.game import SetBoard

    edit = SetBoard(0, (position.on_roll, position.opponent))
    return Match(("A", "B"), 0, (Game(1, (0, 0), (edit, Roll(0, dice, None, "play", text))),))


# the mover (own numbering) has a checker on 8; blots of the opponent's on the mover's 6 and 5:
# 8/3 with 32 goes through 6 or 5, hitting there either way
_ME = [0] * 25
_ME[7], _ME[12], _ME[23] = 1, 8, 6
_OPP = [0] * 25
_OPP[24 - 6], _OPP[24 - 5], _OPP[12] = 1, 1, 13
TWO_WAYS = Position(tuple(_OPP), tuple(_ME))


@pytest.mark.parametrize("text", ["8/6*/3", "8/5*/3", "8/6* 6/3", "8/5* 5/3", "8/3", "8/6*/5*/3"])
def test_the_kernel_picks_by_the_written_hits_as_parse_play_does(monkeypatch, text):
    m = _match(TWO_WAYS, (3, 2), text)
    try:
        want = parse_play(TWO_WAYS, (3, 2), text)
    except (IllegalMoveError, AmbiguousMoveError):
        want = None
    calls = []
    settle = _Replayer._settle
    monkeypatch.setattr(_Replayer, "_settle", lambda self, a, pos: calls.append(a) or settle(self, a, pos))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fast = finish_match(m)
        monkeypatch.setattr(_Replayer, "_fast", lambda self, idx, a, pos: None)
        monkeypatch.setattr(_Replayer, "_plays", lambda self, idx: 0)  # (the kernel's run of plays too)
        slow = finish_match(m)
    assert fast == slow and [str(e) for e in fast.errors] == [str(e) for e in slow.errors]
    roll = fast.games[0].actions[1]
    if want is None:
        assert roll.status == "illegal" and fast.errors
    else:
        assert roll.steps == want.steps and not fast.errors
        assert len(calls) == 1  # the slow replay's only: the kernel settled it alone


def test_rolls_are_packed_per_text_and_in_any_order():
    rolls = [Roll(0, (3, 1), None, "play", "8/5 6/5"), Roll(1, (1, 3), None, "play", "24/23* 24/21"),
             Roll(0, (6, 6), ((24, 18), (24, 18), (13, 7), (13, 7)), "play"), Roll(1, (2, 1), None, "play", "x/y")]
    meta, paths = pack_rolls(rolls)
    assert meta.shape == (4, 7) and paths.shape == (4, 8, 3)
    assert meta[:, :5].tolist() == [[0, 3, 1, PATHS, 2], [1, 3, 1, PATHS, 2], [0, 6, 6, STEPS, 4], [1, 2, 1, PYTHON, 0]]
    assert paths[0, :2].tolist() == [[8, 5, 1], [6, 5, 1]] and not paths[0, 2:].any()
    assert (meta[1, 5], meta[1, 6]) == (1 << 23, (1 << 23) | (1 << 21))  # starred, landings
    back_meta, back_paths = pack_rolls(rolls[::-1])
    assert back_meta.tolist() == meta.tolist()[::-1] and back_paths.tolist() == paths.tolist()[::-1]
    assert paths.flags.writeable


def test_a_mat_file_read_with_and_without_the_kernel_is_the_same():
    p = next(q for q in MAT_FILES if "selfplay" in str(q))
    m = parse_mat(decode_bytes(p.read_bytes()), str(p))
    fast = finish_match(m)
    r = _Replayer(m, m.games[0])
    r._fast = lambda idx, a, pos: None  # type: ignore[method-assign]
    acts, result, errors, _ = r.run()
    assert acts == fast.games[0].actions and result == fast.games[0].result
