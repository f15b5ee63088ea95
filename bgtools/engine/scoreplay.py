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

from dataclasses import replace
from typing import Optional, Sequence


from bgtools.core.position import Position
from bgtools.engine.cube import CubeInfo
from bgtools.engine.cubesearch import CubeSearch
from bgtools.engine.evaluation import (Evaluator, MoveFilter, RankedPlay, default_evaluator, evaluate_candidates,
                                       invert_probs)
from bgtools.engine.met import CubeStake, MatchEquityTable

__all__ = ["rank_plays_at_score"]


def _flip(info: CubeInfo) -> CubeInfo:
    owner = {0: 0, 1: 2, 2: 1}[info.owner]
    return replace(info, owner=owner, away=(info.away[1], info.away[0]))


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
    theirs_info = _flip(info)
    # the opponent's probabilities before his roll are ours inverted
    theirs = search.node_from_probs(after, invert_probs(probs), theirs_info)
    if info.money:
        value = -theirs / info.cube
    else:
        met = search.met
        assert met is not None
        value = CubeStake.at(met, info.away[0], info.away[1], info.cube).normalise(1.0 - theirs)
    ranking = sorted(range(len(plays)), key=lambda i: (-depth[i], -value[i]))
    best = value[ranking[0]]
    return [RankedPlay(plays[i], tuple(float(x) for x in probs[i]), float(value[i]), float(value[i] - best),
                       int(depth[i])) for i in ranking]
