"""The ``.mat`` match text (Jellyfish / gnubg and its dialects): reader and writer.

The syntax is defined by ``grammars/mat.lark``.  Reading uses a scanner built from
that grammar's terminals (the same regular expressions, tried in the grammar's
priority order) driving a small state machine that follows the grammar's rules; the
full Lark LALR parser (:func:`lark_parser`) is built once on demand and is used by the
tests to check that both agree line by line.  Which column (player) a lone cell
belongs to is decided by its indentation, as gnubg does.

>>> m = parse_mat(" 3 point match\\n\\n Game 1\\n A : 0    B : 0\\n  1) 31: 8/5 6/5\\n")
>>> m.players, m.length, m.games[0].actions[0].text
(('A', 'B'), 3, '8/5 6/5')
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Optional

from bgtools.model.game import Beaver, Double, Drop, Game, Resign, Roll, Take, Win

from bgtools.model.match import Match

from bgtools.model.problems import MatchFileError, MatchProblem

from bgtools.model.replay import apply_steps
from bgtools.core.position import Position, PositionError

__all__ = ["parse_mat", "write_mat", "format_mat", "lark_parser", "scan_line", "grammar_text"]


def grammar_text() -> str:
    """The text of ``mat.lark`` (package data, or the source checkout's grammars/)."""
    try:
        from importlib.resources import files

        return (files("bgtools.grammars") / "mat.lark").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, OSError, TypeError):
        return (Path(__file__).resolve().parents[2] / "grammars" / "mat.lark").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def lark_parser():
    """The LALR parser of ``mat.lark`` (start rules ``line`` and ``file``), built once."""
    import lark

    return lark.Lark(grammar_text(), parser="lalr", lexer="contextual", start=["line", "file"],
                     maybe_placeholders=False)


_CELL_TERMS = ("ROLL", "DOUBLES", "BEAVERS", "TAKES", "DROPS", "WINS", "LOSSES", "MOVE", "CANNOT",
               "UNKNOWN", "ILLEGAL", "SNOWIE_POS", "ARROW", "POINTS", "AND_MATCH", "INT")


@lru_cache(maxsize=1)
def _scanner():
    """Regular expressions of the grammar's terminals, combined for fast scanning."""
    pats = _terminal_patterns()
    cell = re.compile(r"[ \t]*(?:" + "|".join(f"(?P<{n}>{pats[n]})" for n in _CELL_TERMS) + ")")
    ws = r"[ \t]*"
    match_line = re.compile(f"{ws}({pats['INT']}){ws}{pats['POINT_MATCH']}{ws}$")
    game_line = re.compile(f"{ws}{pats['GAME']}{ws}({pats['INT']}){ws}$")
    score_line = re.compile(f"{ws}({pats['NAME_SCORE']}){ws}({pats['NAME_SCORE']}){ws}$")
    moveno = re.compile(f"{ws}({pats['MOVENO']})")
    return cell, match_line, game_line, score_line, moveno


@lru_cache(maxsize=1)
def _terminal_patterns() -> dict[str, str]:
    """Terminal name -> regex, read from the grammar file (no parser build needed)."""
    pats: dict[str, str] = {}
    for line in grammar_text().splitlines():
        m = re.match(r'^([A-Z_]+)(?:\.\d+)?:\s*(/.*/[a-z]*|".*")\s*$', line)
        if not m:
            continue
        name, body = m.groups()
        if body.startswith('"'):
            pats[name] = re.escape(body[1:-1])
        else:
            flags = body[body.rindex("/") + 1:]
            rx = body[1:body.rindex("/")].replace("\\/", "/")
            pats[name] = f"(?{flags}:{rx})" if flags else rx
    return pats


# --------------------------------------------------------------------------- line scanner
class _LineError(Exception):
    def __init__(self, col: int, msg: str):
        self.col, self.msg = col, msg


def scan_line(line: str):
    """Classify one line (no newline) the way the grammar's ``line`` rule does.

    Returns ``(kind, data)``: ``("blank", None)``, ``("comment", text)``,
    ``("match_line", length)``, ``("game_line", number)``, ``("score_line", (n0, n1, col1))``,
    ``("move_line", (number, cells))`` or ``("cell_line", cells)`` where a cell is
    ``(column, rule, values)``.  Raises ``_LineError`` on text the grammar rejects.
    """
    s = line.strip()
    if not s:
        return "blank", None
    if s[0] in ";#":
        return "comment", s
    cell_rx, match_rx, game_rx, score_rx, moveno_rx = _scanner()
    m = match_rx.match(line)
    if m:
        return "match_line", int(m.group(1))
    m = game_rx.match(line)
    if m:
        return "game_line", int(m.group(1))
    m = score_rx.match(line)
    if m:
        return "score_line", (m.group(1), m.group(2), m.start(2))
    m = moveno_rx.match(line)
    if m:
        num = int(m.group(1)[:-1])
        return "move_line", (num, m.end(), _cells(line, m.end()))
    return "cell_line", _cells(line, 0)


def _cells(line: str, pos: int):
    rx = _scanner()[0]
    toks = []
    n = len(line)
    while pos < n:
        m = rx.match(line, pos)
        if not m or m.end() == pos:
            rest = line[pos:]
            if not rest.strip():
                break
            col = pos + len(rest) - len(rest.lstrip())
            raise _LineError(col, f"cannot read {line[col:].split()[0]!r}")
        kind = m.lastgroup
        toks.append((kind, m.group(kind), m.start(kind)))
        pos = m.end()
    cells = []
    i = 0
    nt = len(toks)
    while i < nt:
        kind, val, col = toks[i]
        i += 1
        if kind == "ROLL":
            moves = []
            rule = "roll"
            if i < nt and toks[i][0] == "CANNOT":
                rule = "roll_cannot"
                i += 1
            elif i < nt and toks[i][0] == "UNKNOWN":
                rule = "roll_unknown"
                i += 1
            elif i < nt and toks[i][0] == "ILLEGAL":
                rule = "roll_illegal"
                i += 1
                if i < nt and toks[i][0] == "SNOWIE_POS":
                    moves.append(toks[i][1])
                    i += 1
                else:
                    raise _LineError(col, "'Illegal play' without its (position)")
                if i < nt and toks[i][0] == "ROLL":
                    i += 1
            else:
                while i < nt and toks[i][0] == "MOVE":
                    moves.append(toks[i][1])
                    i += 1
            cells.append((col, rule, (val, moves)))
        elif kind in ("DOUBLES", "BEAVERS"):
            if i + 1 < nt and toks[i][0] == "ARROW" and toks[i + 1][0] == "INT":
                cells.append((col, "double" if kind == "DOUBLES" else "beaver", int(toks[i + 1][1])))
                i += 2
            else:
                raise _LineError(col, f"expected '{val} => n'")
        elif kind in ("TAKES", "DROPS"):
            cells.append((col, "take" if kind == "TAKES" else "drop", None))
        elif kind in ("WINS", "LOSSES"):
            if i + 1 < nt and toks[i][0] == "INT" and toks[i + 1][0] == "POINTS":
                pts = int(toks[i][1])
                i += 2
                and_match = False
                if kind == "WINS" and i < nt and toks[i][0] == "AND_MATCH":
                    and_match = True
                    i += 1
                cells.append((col, "win" if kind == "WINS" else "loss", (pts, and_match)))
            else:
                raise _LineError(col, f"expected '{val} n point(s)'")
        else:
            raise _LineError(col, f"unexpected {val!r}")
    return cells


# --------------------------------------------------------------------------- reader
_TAG = re.compile(r'^[;#]\s*\[\s*([^"\]]+?)\s+"(.*)"\s*\]\s*$')
_RATING = re.compile(r"^(.*\S),\s*(\d+(?:\.\d+)?)$")


def _name(raw: str) -> str:
    name = raw[: raw.rindex(":")].strip()
    m = _RATING.match(name)
    if m and float(m.group(2)) > 0:
        name = m.group(1)
    return name


def _score(raw: str) -> int:
    return int(raw[raw.rindex(":") + 1:].strip())


def parse_mat(text: str, file: str = "", strict: bool = False) -> Match:
    """Parse ``.mat`` text into an unreplayed :class:`Match` (see :func:`bgtools.model.match.read_match`).

    Lines the grammar rejects become errors on the current game (or the file).
    Raises :class:`MatchFileError` when there is no match line at all.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    tags: dict[str, str] = {}
    file_errors: list[MatchProblem] = []
    length: Optional[int] = None
    players: Optional[tuple[str, str]] = None
    games: list[Game] = []
    cur: Optional[dict] = None

    def error(lineno, col, msg, move=0):
        e = MatchProblem(msg, file, lineno, col + 1 if col >= 0 else 0, cur["number"] if cur else 0, move)
        if strict:
            raise MatchFileError(e)
        (cur["errors"] if cur else file_errors).append(e)

    def close():
        nonlocal cur
        if cur is not None:
            games.append(Game(cur["number"], cur["score"] or (0, 0), tuple(cur["actions"]),
                              errors=cur["errors"], line=cur["line"]))
        cur = None

    lines = text.split("\n")
    for lineno, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        if "\t" in line:
            line = line.expandtabs(8)
        try:
            kind, data = scan_line(line)
        except _LineError as e:
            if length is None:
                continue  # gnubg skips everything before the match line
            error(lineno, e.col, f"cannot read the line: {e.msg}")
            continue
        if kind == "blank":
            continue
        if kind == "comment":
            if length is None:
                m = _TAG.match(data)
                if m:
                    tags[m.group(1)] = m.group(2)
            continue
        if length is None:
            if kind == "match_line":
                length = data
            continue
        if kind == "match_line":
            error(lineno, 0, "a second match in the same file is not read")
            break
        if kind == "game_line":
            close()
            cur = {"number": data, "score": None, "actions": [], "errors": [], "line": lineno,
                   "right": 33}
            continue
        if cur is None:
            error(lineno, 0, f"{kind.replace('_', ' ')} before the first 'Game' line")
            continue
        if kind == "score_line":
            n0, n1, col1 = data
            names = (_name(n0), _name(n1))
            if players is None:
                players = names
            elif names != players:
                error(lineno, 0, f"players {names[0]!r} and {names[1]!r} differ from the first game's "
                                 f"{players[0]!r} and {players[1]!r}")
            if cur["score"] is not None or cur["actions"]:
                error(lineno, 0, "a second score line in the same game")
            cur["score"] = (_score(n0), _score(n1))
            cur["right"] = col1
            continue
        if kind == "move_line":
            num, after, cells = data
            if len(cells) == 1:
                gap = cells[0][0] - after
                sides = [1 if gap > 6 else 0]
            else:
                sides = [0, 1]
        else:
            num, cells = 0, data
            if len(cells) == 1:
                sides = [1 if cells[0][0] >= 16 else 0]
            else:
                sides = [0, 1]
        if len(cells) > 2:
            error(lineno, cells[2][0], "more than two cells on one line")
            cells = cells[:2]
        for (col, rule, val), player in zip(cells, sides):
            loc = dict(line=lineno, column=col + 1, move_no=num)
            acts = cur["actions"]
            if rule.startswith("roll"):
                dtext, moves = val
                dice = (int(dtext[0]), int(dtext[1]))
                if rule == "roll":
                    acts.append(Roll(player, dice, None, "play", " ".join(moves), **loc))
                elif rule == "roll_cannot":
                    acts.append(Roll(player, dice, None, "play", "", **loc))
                elif rule == "roll_unknown":
                    acts.append(Roll(player, dice, None, "rolled", "???", **loc))
                else:
                    error(lineno, col, "Snowie 'Illegal play' record: the position it sets is not "
                                       "replayed", num)
                    acts.append(Roll(player, dice, None, "illegal", "Illegal play " + moves[0], **loc))
            elif rule == "double":
                acts.append(Double(player, val, **loc))
            elif rule == "beaver":
                acts.append(Beaver(player, val, **loc))
            elif rule == "take":
                acts.append(Take(player, **loc))
            elif rule == "drop":
                acts.append(Drop(player, **loc))
            elif rule == "win":
                acts.append(Win(player, val[0], **loc))
            # "loss" (Backgammon Galaxy's loser cell) carries nothing the "Wins" cell lacks
    close()
    if length is None:
        raise MatchFileError(MatchProblem("no 'N point match' line: not a .mat match file", file))
    if players is None:
        players = ("", "")
    lower = {k.lower(): v.strip().lower() for k, v in tags.items()}
    crawford = lower.get("crawford", "on") != "off"
    jacoby = length == 0 and lower.get("jacoby", "off") == "on"
    beavers = (length == 0 and lower.get("beaver", "off") == "on") or any(
        isinstance(a, Beaver) for g in games for a in g.actions)
    return Match(players, length, tuple(games), crawford=crawford, jacoby=jacoby, beavers=beavers,
                 tags=tags, source=file, format="mat", file_errors=file_errors)


# --------------------------------------------------------------------------- writer
def _pt(p: int) -> str:
    return str(p)


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
