"""FIBS ``oldmoves`` match records (reader).

::

    Score is 0-1 in a 3 point match.       (or "... in a money game.")
    North is X - South is O
    X: (3 1) 8-5 6-5
    O: (6 2) 1-3 3-9                       (FIBS absolute numbering: ascending lists are inverted)
    X: doubles / O: accepts / O: rejects / X: (6 5) can't move / X: wins 1 point

X is the first-named player (gnubg player 0), O the second.  A ``wins`` while the game
is still on is a resignation; its level is the points divided by the cube.
"""

from __future__ import annotations

import re
from typing import Any

from bgtools.model.game import Beaver, Double, Drop, Game, Roll, Take, Win

from bgtools.model.match import Match

from bgtools.model.problems import MatchFileError, MatchProblem

__all__ = ["parse_oldmoves"]

_SCORE = re.compile(r"^\s*Score is (\d+)-(\d+) in a (?:(\d+) point match|money game)\.?\s*$", re.I)
_NAMES = re.compile(r"^\s*(.+?) is X - (.+?) is O\s*$")
_ACT = re.compile(r"^\s*([XO]):\s*(.*?)\s*$")
_ROLL = re.compile(r"^\((\d) (\d)\)\s*(.*)$")
_MOVE = re.compile(r"^(bar|\d{1,2})-(off|\d{1,2})$", re.I)


def _moves(text: str, line: int, file: str) -> str:
    pairs = []
    for tok in text.split():
        m = _MOVE.match(tok)
        if not m:
            raise MatchFileError(MatchProblem(f"cannot read move {tok!r}", file, line))
        a, b = m.group(1).lower(), m.group(2).lower()
        pairs.append((25 if a == "bar" else int(a), 0 if b == "off" else int(b), a == "bar", b == "off"))
    ascending = any((not fa and not fb and b > a) or (fa and b <= 6) or (fb and not fa and a >= 19)
                    for a, b, fa, fb in pairs)
    out = []
    for a, b, fa, fb in pairs:
        if ascending:
            a = 25 if fa else 25 - a
            b = 0 if fb else 25 - b
        out.append(f"{a}/{b}")
    return " ".join(out)


def parse_oldmoves(text: str, file: str = "", strict: bool = False) -> Match:
    """Parse FIBS oldmoves text into an (unreplayed) :class:`Match`."""
    if text.startswith("\ufeff"):
        text = text[1:]
    games: list[Game] = []
    players = None
    length = None
    cur = None
    errors_outside: list[MatchProblem] = []

    def close():
        nonlocal cur
        if cur is not None:
            games.append(Game(len(games) + 1, cur["score"], tuple(cur["actions"]), errors=cur["errors"],
                              line=cur["line"]))
        cur = None

    for lineno, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip()
        if not line.strip():
            continue
        m = _SCORE.match(line)
        if m:
            n = int(m.group(3) or 0)
            if length is not None and n != length:
                break  # another match: gnubg reads only the first
            length = n
            close()
            cur = {"score": (int(m.group(1)), int(m.group(2))), "actions": [], "errors": [], "line": lineno}
            continue
        m = _NAMES.match(line)
        if m:
            names = (m.group(1).strip(), m.group(2).strip())
            if players is not None and names != players:
                close()
                break
            players = names
            continue
        m = _ACT.match(line)
        if not m or cur is None:
            e = MatchProblem(f"cannot read the line {line.strip()[:40]!r}", file, lineno, 1,
                           len(games) + 1 if cur else 0)
            if strict:
                raise MatchFileError(e)
            (cur["errors"] if cur else errors_outside).append(e)
            continue
        p = 0 if m.group(1) == "X" else 1
        body = m.group(2)
        low = body.lower()
        acts = cur["actions"]
        loc: dict[str, Any] = dict(line=lineno, column=1)
        r = _ROLL.match(body)
        try:
            if r:
                dice = (int(r.group(1)), int(r.group(2)))
                rest = r.group(3).strip()
                if rest.lower() in ("can't move", "cannot move", ""):
                    acts.append(Roll(p, dice, None, "play", "", **loc))
                else:
                    acts.append(Roll(p, dice, None, "play", _moves(rest, lineno, file), **loc))
            elif low.startswith("doubles"):
                prev = acts[-1] if acts else None
                if isinstance(prev, (Double, Beaver)) and prev.player != p:
                    acts.append(Beaver(p, prev.cube * 2, **loc))
                else:
                    cube = 1
                    for a in acts:
                        if isinstance(a, (Double, Beaver)):
                            cube = a.cube
                    acts.append(Double(p, cube * 2, **loc))
            elif low.startswith("accepts"):
                acts.append(Take(p, **loc))
            elif low.startswith("rejects"):
                acts.append(Drop(p, **loc))
            elif low.startswith("wins"):
                w = re.match(r"wins (\d+) points?", low)
                if not w:
                    raise MatchFileError(MatchProblem(f"cannot read {body!r}", file, lineno))
                acts.append(Win(p, int(w.group(1)), **loc))
            elif "resign" in low:
                continue
            else:
                raise MatchFileError(MatchProblem(f"cannot read {body!r}", file, lineno))
        except MatchFileError as e:
            if strict:
                raise
            cur["errors"].append(MatchProblem(e.error.message, file, lineno, 1, len(games) + 1))
    close()
    if length is None or players is None:
        raise MatchFileError(MatchProblem("no 'Score is ...' and 'NAME is X - NAME is O' lines: not FIBS oldmoves",
                                        file))
    return Match(players, length, tuple(games), beavers=any(isinstance(a, Beaver) for g in games for a in g.actions),
                 source=file, format="oldmoves", file_errors=errors_outside)
