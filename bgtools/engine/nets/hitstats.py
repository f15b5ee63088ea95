"""The hit inputs of :mod:`bgtools.engine.nets.contactinputs`: how often, how many and how far
the other side, on roll, can hit our checkers, over his 21 rolls.

For each roll: the most of our checkers one of his legal plays hits and the most pips one sends
back (a checker hit on our point ``i`` loses ``24 - i`` pips).  Only blots can be hit (a point
of two or more of ours is closed to him), so everything is worked out in his coordinates (his
point ``x`` is our ``23 - x``; a blot there loses ``x + 1`` pips) with bit masks: bit ``x`` of
``src`` = a checker of his on ``x`` (24 = his bar), of ``blots`` = a blot of ours there, of
``blocked`` = a point we hold.  His moves never change ``blocked`` (a hit only empties a blot),
which is what keeps the bit-mask rules short:

* A roll whose partial sums (``a``, ``b``, ``a + b``; or ``d`` .. ``4d``) reach no blot from any
  of his checkers hits nothing.
* Non-double, no checker on the bar.  A hit needs a move onto the board, so the hits come from
  direct hits by either die, one checker hitting over an open intermediate point (a play of
  both dice), and double hits by two checkers (two on one point when both start there) or by
  one checker hitting with both steps (plays of both dice too).  A direct hit counts only if
  the other die can still be played after it (when some play uses both dice, only those are
  legal): by another checker, by the hitter going on, or by bearing off once all are home,
  each an O(1) bit test.  If no play of both dice hits, a direct hit still counts when no play
  at all uses both dice (then the larger die if it can be played, else the smaller); that test
  is exact while two or more of his checkers are outside his home board (no bear-off can come
  within the roll), else the generator decides.
* Non-double from the bar: one checker on the bar enters with either die if the play can go on
  with the other (exactly: another checker can move it, or the entered one over an open point),
  else the larger die if it enters, else the smaller; two or more enter with each open die.
* Doubles: checkers on the bar enter first (a closed entry point: no play).  The moves left
  (``4`` less the entering checkers) that he can play are the open steps of his checkers
  (each goes on until a point we hold or the edge) when no bear-off can come within the roll
  (four or more checkers outside), or all of them when the open steps or the movers (bearing
  off included) are at least as many: either way every sequence of fewer moves can be played
  on to that number, so the best plays are found among the "hitting paths" (a checker moving
  ``k`` steps along open points to a blot, hitting every blot it lands on) combined within the
  moves left, no more from one point than his checkers there (and no search when at most one
  blot is within reach).

Whenever a rule's condition fails (a bear-off with few movers, mostly), that roll is played out
by the rules' move generator instead (:func:`_roll_exact`), so the figures are always those of
the legal plays; :func:`hit_stats_exact` does every roll that way (the reference of the tests).
On the shipped net's self-play contact boards about 0.13 % of the (side, roll) pairs that can
reach a blot go to the generator (167 of 124,348).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from bgtools.core.dice import ROLL_WAYS, ROLLS
from bgtools.core.movegen import generate
from bgtools.engine.nets.features import target_masks

__all__ = ["hit_stats", "hit_stats_exact"]

_MAX_PATHS = 16
_BOARD = (1 << 24) - 1

# highest set bit of a 12-bit number (index 0 unused)
_HB12 = np.zeros(1 << 12, np.int64)
for _i in range(1, 1 << 12):
    _HB12[_i] = _i.bit_length() - 1
del _i


@nb.njit(cache=True, inline="always")
def _top(m) -> int:
    """Highest set bit of a non-zero 24-bit mask."""
    return _HB12[m >> 12] + 12 if m >> 12 else _HB12[m]


# per byte: set bits, and the sum of (bit index + 1) over them
_POP8 = np.array([bin(i).count("1") for i in range(256)], np.int64)
_SUM8 = np.array([sum(k + 1 for k in range(8) if i >> k & 1) for i in range(256)], np.int64)


@nb.njit(cache=True, inline="always")
def _value(m):
    """(blots, pips) of the hits in the 24-bit mask ``m`` (a blot on his point ``x`` loses
    ``x + 1``)."""
    b0 = m & 255
    b1 = (m >> 8) & 255
    b2 = (m >> 16) & 255
    p1 = _POP8[b1]
    p2 = _POP8[b2]
    return _POP8[b0] + p1 + p2, _SUM8[b0] + _SUM8[b1] + 8 * p1 + _SUM8[b2] + 16 * p2


@nb.njit(cache=True)
def _movers(opp, src, blocked, d, home, need) -> bool:
    """At least ``need`` checkers of his on the board can each play ``d`` (onto an open point,
    or off: from the exact point, or any when all lie below it), whatever else he moves."""
    if need <= 0:
        return True
    if home:
        hi = _top(src & _BOARD)
        if hi < d - 1:
            n = 0
            for x in range(hi + 1):
                n += opp[x]
            return n >= need
    mv = src & ~(blocked << d) & ~((1 << d) - 1) & _BOARD
    if home:
        mv |= src & (1 << (d - 1))
    n = 0
    while mv:
        x = _top(mv)
        mv ^= 1 << x
        n += opp[x]
        if n >= need:
            return True
    return False


@nb.njit(cache=True)
def _count(opp, src, blocked, d):
    """(checkers, mask of points) of his that can move ``d`` onto an open point (no bear-off);
    the count stops at 2 (all the rules ask)."""
    mv = src & ~(blocked << d) & ~((1 << d) - 1) & _BOARD
    if mv & (mv - 1):
        return 2, mv
    if mv == 0:
        return 0, mv
    return min(opp[_top(mv)], 2), mv


@nb.njit(cache=True)
def _open(blocked, t) -> bool:
    """``t`` is a point on the board (0..23) that we do not hold."""
    return t >= 0 and not (blocked >> t) & 1


@nb.njit(cache=True)
def _then(hit, first, second, n2, blocked, opp, src, outside):
    """The hits of ``hit`` (moves of die ``first``) after which die ``second`` can still be
    played (``n2``: his checkers that could move it onto an open point before, counted up to
    2): by another checker, by the hitter going on, or bearing off once all are home."""
    if n2 >= 2:
        return hit
    out = 0
    m = hit
    while m:
        t = _top(m)
        m ^= 1 << t
        s = t + first
        ok = n2 - _open(blocked, s - second) >= 1 or _open(blocked, t - second)
        if not ok and outside - (s >= 6 and t < 6) == 0:
            # all home after the hit: off from the exact point, or from the highest below it
            e = second - 1
            if opp[e] - (s == e) + (t == e) > 0:
                ok = True
            else:
                rest = src & _BOARD
                if opp[s] == 1:
                    rest &= ~(1 << s)
                ok = _top(rest | (1 << t)) < e
        if ok:
            out |= 1 << t
    return out


@nb.njit(cache=True)
def _both_playable(mv, first, second, n2, blocked) -> bool:
    """Some move of ``first`` from the points ``mv`` can be followed by one of ``second``."""
    while mv:
        s = _top(mv)
        mv ^= 1 << s
        if n2 - _open(blocked, s - second) >= 1 or _open(blocked, s - first - second):
            return True
    return False


@nb.njit(cache=True)
def _nondouble(opp, src, blots, blocked, a, b, outside):
    """(most blots hit, most pips) of the roll ``a``-``b`` (``a != b``); (-1, -1) when a
    rule's condition fails."""
    nbar = opp[24]
    if nbar >= 2:
        n = 0
        v = 0
        for d in (a, b):
            e = 24 - d
            if not (blocked >> e) & 1 and (blots >> e) & 1:
                n += 1
                v += e + 1
        return n, v
    board = src & _BOARD
    if nbar == 1:
        ea = not (blocked >> (24 - a)) & 1
        eb = not (blocked >> (24 - b)) & 1
        through = not (blocked >> (24 - a - b)) & 1  # the entered checker moving on
        ext_a = ea and (through or _movers(opp, src, blocked, b, False, 1))
        ext_b = eb and (through or _movers(opp, src, blocked, a, False, 1))
        if not (ext_a or ext_b):
            hi = max(a, b)
            lo = min(a, b)
            e = 24 - hi if not (blocked >> (24 - hi)) & 1 else 24 - lo
            if (blocked >> e) & 1 or not (blots >> e) & 1:
                return 0, 0
            return 1, e + 1
        mh = 0
        ml = 0
        for first, second, ok in ((a, b, ext_a), (b, a, ext_b)):
            if ok:
                e = 24 - first
                h0 = (blots >> e) & 1
                cand = ((board | (1 << e)) >> second) & blots & ~(1 << e)
                n = h0
                v = h0 * (e + 1)
                if cand:
                    n += 1
                    v += _top(cand) + 1
                mh = max(mh, n)
                ml = max(ml, v)
        return mh, ml
    hit_a = (board >> a) & blots  # direct hits
    hit_b = (board >> b) & blots
    open_ = ~blocked
    # one checker hitting with both dice, over an open point: a play of both dice
    via = ((((board >> a) & open_) >> b) | (((board >> b) & open_) >> a)) & blots
    if hit_a | hit_b == 0:
        return (1, _top(via) + 1) if via else (0, 0)
    na, mva = _count(opp, src, blocked, a)
    nb_, mvb = _count(opp, src, blocked, b)
    # single hits that some play of both dice makes: the other die can follow
    one_a = _then(hit_a, a, b, nb_, blocked, opp, src, outside)
    one_b = _then(hit_b, b, a, na, blocked, opp, src, outside)
    singles = one_a | one_b | via
    two = 0  # the most pips of two hits (each a play of both dice)
    m1 = hit_a
    while m1:
        t1 = _top(m1)
        m1 ^= 1 << t1
        t2 = t1 - b  # the same checker hits again with b
        if t2 >= 0 and (blots >> t2) & 1:
            two = max(two, t1 + t2 + 2)
        m2 = hit_b
        while m2:
            t2 = _top(m2)
            m2 ^= 1 << t2
            if t2 != t1 and (t1 + a != t2 + b or opp[t1 + a] >= 2):
                two = max(two, t1 + t2 + 2)
    m1 = hit_b
    while m1:
        t1 = _top(m1)
        m1 ^= 1 << t1
        t2 = t1 - a
        if t2 >= 0 and (blots >> t2) & 1:
            two = max(two, t1 + t2 + 2)
    if singles or two:
        # some play uses both dice, so only such plays are legal
        ml = _top(singles) + 1 if singles else 0
        return (2 if two else 1), max(ml, two)
    # a direct hit that no play of both dice makes: legal only if no play uses both dice
    if outside < 2:
        return -1, -1  # (bear-offs: left to the generator)
    if _both_playable(mva, a, b, nb_, blocked) or _both_playable(mvb, b, a, na, blocked):
        return 0, 0
    # one die only: the larger if it can be played, else the smaller
    hit = (hit_a if na else hit_b) if a > b else (hit_b if nb_ else hit_a)
    return (1, _top(hit) + 1) if hit else (0, 0)


@nb.njit(cache=True)
def _paths(opp, blots, blocked, d, budget, extra_at, extra_n, ps):
    """Best (blots, pips) of up to ``budget`` moves of ``d`` when every sequence can be played
    out; ``extra_n`` more checkers of his on ``extra_at``; ``ps``: int64[3 * _MAX_PATHS] work.
    (-1, -1) when there are too many hitting paths for ``ps``."""
    npaths = 0
    m = blots
    while m:
        t = _top(m)
        m ^= 1 << t
        mask = 1 << t
        kept = 0  # the mask of the last path kept to t
        for k in range(1, budget + 1):
            x = t + k * d
            if x > 23:
                break
            if k > 1:
                p = x - d  # the point this path now also lands on
                if (blocked >> p) & 1:
                    break
                mask |= blots & (1 << p)
            cnt = opp[x] + (extra_n if x == extra_at else 0)
            if cnt > 0 and mask != kept:
                # (a longer path to t that hits no more is never needed: where its shorter
                # twin's checker is wanted elsewhere on this lane, that one path covers both)
                kept = mask
                if npaths == _MAX_PATHS:
                    return -1, -1
                ps[3 * npaths] = x
                ps[3 * npaths + 1] = k
                ps[3 * npaths + 2] = mask
                npaths += 1
    if npaths == 0:
        return 0, 0
    mh = 0
    ml = 0
    for i in range(npaths):
        xi = ps[3 * i]
        ki = ps[3 * i + 1]
        mi = ps[3 * i + 2]
        n, v = _value(mi)
        mh = max(mh, n)
        ml = max(ml, v)
        ci = opp[xi] + (extra_n if xi == extra_at else 0)
        for j in range(i + 1, npaths):
            xj = ps[3 * j]
            kj = ps[3 * j + 1]
            if ki + kj > budget or (xj == xi and ci < 2):
                continue
            mj = mi | ps[3 * j + 2]
            n, v = _value(mj)
            mh = max(mh, n)
            ml = max(ml, v)
            for q in range(j + 1, npaths):
                xq = ps[3 * q]
                kq = ps[3 * q + 1]
                same = (xq == xi) + (xq == xj)
                cq = opp[xq] + (extra_n if xq == extra_at else 0)
                if ki + kj + kq > budget or (same and cq < 1 + same):
                    continue
                mq = mj | ps[3 * q + 2]
                n, v = _value(mq)
                mh = max(mh, n)
                ml = max(ml, v)
                for r in range(q + 1, npaths):
                    # four paths: one step each, so from four different points
                    if ki + kj + kq + ps[3 * r + 1] > budget:
                        continue
                    n, v = _value(mq | ps[3 * r + 2])
                    mh = max(mh, n)
                    ml = max(ml, v)
    return mh, ml


@nb.njit(cache=True)
def _steps(opp, src, blocked, d, extra_at, extra_n, need) -> int:
    """Moves of ``d`` his checkers can make in all, at most ``need`` (no bear-off): each goes
    on until a point we hold or the edge of the board; ``extra_n`` more on ``extra_at``."""
    m = src & _BOARD
    if extra_at >= 0:
        m |= 1 << extra_at
    first = m & ~(blocked << d) & ~((1 << d) - 1)  # points with one step open
    few = first
    for _ in range(need - 1):
        few &= few - 1
    if few:
        return need  # as many points as moves wanted, each with a step
    total = 0
    while m:
        x = _top(m)
        m ^= 1 << x
        k = 0
        p = x - d
        while k < need and _open(blocked, p):
            k += 1
            p -= d
        total += k * (opp[x] + (extra_n if x == extra_at else 0))
        if total >= need:
            return need
    return total


@nb.njit(cache=True)
def _within(board, blots, blocked, d, steps):
    """The blots a checker on ``board`` reaches in at most ``steps`` moves of ``d``."""
    can = 0
    for _ in range(steps):
        board = (board >> d) & ~blocked
        can |= board & blots
    return can


@nb.njit(cache=True)
def _double(opp, src, blots, blocked, d, outside, ps):
    """As :func:`_nondouble`, for the double ``d``-``d``."""
    nbar = opp[24]
    left = 4
    e = 0
    h0 = 0
    extra_at = -1
    extra_n = 0
    if nbar:
        e = 24 - d
        if (blocked >> e) & 1:
            return 0, 0
        h0 = (blots >> e) & 1
        left = 4 - nbar
        if left <= 0:
            return h0, h0 * (e + 1)
        blots &= ~(1 << e)
        extra_at = e
        extra_n = nbar
    # the blots one checker can reach: none, no hit; fewer than two, no search
    board = src & _BOARD
    if extra_at >= 0:
        board |= 1 << extra_at
    can = _within(board, blots, blocked, d, left)
    if can == 0:
        return h0, h0 * (e + 1)
    budget = _steps(opp, src, blocked, d, extra_at, extra_n, left)
    if budget < left and outside < 4:
        # a bear-off may come within the roll: enough movers, or the generator
        if nbar == 0:
            ok = _movers(opp, src, blocked, d, outside == 0, 4)
        else:
            ok = _movers(opp, src, blocked, d, False, left)
            if not ok and _open(blocked, e - d):
                ok = _movers(opp, src, blocked, d, False, left - nbar)
        if not ok:
            return -1, -1
        budget = left
    if budget < left:
        can = _within(board, blots, blocked, d, budget)
    if can & (can - 1) == 0:
        n = 1 if can else 0
        v = _top(can) + 1 if can else 0
        return h0 + n, h0 * (e + 1) + v
    n, v = _paths(opp, blots, blocked, d, budget, extra_at, extra_n, ps)
    if n < 0:
        return -1, -1
    return h0 + n, h0 * (e + 1) + v


@nb.njit(cache=True)
def _roll_exact(me, opp, a, b, buf):
    """(most of our checkers hit, most pips lost) over the other side's legal plays of ``a``-``b``
    from the rules' move generator."""
    board = np.empty((2, 25), np.int8)
    pips0 = 0
    for i in range(25):
        board[0, i] = me[i]
        board[1, i] = opp[i]
        pips0 += (i + 1) * me[i]
    # (``generate``, not ``generate_boards``: the same boards in the same order, and the kernel the analysis
    # compiles anyway, so a first run compiles one move generator, not two)
    n = generate(board, a, b, buf)
    most_hit = 0
    most_lost = 0
    for j in range(n):
        after = buf.boards[j, 0]
        h = after[24] - me[24]
        if h > most_hit:
            most_hit = h
        pips = 0
        for i in range(25):
            pips += (i + 1) * after[i]
        if pips - pips0 > most_lost:
            most_lost = pips - pips0
    return most_hit, most_lost


@nb.njit(cache=True)
def hit_stats_exact(me, opp, buf):
    """As :func:`hit_stats`, every roll from the move generator (slow: the tests' reference)."""
    hit1 = 0
    hit2 = 0
    lost = 0
    for r in range(ROLLS.shape[0]):
        mh, ml = _roll_exact(me, opp, ROLLS[r, 0], ROLLS[r, 1], buf)
        w = ROLL_WAYS[r]
        hit1 += w * (mh >= 1)
        hit2 += w * (mh >= 2)
        lost += w * ml
    return hit1, hit2, lost


@nb.njit(cache=True)
def hit_stats(me, opp, buf):
    """(rolls of 36 with a hit, rolls with a double hit, sum over the 36 of the most pips lost)
    when ``opp`` is on roll against ``me``; ``buf``: move buffers (``new_move_buffers()``) for
    the rolls the bit-mask rules leave to the move generator, and its ``work`` array as scratch
    (what ``buf`` held before is not kept)."""
    blots, blocked = target_masks(me)
    if blots == 0:
        return 0, 0, 0
    src = 0
    outside = 0
    for x in range(25):
        c = opp[x]
        if c > 0:
            src |= 1 << x
            if x >= 6:
                outside += c
    if src == 0:
        return 0, 0, 0
    # reach: bit k set when some checker of his is k pips behind one of our blots
    reach = 0
    m = blots
    while m:
        t = _top(m)
        m ^= 1 << t
        reach |= src >> t
    # scratch for the doubles' paths: the generator's work array, which it always writes
    # before it reads (and no generator call falls inside one use)
    ps = buf.work
    hit1 = 0
    hit2 = 0
    lost = 0
    for r in range(ROLLS.shape[0]):
        a = ROLLS[r, 0]
        b = ROLLS[r, 1]
        if a == b:
            if reach & ((1 << a) | (1 << (2 * a)) | (1 << (3 * a)) | (1 << (4 * a))) == 0:
                continue
            mh, ml = _double(opp, src, blots, blocked, a, outside, ps)
        else:
            if reach & ((1 << a) | (1 << b) | (1 << (a + b))) == 0:
                continue
            mh, ml = _nondouble(opp, src, blots, blocked, a, b, outside)
        if mh < 0:
            mh, ml = _roll_exact(me, opp, a, b, buf)
        w = ROLL_WAYS[r]
        if mh >= 1:
            hit1 += w
        if mh >= 2:
            hit2 += w
        lost += w * ml
    return hit1, hit2, lost
