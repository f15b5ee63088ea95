"""Far races: a race, out of contact, in which the side that has just moved is home (bearing off) and the side on
roll still has checkers outside its home board.

The plays of such a roll differ only in the mover's bear-off, which the one-sided database
(:mod:`bgtools.engine.bearoff`) knows exactly, while a net values them to a few hundredths and orders them by a
few thousandths (issue 37: the largest race losses on the judge sets).  So the engine values the plays of a roll
that **all** leave a far race (:func:`far_race_roll`; or end the game) from the mover's exact distributions (rolls
to bear off, rolls to his first checker off) against the side on roll's estimated ones
(:func:`race_side_moments`: his outside checkers brought home at :data:`~bgtools.core.dice.PIPS_PER_ROLL` pips a
roll, then the database; as normal distributions over whole rolls), combined as the one-sided database's values
are (the side on roll rolls first and wins ties; no backgammons): :func:`far_race_probs_into`.  A roll in which
some play leaves the mover outside keeps the net for all its plays: the two valuations mixed in one roll pick
badly (``benchmarks/race_hybrid.py``).  Only plays of a roll are valued so, never a position on its own, and a
search passes no far-race value up: the 1-ply replies (:func:`bgtools.engine.chooser.reply_value`,
:func:`bgtools.engine.evaluation.best_replies`) take the far race's pick and value the position it leaves on its own,
since the plays above it differ in the side the estimate sees only coarsely (passed up, the values lost 1.9
millipoints a race position on judge_dev at 1 ply).  The 0-ply values of a roll's plays are far-race values:
``evaluate_plays``, the analysis' screen, the rollouts' choices.

Numba-callable, on plain arrays (a :class:`~bgtools.engine.bearoff.BearoffTables` bundle):

* ``far_race(board) -> bool``, ``far_race_roll(board, boards, n) -> bool``;
* ``race_side_moments(side, moments) -> (mean, var, first-off mean, first-off var)``;
* ``far_race_probs_into(tables, board, out)``: the five outputs for the side on roll; in a loop over a roll's
  plays ``far_side_into(tables, side, dist)`` once, then ``far_probs_with(tables, board, dist, out)`` a play.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from bgtools.core.dice import PIPS_PER_ROLL
from bgtools.core.movegen import is_contact
from bgtools.engine.bearoff import MAX_ROLLS, bearoff_index

__all__ = ["FAR_ROLLS", "race_side_moments", "normal_rolls_into", "has_outside", "far_race", "far_race_roll",
           "far_side_into", "far_probs_with", "far_race_probs_into"]

FAR_ROLLS = 40  #: rolls a far race's estimated side is counted to (the database's 32 and a tail)


@nb.njit(cache=True)
def race_side_moments(side, moments):
    """(mean, variance) of the rolls a side needs to bear off, and of those to take its first
    checker off, estimated for a side (25 slots, no checker on the bar) that may still have
    checkers outside its home board: those travel to the 6, 5 and 4 points in turn at
    :data:`PIPS_PER_ROLL` pips a roll (variance 0.28 a roll's pips), then the one-sided database
    (``moments``: :func:`one_sided_moments`) takes over."""
    home = np.zeros(6, np.int64)
    for p in range(6):
        home[p] = side[p]
    travel = 0.0
    k = 0
    for p in range(24, 5, -1):
        for _ in range(side[p]):
            target = 5 - (k % 3)
            travel += p - target
            home[target] += 1
            k += 1
    idx = bearoff_index(home)
    t = travel / PIPS_PER_ROLL
    extra_var = travel * 0.28 / PIPS_PER_ROLL
    return moments[idx, 0] + t, moments[idx, 1] + extra_var, moments[idx, 2] + t, moments[idx, 3] + extra_var


@nb.njit(cache=True, inline="always")
def has_outside(side) -> bool:
    """Whether a side (25 slots) has checkers outside its home board (the bar included)."""
    for p in range(6, 25):
        if side[p] != 0:
            return True
    return False


@nb.njit(cache=True)
def far_race(board) -> bool:
    """Whether ``board`` (``[1]`` on roll) is a race, out of contact, in which the side that has
    just moved (``[0]``) is home (with checkers left) and the side on roll has checkers outside."""
    if has_outside(board[0]) or not has_outside(board[1]) or board[1, 24] != 0:
        return False
    n = 0
    for p in range(6):
        n += board[0, p]
    if n == 0:
        return False
    return not _behind(board[0], board[1])


@nb.njit(cache=True)
def far_race_roll(board, boards, n) -> bool:
    """Whether every one of the ``n`` plays ``boards[:n]`` of the roll from ``board`` (all with the
    mover as ``[1]``, before the opponent's turn) leaves a :func:`far_race` (or ends the game):
    the engine then values them all by :func:`far_race_probs_into`."""
    if n == 0 or not has_outside(board[0]) or board[0, 24] != 0:
        return False
    for i in range(n):
        if has_outside(boards[i, 1]):
            return False
    # the mover home after every play and the other side outside (the same after any play: no hits out of
    # contact); out of contact before the roll, out of contact after it; else play by play
    if is_contact(board):
        for i in range(n):
            if _behind(boards[i, 1], boards[i, 0]):
                return False
    return True


@nb.njit(cache=True, inline="always")
def _behind(mover, other) -> bool:
    """Whether a checker of ``other`` (25 slots, its own numbering) is still to pass one of ``mover``, who is home."""
    back = -1
    for p in range(6):
        if mover[p] > 0:
            back = p  # the mover's highest point
    for p in range(24):
        if other[p] > 0 and 23 - p <= back:  # (his point p is the mover's 23 - p)
            return True
    return False


@nb.njit(cache=True)
def normal_rolls_into(mean, var, p) -> None:
    """``p[k]`` = P(k rolls), k < :data:`FAR_ROLLS`, for a normal of ``mean`` and ``var`` counted in whole rolls
    (variance at least 0.05, plus 1/12 for the rounding; the tails in the first and the last)."""
    sd = math.sqrt(max(var, 0.05) + 1.0 / 12.0) * math.sqrt(2.0)
    prev = 0.0
    for k in range(FAR_ROLLS - 1):
        z = (k + 0.5 - mean) / sd
        # erf is -1 or 1 to the last bit beyond 6 (erfc(6) = 2e-17): the same values, fewer calls
        hi = 0.0 if z <= -6.0 else (1.0 if z >= 6.0 else 0.5 * (1.0 + math.erf(z)))
        p[k] = hi - prev
        prev = hi
    p[FAR_ROLLS - 1] = 1.0 - prev


@nb.njit(cache=True)
def far_side_into(tables, side, dist) -> None:
    """The estimated distributions of the side on roll of a far race (25 slots), into ``dist`` (float64[2,
    :data:`FAR_ROLLS`]): ``dist[0, k]`` = P(he bears off in exactly k rolls), ``dist[1, k]`` = P(his first checker
    comes off in exactly k rolls).  The same for every play of a roll (the mover's plays leave him as he is).  The
    normal puts some mass on 0 rolls, which a side outside cannot take; here that is the same as 1 roll: he rolls
    first, and the mover, with checkers left, needs a roll at least whichever it is (the bear-in leaves, where the
    side outside rolls second, move it: :mod:`bgtools.engine.bearin`)."""
    m, v, g, gv = race_side_moments(side, tables.os_moments)
    normal_rolls_into(m, v, dist[0])
    normal_rolls_into(g, gv, dist[1])


@nb.njit(cache=True)
def far_probs_with(tables, board, dist, out) -> None:
    """The five outputs for the side on roll of a :func:`far_race` ``board`` into ``out``, his distributions
    ``dist`` made by :func:`far_side_into`: the other side's exact one-sided distributions against them; the side
    on roll rolls first and wins ties; no backgammons."""
    mv = bearoff_index(board[0])
    pm = tables.os_rolls[mv]
    gm = tables.os_gammon[mv]
    n_me = 0
    n_op = 0
    for p in range(25):
        n_me += board[1, p]
        n_op += board[0, p]
    win = 0.0
    wg = 0.0
    lg = 0.0
    tail_r = 1.0  # P(the mover needs >= k rolls)
    tail_g = 1.0  # P(the mover's first checker needs >= k rolls)
    cum_g = 0.0  # P(the first checker of the side on roll is off within k rolls)
    for k in range(FAR_ROLLS):
        pr = dist[0, k]
        win += pr * tail_r
        wg += pr * tail_g
        cum_g += dist[1, k]
        if k < MAX_ROLLS:
            if k < FAR_ROLLS - 1:
                lg += pm[k] * (1.0 - cum_g)
            tail_r -= pm[k]
            tail_g -= gm[k]
    out[0] = win
    out[1] = min(wg, win) if n_op == 15 else 0.0
    out[2] = 0.0
    out[3] = min(lg, 1.0 - win) if n_me == 15 else 0.0
    out[4] = 0.0


@nb.njit(cache=True)
def far_race_probs_into(tables, board, out) -> None:
    """The five outputs for the side on roll of a :func:`far_race` ``board`` into ``out``
    (:func:`far_side_into` then :func:`far_probs_with`; a loop over a roll's plays makes the first once)."""
    dist = np.empty((2, FAR_ROLLS), np.float64)
    far_side_into(tables, board[1], dist)
    far_probs_with(tables, board, dist, out)
