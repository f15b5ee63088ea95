"""Position evaluation: static evaluators, exact endgames, and 0/1/2-ply lookahead.

An :class:`Evaluator` maps int8[n, 2, 25] boards (gnubg order, ``[1]`` on roll, before
his roll) to float64[n, 5] cumulative probabilities for the player on roll: win, win
gammon, win backgammon, lose gammon, lose backgammon (as gnubg).  Around any evaluator
this module scores finished games exactly, uses the exact two-sided bear-off database
when both sides fit it, and gnubg's one-sided combination when both sides are home.

Plies follow gnubg: 0-ply is the static evaluator alone; n-ply averages, over the 21
rolls, the (n-1)-ply value of the play the 0-ply evaluator prefers for that roll.
Ranking the plays of a roll at n ply evaluates every play at 0 ply, keeps at most
``MoveFilter.keep`` of them within ``MoveFilter.threshold`` of the best (gnubg's
"normal" filter for 2-ply hints: 8 within 0.16) and evaluates those at n ply.

>>> from bgtools.core.position import Position
>>> e = evaluate(Position.initial(), ply=0)
>>> e.ply, len(e.probs)
(0, 5)
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from typing import Callable, Collection, Optional, Protocol, Sequence, TypeVar, runtime_checkable

import numba as nb
import numpy as np

from bgtools.engine import bearoff as _bo
from bgtools.engine.bearin import bear_in_rolls_into, some_bear_in
from bgtools.engine.farrace import FAR_ROLLS, far_probs_with, far_race, far_side_into, race_side_moments
from bgtools.core.dice import PIPS_PER_ROLL, ROLL_WEIGHTS
from bgtools.core.movegen import Play
from bgtools.core.movegen import is_contact as _is_contact
from bgtools.engine.nets.nn import game_over_probs as _game_over  # finished games scored exactly
from bgtools.engine.children import best_children, expand_children
from bgtools.engine.nets.incremental import evaluate_siblings
from bgtools.engine.outputs import add_turned, invert_probs
from bgtools.engine.nets.nn import NeuralEvaluator, load_default_network
from bgtools.engine.nets.prune import Pruning, load_default_pruning, prune_children_values, prune_select
from bgtools.engine.movefilter import MoveFilter
from bgtools.core.position import Position

__all__ = [
    "evaluate_candidates",
    "best_replies",
    "Evaluator",
    "HeuristicEvaluator",
    "Evaluation",
    "RankedPlay",
    "MoveFilter",
    "default_evaluator",
    "with_pruning",
    "equity",
    "invert_probs",
    "static_probs",
    "evaluate_boards",
    "evaluate",
    "rank_plays",
    "best_first",
    "evaluate_plays",
]


@runtime_checkable
class Evaluator(Protocol):
    """A static (0-ply) evaluator, and the pruning net searches rank its plays with first
    (``prune``: a :class:`~bgtools.engine.nets.prune.Pruning`, or None: the evaluator values
    every play).  Evaluators are shared (:func:`default_evaluator`): read ``prune``, and
    get another pruning with :func:`with_pruning` (a copy), never by setting it."""

    name: str
    version: str

    @property
    def prune(self) -> Optional[Pruning]:
        ...

    def evaluate_boards(self, boards: np.ndarray) -> np.ndarray:
        """float64[n, 5] for int8[n, 2, 25] boards, player on roll ``[1]`` before his roll."""
        ...


# ----------------------------------------------------------------------------- helpers
def equity(probs: np.ndarray) -> np.ndarray | float:
    """Cubeless money equity 2p - 1 + (wg - lg) + (wbg - lbg) (gnubg's code formula)."""
    p = np.asarray(probs, np.float64)
    e = 2.0 * p[..., 0] - 1.0 + p[..., 1] - p[..., 3] + p[..., 2] - p[..., 4]
    return float(e) if e.ndim == 0 else e


@nb.njit(cache=True)
def _erf(x):
    return math.erf(x)


@nb.njit(cache=True)
def _phi(z):
    """Standard normal CDF."""
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


# ----------------------------------------------------------------------------- exact values
@nb.njit(cache=True)
def _exact_kernel(boards, tables, out):
    """Fill ``out`` where the value is known without an evaluator; return that mask.

    kind: 0 = needs the evaluator, 1 = game over, 2 = two-sided database (exact),
    3 = both sides home (one-sided database combination); :func:`_far_race_kernel` adds 4,
    :func:`~bgtools.engine.bearin.bear_in_rolls_into` 5.
    """
    n = boards.shape[0]
    kind = np.zeros(n, np.int8)
    tmp = np.zeros(5, np.float64)
    for i in range(n):
        b = boards[i]
        if _game_over(b, tmp):
            for k in range(5):
                out[i, k] = tmp[k]
            kind[i] = 1
        elif _bo.in_two_sided(b):
            v = _bo.ts_lookup(tables.ts, b)
            out[i, 0] = v[0]
            for k in range(1, 5):
                out[i, k] = 0.0
            kind[i] = 2
        elif _bo.in_one_sided(b[0]) and _bo.in_one_sided(b[1]):
            v = _bo.one_sided_probs(tables.os_rolls, tables.os_gammon, b)
            for k in range(5):
                out[i, k] = v[k]
            kind[i] = 3
    return kind


@nb.njit(cache=True)
def _far_race_kernel(boards, rolls_of, tables, out, kind) -> None:
    """Where every board of a roll (``rolls_of``: the same number for the plays of one roll, which
    come together) is a :func:`~bgtools.engine.farrace.far_race` or a finished game, value those
    not over by :func:`~bgtools.engine.farrace.far_probs_with` (``kind`` 4)."""
    n = boards.shape[0]
    start = 0
    dist = np.zeros((2, FAR_ROLLS), np.float64)
    while start < n:
        end = start + 1
        while end < n and rolls_of[end] == rolls_of[start]:
            end += 1
        first = -1  # a board of the roll not over: the side on roll is the same after every play of it
        for i in range(start, end):
            if kind[i] == 1:
                continue
            if kind[i] != 0 or not far_race(boards[i]):
                first = -1
                break
            if first < 0:
                first = i
        if first >= 0:
            far_side_into(tables, boards[first, 1], dist)
            for i in range(first, end):
                if kind[i] == 0:
                    far_probs_with(tables, boards[i], dist, out[i])
                    kind[i] = 4
        start = end


# ----------------------------------------------------------------------------- heuristic
# Rolls out of 36 that hit a blot at distance d (1..24), ignoring blocking points.
_HIT36 = np.zeros(25, np.float64)
for _d, _n in {1: 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3, 11: 2, 12: 3,
               15: 1, 16: 1, 18: 1, 20: 1, 24: 1}.items():
    _HIT36[_d] = _n / 36.0

_PIPS_PER_ROLL = PIPS_PER_ROLL  # (bgtools.core.dice)


@nb.njit(cache=True)
def _race_probs(board, moments, out):
    m1, v1, g1, gv1 = race_side_moments(board[1], moments)
    m0, v0, g0, gv0 = race_side_moments(board[0], moments)
    # the player on roll wins when his rolls <= the opponent's (he rolls first)
    out[0] = _phi((m0 - m1 + 0.5) / math.sqrt(v0 + v1 + 0.25))
    n0 = 0
    n1 = 0
    for i in range(25):
        n0 += board[0, i]
        n1 += board[1, i]
    out[1] = _phi((g0 - m1 + 0.5) / math.sqrt(gv0 + v1 + 0.25)) if n0 == 15 else 0.0
    out[3] = _phi((g1 - m0 - 0.5) / math.sqrt(v0 + gv1 + 0.25)) if n1 == 15 else 0.0
    if out[1] > out[0]:
        out[1] = out[0]
    if out[3] > 1.0 - out[0]:
        out[3] = 1.0 - out[0]
    out[2] = 0.0
    out[4] = 0.0


@nb.njit(cache=True)
def _side_penalty(me, opp):
    """Pips the side ``me`` can expect to lose: blots in the opponent's direct range and
    checkers on the bar facing made home points.  ``opp`` is seen from its own side."""
    pen = 0.0
    for i in range(24):
        if me[i] == 1:
            # opponent checkers that can reach my point i+1 come from lower points of mine
            best = 0.0
            for m in range(-1, i):
                # opponent checker on my index m is on his index 23 - m (bar when m = -1)
                c = opp[24] if m < 0 else opp[23 - m]
                if c > 0:
                    d = i - m
                    if d <= 24 and _HIT36[d] > best:
                        best = _HIT36[d]
            pen += best * (25 - (i + 1)) * 0.8
    if me[24] > 0:
        made = 0
        for j in range(6):
            if opp[j] >= 2:
                made += 1
        f = (made / 6.0) ** 2
        waste = 60.0 if made == 6 else _PIPS_PER_ROLL * f / (1.0 - f)
        pen += me[24] * min(waste, 60.0)
    return pen


@nb.njit(cache=True)
def _home_wastage(side, os_mean):
    """Pips a side's home-board checkers will waste bearing off (one-sided database EPC
    of the home part minus its pips): big for stacks on the low points."""
    pips = 0.0
    for p in range(6):
        pips += (p + 1) * side[p]
    return os_mean[_bo.bearoff_index(side)] * _PIPS_PER_ROLL - pips


@nb.njit(cache=True)
def _contact_probs(board, os_mean, out):
    pips = np.zeros(2, np.float64)
    off = np.zeros(2, np.int64)
    back = np.zeros(2, np.int64)  # checkers on the bar or in the other side's home board
    for s in range(2):
        n = 0
        for i in range(25):
            pips[s] += (i + 1) * board[s, i]
            n += board[s, i]
            if i >= 18:
                back[s] += board[s, i]
        off[s] = 15 - n
    e1 = pips[1] + _side_penalty(board[1], board[0]) + _home_wastage(board[1], os_mean)
    e0 = pips[0] + _side_penalty(board[0], board[1]) + _home_wastage(board[0], os_mean)
    total = e0 + e1
    if total < 8.0:
        total = 8.0
    k = (e0 - e1 + 4.0) / (2.0 * math.sqrt(total - 4.0))  # Kleinman's race formula
    p = 0.5 * (1.0 + _erf(k))
    lead = e0 - e1
    out[0] = p
    out[1] = 0.0
    out[2] = 0.0
    out[3] = 0.0
    out[4] = 0.0
    if off[0] == 0:
        f = 0.08 + 0.004 * max(0.0, lead) + 0.03 * back[0]
        out[1] = p * min(f, 0.6)
        out[2] = out[1] * (0.08 if back[0] > 0 else 0.0)
    if off[1] == 0:
        f = 0.08 + 0.004 * max(0.0, -lead) + 0.03 * back[1]
        out[3] = (1.0 - p) * min(f, 0.6)
        out[4] = out[3] * (0.08 if back[1] > 0 else 0.0)


@nb.njit(cache=True)
def _heuristic_kernel(boards, os_mean, moments):
    n = boards.shape[0]
    out = np.zeros((n, 5), np.float64)
    tmp = np.zeros(5, np.float64)
    for i in range(n):
        b = boards[i]
        if _game_over(b, tmp):
            pass
        elif _is_contact(b):
            _contact_probs(b, os_mean, tmp)
        else:
            _race_probs(b, moments, tmp)
        for k in range(5):
            out[i, k] = tmp[k]
    return out


class HeuristicEvaluator:
    """A weak hand-made evaluator, the default until a trained network is available.

    Races: each side's rolls to bear off from the one-sided database, outside checkers
    brought home at 8.17 pips a roll, combined under a normal approximation.  Contact:
    Kleinman's race formula on pip counts plus the expected pips lost to direct shots
    and to checkers on the bar, with rough gammon rates.  It knows nothing of priming,
    timing or structure: expect errors of 0.1-0.3 equity in contact positions.
    """

    name = "bgtools-heuristic"
    version = "heuristic-1"
    prune: Optional[Pruning] = None  #: no pruning net

    def __init__(self) -> None:
        db = _bo.load_databases()
        self._mean = db.os_mean
        self._moments = db.os_moments  #: (mean, variance) of rolls to bear off and to the first checker off

    def evaluate_boards(self, boards: np.ndarray) -> np.ndarray:
        b = np.ascontiguousarray(boards, dtype=np.int8).reshape(-1, 2, 25)
        return _heuristic_kernel(b, self._mean, self._moments)

    def __repr__(self) -> str:
        return f"HeuristicEvaluator(version={self.version!r})"


_DEFAULT: Evaluator | None = None


def default_evaluator() -> Evaluator:
    """The shipped analysis network when there is one (with the shipped pruning net, when
    there is one, as its ``prune``, and the shipped rollout net as its ``rollout_weights``),
    else :class:`HeuristicEvaluator`."""
    global _DEFAULT
    if _DEFAULT is None:
        net, fast = load_default_network("analysis"), load_default_network("rollout")
        _DEFAULT = (NeuralEvaluator(net.weights, net.name, net.version, prune=load_default_pruning(),
                                    rollout_weights=fast.weights if fast is not None else None)
                    if net is not None else HeuristicEvaluator())
    return _DEFAULT


E = TypeVar("E", bound=Evaluator)


def with_pruning(evaluator: E, pruning: Optional[Pruning]) -> E:
    """``evaluator`` with another pruning net (None: none), as a copy: the evaluator given,
    often the shared :func:`default_evaluator`, is left as it was."""
    if evaluator.prune is pruning:
        return evaluator
    other = copy.copy(evaluator)
    setattr(other, "prune", pruning)  # on the copy only
    return other


def evaluator_setting(ev: Evaluator) -> str:
    """What names an evaluator's values (in a cache key): its name and version, and its
    pruning (:attr:`~bgtools.engine.nets.prune.Pruning.tag`) when it has one."""
    pruning = ev.prune
    return f"{ev.name} {ev.version}" + (f" {pruning.tag}" if pruning is not None else "")


# ----------------------------------------------------------------------------- static values
def static_probs(boards: np.ndarray, evaluator: Evaluator | None = None, siblings_of=None,
                 rolls_of: np.ndarray | None = None, bear_ins: bool = True) -> np.ndarray:
    """0-ply float64[n, 5]: exact where known (games over, bear-off databases), else the evaluator.

    ``siblings_of``: ``(parents, parent_of)`` when the boards are plays of a few positions
    (``parents``, laid out as the boards are, ``parent_of[i]`` the parent of board ``i``, not
    decreasing): our net then values each from its parent's first layer
    (:func:`bgtools.engine.nets.incremental.evaluate_siblings`; equal to float32 rounding).
    ``rolls_of``: when the boards are the plays of rolls (int64 per board, the same for the plays of
    one roll, which come together): the plays of a roll that all leave a race with the mover home
    and the other side outside are valued from the bear-off database
    (:func:`bgtools.engine.farrace.far_race_probs_into`), as the rollouts' chooser values them; those that all leave
    the other side home and the mover near it (or both home) by the mover's next two rolls played out against the
    database (:mod:`bgtools.engine.bearin`; ``bear_ins`` False: by the evaluator, as the rollouts' chooser)."""
    return _static_kinds(boards, evaluator, siblings_of, rolls_of, bear_ins)[0]


def _static_kinds(boards: np.ndarray, evaluator: Evaluator | None, siblings_of, rolls_of,
                  bear_ins: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """:func:`static_probs` and the kind of each value (:func:`_exact_kernel`'s, 4 for a far race's, 5 for a
    bear-in's; ``bear_ins`` False: no bear-ins, as the searches' replies)."""
    ev = evaluator or default_evaluator()
    b = np.ascontiguousarray(boards, dtype=np.int8).reshape(-1, 2, 25)
    db = _bo.load_databases()
    out = np.zeros((b.shape[0], 5), np.float64)
    tables = db.tables()
    kind = _exact_kernel(b, tables, out)
    if rolls_of is not None and b.shape[0]:
        groups = np.ascontiguousarray(rolls_of, np.int64)
        _far_race_kernel(b, groups, tables, out, kind)
        if bear_ins and some_bear_in(b, kind):
            bear_in_rolls_into(b, groups, tables, out, kind)
    need = np.flatnonzero(kind == 0)
    if need.size:
        if siblings_of is not None and isinstance(ev, NeuralEvaluator):
            parents, parent_of = siblings_of
            out[need] = evaluate_siblings(np.ascontiguousarray(parents, np.int8), b[need], parent_of[need],
                                          ev.weights.arrays())
        else:
            out[need] = ev.evaluate_boards(b[need])
    return out, kind


# ----------------------------------------------------------------------------- lookahead


@nb.njit(cache=True)
def _average_over_rolls(child_probs, n):
    """Average the mover's view of the chosen children's probabilities over the 21 rolls."""
    out = np.zeros((n, 5), np.float64)
    for i in range(n):
        for r in range(21):
            q = child_probs[i * 21 + r]
            add_turned(ROLL_WEIGHTS[r], q, out[i])
    return out


def evaluate_boards(boards: np.ndarray, ply: int = 0, evaluator: Evaluator | None = None, *,
                    on_replies: Callable[[np.ndarray, np.ndarray, np.ndarray], None] | None = None,
                    rolls_of: np.ndarray | None = None, bear_ins: bool = True) -> np.ndarray:
    """float64[n, 5] at ``ply`` (0, 1, 2, ...) for int8[n, 2, 25] boards (``[1]`` on roll).

    At each level the opponent answers every roll with his best play by 0 ply; when the
    evaluator carries a :class:`~bgtools.engine.nets.prune.Pruning` (``evaluator.prune``, as the
    shipped net does), only the plays of each roll that its pruning net ranks first are
    valued by the evaluator to find that best play.  ``on_replies(boards, replies, probs)`` is
    given each level's :func:`best_replies` (a cubeful search of the same boards takes them:
    :meth:`bgtools.engine.cubeful.cubesearch.CubeSearch.remember`).  ``rolls_of``: the boards are
    the plays of rolls, as :func:`static_probs` takes it (it changes only 0-ply values: deeper, a
    board's value is its search's, whatever its siblings); ``bear_ins`` as :func:`static_probs` takes it."""
    if ply < 0:
        raise ValueError(f"ply must be 0 or more, not {ply}")
    ev = evaluator or default_evaluator()
    b = np.ascontiguousarray(boards, dtype=np.int8).reshape(-1, 2, 25)
    out = static_probs(b, ev, rolls_of=rolls_of, bear_ins=bear_ins)
    if ply == 0 or b.shape[0] == 0:
        return out
    db = _bo.load_databases()
    scratch = np.zeros((b.shape[0], 5))
    kind = _exact_kernel(b, db.tables(), scratch)
    live = np.flatnonzero((kind != 1) & (kind != 2))  # finished games and exact bear-offs stay
    if live.size == 0:
        return out
    replies, p0 = best_replies(b[live], ev)
    if on_replies is not None:
        on_replies(b[live], replies, p0)
    chosen = p0 if ply == 1 else evaluate_boards(replies, ply - 1, ev, on_replies=on_replies)
    out[live] = _average_over_rolls(chosen, live.size)
    return out


def best_replies(boards: np.ndarray, evaluator: Evaluator | None = None) -> tuple[np.ndarray, np.ndarray]:
    """For each board (``[1]`` on roll) and each of the 21 rolls (in :data:`bgtools.core.dice.ROLLS` order), the
    position after his best play by 0 ply (the opponent on roll; with no legal play the board
    itself turned round) and its 0-ply values for the opponent: (int8[n * 21, 2, 25],
    float64[n * 21, 5]).  With a pruning net (``evaluator.prune``) the evaluator values only the
    plays of each roll the pruning net ranks first; the plays are valued from their board's
    first layer (:func:`static_probs` with ``siblings_of``).  A roll whose plays all leave a far race
    (:mod:`bgtools.engine.farrace`) is answered by the play the far-race values rank first, and that play's
    position is valued on its own: the values passed up compare the plays above, which differ in the side the
    far-race estimate sees only coarsely."""
    ev = evaluator or default_evaluator()
    b = np.ascontiguousarray(boards, dtype=np.int8).reshape(-1, 2, 25)
    children, offsets = expand_children(b)
    pruning = ev.prune
    if pruning is not None:  # the full net values only the plays of each roll the pruning net ranks first
        values = prune_children_values(b, children, offsets, pruning.net)
        sel, offsets = prune_select(values, offsets, pruning.keep)
        children = children[sel]
    counts = offsets[21::21] - offsets[:-1:21]  # children per board
    rolls_of = np.repeat(np.arange(offsets.size - 1), np.diff(offsets))  # (board, roll) of each child
    p0, kind = _static_kinds(children, ev, (b[:, ::-1], np.repeat(np.arange(b.shape[0]), counts)), rolls_of,
                             bear_ins=False)
    best = best_children(equity(p0), offsets)
    chosen, p_best = children[best], p0[best]
    far = np.flatnonzero(kind[best] == 4)
    if far.size:  # a far race picks the reply; the position it leaves is valued on its own (see bgtools.engine.farrace)
        p_best[far] = static_probs(chosen[far], ev)
    return chosen, p_best


# ----------------------------------------------------------------------------- public API
@dataclass(frozen=True, slots=True)
class Evaluation:
    """Cubeless evaluation of a position for the player on roll, before his roll."""

    probs: tuple[float, ...]  #: win, win gammon, win backgammon, lose gammon, lose backgammon
    equity: float
    ply: int
    evaluator_version: str

    def to_dict(self) -> dict:
        return {"probs": list(self.probs), "equity": self.equity, "ply": self.ply,
                "evaluator": self.evaluator_version}


@dataclass(frozen=True, slots=True)
class RankedPlay:
    """A play with its evaluation for the mover (after the play, before the opponent's roll)."""

    play: Play
    probs: tuple[float, ...]  #: win, win gammon, win backgammon, lose gammon, lose backgammon
    equity: float
    diff: float  #: equity minus the best play's (0 for the best, negative otherwise)
    ply: int  #: the depth it was evaluated at (filtered-out plays keep their 0-ply value)

    def to_dict(self) -> dict:
        return {"move": self.play.notation(), "position_id": self.play.after_id,
                "equity": self.equity, "probs": list(self.probs), "diff": self.diff, "ply": self.ply}


def _version(ev: Evaluator) -> str:
    return f"{ev.name} {ev.version}"


def evaluate(position: Position, ply: int = 0, evaluator: Evaluator | None = None) -> Evaluation:
    """Cubeless probabilities and equity of ``position`` at ``ply``."""
    ev = evaluator or default_evaluator()
    p = evaluate_boards(position.to_array()[None], ply, ev)[0]
    probs = tuple(float(x) for x in p)
    return Evaluation(probs, float(equity(p)), ply, _version(ev))


def evaluate_plays(after_boards: np.ndarray, ply: int = 0, evaluator: Evaluator | None = None,
                   rolls_of: np.ndarray | None = None, bear_ins: bool = True) -> np.ndarray:
    """All candidate plays of a roll at once: boards after each play, **opponent on roll**;
    returns float64[n, 5] for the mover.  Plays of several rolls in one call: ``rolls_of`` (int64 per
    board, the same for the plays of one roll, which come together; see :func:`static_probs`, which takes
    ``bear_ins`` too)."""
    b = np.ascontiguousarray(after_boards, dtype=np.int8).reshape(-1, 2, 25)
    groups = np.zeros(b.shape[0], np.int64) if rolls_of is None else rolls_of
    return invert_probs(evaluate_boards(b, ply, evaluator, rolls_of=groups, bear_ins=bear_ins))


def evaluate_candidates(position: Position, dice: Sequence[int], ply: int = 0, evaluator: Evaluator | None = None,
                        move_filter: MoveFilter = MoveFilter()):
    """The legal plays of ``dice`` with the mover's probabilities after each: all at 0 ply, the
    best few (``move_filter``) again at ``ply``.  Returns (plays, boards after them with the
    opponent on roll, probs float64[n, 5], cubeless equity float64[n], depth int64[n])."""
    from bgtools.core.movegen import legal_plays

    ev = evaluator or default_evaluator()
    plays = legal_plays(position, dice)
    if not plays:
        return plays, np.zeros((0, 2, 25), np.int8), np.zeros((0, 5)), np.zeros(0), np.zeros(0, np.int64)
    after = np.stack([p.after.to_array() for p in plays]).astype(np.int8)
    probs = evaluate_plays(after, 0, ev)
    eq = equity(probs)
    depth = np.zeros(len(plays), np.int64)
    if ply > 0:
        keep_idx = move_filter.select(eq)
        deep = evaluate_plays(after[keep_idx], ply, ev)
        probs[keep_idx] = deep
        eq[keep_idx] = equity(deep)
        depth[keep_idx] = ply
    return plays, after, probs, eq, depth


def best_first(plays: Sequence[Play], value: np.ndarray | Sequence[float],
               depth: np.ndarray | Sequence[int] | None = None, settled: Collection[int] = ()) -> list[int]:
    """The indices of a roll's ``plays`` ranked best first: those in ``settled`` (rolled out) first, then the plays
    valued deepest (``depth``: as gnubg and XG list their deeper levels first), then by ``value``; of plays worth
    exactly the same, as in a game already decided, the one that bears off most first
    (:attr:`~bgtools.core.movegen.Play.borne_off`, as a player would play it and XG lists it), then the move
    generator's order.  Every ranking of plays (``rank_plays``, ``rank_plays_at_score``, the analysis) orders so.

    >>> from bgtools.core.movegen import legal_plays
    >>> plays = legal_plays(Position.from_id("u7sNAABBAAAAAA"), (4, 1))  # two checkers left, on the 6 and 1 points
    >>> [p.notation() for p in plays]  # the generator's order
    ['6/1', '6/2 1/off']
    >>> [plays[i].notation() for i in best_first(plays, [1.0, 1.0])]  # both win: the one that bears off first
    ['6/2 1/off', '6/1']
    >>> [plays[i].notation() for i in best_first(plays, [1.0, 0.9])]
    ['6/1', '6/2 1/off']
    """
    deep = (0,) * len(plays) if depth is None else depth
    return sorted(range(len(plays)), key=lambda i: (-(i in settled), -deep[i], -value[i], -plays[i].borne_off))


def rank_plays(position: Position, dice: Sequence[int], ply: int = 0, evaluator: Evaluator | None = None,
               move_filter: MoveFilter = MoveFilter()) -> list[RankedPlay]:
    """The legal plays of ``dice`` ranked best first by cubeless equity at ``ply`` (of equal ones, the play that
    bears off most first: :attr:`~bgtools.core.movegen.Play.borne_off`)."""
    plays, _, probs, eq, depth = evaluate_candidates(position, dice, ply, evaluator, move_filter)
    if not plays:
        return []
    ranking = best_first(plays, eq, depth)
    best = eq[ranking[0]]
    return [RankedPlay(plays[i], tuple(float(x) for x in probs[i]), float(eq[i]), float(eq[i] - best),
                       int(depth[i])) for i in ranking]
