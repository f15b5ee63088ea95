"""The Lark parser of ``grammars/mat.lark`` and the cells it builds, with line-level recovery.

:func:`build_parser` makes an LALR parser of a grammar text whose inline transformer
(:class:`MatCells`) turns every line straight into a tuple (no parse tree is built);
:func:`mat_parser` is the one for the shipped grammar, built once per process and kept
in Lark's grammar cache on disk (``cache_dir()/lark``; without a writable cache folder
it is simply built).  :func:`parse_lines` parses a whole text and, where a line does not
parse, reports it as one error with its line and column and parses on after it.

A parsed line is ``(kind, line, data)``:

* ``("comment", n, text)``, ``("tag", n, (name, value))`` (``; [Site "..."]``),
  ``("set_pos", n, (column, text))`` (XG ``; Set Pos=...``),
* ``("match_line", n, length)``, ``("game_line", n, number)``,
* ``("score_line", n, (name_score_0, name_score_1, column_of_the_second))``,
* ``("move_line", n, (move_number, end_column_of_"12)", cells))``,
* ``("move_line_repeat", n, (move_number, end_column_of_"12)", cells, (column, "12)", rule)))``: a
  line whose right-hand column repeats the move number; the cells before it, then where the
  number is repeated and the rule of the cell after it ("" for none), which is not read,
* ``("cell_line", n, cells)``,
* ``("error", n, (column, message))`` for a line that does not parse,

with 0-based columns.  A cell is ``(column, rule, value, line)``: ``roll`` / ``roll_cannot`` /
``roll_unknown`` / ``roll_illegal`` with ``(dice_text, [moves])`` (for ``roll_illegal``
the Snowie position inside the parentheses), ``double`` / ``beaver`` with the cube,
``take``, ``drop``, ``resign`` with None, ``win`` / ``loss`` with ``(points, and_the_match)``.
Runs of move lines (with their cube and result cells) and the result line after them come
as one MOVE_ROWS token, a game line and its score line as one GAME_HEAD token, header tags
as one TAGS token (see mat.lark); they are handed over as the same entries their lines
token by token give (tests/test_matspeed_rows.py): the transformer splits them where the
grammar's shapes say, and has Lark parse the cube and result cells inside move lines
(:meth:`MatCells.cells_of`), so that a word added to the grammar is read there too.
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path
from typing import Optional, cast

import lark
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

__all__ = ["grammar_text", "build_parser", "mat_parser", "parse_lines", "MatCells", "LEXERS"]

#: Lark lexers the grammar works with ("contextual" is the default: it only tries the
#: terminals the parser can accept next, so a "name : score" pair is never tried in a move)
LEXERS = ("contextual", "basic")


def grammar_text() -> str:
    """The text of ``mat.lark`` (package data, or the source checkout's grammars/)."""
    try:
        from importlib.resources import files

        return (files("bgtools.grammars") / "mat.lark").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, OSError, TypeError):
        return (Path(__file__).resolve().parents[2] / "grammars" / "mat.lark").read_text(encoding="utf-8")


class MatCells(lark.Transformer):
    """Inline transformer: each rule of mat.lark returns the tuple the reader consumes.

    Some tokens carry the white space after them (see the grammar), hence the ``rstrip``.
    ``parser`` is the Lark parser this transformer is part of (set by :func:`build_parser`):
    it parses the cube cells inside a MOVE_ROWS token (:meth:`cells_of`).
    """

    def __init__(self) -> None:
        super().__init__()
        self.parser: Optional[lark.Lark] = None
        self.seen: dict[str, list[tuple]] = {}

    # ---- lines
    def file(self, c):
        # file: (empty) | file line _NL | file MOVE_ROWS  -- the list so far, then more lines
        if not c:
            return []
        acc = c[0]
        if len(c) > 1:
            x = c[1]
            if type(x) is tuple:
                acc.append(x)
            elif x is not None:  # None: a blank line; else a MOVE_ROWS, GAME_HEAD or TAGS token
                kind = x.type
                if kind == "MOVE_ROWS":
                    acc += self.move_rows(x)
                elif kind == "GAME_HEAD":
                    acc += self.game_head(x)
                else:
                    acc += self.tags(x)
        return acc

    def blank(self, _children):
        return None

    def comment(self, c):
        return ("comment", c[0].line, c[0].value)

    def tag(self, c):
        # '; [Name "value"]': the grammar has checked the shape, this only splits it
        t = c[0].value
        body = t[t.index("[") + 1:t.rindex("]")]
        name, _, rest = body.partition('"')
        return ("tag", c[0].line, (name.strip(), rest[:rest.rindex('"')]))

    def set_pos(self, c):
        # with its column: gnubg reads the edit only at the start of a line
        return ("set_pos", c[0].line, (c[0].column - 1, c[0].value.rstrip()))

    def match_line(self, c):
        return ("match_line", c[0].line, int(c[0].value))

    def game_line(self, c):
        return ("game_line", c[0].line, int(c[0].value.split()[1]))

    def score_line(self, c):
        return ("score_line", c[0].line, (c[0].value.rstrip(), c[1].value.rstrip(), c[1].column - 1))

    def move_line(self, c):
        no = c[0]
        v = no.value.rstrip()  # the token may carry the spaces after "12)"
        return ("move_line", no.line, (int(v[:-1]), no.column - 1 + len(v),
                                       [_play(x) if type(x) is not tuple else x for x in c[1:]]))

    def move_rows(self, t) -> list[tuple]:
        # a MOVE_ROWS token: lines of "12) " and one or two cells (rolls with their moves or
        # "Cannot Move", cube cells), each with its newline, blank lines and the next line's
        # indentation, maybe a result line last (see mat.lark); the grammar has checked their
        # shape, this splits them into lines as their tokens one by one would give
        out = []
        line = t.line
        col = t.column - 1
        row = self.row
        for k, seg in enumerate(t.value.split("\n")):
            text = seg.lstrip() if k else seg
            if text:
                at = col if not k else len(seg) - len(text)
                if text[0].isdigit():
                    out.append(row(text, at, line + k))
                else:  # the result line
                    out.append(("cell_line", line + k, [(at + c, rule, val, line + k)
                                                        for c, rule, val in self.cells_of(text)]))
        return out

    def row(self, v: str, col: int, line: int) -> tuple:
        """The ``move_line`` of one line of a MOVE_ROWS token (``v`` from its move number on,
        ``col`` where that starts).  A colon is the end of a roll ("31:"): nothing else in such
        a line has one."""
        i = v.index(")")
        c1 = v.find(":", i)
        if c1 < 0 or not v[i + 1:c1 - 2].isspace() and c1 - 2 != i + 1:
            return ("move_line", line, (int(v[:i]), col + i + 1, self.row_cells(v, col, line)))
        c2 = v.find(":", c1 + 1)
        m1 = v[c1 + 1:c2 - 2 if c2 >= 0 else len(v)].split()
        if m1 and "/" not in m1[-1]:  # more than moves after the roll
            return ("move_line", line, (int(v[:i]), col + i + 1, self.row_cells(v, col, line)))
        cells = [(col + c1 - 2, "roll", (v[c1 - 2:c1 + 1], m1), line)]
        if c2 >= 0:
            m2 = v[c2 + 1:].split()
            if m2 and "/" not in m2[-1]:
                return ("move_line", line, (int(v[:i]), col + i + 1, self.row_cells(v, col, line)))
            cells.append((col + c2 - 2, "roll", (v[c2 - 2:c2 + 1], m2), line))
        return ("move_line", line, (int(v[:i]), col + i + 1, cells))

    def row_cells(self, v: str, col: int, line: int) -> list[tuple]:
        """The cells of a MOVE_ROWS line with more than rolls and moves in it: it is split at
        the rolls (each roll's moves are the words with a "/" after it); what else a cell
        holds ("Cannot Move" or "???" after a roll, a cube or result cell) is parsed by Lark
        (:meth:`cells_of`)."""
        cells: list[tuple] = []
        pos = v.index(")") + 1
        words = v[pos:].split()
        w, n = 0, len(words)
        while w < n:
            word = words[w]
            if word[-1] == ":":  # a roll, its moves, then maybe "Cannot Move" and a cube cell
                at = v.index(word, pos)
                pos = at + len(word)
                m = w + 1
                while m < n and "/" in words[m]:
                    m += 1
                r = m
                while r < n and words[r][-1] != ":":
                    r += 1
                if r == m:
                    cells.append((col + at, "roll", (word, words[w + 1:m]), line))
                    w = r
                    continue
                start = v.index(words[m], pos)
                end = v.index(words[r], start) if r < n else len(v)
                rest = self.cells_of("11: " + v[start:end].rstrip())  # a stand-in roll before the rest
                kind, (_, more) = rest[0][1], rest[0][2]  # "roll", or "roll_cannot" / "roll_unknown" (no moves)
                cells.append((col + at, kind, (word, words[w + 1:m] if kind == "roll" else more), line))
                cells += [(col + start + c - 4, rule, val, line) for c, rule, val in rest[1:]]
            else:  # cube cells before the first roll
                start = v.index(word, pos)
                r = w
                while r < n and words[r][-1] != ":":
                    r += 1
                end = v.index(words[r], start) if r < n else len(v)
                cells += [(col + start + c, rule, val, line) for c, rule, val in self.cells_of(v[start:end].rstrip())]
            pos = end
            w = r
        return cells

    def cells_of(self, text: str) -> list[tuple]:
        """``(column, rule, value)`` of the cells of ``text`` parsed by Lark as a ``cell_line``
        (of the grammar this transformer's parser was built from; kept per text: cube cells
        repeat)."""
        got = self.seen.get(text)
        if got is None:
            parsed = self.parser.parse(text, start="line")
            if type(parsed) is not tuple or parsed[0] != "cell_line":  # pragma: no cover - a grammar slip
                raise ValueError(f"mat.lark: MOVE_ROWS holds {text!r}, which is not a cell line")
            got = [(c[0], c[1], c[2]) for c in parsed[2]]
            if len(self.seen) > 4096:
                self.seen.clear()
            self.seen[text] = got
        return got

    def game_head(self, t) -> list[tuple]:
        # a GAME_HEAD token: the game line, its newline (blank lines), the score line and its
        # newline; the score line holds two NAME_SCOREs, the first ending after the first
        # colon, the score after it and the white space after that (see NAME_SCORE)
        segs = t.value.split("\n")
        game = segs[0]
        k = 1
        while not segs[k].strip():
            k += 1
        seg = segs[k]
        text = seg.lstrip()
        j = text.index(":") + 1
        n = len(text)
        while text[j] in " \t":
            j += 1
        while j < n and text[j] not in " \t":
            j += 1
        while j < n and text[j] in " \t":
            j += 1
        return [("game_line", t.line, int(game.split()[1])),
                ("score_line", t.line + k, (text[:j].rstrip(), text[j:].rstrip(), len(seg) - len(text) + j))]

    def tags(self, t) -> list[tuple]:
        # a TAGS token: tag lines, each with its newline, blank lines and the next indentation
        out = []
        for k, seg in enumerate(t.value.split("\n")):
            text = seg.strip()
            if text:
                out.append(self.tag([lark.Token("TAG", text, line=t.line + k)]))
        return out

    def move_line_repeat(self, c):
        # "12) <cell> 12) <cell>": the left cell, then where the number is repeated, that
        # number and the rule of the cell after it (not read: the reader warns)
        _, line, (num, after, cells) = self.move_line(c[:2])
        rest = c[3] if len(c) > 3 else None
        rule = "" if rest is None else rest[1] if type(rest) is tuple else "roll"
        return ("move_line_repeat", line, (num, after, cells, (c[2].column - 1, c[2].value.rstrip(), rule)))

    def move_line_trailer(self, c):
        # "12) <cell> <illegal play> <roll>": the roll after the illegal play is not read
        return self.move_line([c[0], c[1], self.roll_illegal([c[2]])])

    def cell_line(self, c):
        cells = [_play(x) if type(x) is not tuple else x for x in c]
        return ("cell_line", cells[0][3], cells)

    # ---- cells: (column, rule, value, line); a lone PLAY token is made a cell by _play

    def roll_cannot(self, c):
        d = c[0]
        return (d.column - 1, "roll_cannot", (d.value[:3], []), d.line)

    def roll_unknown(self, c):
        d = c[0]
        return (d.column - 1, "roll_unknown", (d.value[:3], [c[1].value]), d.line)

    def roll_illegal(self, c):
        d = c[0]
        v = d.value
        return (d.column - 1, "roll_illegal", (v[:3], [v[v.index("(") + 1:v.rindex(")")]]), d.line)

    def double(self, c):
        return (c[0].column - 1, "double", _last_int(c[0].value) if len(c) == 1 else int(c[2].value), c[0].line)

    def beaver(self, c):
        return (c[0].column - 1, "beaver", _last_int(c[0].value) if len(c) == 1 else int(c[2].value), c[0].line)

    def take(self, c):
        return (c[0].column - 1, "take", None, c[0].line)

    def drop(self, c):
        return (c[0].column - 1, "drop", None, c[0].line)

    def resign(self, c):
        return (c[0].column - 1, "resign", None, c[0].line)

    def win(self, c):
        return (c[0].column - 1, "win", _result(c), c[0].line)

    def loss(self, c):
        return (c[0].column - 1, "loss", _result(c), c[0].line)


def _last_int(v: str) -> int:
    """The number at the end of a DOUBLE_CELL / BEAVER_CELL token ("Doubles => 2")."""
    return int(v[v.rindex(">") + 1:])


def _result(c) -> tuple[int, bool]:
    """(points, "and the match") of a win / loss cell: one *_CELL token or its words."""
    if len(c) > 1:
        return int(c[1].value), len(c) > 3
    v = c[0].value
    i = 0
    while not v[i].isdigit():
        i += 1
    j = i
    while j < len(v) and v[j].isdigit():
        j += 1
    return int(v[i:j]), v[-5:].lower() == "match"


def _play(d) -> tuple:
    """The ``roll`` cell of a PLAY token: the dice, then the moves, separated by white space."""
    words = d.value.split()
    return (d.column - 1, "roll", (words[0], words[1:]), d.line)


def _cache_file(grammar: str, lexer: str) -> Optional[str]:
    """Where Lark keeps this grammar's analysed tables; None when no cache folder is writable."""
    from bgtools.base.cachedir import cache_dir

    try:
        folder = cache_dir() / "lark"
        folder.mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.W_OK):
            return None
    except (OSError, RuntimeError, ImportError):
        return None
    key = hashlib.sha256(f"{lark.__version__}\0{lexer}\0{grammar}".encode()).hexdigest()[:16]
    return str(folder / f"mat-{key}.lark-cache")


def build_parser(grammar: Optional[str] = None, lexer: str = "contextual", cache: bool = True) -> lark.Lark:
    """An LALR parser of ``grammar`` (default: the shipped mat.lark) building cells inline.

    Start rules ``file`` (a whole text, each line ending in a newline) and ``line``.
    With ``cache``, Lark's analysed grammar is kept in the bgtools cache folder (one file
    per grammar text and lexer), and a folder that cannot be written just means no cache.
    """
    text = grammar_text() if grammar is None else grammar
    cache_fn = _cache_file(text, lexer) if cache else None
    cells = MatCells()
    kw = dict(parser="lalr", lexer=lexer, start=["file", "line"], transformer=cells, maybe_placeholders=False)
    if cache_fn is None:
        parser = lark.Lark(text, **kw)
    elif os.path.exists(cache_fn):
        parser = lark.Lark(text, cache=cache_fn, **kw)  # a damaged file: Lark rebuilds and rewrites it
    else:
        # Lark writes its cache file in place: write a private one and rename it, so that
        # another process never loads a half-written file
        tmp = f"{cache_fn}.{os.getpid()}.tmp"
        parser = lark.Lark(text, cache=tmp, **kw)
        try:
            os.replace(tmp, cache_fn)
        except OSError:
            pass
    cells.parser = parser
    return parser


@lru_cache(maxsize=None)
def mat_parser(lexer: str = "contextual") -> lark.Lark:
    """The parser of the shipped grammar, built (or loaded from the cache) once per process."""
    return build_parser(None, lexer)


def _error(lines: list[str], e: UnexpectedInput) -> tuple[int, int, str]:
    """(1-based line, 0-based column, message) of a syntax error."""
    n = e.line
    text = lines[n - 1] if 1 <= n <= len(lines) else ""
    if isinstance(e, UnexpectedCharacters):
        col = max(e.column - 1, 0)
        word = text[col:].split()[0] if text[col:].strip() else text[col:col + 1]
        return n, col, f"cannot read {word!r}"
    tok = e.token if isinstance(e, UnexpectedToken) else None
    if tok is None or tok.type in ("_NL", "$END"):
        want = sorted(getattr(e, "expected", ()) or ())
        return n, len(text.rstrip()), "the line ends too early" + (f" (expected {', '.join(want)})" if want else "")
    # a coarse token (a whole move line, a cube cell) out of place: name its first word, as
    # the line token by token would (MOVE_ROWS starts with the move number: "12)", "12)31:")
    word = str(tok).split()[0] if str(tok).strip() else str(tok)
    if tok.type == "MOVE_ROWS":
        word = word[:word.index(")") + 1]
    return n, max(tok.column - 1, 0), f"unexpected {word!r} here"


def parse_lines(lines: list[str], parser: Optional[lark.Lark] = None) -> list[tuple]:
    """Parse the lines (no newlines in them) as one text; a line that fails is an ``error``.

    The text is parsed whole; at a syntax error the lines before it are parsed whole, the
    failing line becomes one ``("error", line, (column, message))`` entry, and parsing
    goes on from the next line (earlier lines are replaced by empty ones so that Lark's
    line numbers stay those of the file).
    """
    p = parser or mat_parser()
    out: list[tuple] = []
    start, n = 0, len(lines)
    while start < n:
        try:
            out += cast(list, p.parse("\n" * start + "\n".join(lines[start:]) + "\n", start="file"))
            break
        except UnexpectedInput as e:
            bad = e.line if isinstance(e.line, int) and start < e.line <= n else None
            if bad is None:  # no usable position: read the rest one line at a time
                out += _one_by_one(p, lines, start)
                break
            if bad - 1 > start:
                out += _one_by_one(p, lines, start, bad - 1) if not _try(p, lines, start, bad - 1, out) else []
            ln, col, msg = _error(lines, e)
            out.append(("error", ln, (col, msg)))
            start = bad
    return out


def _try(p: lark.Lark, lines: list[str], lo: int, hi: int, out: list) -> bool:
    try:
        out += cast(list, p.parse("\n" * lo + "\n".join(lines[lo:hi]) + "\n", start="file"))
        return True
    except UnexpectedInput:
        return False


def _one_by_one(p: lark.Lark, lines: list[str], lo: int, hi: Optional[int] = None) -> list[tuple]:
    out: list[tuple] = []
    for i in range(lo, len(lines) if hi is None else hi):
        try:
            out += cast(list, p.parse("\n" * i + lines[i] + "\n", start="file"))
        except UnexpectedInput as e:
            ln, col, msg = _error(lines, e)
            out.append(("error", i + 1, (col, msg)))
    return out
