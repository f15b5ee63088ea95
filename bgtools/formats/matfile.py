"""The ``.mat`` match text (Jellyfish / gnubg and its dialects): reader and writer.

The syntax is defined by ``grammars/mat.lark``; the text is parsed by Lark's LALR parser
of that grammar (:mod:`bgtools.formats.matgrammar`), whose inline transformer hands each
line over as a tuple of cells.  This module walks those lines: the match line, games,
score lines, and which player each cell belongs to (decided by its indentation, as gnubg
does: white space is not part of the grammar).

Board edits are read as gnubg 1.07 reads them: a Snowie ``dd: Illegal play (<position>)``
cell is the roll without a play and then a :class:`~bgtools.model.game.SetBoard` to that
position; an XG ``; Set Pos=<letters>/<cube>`` line (at the start of a line) sets the board
and the cube.  The writer writes them back the same way (a Snowie edit as its cell, any
other as a Set Pos line) or refuses with :class:`MatWriteError`.

>>> m = parse_mat(" 3 point match\\n\\n Game 1\\n A : 0    B : 0\\n  1) 31: 8/5 6/5\\n")
>>> m.players, m.length, m.games[0].actions[0].text
(('A', 'B'), 3, '8/5 6/5')
"""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import Iterable, Iterator, Optional

from bgtools.base.collector import gc_paused
from bgtools.base.errors import BgtoolsError
from bgtools.core.position import Position, PositionError
from bgtools.formats.metadata import mat_header_tags, mat_standard, with_standard
from bgtools.formats.matgrammar import build_parser, grammar_text, mat_parser, parse_lines
from bgtools.model.game import Beaver, Double, Drop, Game, Resign, Roll, SetBoard, Take, Win
from bgtools.model.match import Match
from bgtools.model.problems import MatchFileError, MatchProblem, MatchWarning
from bgtools.model.replay import apply_steps

__all__ = ["parse_mat", "mat_from_lines", "iter_mat", "write_mat", "format_mat", "grammar_text", "build_parser",
           "mat_parser", "mat_lines", "MatWriteError", "snowie_sides", "xg_set_pos"]


def mat_lines(text: str) -> list[str]:
    """The physical lines as the grammar reads them: no BOM, no trailing space, tabs expanded."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = [ln.rstrip() for ln in text.split("\n")]
    if "\t" in text:
        lines = [ln.expandtabs(8) for ln in lines]
    if lines and not lines[-1]:
        lines.pop()
    return lines


def _name(raw: str) -> str:
    """The player's name of a ``name : score`` pair, without a GridGammon ``,rating``."""
    return _name_rating(raw)[0]


def _name_rating(raw: str) -> tuple[str, str]:
    """(name, GridGammon ``,rating`` as written or "") of a ``name : score`` pair."""
    name = raw[: raw.rindex(":")].strip()
    head, comma, rating = name.rpartition(",")
    if comma and head.strip():
        try:
            if float(rating) > 0:  # gnubg strips it only when a positive number follows
                return head.rstrip(), rating.strip()
        except ValueError:
            pass
    return name, ""


def _score(raw: str) -> int:
    return int(raw[raw.rindex(":") + 1:].strip())


def _sides(kind: str, data) -> tuple[int, list, list[int]]:
    """(move number, cells, player of each cell) of a move or cell line.

    A lone cell's column cannot come from the grammar (white space is ignored there), so
    it is decided here from its indentation: on a numbered line, more than 6 columns
    after the ``n)`` means the right column; on an unnumbered line, column 17 or later.
    """
    if kind == "move_line":
        num, after, cells = data
        if len(cells) == 1:
            return num, cells, [1 if cells[0][0] - after > 6 else 0]
    else:
        num, cells = 0, data
        if len(cells) == 1:
            return num, cells, [1 if cells[0][0] >= 16 else 0]
    return num, cells, [0, 1]


_DICE = {f"{a}{b}:": (a, b) for a in range(1, 7) for b in range(1, 7)}

#: what a cell of each rule is, in words (for messages about a cell that is not read)
_CELL_NAMES = {"roll": "a roll", "roll_cannot": "a roll", "roll_unknown": "a roll", "roll_illegal": "a roll",
               "double": "a double", "beaver": "a beaver", "take": "a take", "drop": "a drop",
               "win": "a 'Wins' cell", "loss": "a 'Losses' cell", "resign": "a resignation"}


def _action(rule: str, val, player: int, line: int, column: int, move_no: int):
    """The action of one cell (None for Galaxy's "Losses" cell, which adds nothing)."""
    if rule == "roll":
        dtext, moves = val
        return Roll(player, _DICE[dtext], None, "play", " ".join(moves), line, column, move_no)
    if rule == "roll_cannot":
        return Roll(player, _DICE[val[0]], None, "play", "", line, column, move_no)
    if rule == "roll_unknown":
        # XG's "???": the play was not written; the replay plays it when it is forced
        return Roll(player, _DICE[val[0]], None, "unknown", val[1][0], line, column, move_no)
    if rule == "roll_illegal":  # the reader adds the board edit after it (see _Reader.illegal)
        return Roll(player, _DICE[val[0]], None, "rolled", "", line, column, move_no)
    if rule == "double":
        return Double(player, val, line=line, column=column, move_no=move_no)
    if rule == "beaver":
        return Beaver(player, val, line=line, column=column, move_no=move_no)
    if rule == "take":
        return Take(player, line=line, column=column, move_no=move_no)
    if rule == "drop":
        return Drop(player, line=line, column=column, move_no=move_no)
    if rule == "resign":  # the level follows from the "Wins" line (replay)
        return Resign(player, 1, line=line, column=column, move_no=move_no)
    if rule == "win":
        return Win(player, val[0], line=line, column=column, move_no=move_no)
    return None


def snowie_sides(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Player 0's and player 1's checkers of a Snowie position (the 40 ``;``-separated fields
    of an ``Illegal play (...)`` cell), as gnubg 1.07 reads them into its board edit.

    Fields 13..36 hold the points 1..24, positive counts for one side (at its own points)
    and negative for the other (numbered from the first side's view); field 12 is the bar
    of the negative side and field 37 that of the positive side; field 4, the player on
    roll, says which side is whose: player 0 is the negative side when it is 0, the
    positive side otherwise.  Raises ValueError when the text is not such a position.
    """
    fields = text.split(";")
    if len(fields) < 40 or any(f.strip() for f in fields[40:]):
        raise ValueError(f"a Snowie position has 40 fields, each ending in ';', not {len(fields) - 1}")
    try:
        nums = {i: int(fields[i]) for i in [4, 12, 37, *range(13, 37)]}
    except ValueError:
        raise ValueError("a Snowie position's fields 4 and 12..37 must be whole numbers") from None
    pos, neg = [0] * 25, [0] * 25
    for i in range(24):
        j = nums[13 + i]
        if j < 0:
            neg[23 - i] = -j
        else:
            pos[i] = j
    neg[24], pos[24] = abs(nums[12]), abs(nums[37])
    return (tuple(pos), tuple(neg)) if nums[4] else (tuple(neg), tuple(pos))


def xg_set_pos(text: str) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], int, int]:
    """(sides, cube, owner) of the text after XG's ``; Set Pos=``: the 26 letters of an XGID
    position (upper case: player 0, the first-named; lower case: player 1), ``/``, then the
    cube as gnubg 1.07 reads it: ``0`` centred at 1, ``-n`` player 0 owns 2**n, ``n`` player 1
    owns 2**n.  Raises ValueError (PositionError) when it is not such a text."""
    if len(text) < 28 or text[26] != "/":
        raise ValueError("expected 26 position letters, '/' and the cube")
    p = Position.from_xgid(text[:26] + ":0:0:1:00:0:0:0:0:0")  # upper case on roll: player 0
    sides = (p.on_roll, p.opponent)
    c, n = text[27], text[28:29]
    if c == "0":
        return sides, 1, -1
    if c == "-" and n.isdigit():
        return sides, 1 << int(n), 0
    if c in "123456789":
        return sides, 1 << int(c), 1
    raise ValueError(f"cannot read the cube {text[27:]!r} (expected 0, -n or n)")


class _Reader:
    """Walks the parsed lines of one file, building the games and collecting problems."""

    def __init__(self, file: str, strict: bool):
        self.file, self.strict = file, strict
        self.tags: dict[str, str] = {}
        self.file_errors: list[MatchProblem] = []
        self.length: Optional[int] = None
        self.players: Optional[tuple[str, str]] = None
        self.games: list[Game] = []
        self.cur: Optional[dict] = None
        self.beavers = False  # a beaver cell read
        self.line_ratings = ("", "")  # GridGammon ratings after the names of the first score line

    def error(self, lineno: int, col: int, msg: str, move: int = 0) -> None:
        cur = self.cur
        e = MatchProblem(msg, self.file, lineno, col + 1 if col >= 0 else 0, cur["number"] if cur else 0, move)
        if self.strict:
            raise MatchFileError(e)
        (cur["errors"] if cur else self.file_errors).append(e)

    def close(self) -> None:
        cur = self.cur
        if cur is not None:
            self.games.append(Game(cur["number"], cur["score"] or (0, 0), tuple(cur["actions"]),
                                   errors=cur["errors"], line=cur["line"]))
        self.cur = None

    def line(self, kind: str, lineno: int, data) -> bool:
        """Take one parsed line; False when reading must stop (a second match).  (The most
        common line, two plays, is taken by :func:`mat_from_lines` itself.)"""
        cur = self.cur
        if kind in ("comment", "tag", "set_pos"):
            if kind == "tag" and self.length is None:
                self.tags[data[0]] = data[1]
            elif kind == "set_pos" and self.cur is not None and data[0] == 0:
                self.set_pos(lineno, data[1])  # indented, it is a comment line (gnubg skips it)
            return True
        if self.length is None:
            if kind == "match_line":
                self.length = data
            return True  # gnubg skips everything before the match line
        if kind == "error":
            self.error(lineno, data[0], f"cannot read the line: {data[1]}")
            return True
        if kind == "match_line":
            self.error(lineno, 0, "a second match in the same file is not read")
            return False
        if kind == "game_line":
            self.close()
            self.cur = {"number": data, "score": None, "actions": [], "errors": [], "line": lineno,
                        "edited": False}
            return True
        if cur is None:
            self.error(lineno, 0, f"{kind.replace('_', ' ')} before the first 'Game' line")
            return True
        if kind == "score_line":
            self.score_line(lineno, data)
            return True
        if kind == "move_line_repeat":
            self.repeated(lineno, data)
            kind, data = "move_line", data[:3]
        num, cells, sides = _sides(kind, data)  # at most two cells: the grammar says so
        acts = cur["actions"]
        for (col, rule, val, _), player in zip(cells, sides):
            a = _action(rule, val, player, lineno, col + 1, num)
            if a is None:
                continue
            if rule == "beaver":
                self.beavers = True
            if cur["edited"] and type(a) is Roll:
                # after a board edit that could not be read the board is unknown: the replay
                # checks no more rolls
                a = replace(a, status="unchecked")
            acts.append(a)
            if rule == "roll_illegal":
                self.illegal(a, val[1][0])
        return True

    def repeated(self, lineno: int, data) -> None:
        """A move line whose right-hand column repeats the move number: as gnubg reads it,
        the cells before the number are kept and the rest of the line is not read (warned)."""
        col, number, rule = data[3]
        what = f" and {_CELL_NAMES.get(rule, rule)}" if rule else ""
        p = MatchProblem(f"the move number {number} is written again in the right-hand column: that "
                         f"column ({number}{what}) is not read, the left one is kept, as gnubg reads the line",
                         self.file, lineno, col + 1, self.cur["number"] if self.cur else 0, data[0])
        warnings.warn(MatchWarning(p), stacklevel=4)

    def illegal(self, roll: Roll, text: str) -> None:
        """A Snowie illegal play, as gnubg reads it: the roll (without a play), then a board
        edit to the position written after it."""
        try:
            sides = snowie_sides(text)
            SetBoard(roll.player, sides).position(0)  # a board that cannot be: an error here
        except ValueError as e:
            self.error(roll.line, roll.column - 1, f"Snowie 'Illegal play' position: {e}; the rest of "
                                                   "the game is not replayed", roll.move_no)
            acts = self.cur["actions"]
            acts[-1] = replace(roll, status="unchecked", text=f"Illegal play ({text})")
            self.cur["edited"] = True
            return
        self.cur["actions"].append(SetBoard(roll.player, sides, source="snowie", text=text, line=roll.line,
                                            column=roll.column, move_no=roll.move_no))

    def set_pos(self, lineno: int, text: str) -> None:
        """XG's ``; Set Pos=`` line, as gnubg reads it: a board edit (cube value and owner too)."""
        body = text[len("; Set Pos="):]
        try:
            sides, cube, owner = xg_set_pos(body)
        except ValueError as e:
            self.error(lineno, 0, f"XG 'Set Pos' board edit: {e}; the rest of the game is not replayed")
            self.cur["edited"] = True
            return
        self.cur["actions"].append(SetBoard(0, sides, cube, owner, source="xg", text=body, line=lineno, column=1))

    def score_line(self, lineno: int, data) -> None:
        n0, n1, _ = data
        cur = self.cur
        (name0, rating0), (name1, rating1) = _name_rating(n0), _name_rating(n1)
        names = (name0, name1)
        if self.players is None:
            self.players = names
            self.line_ratings = (rating0, rating1)
        elif names != self.players:
            self.error(lineno, 0, f"players {names[0]!r} and {names[1]!r} differ from the first game's "
                                  f"{self.players[0]!r} and {self.players[1]!r}")
        if cur["score"] is not None or cur["actions"]:
            self.error(lineno, 0, "a second score line in the same game")
        cur["score"] = (_score(n0), _score(n1))

    def match(self) -> Match:
        self.close()
        return self.header(tuple(self.games))

    def header(self, games: tuple[Game, ...] = ()) -> Match:
        """The match read so far with ``games`` (the header alone: the games streamed)."""
        if self.length is None:
            raise MatchFileError(MatchProblem("no 'N point match' line: not a .mat match file", self.file))
        length, tags = self.length, self.tags
        lower = {k.lower(): v.strip().lower() for k, v in tags.items()}
        crawford = lower.get("crawford", "on") != "off"
        jacoby = length == 0 and lower.get("jacoby", "off") == "on"
        beavers = (length == 0 and lower.get("beaver", "off") == "on") or self.beavers
        players = self.players or ("", "")
        return Match(players, length, games, crawford=crawford, jacoby=jacoby, beavers=beavers,
                     tags=with_standard(tags, mat_standard(tags, players, self.line_ratings)), source=self.file,
                     format="mat", file_errors=self.file_errors)


def parse_mat(text: str, file: str = "", strict: bool = False, parser=None) -> Match:
    """Parse ``.mat`` text into an unreplayed :class:`Match` (see :func:`bgtools.formats.read_match`).

    Lines the grammar rejects become errors on the current game (or the file).
    Raises :class:`MatchFileError` when there is no match line at all.  ``parser``: a
    parser from :func:`build_parser` (default: the shipped grammar's, built once).
    """
    with gc_paused():
        parsed = parse_lines(mat_lines(text), parser or mat_parser())
        m = mat_from_lines(parsed, file, strict)
        del parsed  # gone before the collector's next pass, which then walks only what is kept
    return m


def mat_from_lines(parsed, file: str = "", strict: bool = False) -> Match:
    """The unreplayed :class:`Match` of lines parsed by :func:`~bgtools.formats.matgrammar.parse_lines`."""
    r = _Reader(file, strict)
    _feed(r, parsed)
    return r.match()


def _feed(r: _Reader, parsed) -> bool:
    """Hand the parsed lines to the reader; False when reading must stop (a second match)."""
    line = r.line
    dice = _DICE
    for kind, lineno, data in parsed:
        if kind == "move_line":  # most lines: two plays, taken here (what r.line would make of them)
            cur = r.cur
            if cur is not None and not cur["edited"]:
                num, _, cells = data
                if len(cells) == 2:
                    (c0, k0, v0, _), (c1, k1, v1, _) = cells
                    if k0 == "roll" and k1 == "roll":
                        cur["actions"] += (Roll(0, dice[v0[0]], None, "play", " ".join(v0[1]), lineno, c0 + 1, num),
                                           Roll(1, dice[v1[0]], None, "play", " ".join(v1[1]), lineno, c1 + 1, num))
                        continue
        if not line(kind, lineno, data):
            return False
    return True


def iter_mat(chunks: Iterable[tuple[int, list[str]]], file: str = "", strict: bool = False, *,
             beavers: bool = False, parser=None) -> Iterator[tuple[Match, Optional[Game]]]:
    """The unreplayed games of a ``.mat`` text given in pieces, one at a time: ``(header, game)``,
    the header being the match without its games; then ``(header, None)`` once at the end.

    ``chunks``: (0-based index of the first line, lines as :func:`mat_lines` gives them), each
    piece after the first starting at a ``Game`` line, so that it parses as it would in the
    whole text.  ``beavers``: whether a beaver cell is read anywhere in the file (a rule of the
    whole match that the games read before it need).  What :func:`parse_mat` reads, piece by
    piece: memory is that of one piece and one game, whatever the length of the text.
    """
    r = _Reader(file, strict)
    r.beavers = beavers
    p = parser or mat_parser()
    go = True
    for start, lines in chunks:
        with gc_paused():
            go = _feed(r, _shifted(parse_lines(lines, p), start))
        if r.games and r.players is not None:  # (the players come from the first score line)
            head = r.header()
            games, r.games = r.games, []
            for g in games:
                yield head, g
        if not go:
            break
    r.close()
    head = r.header()
    for g in r.games:
        yield head, g
    yield head, None


def _shifted(parsed: list, by: int) -> list:
    """Parsed lines of a piece starting at line index ``by``, numbered as in the whole text."""
    if not by:
        return parsed
    out = []
    for kind, lineno, data in parsed:
        if kind == "move_line" or kind == "move_line_repeat":
            data = (*data[:2], [(c[0], c[1], c[2], c[3] + by) for c in data[2]], *data[3:])
        elif kind == "cell_line":
            data = [(c[0], c[1], c[2], c[3] + by) for c in data]
        out.append((kind, lineno + by, data))
    return out


# --------------------------------------------------------------------------- writer
def _roll_cell(a: Roll, pos: Optional[Position]) -> tuple[str, Optional[Position]]:
    """The cell text of a roll and the position after it (opponent on roll), None if unknown."""
    dice = f"{a.dice[0]}{a.dice[1]}: "
    if a.steps is None:
        if a.status == "rolled" and "?" in a.text:
            return dice + "???", None
        return dice + (a.text if a.status in ("illegal", "unchecked") else ""), None
    parts = []
    cur = pos
    for st in a.steps:
        hit = False
        if cur is not None:
            try:
                cur, hits = apply_steps(cur, [st])
                cur = cur.swap()  # keep the mover on roll for the next step
                hit = bool(hits)
            except PositionError:
                cur = None
        parts.append(f"{st[0]}/{st[1]}" + ("*" if hit else ""))
    return dice + " ".join(parts) + " ", None if cur is None else cur.swap()


def format_mat(match: Match) -> str:
    """The match as gnubg 1.07 writes it (``export match mat``), keeping written dice order."""
    out = []
    for k, v in mat_header_tags(match.tags):
        out.append(f'; [{k} "{v}"]')
    if match.length == 0 and match.jacoby and "Jacoby" not in match.tags:
        out.append('; [Jacoby "On"]')
    if match.length == 0 and match.beavers and "Beaver" not in match.tags:
        out.append('; [Beaver "On"]')
    if match.length > 0 and not match.crawford and "Crawford" not in match.tags:
        out.append('; [Crawford "Off"]')
    out += ["", f" {match.length} point match", ""]
    p0, p1 = match.players
    for g in match.games:
        if g.initial_cube != 1:
            raise MatWriteError(f"game {g.number} starts with the cube at {g.initial_cube} (automatic doubles), "
                                "which the .mat text cannot record", g.number, g.line)
        out.append(f" Game {g.number}")
        left = f"{p0} : {g.score[0]}"  # gnubg's columns; a long name still leaves a space before the second
        out.append(" " + (left.ljust(31) if len(left) < 31 else left + "  ") + f"{p1} : {g.score[1]}")
        lines: list[list] = []  # [left, right]
        pos: Optional[Position] = Position.initial()
        persp = 0
        acts = g.actions
        cube = [1, -1, 1]  # value, owner, offered: for a board edit written as XG's Set Pos
        for i, a in enumerate(acts):
            if isinstance(a, Resign):
                continue
            if type(a) is SetBoard:
                pos, persp = a.position(a.player), a.player
                if not (i > 0 and _snowie_cell(acts[i - 1], a)):
                    lines.append(["raw", None, "; Set Pos=" + _set_pos_text(a, cube, g.number)])
                if a.cube is not None:
                    cube[:2] = [a.cube, -1 if a.owner is None else a.owner]
                continue
            _track_cube(a, cube)
            if type(a) is Roll and i + 1 < len(acts) and _snowie_cell(a, acts[i + 1]):
                cell = f"{a.dice[0]}{a.dice[1]}: Illegal play ({acts[i + 1].text}) "  # type: ignore[union-attr]
                side = a.player
                if not lines or lines[-1][0] != "move" or lines[-1][2] is not None or \
                        (side == 0 and lines[-1][1] is not None):
                    lines.append(["move", None, None])
                lines[-1][1 + side] = cell
                continue
            if isinstance(a, Take) and i > 0 and isinstance(acts[i - 1], Beaver) and i + 1 < len(acts) \
                    and isinstance(acts[i + 1], Roll) and acts[i + 1].player == a.player:
                continue  # gnubg omits Takes after a beaver; reading implies it again
            if isinstance(a, Roll):
                view = None if pos is None else (pos if persp == a.player else pos.swap())
                cell, after = _roll_cell(a, view)
                if a.steps is not None:
                    pos, persp = after, 1 - a.player
                elif a.status in ("illegal", "unchecked"):
                    pos = None  # the board is unknown from here on
            elif isinstance(a, Double):
                cell = f" Doubles => {a.cube}"
            elif isinstance(a, Beaver):
                cell = f" Beavers => {a.cube}"
            elif isinstance(a, Take):
                cell = " Takes"
            elif isinstance(a, Drop):
                cell = " Drops"
            elif isinstance(a, Win):
                text = f" Wins {a.points} point{'s' if a.points != 1 else ''}"
                if a.player == 1 and i > 0 and isinstance(acts[i - 1], Drop) and lines \
                        and lines[-1][0] == "move" and lines[-1][2] is None:
                    lines[-1][2] = text  # gnubg: "Drops" on the left, "Wins" beside it
                else:
                    lines.append(["win", a.player, text])
                continue
            else:  # pragma: no cover
                continue
            side = a.player
            if not lines or lines[-1][0] != "move" or lines[-1][2] is not None or \
                    (side == 0 and lines[-1][1] is not None):
                lines.append(["move", None, None])
            lines[-1][1 + side] = cell
        n = 0
        for ln in lines:
            if ln[0] == "raw":
                out.append(ln[2])
                continue
            if ln[0] == "win":
                out.append(("     " + ln[2]) if ln[1] == 0 else (" " * 33 + ln[2]))
                continue
            n += 1
            left = ln[1] if ln[1] is not None else ""
            right = ln[2] if ln[2] is not None else ""
            text = f"{n:3d}) " + (left.ljust(28) + right if right else left)
            out.append(text)
        out.append("")
    return "\n".join(out) + "\n"


class MatWriteError(BgtoolsError, ValueError):
    """A game that the .mat text cannot hold as it is (a board edit no dialect can write);
    ``game`` is its number as written, ``line`` where the edit was read (0 = unknown)."""

    def __init__(self, message: str, game: int = 0, line: int = 0):
        super().__init__(message)
        self.game, self.line = game, line


def _snowie_cell(roll, edit) -> bool:
    """Whether ``roll`` and the board edit after it are a Snowie ``Illegal play (...)`` cell."""
    if type(roll) is not Roll or type(edit) is not SetBoard or edit.source != "snowie" or roll.status != "rolled":
        return False
    if edit.player != roll.player or edit.cube is not None:
        return False
    try:
        return snowie_sides(edit.text) == edit.sides
    except ValueError:
        return False


def _track_cube(a, cube: list) -> None:
    """Follow the cube through the game's actions: ``cube`` = [value, owner, value offered]."""
    if isinstance(a, Double):
        cube[2] = a.cube
    elif isinstance(a, Beaver):
        cube[:3] = [a.cube, a.player, a.cube]
    elif isinstance(a, Take) and cube[2] > cube[0]:
        cube[:2] = [cube[2], a.player]


def _set_pos_text(a: SetBoard, cube: list, game: int) -> str:
    """The text after ``; Set Pos=`` for a board edit: the XGID letters, ``/``, the cube."""
    p0, p1 = a.sides
    letters = [chr(96 + p1[24]) if p1[24] else "-"]
    for i in range(1, 25):
        n0, n1 = p0[i - 1], p1[24 - i]
        letters.append(chr(64 + n0) if n0 else chr(96 + n1) if n1 else "-")
    letters.append(chr(64 + p0[24]) if p0[24] else "-")
    value, owner = (a.cube, a.owner) if a.cube is not None else (cube[0], cube[1])
    log = value.bit_length() - 1
    if owner in (None, -1):
        if value != 1:
            raise MatWriteError(f"game {game}: a board edit with a centred cube at {value} cannot be written "
                                "as XG's Set Pos (it centres the cube at 1)", game, a.line)
        return "".join(letters) + "/0"
    if value != 1 << log or not 1 <= log <= 9:
        raise MatWriteError(f"game {game}: a board edit with the cube at {value} cannot be written as XG's Set Pos",
                            game, a.line)
    return "".join(letters) + ("/-" if owner == 0 else "/") + str(log)


def write_mat(match: Match, path) -> None:
    """Write ``match`` as a ``.mat`` file atomically (temporary file + rename)."""
    from bgtools.base.fileio import atomic_write

    atomic_write(path, format_mat(match))
