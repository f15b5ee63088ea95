"""Network inputs: a raw board encoding plus hand-made features, as Numba kernels.

Every encoder reads a board ``int8[2, 25]`` in gnubg order (``[1]`` = the player on roll,
``[0]`` = his opponent, each side indexed from its own owner, index 24 = bar) and fills a
``float32`` row.  The layout is the same for both sides, on-roll side first, so swapping
the board swaps the two halves of the row (tested).

Net classes (the integer the kernels use): ``NET_CONTACT`` = 0, ``NET_CRASHED`` = 1,
``NET_RACE`` = 2 (bear-offs included); ``CLASS_OVER`` = -1 for finished games.

Per side, contact and crashed nets see (``N_SIDE_CONTACT`` = 112 inputs):

* 25 slots (24 points and the bar) x 4 units, TD-Gammon's cumulative form:
  ``n >= 1``, ``n >= 2``, ``n >= 3``, ``(n - 3) / 2`` for ``n > 3``;
* checkers off / 15;
* 11 features: pips / 100, exposure (share of the 36 rolls with which the other side
  hits one of this side's blots), escapes of the rearmost checker / 36, containment
  (fewest escapes from any point 12..23) / 36 and its square, longest prime / 6,
  home-board points / 6, anchors in the other side's home board / 2, checkers back
  (other side's home board and bar) / 5, pips outside the home board / 100 (timing),
  blots / 5.

Race nets see, per side (``N_SIDE_RACE`` = 99): 24 points x 4 units, checkers off / 15,
pips / 100 and checkers still outside the home board / 15.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from bgtools.core.dice import ROLL_PAIRS
from bgtools.core.movegen import rearmost

__all__ = [
    "held_mask",
    "target_masks",
    "NET_CONTACT",
    "NET_CRASHED",
    "NET_RACE",
    "CLASS_OVER",
    "N_INPUTS",
    "N_SIDE_CONTACT",
    "N_SIDE_RACE",
    "net_class",
    "net_classes",
    "encode",
    "encode_batch",
]

NET_CONTACT = 0
NET_CRASHED = 1
NET_RACE = 2
CLASS_OVER = -1

N_SIDE_CONTACT = 112
N_SIDE_RACE = 99
N_INPUTS = (2 * N_SIDE_CONTACT, 2 * N_SIDE_CONTACT, 2 * N_SIDE_RACE)
MAX_INPUTS = 2 * N_SIDE_CONTACT


@nb.njit(cache=True)
def _crashed_side(side) -> bool:
    total = 0
    for i in range(25):
        total += side[i]
    if total <= 6:
        return True
    # gnubg 1.07's rule, as Position.classify: a stack on the 1-point does not count, or it
    # and a 2-point stack count as one checker; a lone 2-point stack counts as one
    if side[0] > 1:
        return total - side[0] <= 6 or (side[1] > 1 and total - side[0] - side[1] + 1 <= 6)
    return side[1] > 1 and total - (side[1] - 1) <= 6


@nb.njit(cache=True)
def net_class(board) -> int:
    """Which net evaluates ``board`` (``CLASS_OVER`` when a side has borne off all)."""
    me_back, opp_back = rearmost(board)
    if me_back < 0 or opp_back < 0:
        return CLASS_OVER
    if me_back + opp_back <= 22:
        return NET_RACE
    if _crashed_side(board[1]) or _crashed_side(board[0]):
        return NET_CRASHED
    return NET_CONTACT


@nb.njit(cache=True)
def _points(side, out, base, nslots) -> None:
    for i in range(nslots):
        n = side[i]
        k = base + 4 * i
        out[k] = 1.0 if n >= 1 else 0.0
        out[k + 1] = 1.0 if n >= 2 else 0.0
        out[k + 2] = 1.0 if n >= 3 else 0.0
        out[k + 3] = (n - 3) * 0.5 if n > 3 else 0.0


@nb.njit(cache=True)
def _pips(side) -> int:
    p = 0
    for i in range(25):
        p += (i + 1) * side[i]
    return p


@nb.njit(cache=True, inline="always")
def target_masks(dfn):
    """(blots, points) of the defender ``dfn`` as bit masks in the attacker's coordinates: bit
    ``x`` set where ``dfn`` has one checker (two or more) on his point ``23 - x``."""
    blots = 0
    blocked = 0
    for x in range(24):
        o = dfn[23 - x]
        if o == 1:
            blots |= 1 << x
        elif o >= 2:
            blocked |= 1 << x
    return blots, blocked


@nb.njit(cache=True)
def _hit_rolls(att, dfn) -> int:
    """How many of the 36 rolls let ``att`` hit at least one blot of ``dfn``.

    Works in the attacker's coordinates (his point ``x`` is the defender's ``23 - x``) with
    bit masks: bit ``x`` of ``src`` = a checker to move from ``x``, of ``blots`` = a
    defender blot there, of ``blocked`` = a defender point.  A hitter may stop on open
    points on the way (combinations, doubles); with checkers on the bar only the entering
    checker is considered as a hitter.
    """
    blots, blocked = target_masks(dfn)
    if blots == 0:
        return 0
    src = 0
    if att[24] > 0:
        src = 1 << 24
    else:
        for x in range(24):
            if att[x] > 0:
                src |= 1 << x
    open_ = ~blocked
    count = 0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            if d1 == d2:
                reach = src
                hit = False
                for _ in range(4):
                    reach = (reach >> d1) & open_
                    if reach & blots:
                        hit = True
                        break
                    if reach == 0:
                        break
                if hit:
                    count += 1
            else:
                a = src >> d1
                b = src >> d2
                if ((a | b) & blots) or (((a & open_) >> d2) & blots) or (((b & open_) >> d1) & blots):
                    count += 2
    return count


def _escape_table() -> np.ndarray:
    """Escaping rolls for every pattern of blocking points in the 12 pips ahead.

    Index bit ``k`` (0..11) = a blocking point ``12 - k`` pips ahead; a roll escapes when
    the checker can land (stopping only on open points) beyond the last blocking point.
    Positions are offset by 24 so that moves off the board stay representable.
    """
    masks = np.arange(4096, dtype=np.int64)
    low = np.full(4096, 12, np.int64)  # lowest blocking point (12 = none)
    for k in range(11, -1, -1):
        low = np.where((masks >> k) & 1 == 1, k, low)
    esc = (np.int64(1) << (low + 24)) - 1  # landing squares that escape
    blocked = masks << 24
    start = np.int64(1) << 36
    count = np.zeros(4096, np.int64)
    for a, b in ROLL_PAIRS:  # counts of rolls: the order does not matter
        if a == b:
            reach = np.full(4096, start)
            ok = np.zeros(4096, bool)
            for _ in range(4):
                reach = reach >> a
                ok |= (reach & esc) != 0
                reach = reach & ~blocked
            count += ok.astype(np.int64)
        else:
            ok = np.zeros(4096, bool)
            for x, y in ((a, b), (b, a)):
                r = start >> x
                ok |= (r & esc) != 0
                ok |= (((r & ~blocked) >> y) & esc) != 0
            count += 2 * ok.astype(np.int64)
    count[0] = 36
    return count


_ESCAPES = _escape_table()


@nb.njit(cache=True)
def held_mask(opp) -> int:
    """Bit ``t`` set when the other side holds our point ``t`` (0..23)."""
    m = 0
    for t in range(24):
        if opp[23 - t] >= 2:
            m |= 1 << t
    return m


@nb.njit(cache=True)
def _escapes_m(blocked, p) -> int:
    return _ESCAPES[((blocked << 12) >> p) & 0xFFF]


@nb.njit(cache=True)
def _escapes(side, opp, p) -> int:
    """Rolls (of 36) that carry a checker of ``side`` at slot ``p`` past the other side's
    made points within the next 12 pips (36 when there are none)."""
    return _escapes_m(held_mask(opp), p)


@nb.njit(cache=True)
def _side_features(side, opp, out, k) -> None:
    pips = _pips(side)
    out[k] = pips / 100.0
    out[k + 1] = _hit_rolls(opp, side) / 36.0
    back = -1
    for i in range(24, -1, -1):
        if side[i] > 0:
            back = i
            break
    blocked = held_mask(opp)
    out[k + 2] = _escapes_m(blocked, back) / 36.0 if back >= 0 else 1.0
    cont = 36
    for p in range(12, 24):
        e = _escapes_m(blocked, p)
        if e < cont:
            cont = e
    c = cont / 36.0
    out[k + 3] = c
    out[k + 4] = c * c
    run = 0
    best = 0
    home = 0
    anchors = 0
    blots = 0
    for i in range(24):
        if side[i] >= 2:
            run += 1
            if run > best:
                best = run
            if i < 6:
                home += 1
            elif i >= 18:
                anchors += 1
        else:
            run = 0
        if side[i] == 1:
            blots += 1
    out[k + 5] = best / 6.0
    out[k + 6] = home / 6.0
    out[k + 7] = anchors / 2.0
    backn = 0
    for i in range(18, 25):
        backn += side[i]
    out[k + 8] = backn / 5.0
    outside = 0
    for i in range(6, 25):
        outside += (i - 5) * side[i]
    out[k + 9] = outside / 100.0
    out[k + 10] = blots / 5.0


@nb.njit(cache=True)
def _encode_contact(board, out) -> None:
    for s in range(2):
        side = board[1 - s]
        opp = board[s]
        k = s * N_SIDE_CONTACT
        _points(side, out, k, 25)
        on = 0
        for i in range(25):
            on += side[i]
        out[k + 100] = (15 - on) / 15.0
        _side_features(side, opp, out, k + 101)


@nb.njit(cache=True)
def _encode_race(board, out) -> None:
    for s in range(2):
        side = board[1 - s]
        k = s * N_SIDE_RACE
        _points(side, out, k, 24)
        on = 0
        outside = 0
        for i in range(25):
            on += side[i]
            if i >= 6:
                outside += side[i]
        out[k + 96] = (15 - on) / 15.0
        out[k + 97] = _pips(side) / 100.0
        out[k + 98] = outside / 15.0


@nb.njit(cache=True)
def encode(board, out) -> int:
    """Fill ``out`` (float32, at least ``MAX_INPUTS`` long) with the inputs of ``board``'s
    net; return that net's class (``CLASS_OVER`` leaves ``out`` untouched)."""
    c = net_class(board)
    if c == NET_RACE:
        _encode_race(board, out)
    elif c >= 0:
        _encode_contact(board, out)
    return c


@nb.njit(cache=True)
def net_classes(boards):
    """:func:`net_class` of each of many boards (int8[n, 2, 25]): int64[n]."""
    out = np.empty(boards.shape[0], np.int64)
    for i in range(boards.shape[0]):
        out[i] = net_class(boards[i])
    return out


@nb.njit(cache=True)
def encode_batch(boards):
    """Inputs for many boards: (classes int64[n], inputs float32[n, MAX_INPUTS])."""
    n = boards.shape[0]
    x = np.zeros((n, MAX_INPUTS), np.float32)
    cls = np.empty(n, np.int64)
    for i in range(n):
        cls[i] = encode(boards[i], x[i])
    return cls, x
