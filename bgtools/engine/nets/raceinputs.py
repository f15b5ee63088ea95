"""Race-net inputs and post-net race corrections (issue 37, item 2), as Numba kernels.

Not used by the shipped net.  :func:`encode_race_extra` fills :data:`N_RACE_EXTRA_SIDE` inputs
a side (the side on roll first, as ``features``): one unit per "exactly ``k`` checkers off"
(``k`` = 0..14) and the crossover count / 10 (each checker weighted by the quadrants it still
has to cross to get home: ``i // 6`` for our point ``i``, 4 on the bar).

:func:`race_correct` corrects a race net's five outputs (gnubg's cumulative order: P(win),
P(win gammon), P(win backgammon), P(lose gammon), P(lose backgammon), the player on roll
``board[1]``) with what is certain:

* no backgammon for a side whose opponent has no checker left in its home board or on the bar;
  no gammon against a side that has borne a checker off;
* sure wins and losses from bounds on the rolls each side needs to bear off: at least
  ``max(ceil(pips / 24), ceil(checkers / 4))``; at most the longest roll count of our
  one-sided bear-off database when the side is home (the play it was built with achieves it),
  else ``ceil(pips / 2)`` (in a race every roll moves at least two pips);
* sure gammons and sure escapes from a gammon likewise, with the rolls to take the first
  checker off: at least ``ceil((pips to bring every checker home + the cheapest checker's
  remaining way off) / 24)``, at most the longest of the database's first-checker
  distribution.

The player on roll wins surely when his most rolls are no more than his opponent's fewest, and
loses surely when his fewest exceed his opponent's most.  Only our own bear-off databases are
used (``bgtools.engine.bearoff``); the corrections never contradict them (tested).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from bgtools.engine.bearoff import bearoff_index, in_one_sided
from bgtools.engine.nets.features import NET_RACE, net_class

__all__ = ["N_RACE_EXTRA_SIDE", "crossovers", "encode_race_extra", "encode_race_extra_batch", "min_rolls",
           "max_rolls", "min_first_off", "max_first_off", "race_correct", "race_correct_batch"]

N_RACE_EXTRA_SIDE = 16
_FAR = 1000  #: "no bound known"


@nb.njit(cache=True)
def crossovers(me) -> int:
    """Quadrant crossings our checkers still have to make to be home (``i // 6`` each)."""
    c = 0
    for i in range(25):
        c += me[i] * (i // 6)
    return c


@nb.njit(cache=True)
def _on_board(me) -> int:
    n = 0
    for i in range(25):
        n += me[i]
    return n


@nb.njit(cache=True)
def _side_race(me, out, k) -> None:
    off = 15 - _on_board(me)
    for j in range(15):
        out[k + j] = 1.0 if off == j else 0.0
    out[k + 15] = crossovers(me) / 10.0


@nb.njit(cache=True)
def encode_race_extra(board, out) -> None:
    """Fill ``out[:2 * N_RACE_EXTRA_SIDE]``: the player on roll's inputs, then his opponent's."""
    _side_race(board[1], out, 0)
    _side_race(board[0], out, N_RACE_EXTRA_SIDE)


@nb.njit(cache=True)
def encode_race_extra_batch(boards):
    """float32[n, 2 * N_RACE_EXTRA_SIDE] for int8[n, 2, 25] boards."""
    x = np.zeros((boards.shape[0], 2 * N_RACE_EXTRA_SIDE), np.float32)
    for i in range(boards.shape[0]):
        encode_race_extra(boards[i], x[i])
    return x


@nb.njit(cache=True)
def _pips(me) -> int:
    p = 0
    for i in range(25):
        p += (i + 1) * me[i]
    return p


@nb.njit(cache=True)
def min_rolls(me) -> int:
    """Fewest rolls that can bear off all of ``me``'s checkers (a lower bound; 0 when none are left)."""
    n = _on_board(me)
    a = (_pips(me) + 23) // 24
    b = (n + 3) // 4
    return max(a, b)


@nb.njit(cache=True)
def max_rolls(me, os_rolls) -> int:
    """Rolls within which ``me`` surely bears off (an upper bound some play achieves)."""
    if _on_board(me) == 0:
        return 0
    if in_one_sided(me):
        d = os_rolls[bearoff_index(me)]
        for k in range(d.shape[0] - 1, -1, -1):
            if d[k] > 0.0:
                return k
    return (_pips(me) + 1) // 2


@nb.njit(cache=True)
def min_first_off(me) -> int:
    """Fewest rolls before ``me`` can take a first checker off (0 once one is off)."""
    if _on_board(me) < 15:
        return 0
    home = 0
    cheapest = 6
    for i in range(25):
        if me[i] == 0:
            continue
        if i >= 6:
            home += me[i] * (i - 5)
        elif i + 1 < cheapest:
            cheapest = i + 1
    return (home + cheapest + 23) // 24


@nb.njit(cache=True)
def max_first_off(me, os_gammon) -> int:
    """Rolls within which ``me`` surely takes a first checker off, or a large number when no
    bound is known (a side not home)."""
    if _on_board(me) < 15:
        return 0
    if in_one_sided(me):
        d = os_gammon[bearoff_index(me)]
        for k in range(d.shape[0] - 1, -1, -1):
            if d[k] > 0.0:
                return k
    return _FAR


@nb.njit(cache=True)
def _home_or_bar_of_other(side) -> bool:
    """Checkers of ``side`` in the other side's home board (our points 18..23) or on the bar."""
    for i in range(18, 25):
        if side[i] > 0:
            return True
    return False


@nb.njit(cache=True)
def race_correct(board, y, os_rolls, os_gammon) -> bool:
    """Correct ``y`` (float[5], the player on roll's outputs) in place for a race ``board``;
    False (``y`` untouched) when the board is not a race."""
    if net_class(board) != NET_RACE:
        return False
    me = board[1]
    opp = board[0]
    if not _home_or_bar_of_other(opp):
        y[2] = 0.0
    if not _home_or_bar_of_other(me):
        y[4] = 0.0
    if _on_board(opp) < 15:
        y[1] = 0.0
        y[2] = 0.0
    if _on_board(me) < 15:
        y[3] = 0.0
        y[4] = 0.0
    me_min, me_max = min_rolls(me), max_rolls(me, os_rolls)
    op_min, op_max = min_rolls(opp), max_rolls(opp, os_rolls)
    # I roll first: my k-th roll comes before his k-th
    if me_max <= op_min:
        y[0] = 1.0
        y[3] = 0.0
        y[4] = 0.0
        if _on_board(opp) == 15 and min_first_off(opp) >= me_max:
            y[1] = 1.0  # he has had me_max - 1 rolls, too few to take one off
    elif me_min > op_max:
        y[0] = 0.0
        y[1] = 0.0
        y[2] = 0.0
        if _on_board(me) == 15 and min_first_off(me) > op_max:
            y[3] = 1.0  # I have had op_max rolls, too few to take one off
    if max_first_off(opp, os_gammon) <= me_min - 1:
        y[1] = 0.0  # he surely takes one off before my earliest finish
        y[2] = 0.0
    if max_first_off(me, os_gammon) <= op_min:
        y[3] = 0.0
        y[4] = 0.0
    # keep the cumulative order
    y[0] = min(max(y[0], 0.0), 1.0)
    y[1] = min(y[1], y[0])
    y[2] = min(y[2], y[1])
    y[3] = min(y[3], 1.0 - y[0])
    y[4] = min(y[4], y[3])
    return True


@nb.njit(cache=True)
def race_correct_batch(boards, probs, os_rolls, os_gammon):
    """:func:`race_correct` on copies of ``probs`` (float64[n, 5]); returns (corrected, mask of races)."""
    out = probs.copy()
    mask = np.zeros(boards.shape[0], np.bool_)
    for i in range(boards.shape[0]):
        mask[i] = race_correct(boards[i], out[i], os_rolls, os_gammon)
    return out, mask
