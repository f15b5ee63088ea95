"""Bear-ins against a side that is home: out of contact, the side on roll is home (bearing off) and the side that
has just moved still has a few checkers outside his home board.

The side on roll's future is known exactly (the one-sided database, :mod:`bgtools.engine.bearoff`), and nothing the
mover does changes it: the two sides race on their own.  So the mover's plays of a roll are valued by playing out
his **next two rolls** against that distribution (every one of the 21 rolls, each answered by the play that does
best against it), and only then estimating: a position they bring home from the database, one still outside from
:func:`~bgtools.engine.farrace.race_side_moments` (at least a roll more).  This is where a net does worst in a race
(issue 37: the largest race losses of the 0-ply judge were bear-ins: how to spend a roll that cannot yet bring the
last checkers home, and which checkers save the gammon) and where the database sees best.  Of the mover's plays of
his first roll, the :data:`SCREEN` best by the estimate after that roll are played out a roll further.

The values are sums over the events of the race (the side on roll rolls first and wins ties):

* the mover wins if he bears off in fewer rolls than the side on roll needs;
* he wins a gammon if the side on roll (15 checkers) has taken none off by then;
* he is gammoned (15 checkers) if the side on roll is off before the mover's first checker is;
* and backgammoned if a checker of his is still in the side on roll's home board then (counted for the side on
  roll's first three rolls).

Each is linear in the mover's distributions, so the database's marginal distributions are enough where the mover is
home, and the values are exact (but for the screen) wherever the side on roll is off within three rolls, a gammon to
save: the tests check them against a brute force over every roll and play.  It applies to a side within about three rolls of home
(:data:`NEAR_CHECKERS` checkers and :data:`NEAR_PIPS` pips outside: :func:`bear_in`).  Only the plays of a roll are
valued so, all of them or none (the plays that leave both sides home keep the database's combination, which is the
same sum), and only at 0 ply, from :func:`bgtools.engine.evaluation.static_probs` with ``rolls_of`` (the analysis'
screen, ``hint --ply 0``, the judge): the searches' replies and the rollouts' chooser keep the net (a bear-in's
roll costs about 0.1 s, more than a rollout or a search can spend on a play).

Numba-callable, on plain arrays (a :class:`~bgtools.engine.bearoff.BearoffTables` bundle):

* ``bear_in(board) -> bool``, ``outside_pips(side) -> int``;
* ``bear_in_probs_into(tables, board, bufs, memo, out)``: the five outputs for the side on roll, ``bufs`` two
  :class:`~bgtools.core.movegen.MoveBuffers`, ``memo`` a :func:`new_memo` shared by the plays of one roll;
* ``bear_in_rolls_into(boards, rolls_of, tables, out, kind)``: the plays of rolls, as ``static_probs`` takes them
  (``some_bear_in(boards, kind)`` first: a small kernel that says whether the large one is needed).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numba as nb
import numpy as np
from numba import types
from numba.typed import Dict

from bgtools.core.dice import ROLL_WEIGHTS, ROLLS
from bgtools.core.movegen import generate_boards, is_contact, new_move_buffers
from bgtools.engine.bearoff import MAX_ROLLS, bearoff_index, in_one_sided
from bgtools.engine.farrace import FAR_ROLLS, has_outside, race_side_moments

__all__ = ["LOOKAHEAD", "NEAR_PIPS", "NEAR_CHECKERS", "SCREEN", "outside_pips", "bear_in", "bear_in_probs_into", "new_memo",
           "some_bear_in", "bear_in_rolls_into"]

_SPAN = FAR_ROLLS + 3  #: rolls the side on roll's tails are kept for (the mover's distributions start a roll or two on)
LOOKAHEAD = 2  #: the mover's rolls played out exactly before the database or the estimate
NEAR_PIPS = 24  #: a bear-in: the mover at most three rolls' pips from home (two played out, the third estimated)
NEAR_CHECKERS = 6  #: ... and at most three rolls' dice: checkers outside
SCREEN = 8  #: of the mover's plays of his next roll, those played out a roll further (the best by the estimate)


@nb.njit(cache=True, inline="always")
def _back(side) -> bool:
    """Whether a checker of ``side`` is on the bar or in the other side's home board (a backgammon if he loses)."""
    for p in range(18, 25):
        if side[p] != 0:
            return True
    return False


@nb.njit(cache=True)
def outside_pips(side) -> int:
    """The pips a side (25 slots) needs to bring all its checkers into its home board (to the 6 point)."""
    n = 0
    for p in range(6, 25):
        n += (p - 5) * side[p]
    return n


@nb.njit(cache=True)
def bear_in(board) -> bool:
    """Whether ``board`` (``[1]`` on roll) is out of contact with the side on roll home and the side that has just
    moved (``[0]``) still outside his home board, with at most :data:`NEAR_CHECKERS` checkers and :data:`NEAR_PIPS`
    pips to bring home: about three rolls' worth, of which :func:`bear_in_probs_into` plays out two."""
    if not in_one_sided(board[1]) or not has_outside(board[0]) or is_contact(board):
        return False
    n = 0
    for p in range(6, 25):
        n += board[0, p]
    return n <= NEAR_CHECKERS and outside_pips(board[0]) <= NEAR_PIPS


class _Race(NamedTuple):
    """The side on roll's tails and the flags a bear-in's valuation shares (made once a board)."""

    s_op: np.ndarray  #: float64[_SPAN]: P(the side on roll needs more than k rolls to bear off)
    h_op: np.ndarray  #: float64[_SPAN]: P(... more than k rolls to take his first checker off); 0 if he has one off
    f_op: np.ndarray  #: float64[MAX_ROLLS]: P(he bears off in exactly k rolls)
    w_gammon: bool  #: the side on roll has all 15 checkers (the mover can win a gammon)
    gammonable: bool  #: the mover has all 15 checkers now (he can be gammoned)
    fa: np.ndarray  #: float64[FAR_ROLLS] work: an estimated side's rolls to bear off
    ga: np.ndarray  #: float64[FAR_ROLLS] work: ... to take his first checker off


_KEY = types.UniTuple(types.int64, 2)
_VALUE = types.float64[::1]


@nb.njit(cache=True)
def new_memo():
    """An empty memo of a bear-in's values (the mover's sides, by roll), for the plays of one roll: they share the
    side on roll, so the positions the mover's rolls reach are valued once (:func:`bear_in_probs_into`)."""
    return Dict.empty(key_type=_KEY, value_type=_VALUE)


@nb.njit(cache=True, inline="always")
def _key(side, lead, first_off):
    a = 0
    for p in range(13):
        a = (a << 4) | side[p]
    b = 0
    for p in range(13, 25):
        b = (b << 4) | side[p]
    b |= (lead << 48) | ((first_off + 1) << 52)
    return (a, b)


@nb.njit(cache=True, inline="always")
def _count(side) -> int:
    n = 0
    for p in range(25):
        n += side[p]
    return n


_PHI_STEP = 1.0 / 256.0
_PHI = np.array([0.5 * (1.0 + math.erf(i * _PHI_STEP / math.sqrt(2.0))) for i in range(int(8.0 / _PHI_STEP) + 2)])
"""The standard normal's distribution function at z = i / 256, 0 <= z <= 8 (linear between: within 1e-6)."""


@nb.njit(cache=True, inline="always")
def _phi(z) -> float:
    a = abs(z) / _PHI_STEP
    i = int(a)
    if i >= _PHI.shape[0] - 1:
        v = 1.0
    else:
        f = a - i
        v = _PHI[i] * (1.0 - f) + _PHI[i + 1] * f
    return v if z >= 0 else 1.0 - v


@nb.njit(cache=True)
def _normal_fast_into(mean, var, p) -> None:
    """As :func:`~bgtools.engine.farrace.normal_rolls_into` (the same rounding to whole rolls), the normal's
    distribution function from a table: the leaves of a bear-in are many."""
    sd = math.sqrt(max(var, 0.05) + 1.0 / 12.0)
    prev = 0.0
    for k in range(p.shape[0] - 1):
        hi = _phi((k + 0.5 - mean) / sd)
        p[k] = hi - prev
        prev = hi
    p[p.shape[0] - 1] = 1.0 - prev


@nb.njit(cache=True)
def _leaf(tables, race, side, lead, first_off, res) -> None:
    """The mover's (win, win gammon, lose gammon, lose backgammon) into ``res`` when ``side`` is his after ``lead``
    of his rolls (``first_off`` >= 0: the roll his first checker came off at), no more rolls played out: from the
    database when he is home, else estimated (:func:`~bgtools.engine.farrace.race_side_moments`)."""
    k_lead = min(lead, _SPAN - 1)
    if _count(side) == 0:  # borne off: he has won
        res[0] = race.s_op[k_lead]
        res[1] = race.h_op[k_lead]
        res[2] = 0.0
        res[3] = 0.0
        return
    if in_one_sided(side):
        idx = bearoff_index(side)
        f = tables.os_rolls[idx]
        g = tables.os_gammon[idx]
        nf = MAX_ROLLS
        bg = 0.0
    else:
        m, v, gm, gv = race_side_moments(side, tables.os_moments)
        _normal_fast_into(m, v, race.fa)
        _normal_fast_into(gm, gv, race.ga)
        race.fa[1] += race.fa[0]  # outside: a roll at least to bear off, and to take the first checker off
        race.fa[0] = 0.0
        race.ga[1] += race.ga[0]
        race.ga[0] = 0.0
        f = race.fa
        g = race.ga
        nf = FAR_ROLLS
        # a checker still in the other home board: backgammoned if the side on roll is off at his next roll
        bg = 0.0
        if race.gammonable and first_off < 0 and _back(side) and lead + 1 < MAX_ROLLS:
            bg = race.f_op[lead + 1]
    win = 0.0
    wg = 0.0
    for m in range(nf):
        k = min(lead + m, _SPAN - 1)
        win += f[m] * race.s_op[k]
        wg += f[m] * race.h_op[k]
    lg = 0.0
    if race.gammonable:
        if first_off >= 0:
            lg = 1.0 - race.s_op[min(first_off, _SPAN - 1)]
        else:
            kept = 0.0
            for j in range(nf):
                kept += g[j] * race.s_op[min(lead + j, _SPAN - 1)]
            lg = 1.0 - kept
    res[0] = win
    res[1] = wg
    res[2] = lg
    res[3] = bg


@nb.njit(cache=True, inline="always")
def _score(res) -> float:
    """The mover's cubeless equity from (win, win gammon, lose gammon, lose backgammon), less 1."""
    return 2.0 * res[0] + res[1] - res[2] - res[3]


@nb.njit(cache=True)
def _first_off(race, side, lead, first_off) -> int:
    """The roll the mover's first checker came off at, ``side`` his after ``lead`` rolls (-1: not yet, or he had
    some off before: no gammon either way)."""
    if not race.gammonable or first_off >= 0:
        return first_off
    return lead if _count(side) < 15 else -1


@nb.njit(cache=True)
def _node(tables, race, side, lead, first_off, depth, bufs, memo, res) -> None:
    """``res`` (the four of :func:`_leaf`) for the mover's ``side`` after ``lead`` of his rolls, ``depth`` more of
    his rolls played out (each by the play best for him) unless he is home or off; remembered in ``memo``."""
    key = _key(side, lead, first_off)
    got = memo.get(key)
    if got is not None:
        res[:] = got
        return
    if depth == 0 or in_one_sided(side) or _count(side) == 0:
        _leaf(tables, race, side, lead, first_off, res)
    else:
        buf = bufs[0] if depth == LOOKAHEAD else bufs[1]
        mb = np.empty((2, 25), np.int8)  # the mover on roll: his side as [1] (the other side plays no part)
        mb[0, :] = 0
        mb[1, :] = side
        tmp = np.empty(4)
        best_res = np.empty(4)
        acc = np.zeros(4)
        screen = np.empty(buf.boards.shape[0])
        for r in range(ROLLS.shape[0]):
            n = generate_boards(mb, ROLLS[r, 0], ROLLS[r, 1], buf)
            m = max(n, 1)
            # the plays of the roll screened by their values with no more rolls played out; the best
            # :data:`SCREEN` of them played out a roll further
            for i in range(m):
                child = buf.boards[i, 1] if n > 0 else side
                _leaf(tables, race, child, lead + 1, _first_off(race, child, lead + 1, first_off), tmp)
                screen[i] = _score(tmp)
            order = np.argsort(-screen[:m], kind="mergesort")
            best = -1e9
            for j in range(min(m, SCREEN)):
                i = order[j]
                child = buf.boards[i, 1].copy() if n > 0 else side.copy()
                _node1(tables, race, child, lead + 1, _first_off(race, child, lead + 1, first_off), depth - 1,
                       bufs, memo, tmp)
                e = _score(tmp)
                if e > best:
                    best = e
                    best_res[:] = tmp
            acc += ROLL_WEIGHTS[r] * best_res
        res[:] = acc
        # backgammoned if the side on roll is off at his next roll with a checker of the mover's still back
        if race.gammonable and first_off < 0 and _back(side) and lead + 1 < MAX_ROLLS:
            res[3] += race.f_op[lead + 1]
    memo[key] = res.copy()


@nb.njit(cache=True)
def _node1(tables, race, side, lead, first_off, depth, bufs, memo, res) -> None:
    """:func:`_node` one level down (Numba compiles no recursion here): ``depth`` 1 at most."""
    key = _key(side, lead, first_off)
    got = memo.get(key)
    if got is not None:
        res[:] = got
        return
    if depth == 0 or in_one_sided(side) or _count(side) == 0:
        _leaf(tables, race, side, lead, first_off, res)
    else:
        buf = bufs[1]
        mb = np.empty((2, 25), np.int8)
        mb[0, :] = 0
        mb[1, :] = side
        tmp = np.empty(4)
        best_res = np.empty(4)
        acc = np.zeros(4)
        for r in range(ROLLS.shape[0]):
            n = generate_boards(mb, ROLLS[r, 0], ROLLS[r, 1], buf)
            best = -1e9
            for i in range(max(n, 1)):
                child = buf.boards[i, 1] if n > 0 else side
                fo = _first_off(race, child, lead + 1, first_off)
                ck = _key(child, lead + 1, fo)
                hit = memo.get(ck)
                if hit is not None:
                    tmp[:] = hit
                else:
                    _leaf(tables, race, child, lead + 1, fo, tmp)
                    memo[ck] = tmp.copy()
                e = _score(tmp)
                if e > best:
                    best = e
                    best_res[:] = tmp
            acc += ROLL_WEIGHTS[r] * best_res
        res[:] = acc
        if race.gammonable and first_off < 0 and _back(side) and lead + 1 < MAX_ROLLS:
            res[3] += race.f_op[lead + 1]
    memo[key] = res.copy()


@nb.njit(cache=True)
def bear_in_probs_into(tables, board, bufs, memo, out) -> None:
    """The five outputs for the side on roll of a :func:`bear_in` ``board`` into ``out`` (float64[5]): the mover's
    next :data:`LOOKAHEAD` rolls played exactly, each by the play best for him against the side on roll's exact
    distributions, then the database (or, still outside, :func:`~bgtools.engine.farrace.race_side_moments`).
    ``bufs``: two :class:`~bgtools.core.movegen.MoveBuffers` (overwritten); ``memo``: :func:`new_memo`'s, shared
    by the plays of one roll only (it holds values against this side on roll)."""
    op = bearoff_index(board[1])
    f_op = tables.os_rolls[op]
    g_op = tables.os_gammon[op]
    w_gammon = _count(board[1]) == 15
    gammonable = _count(board[0]) == 15
    s_op = np.zeros(_SPAN)
    h_op = np.zeros(_SPAN)
    cs = 0.0
    ch = 0.0
    for k in range(_SPAN):
        if k < MAX_ROLLS:
            cs += f_op[k]
            ch += g_op[k]
        s_op[k] = max(1.0 - cs, 0.0)
        h_op[k] = max(1.0 - ch, 0.0) if w_gammon else 0.0
    race = _Race(s_op, h_op, f_op, w_gammon, gammonable, np.zeros(FAR_ROLLS), np.zeros(FAR_ROLLS))
    res = np.zeros(4)
    _node(tables, race, board[0].copy(), 0, -1, LOOKAHEAD, bufs, memo, res)
    win, wg, lg, lbg = res[0], res[1], res[2], res[3]
    lg = min(max(lg, lbg), 1.0 - win)
    out[0] = 1.0 - win
    out[1] = lg
    out[2] = min(lbg, lg)
    out[3] = min(wg, win)
    out[4] = 0.0


@nb.njit(cache=True)
def some_bear_in(boards, kind) -> bool:
    """Whether some board not valued yet (``kind`` 0) is a :func:`bear_in`: a small kernel, so that the large one,
    :func:`bear_in_rolls_into`, compiles only for a first call that needs it."""
    for i in range(boards.shape[0]):
        if kind[i] == 0 and bear_in(boards[i]):
            return True
    return False


@nb.njit(cache=True)
def bear_in_rolls_into(boards, rolls_of, tables, out, kind) -> None:
    """The plays of rolls (``rolls_of``: the same number for the plays of one roll, which come together), ``kind``
    what valued each so far (:func:`bgtools.engine.evaluation.static_probs`' kinds: 0 none yet, 1 a finished game, 2
    and 3 the databases, 4 a far race): where every play of a roll not valued yet is a :func:`bear_in` and the others
    are finished games or both sides home (the databases' values, the same sums), value the bear-ins by
    :func:`bear_in_probs_into` into ``out`` (``kind`` 5)."""
    n = boards.shape[0]
    bufs = (new_move_buffers(), new_move_buffers())
    start = 0
    while start < n:
        end = start + 1
        while end < n and rolls_of[end] == rolls_of[start]:
            end += 1
        some = False
        for i in range(start, end):
            if kind[i] == 0:
                if not bear_in(boards[i]):
                    some = False
                    break
                some = True
            elif kind[i] > 3:
                some = False
                break
        if some:
            memo = new_memo()  # the plays of a roll share the side on roll
            for i in range(start, end):
                if kind[i] == 0:
                    bear_in_probs_into(tables, boards[i], bufs, memo, out[i])
                    kind[i] = 5
        start = end
