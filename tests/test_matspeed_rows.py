"""The coarse tokens of mat.lark (issue 16's reading speed) read exactly as the lines token by token.

MOVE_ROWS now takes move lines with cube and result cells, "Cannot Move" and "???" in them
and the result line after them; GAME_HEAD a game line with its score line; TAGS a run of
header tags.  The reader splits those tokens in code (at the rolls) and has Lark parse what
else a cell holds.  Every case is compared with the same grammar without the coarse
tokens (each line token by token), with both Lark lexers, on hand-made lines, on random
lines made of the cells the grammar knows (hypothesis), and on every sample file.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgtools.formats.matfile import mat_lines
from bgtools.formats.matgrammar import LEXERS, build_parser, grammar_text, parse_lines
from bgtools.formats.read import decode_bytes

DATA = Path(__file__).parent / "data" / "matches"
MAT_FILES = sorted(p for p in DATA.rglob("*") if p.suffix in (".mat", ".txt"))

COARSE_RULES = ("    | file MOVE_ROWS", "    | file GAME_HEAD", "    | file TAGS")


def fine_grammar() -> str:
    """mat.lark without its coarse tokens MOVE_ROWS, GAME_HEAD and TAGS: every line token by
    token (a cube or result cell is still one token)."""
    lines = grammar_text().split("\n")
    for rule in COARSE_RULES:
        assert any(ln.startswith(rule) for ln in lines), rule
    return "\n".join(ln for ln in lines if not ln.startswith(COARSE_RULES))


@pytest.fixture(scope="module", params=LEXERS)
def pair(request):
    """(coarse parser, fine parser), with the same lexer."""
    lexer = request.param
    return build_parser(lexer=lexer, cache=False), build_parser(fine_grammar(), lexer=lexer, cache=False)


def test_the_coarse_tokens_take_whole_games():
    text = ('; [Site "x"]\n; [Event "y"]\n\n 3 point match\n\n Game 1\n A : 0      B : 0\n'
            "  1) 31: 8/5 6/5        64: 24/18 13/9\n  2) 52: 13/11 13/8     Doubles => 2\n"
            "  3)  Takes             64: Cannot Move\n  4) 21: ???             Doubles => 4\n"
            "  5)  Drops\n                        Wins 2 points\n\n Game 2\n")
    coarse = [t.type for t in build_parser(lexer="basic", cache=False).lex(text)]
    assert coarse == ["TAGS", "INT", "POINT_MATCH", "_NL", "GAME_HEAD", "MOVE_ROWS", "GAME_LINE", "_NL"]
    fine = [t.type for t in build_parser(fine_grammar(), lexer="basic", cache=False).lex(text)]
    assert len(fine) > 30 and "MOVE_ROWS" not in fine and "GAME_HEAD" not in fine and "TAGS" not in fine


ODD = [
    "  3)  Doubles => 2            Takes",
    "  3)  Doubles=>2 Beavers =>4",
    "  3) 64: Cannot Move          Doubles => 2",
    "  3) 64: can't   move  Doubles => 2",
    "  3)  Takes                   64: Cannot Move",
    "  3)  Accepts   21: ???",
    "  3) 64: 8/2 ???",
    "  3) 64: 8/2 Cannot Move",
    "  3) 21: ???                  Doubles => 2",
    "  3) 21: ????   64: 24/18 13/9",
    "  3)64: 24/18 13/9    31: 8/5 6/5",
    "  3)64: Cannot Move",
    "  3)  Takes64: 24/18",
    "  3) 64: Cannot MoveDoubles => 2",
    "  3) 64: Cannot Move64: 24/18",
    "  3)  Drops                   Wins 1 point",
    "  3)  Passes  Wins 2 points and the match",
    "  3) 31: 8/5 6/5  Wins 1 point",
    "  3) 31: 8/5 6/5  Doubles => 2  Takes",
    "  3)  Doubles => 2  Takes  Drops",
    "  3)  Rejects",
    "  3) 64:                      31: 8/5 6/5",
    "  3) 64:",
    "  3) 64:  Doubles => 2",
    "  3)  Doubles =>",
    "  3) 11: Illegal play (0;0;) 11:",
    "  3) 31: 8/5 6/5 Raccoons => 8",
    "  3) 42: bar/21 6/off 13/9*(2)    33: 25/22/19/16*",
    "                              Wins 1 point",
    "      Wins 4 points and the match",
    "      Loses 1 point",
    "      Wins",
    "  3)                             53: 8/3 6/3",
    "  3)  Concedes",
]


@pytest.mark.parametrize("line", ODD)
def test_odd_move_lines_read_as_token_by_token(pair, line):
    coarse, fine = pair
    lines = [" 7 point match", "", " Game 1", " A : 0      B : 0", "  1) 31: 8/5 6/5   64: 24/18 13/9",
             "  2) 42: 8/4 6/4   Doubles => 2", line, "  4) 31: 8/5 6/5", "        Wins 1 point", "", " Game 2"]
    got = parse_lines(lines, coarse)
    assert got == parse_lines(lines, fine)
    assert got[-1] == ("game_line", 11, 2)


@pytest.mark.parametrize("head", [
    [" Game 3", " Alice : 0        Bob : 2"],
    [" Game 3", "", "", "   Alice Smith,1811 : 10   Bob: 2"],
    [" Game 3", " Iris09:0 Jade1:1"],
    [" Game 3", "; x : 0   y : 0"],  # a comment, not a score line
    [" Game 3", "# x : 0   y : 0"],
    [" Game 3", " A : 0"],
    [" Game 3", " A : 0  B : 1  C : 2"],
    [" Game 3", " A : x   B : 1"],
    [" Game 3", "  1) 31: 8/5 6/5"],
    [" game 03", " Wins : 1    Loses : 2"],
    ["Game 3", "12) A : 0   B : 0"],
    [" Game 3 4", " A : 0   B : 0"],
])
def test_game_and_score_lines_read_as_token_by_token(pair, head):
    coarse, fine = pair
    lines = [" 7 point match", ""] + head + ["  1) 31: 8/5 6/5   64: 24/18 13/9", " Game 4", " A : 1  B : 1"]
    got = parse_lines(lines, coarse)
    assert got == parse_lines(lines, fine)


@pytest.mark.parametrize("head", [
    ['; [Site "Backgammon Studio"]', '; [Player 1 "A b"]', "", '   ; [Crawford "Off"]', "; free text",
     '# [Jacoby "On"]'],
    ['; [Site "x"]', '; [Bad tag]', '; [Event "y"]'],
    ['; [Site "x"] trailing', '; [Event "y"]'],
    ['; [Site "x"]'],
])
def test_tag_lines_read_as_token_by_token(pair, head):
    coarse, fine = pair
    lines = head + ["", " 3 point match", "", " Game 1", " A : 0  B : 0", "  1) 31: 8/5 6/5"]
    got = parse_lines(lines, coarse)
    assert got == parse_lines(lines, fine)
    assert [x[0] for x in got].count("tag") == sum(1 for h in head if '"' in h and "Bad" not in h
                                                   and "trailing" not in h)


CELLS = ["31: 8/5 6/5", "64: 24/18 13/9", "64:", "11: 6/5(2) 8/7*(2)", "62: bar/23 13/7*", "64: Cannot Move",
         "64: can't move", "21: ???", "53: ?", "Doubles => 2", "Doubles=>4", "Double => 8", "Takes", "Accepts",
         "Drops", "Passes", "Beavers => 4", "Raccoons=>8", "Wins 1 point", "Wins 2 points and the match",
         "Loses 1 point", "Resigns", "Concedes", "11: Illegal play (0;1;)", "bogus", "8/5", "=>", "12)", ":"]

_cell_lines = st.lists(st.tuples(st.sampled_from(CELLS), st.sampled_from(["", " ", "  ", "      ", "\t"])),
                       max_size=3)


@st.composite
def _texts(draw):
    lines = []
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.integers(0, 9))
        indent = draw(st.sampled_from(["", " ", "  ", "                            "]))
        if kind == 0:
            lines.append(indent + draw(st.sampled_from([" Game 2", "Game 10", "; [X \"y\"]", "; note", "",
                                                        " A : 0   B : 1", "Iris:1 Jade:2", " 5 point match",
                                                        " someone : 0        : 0", " : 1     B : 0"])))
            continue
        cells = draw(_cell_lines)
        body = "".join(c + sep for c, sep in cells).rstrip()
        number = f"{draw(st.integers(1, 30))})" if kind > 2 else ""
        lines.append((indent + number + draw(st.sampled_from(["", " ", "  "])) + body).rstrip().expandtabs(8))
    return lines


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=_texts())
def test_random_lines_read_as_token_by_token(pair, body):
    coarse, fine = pair
    lines = [" 7 point match", "", " Game 1", " A : 0   B : 0"] + body + ["  9) 31: 8/5 6/5"]
    assert parse_lines(lines, coarse) == parse_lines(lines, fine)


def test_every_sample_file_reads_as_token_by_token(pair):
    coarse, fine = pair
    assert len(MAT_FILES) > 50
    rows = 0
    for p in MAT_FILES:
        lines = mat_lines(decode_bytes(p.read_bytes()))
        got = parse_lines(lines, coarse)
        assert got == parse_lines(lines, fine), p.name
        rows += sum(1 for x in got if x[0] == "move_line")
    assert rows > 5000


def test_cells_inside_rows_are_parsed_by_the_grammar_and_kept_per_parser():
    # a keyword added to the grammar is read inside a MOVE_ROWS token too
    old = "TAKES.1: /(?i:takes?|accepts?)/"
    assert old in grammar_text()
    p = build_parser(grammar_text().replace(old, "TAKES.1: /(?i:takes?|accepts?|nimmt)/"), cache=False)
    text = "  1) 31: 8/5 6/5      Doubles => 2\n  2)  Nimmt            42: 8/4 6/4\n"
    assert [t.type for t in p.lex(text)] == ["MOVE_ROWS"]
    got = parse_lines(text.split("\n")[:-1], p)
    assert got[1] == ("move_line", 2, (2, 4, [(6, "take", None, 2), (23, "roll", ("42:", ["8/4", "6/4"]), 2)]))
    assert "Nimmt" in p.options.transformer.seen
    shipped = build_parser(cache=False)
    assert "Nimmt" not in shipped.options.transformer.seen
    assert parse_lines(text.split("\n")[:-1], shipped)[1][0] == "error"
