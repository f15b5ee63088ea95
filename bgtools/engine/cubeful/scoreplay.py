"""Checker play at a match score: plays ranked by what they are worth at that score.

Cubeless money equity counts a gammon as two points whatever the score; at 2-away/4-away,
in the Crawford game or at double match point the plays that win (or risk) gammons are worth
something else.  :func:`rank_plays_at_score` values each play by the cubeful equity of the
position after it at the match score (the opponent on roll, with his cube options), through
the match equity table, normalised per unit of the current cube like gnubg's equities.

>>> from bgtools.core.matchstate import parse_any_id
>>> pos, state = parse_any_id("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:5:10")
>>> best = rank_plays_at_score(pos, (3, 1), state)[0]
>>> best.play.notation(), best.ply
('8/5 6/5', 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence

from bgtools.core.position import Position
from bgtools.engine.children import ROLLS
from bgtools.engine.cubeful.cube import CubeInfo
from bgtools.engine.cubeful.cubesearch import CubeSearch
from bgtools.engine.evaluation import (Evaluator, MoveFilter, RankedPlay, best_first, default_evaluator,
                                       evaluate_candidates, invert_probs, rank_plays)
from bgtools.engine.cubeful.met import CubeStake, MatchEquityTable

__all__ = ["rank_plays_at_score", "RollBest", "best_play_per_roll"]


def rank_plays_at_score(position: Position, dice: Sequence[int], state: object, ply: int = 0,
                        evaluator: Optional[Evaluator] = None,
                        move_filter: MoveFilter = MoveFilter(),
                        met: Optional[MatchEquityTable] = None) -> list[RankedPlay]:
    """The legal plays of ``dice`` ranked best first by cubeful equity at the score of ``state``
    (a MatchState or CubeInfo; money too, with its cube and Jacoby rule).

    Candidates are found by 0-ply cubeless equity and, with ``ply`` > 0, the best few of them
    are evaluated deeper (as :func:`~bgtools.engine.evaluation.rank_plays`); each play's
    value then comes from its probabilities through the cube formulas at the score (``met``:
    the match equity table; None: the shipped one)."""
    ev = evaluator or default_evaluator()
    info = state if isinstance(state, CubeInfo) else CubeInfo.from_state(state)
    plays, after, probs, _, depth = evaluate_candidates(position, dice, ply, ev, move_filter)
    if not plays:
        return []
    search = CubeSearch(ev, met)
    theirs_info = info.flipped()
    # the opponent's probabilities before his roll are ours inverted
    theirs = search.node_from_probs(after, invert_probs(probs), theirs_info)
    if info.money:
        value = -theirs / info.cube
    else:
        met = search.met
        assert met is not None
        value = CubeStake.at(met, info.away[0], info.away[1], info.cube).normalise(1.0 - theirs)
    ranking = best_first(plays, value, depth)
    best = value[ranking[0]]
    return [RankedPlay(plays[i], tuple(float(x) for x in probs[i]), float(value[i]), float(value[i] - best),
                       int(depth[i])) for i in ranking]


@dataclass(frozen=True)
class RollBest:
    """The best play of one roll: ``best`` (None when the roll cannot be played), the number of
    legal ``plays`` and the ``margin`` of the best over the second best (None with one play)."""

    dice: tuple[int, int]
    best: Optional[RankedPlay]
    plays: int
    margin: Optional[float]

    def to_dict(self) -> dict[str, Any]:
        b = self.best
        return {"dice": f"{self.dice[0]}{self.dice[1]}", "plays": self.plays, "margin": self.margin,
                "move": None if b is None else b.play.notation(), "equity": None if b is None else b.equity,
                "position_id": None if b is None else b.play.after_id, "ply": None if b is None else b.ply,
                "probs": None if b is None else list(b.probs)}


def best_play_per_roll(position: Position, state: object = None, ply: int = 0,
                       evaluator: Optional[Evaluator] = None,
                       met: Optional[MatchEquityTable] = None) -> list[RollBest]:
    """The best play of each of the 21 rolls (66 first, 11 last), ranked as ``bgtools hint``
    ranks a roll's plays: cubeless equity at money (``state`` None or a money state), cubeful
    equity at the score of a match ``state`` (:func:`rank_plays_at_score`)."""
    ev = evaluator or default_evaluator()
    info = state if isinstance(state, CubeInfo) else CubeInfo.from_state(state)
    out = []
    for a, b in ROLLS:
        dice = (int(a), int(b))
        ranked = (rank_plays(position, dice, ply, ev) if info.money
                  else rank_plays_at_score(position, dice, state, ply, ev, met=met))
        margin = ranked[0].equity - ranked[1].equity if len(ranked) > 1 else None
        out.append(RollBest(dice, ranked[0] if ranked else None, len(ranked), margin))
    return out
