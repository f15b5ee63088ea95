"""More inputs for the contact and crashed nets (issue 37, item 3), as Numba kernels.

The shipped analysis net reads them after ``features.encode``'s (a :class:`~bgtools.engine.nets.nn.WideNet`);
the shipped rollout net does not.  Each is computed from the board alone.  Every
kernel reads a side ``me`` and the other side ``opp``, both ``int8[25]`` indexed from their own
owner (index ``i`` = his ``i + 1``-point, 24 = his bar), so our point ``i`` is the other side's
point ``23 - i``.  :func:`encode_extra` fills :data:`N_EXTRA_SIDE` inputs a side, the side on
roll first (``board[1]``), then his opponent: swapping the board swaps the halves (tested).

Per side, in this order (the divisor scales the raw value to about 0..1):

==  ====================  =======================================================================
 0  off_1                 checkers off, first third: min(off, 5) / 5
 1  off_2                 second third: min(max(off - 5, 0), 5) / 5
 2  off_3                 last third: min(max(off - 10, 0), 5) / 5
 3  break_contact / 100   pips to bring every checker strictly past the other side's rearmost
                          checker (a checker of his on the bar counts as on his 24-point)
 4  back_checker          (index of the rearmost checker + 1) / 25 (bar = 25 / 25)
 5  back_anchor           (highest point held with 2+ checkers + 1) / 24; 0 without one
 6  forward_anchor        the lowest point 12..23 held, as (24 - i) / 12; 0 without one
 7  hit                   share of the 36 rolls with which the other side, on roll, hits at
                          least one of our checkers (every legal play, the bar rule included)
 8  hit_twice             ... hits two or more of them in one play
 9  pips_lost / 10        mean over the 36 rolls of the most pips a play of the other side
                          sends back (a checker hit on our point ``i`` loses ``24 - i`` pips)
10  dance                 chance a checker of ours on the bar does not enter: (closed / 6)^2,
                          ``closed`` = points the other side holds in his home board
11  enter_loss / 10       mean pips of the roll lost by one checker entering from the bar:
                          a whole non-double when both dice are closed, a whole double when
                          its die is closed, else 0
12  contain               fewest escaping rolls / 36 over our points 12 .. our rearmost
                          checker (bar included): containment only where we still have
                          checkers to contain; 1 when the rearmost is below 12
13  contain ** 2
14  mobility / 90         for each checker and each die value 1..6: the point it would reach
                          is on the board (0..23) and not held by the other side
15  moment2 / 100         variance of our checkers' pip distances (on the board and bar)
16  timing / 100          pips to the 1-point of every checker except two on each made home
                          point (what can be played before the home board must break)
17  backbone              most points held (2+) within any 6 consecutive points, / 6
==  ====================  =======================================================================

Escapes (``escapes``) follow ``features``' rule: a roll escapes from point ``p`` when the
checker can land beyond the lowest point the other side holds within the 12 pips ahead,
stopping only on points he does not hold; 36 when he holds none there.

The hit inputs come from :mod:`bgtools.engine.nets.hitstats`: bit-mask rules for each of the
21 rolls, exact (they equal the other side's legal plays from the rules' move generator, which
plays out the rare rolls the rules leave open); containment reads a table of :func:`escapes`
for every pattern of held points ahead, and mobility counts open points by bits.  All 18 inputs
a side cost under 2 us a board (``benchmarks/new_inputs_cost.py``).  Not computed: free pips and
the escapes of the rearmost checker (the latter is already an input of the shipped encoder).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from bgtools.core.movegen import new_move_buffers
from bgtools.engine.nets.features import held_mask
from bgtools.engine.nets.hitstats import hit_stats

__all__ = [
    "N_EXTRA_SIDE",
    "EXTRA_NAMES",
    "checkers_off",
    "break_contact",
    "back_checker",
    "back_anchor",
    "forward_anchor",
    "hit_stats",
    "dance",
    "enter_loss",
    "held_mask",
    "escapes",
    "containment",
    "mobility",
    "moment2",
    "timing",
    "backbone",
    "encode_extra",
    "encode_extra_batch",
]

EXTRA_NAMES = ("off_1", "off_2", "off_3", "break_contact", "back_checker", "back_anchor", "forward_anchor", "hit",
               "hit_twice", "pips_lost", "dance", "enter_loss", "contain", "contain2", "mobility", "moment2",
               "timing", "backbone")
N_EXTRA_SIDE = len(EXTRA_NAMES)


@nb.njit(cache=True)
def checkers_off(me) -> int:
    n = 0
    for i in range(25):
        n += me[i]
    return 15 - n


@nb.njit(cache=True)
def _rear(side) -> int:
    for i in range(24, -1, -1):
        if side[i] > 0:
            return i
    return -1


@nb.njit(cache=True)
def break_contact(me, opp) -> int:
    """Pips our checkers need to be strictly past the other side's rearmost checker."""
    ob = _rear(opp)
    if ob < 0:
        return 0
    t = 23 - min(ob, 23)  # his rearmost, in our points (his bar counts as his 24-point)
    total = 0
    for i in range(t, 25):
        total += me[i] * (i - t + 1)
    return total


@nb.njit(cache=True)
def back_checker(me) -> int:
    """Index of our rearmost checker (24 = the bar, -1 = none left)."""
    return _rear(me)


@nb.njit(cache=True)
def back_anchor(me) -> int:
    """Our highest point (0..23) with 2+ checkers, -1 without one."""
    for i in range(23, -1, -1):
        if me[i] >= 2:
            return i
    return -1


@nb.njit(cache=True)
def forward_anchor(me) -> int:
    """Our lowest point from 12 to 23 with 2+ checkers, -1 without one."""
    for i in range(12, 24):
        if me[i] >= 2:
            return i
    return -1


@nb.njit(cache=True)
def _closed_home(opp) -> int:
    c = 0
    for j in range(6):
        if opp[j] >= 2:
            c += 1
    return c


@nb.njit(cache=True)
def dance(opp) -> float:
    """Chance one checker of ours on the bar fails to enter against ``opp``'s home board."""
    c = _closed_home(opp)
    return (c / 6.0) * (c / 6.0)


@nb.njit(cache=True)
def enter_loss(opp) -> int:
    """Sum over the 36 rolls of the pips one checker on the bar loses by not entering (a die
    ``d`` enters on the other side's point ``d - 1``, closed when he holds it)."""
    total = 0
    for a in range(1, 7):
        for b in range(1, 7):
            ca = opp[a - 1] >= 2
            cb = opp[b - 1] >= 2
            if a == b:
                if ca:
                    total += 4 * a
            elif ca and cb:
                total += a + b
    return total


@nb.njit(cache=True)
def _held(mask, t) -> bool:
    return t >= 0 and (mask >> t) & 1 == 1


@nb.njit(cache=True)
def escapes(mask, p) -> int:
    """Rolls (of 36) that carry a checker at our point ``p`` (24 = bar) beyond the lowest
    point held (``mask``, :func:`held_mask`) within the 12 pips ahead; 36 if none is held."""
    low = 99
    for t in range(p - 12, p):
        if _held(mask, t):
            low = t
            break
    if low == 99:
        return 36
    count = 0
    for a in range(1, 7):
        for b in range(a, 7):
            ok = False
            if a == b:
                pos = p
                for _ in range(4):
                    pos -= a
                    if pos < low:
                        ok = True
                        break
                    if _held(mask, pos):
                        break
            else:
                for x, y in ((a, b), (b, a)):
                    q = p - x
                    if q < low or (not _held(mask, q) and q - y < low):
                        ok = True
            if ok:
                count += 1 if a == b else 2
    return count


@nb.njit(cache=True)
def _escape_table():
    """:func:`escapes` for every pattern of held points in the 12 pips ahead (index bit ``k``
    = a point ``12 - k`` pips ahead is held): the rule does not depend on where it is read."""
    table = np.empty(4096, np.int64)
    for w in range(4096):
        table[w] = escapes(w, 12)
    return table


_ESCAPES = _escape_table()
# bits 0..5 set in each 6-bit number
_POP6 = np.array([bin(i).count("1") for i in range(64)], np.int64)


@nb.njit(cache=True)
def containment(me, opp) -> int:
    """Fewest escapes over our points 12 .. our rearmost checker; 36 when it is below 12."""
    back = _rear(me)
    mask = held_mask(opp)
    best = 36
    for p in range(12, back + 1):
        e = _ESCAPES[(mask >> (p - 12)) & 0xFFF]
        if e < best:
            best = e
    return best


@nb.njit(cache=True)
def mobility(me, opp) -> int:
    """Checker-and-die pairs whose landing point is on the board and not held by ``opp``."""
    free = ~held_mask(opp) & 0xFFFFFF
    # the open points among the six below each point (those below 0 are off the board)
    n = me[1] * _POP6[free & 1] + me[2] * _POP6[free & 3] + me[3] * _POP6[free & 7]
    n += me[4] * _POP6[free & 15] + me[5] * _POP6[free & 31]
    for i in range(6, 25):
        n += me[i] * _POP6[(free >> (i - 6)) & 63]
    return n


@nb.njit(cache=True)
def moment2(me) -> float:
    """Variance of the pip distances (``i + 1``) of our checkers on the board and bar."""
    n = 0
    s = 0.0
    for i in range(25):
        n += me[i]
        s += me[i] * (i + 1)
    if n == 0:
        return 0.0
    mean = s / n
    v = 0.0
    for i in range(25):
        v += me[i] * (i + 1 - mean) ** 2
    return v / n


@nb.njit(cache=True)
def timing(me) -> int:
    """Pips to the 1-point (``i`` a checker) of all checkers but two on each made home point."""
    t = 0
    for i in range(25):
        n = me[i]
        if i < 6 and n >= 2:
            n -= 2
        t += n * i
    return t


@nb.njit(cache=True)
def backbone(me) -> int:
    """Most points held with 2+ checkers within any 6 consecutive points."""
    best = 0
    for s in range(19):
        c = 0
        for i in range(s, s + 6):
            if me[i] >= 2:
                c += 1
        if c > best:
            best = c
    return best


@nb.njit(cache=True)
def _side_extra(me, opp, out, k, buf) -> None:
    off = checkers_off(me)
    out[k] = min(off, 5) / 5.0
    out[k + 1] = min(max(off - 5, 0), 5) / 5.0
    out[k + 2] = min(max(off - 10, 0), 5) / 5.0
    out[k + 3] = break_contact(me, opp) / 100.0
    out[k + 4] = (back_checker(me) + 1) / 25.0
    out[k + 5] = (back_anchor(me) + 1) / 24.0
    fa = forward_anchor(me)
    out[k + 6] = (24 - fa) / 12.0 if fa >= 0 else 0.0
    h1, h2, lost = hit_stats(me, opp, buf)
    out[k + 7] = h1 / 36.0
    out[k + 8] = h2 / 36.0
    out[k + 9] = lost / 360.0
    out[k + 10] = dance(opp)
    out[k + 11] = enter_loss(opp) / 360.0
    c = containment(me, opp) / 36.0
    out[k + 12] = c
    out[k + 13] = c * c
    out[k + 14] = mobility(me, opp) / 90.0
    out[k + 15] = moment2(me) / 100.0
    out[k + 16] = timing(me) / 100.0
    out[k + 17] = backbone(me) / 6.0


@nb.njit(cache=True)
def encode_extra(board, out, buf) -> None:
    """Fill ``out[:2 * N_EXTRA_SIDE]`` for an int8[2, 25] board (``[1]`` on roll): his inputs,
    then his opponent's.  ``buf``: move buffers for the hit kernels."""
    _side_extra(board[1], board[0], out, 0, buf)
    _side_extra(board[0], board[1], out, N_EXTRA_SIDE, buf)


@nb.njit(cache=True)
def encode_extra_batch(boards):
    """float32[n, 2 * N_EXTRA_SIDE] for int8[n, 2, 25] boards."""
    buf = new_move_buffers()
    x = np.zeros((boards.shape[0], 2 * N_EXTRA_SIDE), np.float32)
    for i in range(boards.shape[0]):
        encode_extra(boards[i], x[i], buf)
    return x
