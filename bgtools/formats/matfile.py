"""The ``.mat`` match text (Jellyfish / gnubg and its dialects): reader and writer.

The syntax is defined by ``grammars/mat.lark``; the text is parsed by Lark's LALR parser
of that grammar (:mod:`bgtools.formats.matgrammar`), whose inline transformer hands each
line over as a tuple of cells.  This module walks those lines: the match line, games,
score lines, and which player each cell belongs to (decided by its indentation, as gnubg
does: white space is not part of the grammar).

>>> m = parse_mat(" 3 point match\\n\\n Game 1\\n A : 0    B : 0\\n  1) 31: 8/5 6/5\\n")
>>> m.players, m.length, m.games[0].actions[0].text
(('A', 'B'), 3, '8/5 6/5')
"""

from __future__ import annotations

from dataclasses import replace
from typing import Optional

from bgtools.core.position import Position, PositionError
from bgtools.formats.matgrammar import build_parser, grammar_text, mat_parser, parse_lines
from bgtools.model.game import Beaver, Double, Drop, Game, Resign, Roll, Take, Win
from bgtools.model.match import Match
from bgtools.model.problems import MatchFileError, MatchProblem
from bgtools.model.replay import apply_steps

__all__ = ["parse_mat", "mat_from_lines", "write_mat", "format_mat", "grammar_text", "build_parser",
           "mat_parser", "mat_lines"]


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
    name = raw[: raw.rindex(":")].strip()
    head, comma, rating = name.rpartition(",")
    if comma and head.strip():
        try:
            if float(rating) > 0:  # gnubg strips it only when a positive number follows
                name = head.rstrip()
        except ValueError:
            pass
    return name


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


def _action(rule: str, val, player: int, loc: dict):
    """The action of one cell (None for Galaxy's "Losses" cell, which adds nothing)."""
    if rule == "roll":
        dtext, moves = val
        return Roll(player, (int(dtext[0]), int(dtext[1])), None, "play", " ".join(moves), **loc)
    if rule == "roll_cannot":
        return Roll(player, (int(val[0][0]), int(val[0][1])), None, "play", "", **loc)
    if rule == "roll_unknown":
        # XG's "???": the play was not written; the replay plays it when it is forced
        return Roll(player, (int(val[0][0]), int(val[0][1])), None, "unknown", val[1][0], **loc)
    if rule == "roll_illegal":
        return Roll(player, (int(val[0][0]), int(val[0][1])), None, "unchecked", "Illegal play " + val[1][0], **loc)
    if rule == "double":
        return Double(player, val, **loc)
    if rule == "beaver":
        return Beaver(player, val, **loc)
    if rule == "take":
        return Take(player, **loc)
    if rule == "drop":
        return Drop(player, **loc)
    if rule == "resign":
        return Resign(player, 1, **loc)  # the level follows from the "Wins" line (replay)
    if rule == "win":
        return Win(player, val[0], **loc)
    return None


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
        """Take one parsed line; False when reading must stop (a second match)."""
        if kind in ("comment", "tag", "set_pos"):
            if kind == "tag" and self.length is None:
                self.tags[data[0]] = data[1]
            elif kind == "set_pos" and self.cur is not None:
                self.error(lineno, 0, "XG 'Set Pos' board edit: the position it sets is not replayed, "
                                      "nor the rest of the game")
                self.cur["edited"] = True
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
        cur = self.cur
        if cur is None:
            self.error(lineno, 0, f"{kind.replace('_', ' ')} before the first 'Game' line")
            return True
        if kind == "score_line":
            self.score_line(lineno, data)
            return True
        num, cells, sides = _sides(kind, data)  # at most two cells: the grammar says so
        for (col, rule, val, _), player in zip(cells, sides):
            a = _action(rule, val, player, dict(line=lineno, column=col + 1, move_no=num))
            if rule == "roll_illegal":
                self.error(lineno, col, "Snowie 'Illegal play' record: the position it sets is not replayed, "
                                        "nor the rest of the game", num)
                cur["edited"] = True
            if isinstance(a, Roll) and cur["edited"]:
                # after a board edit the board is unknown: the replay checks no more rolls
                a = replace(a, status="unchecked")
            if a is not None:
                cur["actions"].append(a)
        return True

    def score_line(self, lineno: int, data) -> None:
        n0, n1, _ = data
        cur = self.cur
        names = (_name(n0), _name(n1))
        if self.players is None:
            self.players = names
        elif names != self.players:
            self.error(lineno, 0, f"players {names[0]!r} and {names[1]!r} differ from the first game's "
                                  f"{self.players[0]!r} and {self.players[1]!r}")
        if cur["score"] is not None or cur["actions"]:
            self.error(lineno, 0, "a second score line in the same game")
        cur["score"] = (_score(n0), _score(n1))

    def match(self) -> Match:
        self.close()
        if self.length is None:
            raise MatchFileError(MatchProblem("no 'N point match' line: not a .mat match file", self.file))
        length, games, tags = self.length, self.games, self.tags
        lower = {k.lower(): v.strip().lower() for k, v in tags.items()}
        crawford = lower.get("crawford", "on") != "off"
        jacoby = length == 0 and lower.get("jacoby", "off") == "on"
        beavers = (length == 0 and lower.get("beaver", "off") == "on") or any(
            isinstance(a, Beaver) for g in games for a in g.actions)
        return Match(self.players or ("", ""), length, tuple(games), crawford=crawford, jacoby=jacoby,
                     beavers=beavers, tags=tags, source=self.file, format="mat", file_errors=self.file_errors)


def parse_mat(text: str, file: str = "", strict: bool = False, parser=None) -> Match:
    """Parse ``.mat`` text into an unreplayed :class:`Match` (see :func:`bgtools.formats.read_match`).

    Lines the grammar rejects become errors on the current game (or the file).
    Raises :class:`MatchFileError` when there is no match line at all.  ``parser``: a
    parser from :func:`build_parser` (default: the shipped grammar's, built once).
    """
    return mat_from_lines(parse_lines(mat_lines(text), parser or mat_parser()), file, strict)


def mat_from_lines(parsed, file: str = "", strict: bool = False) -> Match:
    """The unreplayed :class:`Match` of lines parsed by :func:`~bgtools.formats.matgrammar.parse_lines`."""
    r = _Reader(file, strict)
    for kind, lineno, data in parsed:
        if not r.line(kind, lineno, data):
            break
    return r.match()


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
    for k, v in match.tags.items():
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
        out.append(f" Game {g.number}")
        out.append(" " + f"{p0} : {g.score[0]}".ljust(31) + f"{p1} : {g.score[1]}")
        lines: list[list] = []  # [left, right]
        pos: Optional[Position] = Position.initial()
        persp = 0
        acts = g.actions
        for i, a in enumerate(acts):
            if isinstance(a, Resign):
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
            if not lines or lines[-1][0] == "win" or lines[-1][2] is not None or \
                    (side == 0 and lines[-1][1] is not None):
                lines.append(["move", None, None])
            lines[-1][1 + side] = cell
        n = 0
        for ln in lines:
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


def write_mat(match: Match, path) -> None:
    """Write ``match`` as a ``.mat`` file atomically (temporary file + rename)."""
    from bgtools.base.fileio import atomic_write

    atomic_write(path, format_mat(match))
