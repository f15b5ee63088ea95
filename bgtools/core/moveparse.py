"""Move notation, read: the dialects of real files resolved to exactly one legal play.

The parser accepts ``25/20``, ``bar/20``, ``Bar/20``, ``6/0``, ``6/off``, combined hops
``24/16*``, repetitions ``(2)``, and hits marked or not, and resolves the text against a
position and dice to exactly one legal play.

>>> from bgtools.core.position import Position
>>> parse_play(Position.initial(), (3, 1), "8/5 6/5").notation()
'8/5 6/5'
"""

from __future__ import annotations

import re
from typing import Sequence

from bgtools.base.errors import BgtoolsError
from bgtools.core.movegen import Play, legal_plays
from bgtools.core.notation import point_name
from bgtools.core.position import Position

__all__ = ["parse_play", "parse_move_text", "mover_after", "MoveParseError", "IllegalMoveError",
           "AmbiguousMoveError"]


class MoveParseError(BgtoolsError, ValueError):
    """The move text cannot be read."""


class IllegalMoveError(MoveParseError):
    """The move text describes no legal play for this position and roll."""


class AmbiguousMoveError(MoveParseError):
    """The move text fits more than one legal play."""



_TOKEN = re.compile(
    r"^(?P<path>(?:bar|\d{1,2})\*?(?:/(?:bar|off|\d{1,2})\*?)+)(?:\((?P<n>\d)\))?$", re.IGNORECASE
)


def parse_move_text(text: str) -> list[tuple[list[tuple[int, bool]], int]]:
    """Split move text into checker paths: ``[([(point, starred), ...], repeat), ...]``.

    Points are the mover's: 25 = bar, 0 = off.  Raises :class:`MoveParseError`.
    """
    paths = []
    for tok in text.replace(",", " ").split():
        m = _TOKEN.match(tok)
        if not m:
            raise MoveParseError(f"cannot read move {tok!r}")
        pts: list[tuple[int, bool]] = []
        for raw in m.group("path").split("/"):
            star = raw.endswith("*")
            p = raw.rstrip("*").lower()
            if p == "bar":
                v = 25
            elif p == "off":
                v = 0
            else:
                v = int(p)
                if v > 25:
                    raise MoveParseError(f"point {v} in {tok!r} is not on the board")
            pts.append((v, star))
        for (a, _), (b, _) in zip(pts, pts[1:]):
            if b >= a:
                raise MoveParseError(f"{tok!r} moves backwards ({point_name(a)} to {point_name(b)})")
        n = int(m.group("n") or 1)
        if not 1 <= n <= 4:
            raise MoveParseError(f"repetition ({n}) in {tok!r} is not 1..4")
        paths.append((pts, n))
    return paths


def mover_after(position: Position, paths, text: str = "") -> list[int]:
    """The mover's 25 slots after the checker paths of :func:`parse_move_text` (no rules checked
    but that each moved checker exists)."""
    target = list(position.on_roll)
    for pts, n in paths:
        a = pts[0][0]
        b = pts[-1][0]
        for _ in range(n):
            sa = 24 if a == 25 else a - 1
            if target[sa] <= 0:
                raise IllegalMoveError(f"no checker on {point_name(a)} to move in {text!r}")
            target[sa] -= 1
            if b != 0:
                target[b - 1] += 1
    return target


def parse_play(position: Position, dice: Sequence[int], text: str,
               plays: list[Play] | None = None) -> Play:
    """Resolve move text to exactly one legal play of ``position`` with ``dice``.

    ``text`` may be empty (or "Cannot Move") only when no play is legal.
    """
    if plays is None:
        plays = legal_plays(position, dice)
    t = text.strip()
    if t == "" or t.lower() in ("cannot move", "can't move"):
        if plays:
            raise IllegalMoveError(
                f"no move written for {dice[0]}{dice[1]} but {len(plays)} legal play(s) exist"
            )
        raise IllegalMoveError("no legal play exists (an empty play is not a Play)")
    paths = parse_move_text(t)
    target = mover_after(position, paths, t)
    starred: set[int] = set()
    landings: set[int] = set()
    for pts, n in paths:
        b = pts[-1][0]
        for p, s in pts[1:]:
            if s and p != 0:
                starred.add(p)
        if b != 0:
            landings.add(b)
    want = tuple(target)
    cands = [p for p in plays if p.after.opponent == want]
    if not cands:
        raise IllegalMoveError(f"{t!r} is not a legal play for {dice[0]}{dice[1]}")
    if len(cands) == 1:
        return cands[0]
    # several plays leave the mover's checkers alike and differ in hits on the way:
    # keep those that hit every starred point and hit nothing but landings and starred points
    allowed = starred | landings
    # a written landing on an opponent's blot hits it even when the writer marks no hits
    required = starred | {q for q in landings if position.opponent[24 - q] == 1}
    fit = [p for p in cands if required <= set(p.hits) and set(p.hits) <= allowed]
    if len(fit) > 1:
        fewest = min(len(p.hits) for p in fit)
        fit = [p for p in fit if len(p.hits) == fewest]
    if len(fit) == 1:
        return fit[0]
    if not fit:
        raise IllegalMoveError(f"{t!r} does not match the hits of any legal play")
    raise AmbiguousMoveError(f"{t!r} fits {len(fit)} legal plays: " + ", ".join(p.notation() for p in fit))
