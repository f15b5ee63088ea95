"""Cube decisions at 1 and 2 ply: a cubeful lookahead, not a deeper cubeless value run
through the cube formula once.

Each node of the search is valued for the player on roll *with his cube options*: the value
of not doubling and, where he may double, the value of doubling (the opponent then takes or
passes, whichever is better for him); he takes the better.  Not doubling at depth ``d`` is the
average over the 21 rolls of what the opponent is left with after the best play (chosen by
0-ply cubeless equity), valued the same way at depth ``d - 1``; at depth 0 the cubeful value
comes from the cubeless probabilities through Janowski's formula (money, with the Jacoby rule)
or the match equity table.  Finished games score exactly (gammons single under Jacoby with
the cube centred).  Values are money points (the cube included) or match winning chances.

>>> from bgtools.core.position import Position
>>> a = cube_advice_at(Position.initial(), None, ply=1)
>>> a.action, a.ply
('No double, take', 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from bgtools.core.dice import ROLL_WEIGHTS
from bgtools.core.position import Position
from bgtools.engine.cubeful.cube import CENTRED, CubeInfo, cube_x, cubeful_values
from bgtools.engine.cubeful.cubeaction import CubeAdvice, cube_advice, cube_percent, proper_action
from bgtools.engine.evaluation import Evaluator, best_replies, evaluate_boards, static_probs
from bgtools.engine.cubeful.met import CubeStake, MatchEquityTable, load_met, mwc_after

__all__ = ["cube_advice_at", "CubeSearch"]

@dataclass
class CubeSearch:
    """A cubeful lookahead for one evaluator and match equity table.  Each board's best replies and
    static probabilities are remembered (:meth:`clear` lets them go); :meth:`remember` takes those a
    cubeless lookahead of the same evaluator already found (``evaluate_boards(..., on_replies=...)``)."""

    evaluator: Optional[Evaluator] = None
    met: Optional[MatchEquityTable] = None

    def __post_init__(self) -> None:
        self.met = self.met or load_met()
        self._expanded: dict[bytes, np.ndarray] = {}  # board -> int8[21, 2, 25], its best reply to each roll
        self._static: dict[bytes, np.ndarray] = {}  # board -> float64[5], its 0-ply probabilities

    def clear(self) -> None:
        """Let go of the remembered replies and probabilities."""
        self._expanded.clear()
        self._static.clear()

    def remember(self, boards: np.ndarray, replies: np.ndarray, probs: np.ndarray) -> None:
        """Keep what :func:`~bgtools.engine.evaluation.best_replies` gave for ``boards`` (``replies``
        int8[n * 21, 2, 25], ``probs`` their 0-ply values for the player on roll in each)."""
        b = np.ascontiguousarray(boards, np.int8).reshape(-1, 2, 25)
        r = np.ascontiguousarray(replies, np.int8).reshape(-1, 21, 2, 25)
        for i in range(b.shape[0]):
            self._expanded[b[i].tobytes()] = r[i]
        flat = r.reshape(-1, 2, 25)
        for i in range(flat.shape[0]):
            self._static[flat[i].tobytes()] = probs[i]

    # -- the tree -----------------------------------------------------------------
    def _children(self, boards: np.ndarray) -> np.ndarray:
        """int8[n * 21, 2, 25]: for each board and roll, the position after the best play."""
        return _per_board(self._expanded, boards, lambda x: best_replies(x, self.evaluator)[0].reshape(-1, 21, 2, 25),
                          (21, 2, 25), np.int8).reshape(-1, 2, 25)

    def _probs(self, boards: np.ndarray) -> np.ndarray:
        return _per_board(self._static, boards, lambda x: static_probs(x, self.evaluator), (5,), np.float64)

    # -- values -------------------------------------------------------------------
    def _dp(self, info: CubeInfo) -> float:
        if info.money:
            return float(info.cube)
        assert self.met is not None
        return float(mwc_after(self.met.pre, self.met.post, info.away[0], info.away[1], info.cube))

    def _static_values(self, boards: np.ndarray, info: CubeInfo) -> np.ndarray:
        probs = self._probs(boards)
        out = np.empty(len(boards))
        assert self.met is not None
        cubeful_values(probs, np.ascontiguousarray(boards, np.int8), info.args(self.met), out)
        return out

    def no_double(self, boards: np.ndarray, info: CubeInfo, depth: int) -> np.ndarray:
        """Value for the player on roll of each board if he does not double now (a finished
        game is a leaf at any depth: its exact score)."""
        if depth == 0:
            return self._static_values(boards, info)
        over = _finished(boards)
        if over.all():
            return self._static_values(boards, info)
        live = boards[~over] if over.any() else boards
        kids = self._children(live)
        theirs = self.node(kids, info.flipped(), depth - 1)
        mine = -theirs if info.money else 1.0 - theirs
        values = (mine.reshape(len(live), 21) * ROLL_WEIGHTS).sum(axis=1)
        if not over.any():
            return values
        out = np.empty(len(boards))
        out[~over] = values
        out[over] = self._static_values(boards[over], info)
        return out

    def node_from_probs(self, boards: np.ndarray, probs: np.ndarray, info: CubeInfo) -> np.ndarray:
        """:meth:`node` at depth 0 with given probabilities for the player on roll of ``boards``
        (e.g. from a deeper cubeless evaluation)."""
        b = np.ascontiguousarray(boards, np.int8).reshape(-1, 2, 25)
        p = np.asarray(probs, np.float64).reshape(-1, 5)
        for i in range(b.shape[0]):
            self._static[b[i].tobytes()] = p[i].copy()
        return self.node(b, info, 0)

    def double_take(self, boards: np.ndarray, info: CubeInfo, depth: int) -> np.ndarray:
        return self.no_double(boards, info.doubled(), depth)

    def node(self, boards: np.ndarray, info: CubeInfo, depth: int) -> np.ndarray:
        """Value for the player on roll with his cube options (double when it pays; none in a
        finished game)."""
        nd = self.no_double(boards, info, depth)
        if not info.can_double:
            return nd
        dt = self.double_take(boards, info, depth)
        return np.where(_finished(boards), nd, np.maximum(nd, np.minimum(dt, self._dp(info))))


def _per_board(memo: dict[bytes, np.ndarray], boards: np.ndarray, compute, shape: tuple[int, ...], dtype) -> np.ndarray:
    """``dtype[n, *shape]``: each board's entry of ``memo``, those missing made by ``compute`` (on the missing
    boards together, one entry a board) and kept there."""
    keys = [b.tobytes() for b in boards]
    miss = [i for i, k in enumerate(keys) if k not in memo]
    if miss:
        for i, v in zip(miss, compute(boards[miss])):
            memo[keys[i]] = v
    out = np.empty((len(keys), *shape), dtype)
    for i, k in enumerate(keys):
        out[i] = memo[k]
    return out


def _finished(boards: np.ndarray) -> np.ndarray:
    """bool[n]: whether each game is over (a side has borne off every checker)."""
    b = np.asarray(boards).reshape(-1, 2, 25)
    return (b.sum(axis=2, dtype=np.int64) == 0).any(axis=1)


def cube_advice_at(position: Position, state: object = None, ply: int = 0, *, evaluator: Optional[Evaluator] = None,
                   met: Optional[MatchEquityTable] = None, jacoby: Optional[bool] = None,
                   beavers: Optional[bool] = None, search: Optional[CubeSearch] = None) -> CubeAdvice:
    """The cube decision of the player on roll of ``position`` (before he rolls) at ``ply``
    (0, 1 or 2), with the cube state of ``state`` (a MatchState, a CubeInfo or None = money).

    At 0 ply this is :func:`~bgtools.engine.cubeful.cubeaction.cube_advice` of the static evaluation;
    deeper, no double and double/take come from :class:`CubeSearch` (``search``: one to reuse,
    with its expansions, over many cube states of the same position; same evaluator and table)."""
    if not 0 <= ply <= 2:
        raise ValueError(f"cube decisions are made at 0, 1 or 2 ply, not {ply}")
    info = state if isinstance(state, CubeInfo) else CubeInfo.from_state(state)
    info = info.with_rules(jacoby, beavers)
    board = np.asarray(position.to_array(), np.int8).reshape(1, 2, 25)
    probs = evaluate_boards(board, ply, evaluator)[0]
    x = float(cube_x(board[0]))
    base = cube_advice(probs, info, x=x, met=met, ply=ply, with_take_point=True)
    if ply == 0 or not base.available:
        return base
    search = search or CubeSearch(evaluator, met)
    nd = float(search.no_double(board, info, ply)[0])
    dt = float(search.double_take(board, info, ply)[0])
    dp = search._dp(info)
    if info.money:
        nd_u, dt_u, dp_u = nd / info.cube, dt / info.cube, dp / info.cube
        mwcs = None
    else:
        assert search.met is not None
        stake = CubeStake.at(search.met, info.away[0], info.away[1], info.cube)
        nd_u, dt_u, dp_u = (float(stake.normalise(v)) for v in (nd, dt, dp))
        mwcs = (nd, dt, dp)
    action = proper_action(nd_u, dt_u, dp_u, win_gammon=probs[1] > 0.0, match=not info.money,
                           centred=info.owner == CENTRED, jacoby=info.jacoby, beavers=info.beavers)
    return CubeAdvice(action, nd_u, dt_u, dp_u, True, info.money, mwcs, base.take_point, base.gammon_values,
                      cube_percent(action, nd_u, dt_u, dp_u), ply)
