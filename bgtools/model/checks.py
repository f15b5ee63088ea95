"""Checks across the games of a match record: what reads game by game but is wrong as a whole.

:func:`record_warnings` takes a replayed :class:`~bgtools.model.match.Match` and returns
:class:`~bgtools.model.problems.MatchProblem` warnings (``severity="warning"``), each at the
line of the game it is about (the ``Game N`` line; 0 when the format has no lines):

* games numbered twice, games missing from the numbering, games out of order;
* in a match, a score line that disagrees with the previous game's score and result, and a
  .mat ``Game 1`` that does not start at 0-0 (money sessions are not checked: writers put 0-0
  or a running total there);
* a score at or above the match length, and games played after the match was won.

Each discontinuity is reported once: the score of a game is compared with the previous game's
written score plus its result, not with a running total (one wrong score line gives at most
two warnings, a missing game one).

>>> from bgtools.formats import read_match
>>> text = (" 1 point match\\n Game 1\\n A : 0   B : 0\\n  1) 31: 8/5 6/5   42: 8/4 6/4\\n"
...         "      Wins 1 point\\n Game 2\\n A : 1   B : 0\\n")
>>> [str(w) for w in record_warnings(read_match(text))]
['<text>:6: warning: game 2: game 2 comes after the match was won in game 1 (1-0 in a 1-point match)']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from bgtools.model.game import Game
from bgtools.model.problems import MatchProblem

if TYPE_CHECKING:
    from bgtools.model.match import Match

__all__ = ["record_warnings"]

#: formats whose game numbers are written in the file (SGF's are counted by the reader, and an
#: SGF file may hold a later part of a match)
_NUMBERED = ("mat", "")


def _score(s: tuple[int, int]) -> str:
    return f"{s[0]}-{s[1]}"


def _numbers(nums: list[int]) -> str:
    if len(nums) == 1:
        return f"game {nums[0]} is"
    if len(nums) == 2:
        return f"games {nums[0]} and {nums[1]} are"
    return f"games {nums[0]}-{nums[-1]} are"


def record_warnings(match: "Match") -> list[MatchProblem]:
    """Warnings about the games of ``match`` as a whole (see the module docstring)."""
    out: list[MatchProblem] = []
    length = match.length

    def warn(g: Game, message: str) -> None:
        out.append(MatchProblem(message, match.source, g.line, 0, g.number, 0, severity="warning"))

    seen: dict[int, int] = {}  # game number -> its line
    prev: Optional[Game] = None
    highest = 0
    won: Optional[Game] = None  # the game that ended the match
    for g in match.games:
        # -- numbering
        if g.number in seen:
            first = seen[g.number]
            warn(g, f"game {g.number} appears twice" + (f" (first at line {first})" if first else ""))
        else:
            if g.number > highest + 1:
                missing = list(range(highest + 1, g.number))
                after = f"after game {highest}" if highest else "before it"
                warn(g, f"{_numbers(missing)} missing: game {g.number} comes {after}")
            elif g.number < highest:
                warn(g, f"game {g.number} comes after game {highest}: the games are out of order")
            seen[g.number] = g.line
        highest = max(highest, g.number)
        # -- the match was already over
        if length > 0:
            if won is not None:
                warn(g, f"game {g.number} comes after the match was won in game {won.number} "
                        f"({_score(won.final_score)} in a {length}-point match)")
            elif max(g.score) >= length:
                warn(g, f"the score line says {_score(g.score)}, but the match is {length} points: "
                        "it was over before this game")
        # -- the score line against the results so far
        if length <= 0:
            pass  # money sessions: writers put 0-0 or a running total on the score lines
        elif prev is None:
            if g.number == 1 and g.score != (0, 0) and match.format in _NUMBERED:
                warn(g, f"the score line says {_score(g.score)}, but game 1 starts at 0-0")
        elif prev.result is not None and g.number != prev.number:
            want = prev.final_score
            if g.score != want:
                warn(g, f"the score line says {_score(g.score)}, but game {prev.number} ended "
                        f"{_score(want)} ({_score(prev.score)} + {prev.result.points} for player "
                        f"{prev.result.winner + 1})")
        if length > 0 and won is None and g.result is not None and max(g.final_score) >= length:
            won = g
        prev = g
    return out
