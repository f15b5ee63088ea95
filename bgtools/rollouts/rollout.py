"""Rollouts: play a position out many times and average the results.

Each trial plays the game from the position to the end (or to a truncation depth, or until
both sides fit the two-sided bear-off database) with checker play by the neural net at 0
or 1 ply; the bear-off databases value the positions they cover (exactly, in the two-sided
case).  A trial's dice depend only on (seed, trial number):

* quasi-random first two rolls, stratified as gnubg does: trial ``i`` in block
  ``i // 1296`` uses digits ``a = i % 36`` and ``b = (i // 36) % 36``; its first roll is
  ``perm0[a]`` and its second ``perm1[(a + b) % 36]``, with permutations of the 36 rolls
  drawn afresh for each block from the seed.  Every 36 consecutive trials (from a
  multiple of 36) hold each first roll once, every 1,296 each pair of first two rolls;
* later rolls from a counter-based generator (splitmix64 of seed, trial and turn).

So results do not depend on how the trials are split among processes or machines: work
is cut into fixed chunks of :data:`CHUNK` trials, each returns (n, sum, sum of squares)
per output, and partial results are merged in chunk order, never averaged.

Variance reduction (gnubg's, after Jellyfish): before each roll the mover's best play for
all 21 rolls is found and valued (statically); the luck of the actual roll (its value
minus the mean over the 36 rolls) is accumulated from the root player's side and
subtracted from the trial's result.  The cubeful output gets the same treatment with
cubeful values.  With an exact evaluator this gives the exact value in every trial.

Cubeful rollouts (money or match): before each roll after the first, the player on roll
may double, the opponent take or pass, as :mod:`bgtools.engine.cube` decides from the 0-ply
cubeless evaluation.  The root player does not double on his first turn: the result is
the value of not doubling now.  When a double is passed the cubeless outputs of the trial
are the static evaluation of that position.  Checker play always maximises cubeless money
equity.

Outputs per trial (:data:`OUTPUTS`): the five cumulative probabilities (gnubg's order),
cubeless money equity, cubeless match winning chance (match only: the cube at its
starting value, never turned), and the cubeful value (money: points in units of the
starting cube; match: match winning chance).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Optional

import numba as nb
import numpy as np

from bgtools.engine import bearoff as _bo
from bgtools.engine.cube import cube_values, cube_x, cubeful_value
from bgtools.engine.features import MAX_INPUTS, encode
from bgtools.engine.met import load_met, mwc_after
from bgtools.core.movegen import MAX_PLAYS, _TABLE, _gen
from bgtools.engine.nn import _consistent, _forward_row, game_over_probs
from bgtools.engine.play import _swap_into
from bgtools.core.position import Position
from bgtools.base.errors import BgtoolsError

__all__ = [
    "RolloutSettings",
    "RolloutResult",
    "Partial",
    "RolloutError",
    "rollout",
    "rollout_many",
    "roll_dice",
    "run_chunk",
    "CHUNK",
    "OUTPUTS",
]

#: trials per unit of work (fixed, so that the merge order never depends on the workers)
CHUNK = 144
OUTPUTS = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon", "equity", "mwc",
           "cubeful")
K = len(OUTPUTS)
MAX_TURNS = 5000

_RD1 = np.array([a for a in range(6, 0, -1) for b in range(a, 0, -1)], np.int64)
_RD2 = np.array([b for a in range(6, 0, -1) for b in range(a, 0, -1)], np.int64)
_RW = np.array([1.0 / 36 if a == b else 2.0 / 36 for a, b in zip(_RD1, _RD2)], np.float64)
_RIDX = np.zeros((7, 7), np.int64)  # (larger, smaller) -> index into the 21 rolls
for _i, (_a, _b) in enumerate(zip(_RD1, _RD2)):
    _RIDX[_a, _b] = _i


class RolloutError(BgtoolsError, ValueError):
    """A position or setting that cannot be rolled out."""


# ----------------------------------------------------------------------------- dice
@nb.njit(cache=True)
def _mix(z):
    """splitmix64 finaliser (uint64 -> uint64)."""
    z = z + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True)
def _hash3(seed, a, b):
    return _mix(_mix(_mix(np.uint64(seed)) ^ np.uint64(a)) ^ (np.uint64(b) * np.uint64(0xD6E8FEB86659FD93)))


@nb.njit(cache=True)
def _below36(h) -> int:
    return np.int64(((h >> np.uint64(32)) * np.uint64(36)) >> np.uint64(32))


@nb.njit(cache=True)
def _perm_pick(seed, block, turn, idx, perm) -> int:
    """``perm[idx]`` of the seeded permutation of 0..35 for (block, turn)."""
    for i in range(36):
        perm[i] = i
    base = _hash3(seed, block, 1000003 + turn)
    for i in range(35, 0, -1):
        h = _mix(base ^ np.uint64(i))
        j = np.int64(((h >> np.uint64(32)) * np.uint64(i + 1)) >> np.uint64(32))
        t = perm[i]
        perm[i] = perm[j]
        perm[j] = t
    return perm[idx]


@nb.njit(cache=True)
def _roll(seed, trial, turn, perm):
    """(larger die, smaller die) of ``trial`` at ``turn`` (0 = the first roll)."""
    if turn < 2:
        a = trial % 36
        if turn == 0:
            r = _perm_pick(seed, trial // 1296, 0, a, perm)
        else:
            r = _perm_pick(seed, trial // 1296, 1, (a + (trial // 36) % 36) % 36, perm)
    else:
        r = _below36(_hash3(seed, trial, turn))
    d1 = r // 6 + 1
    d2 = r % 6 + 1
    if d1 < d2:
        return d2, d1
    return d1, d2


def roll_dice(seed: int, trial: int, turns: int) -> list[tuple[int, int]]:
    """The first ``turns`` rolls of a trial (larger die first)."""
    perm = np.zeros(36, np.int64)
    return [tuple(int(v) for v in _roll(seed, trial, t, perm)) for t in range(turns)]


# ----------------------------------------------------------------------------- evaluation
@nb.njit(cache=True)
def _net(board, W1s, b1s, W2s, b2s, x, h, y, out) -> None:
    """The net's outputs for ``board[1]`` on roll (a game not over): the forward pass of
    :mod:`bgtools.engine.nn`, clipped to consistent cumulative probabilities."""
    c = encode(board, x)
    _forward_row(x, W1s[c].shape[0], W1s[c], b1s[c], W2s[c], b2s[c], h, y)
    for o in range(5):
        out[o] = y[o]
    _consistent(out)


@nb.njit(cache=True)
def _static(board, W1s, b1s, W2s, b2s, os_rolls, os_gammon, ts, x, h, y, out) -> None:
    """0-ply outputs for ``board[1]`` on roll: exact when over or in the two-sided database,
    the one-sided combination when both sides are home, else the net."""
    if game_over_probs(board, out):
        return
    if _bo.in_two_sided(board):
        v = _bo.ts_lookup(ts, board)
        out[0] = v[0]
        for k in range(1, 5):
            out[k] = 0.0
        return
    if _bo.in_one_sided(board[0]) and _bo.in_one_sided(board[1]):
        v = _bo.one_sided_probs(os_rolls, os_gammon, board)
        for k in range(5):
            out[k] = v[k]
        return
    _net(board, W1s, b1s, W2s, b2s, x, h, y, out)


@nb.njit(cache=True)
def _eq(p) -> float:
    return 2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]


@nb.njit(cache=True)
def _choose0(board, d1, d2, W1s, b1s, W2s, b2s, os_rolls, os_gammon, ts, keys, table, stamp, gen, outb,
             outs, outn, sw, x, h, y, p, best_p):
    """0-ply play: (index or -1, gen).  ``best_p``: the chosen position's outputs for the
    opponent, now on roll (when no play is legal: the board passed to him)."""
    gen += 1
    n, gen = _gen(board, d1, d2, keys, table, stamp, gen, outb, outs, outn)
    if n == 0:
        _swap_into(board, sw)
        _static(sw, W1s, b1s, W2s, b2s, os_rolls, os_gammon, ts, x, h, y, best_p)
        return -1, gen
    best = 0
    best_e = -1e300
    for i in range(n):
        _swap_into(outb[i], sw)
        _static(sw, W1s, b1s, W2s, b2s, os_rolls, os_gammon, ts, x, h, y, p)
        e = -_eq(p)
        if e > best_e:
            best_e = e
            best = i
            for o in range(5):
                best_p[o] = p[o]
    return best, gen


@nb.njit(cache=True)
def _reply_value(after, W1s, b1s, W2s, b2s, os_rolls, os_gammon, ts, keys, table, stamp, gen, outb, outs,
                 outn, sw, opp, x, h, y, p):
    """Mover's equity of ``after`` (mover as [1]) averaged over the opponent's 21 rolls, each
    answered by his best 0-ply play."""
    _swap_into(after, opp)
    if game_over_probs(opp, p) or _bo.in_two_sided(opp):
        _static(opp, W1s, b1s, W2s, b2s, os_rolls, os_gammon, ts, x, h, y, p)
        return -_eq(p), gen
    tot = 0.0
    for r in range(21):
        gen += 1
        n, gen = _gen(opp, _RD1[r], _RD2[r], keys, table, stamp, gen, outb, outs, outn)
        if n == 0:
            _swap_into(opp, sw)
            _static(sw, W1s, b1s, W2s, b2s, os_rolls, os_gammon, ts, x, h, y, p)
            tot += _RW[r] * _eq(p)
            continue
        worst = 1e300
        for i in range(n):
            _swap_into(outb[i], sw)
            _static(sw, W1s, b1s, W2s, b2s, os_rolls, os_gammon, ts, x, h, y, p)
            e = _eq(p)
            if e < worst:
                worst = e
        tot += _RW[r] * worst
    return tot, gen


@nb.njit(cache=True)
def _choose1(board, d1, d2, W1s, b1s, W2s, b2s, os_rolls, os_gammon, ts, keys, table, stamp, gen, outb,
             outs, outn, sw, opp, x, h, y, p, best_p, prune, e0):
    """1-ply play among the ``prune`` best by 0-ply (scratch level 0 ours, 1 the replies)."""
    gen += 1
    n, gen = _gen(board, d1, d2, keys[0], table[0], stamp[0], gen, outb[0], outs[0], outn[0])
    if n == 0:
        _swap_into(board, sw)
        _static(sw, W1s, b1s, W2s, b2s, os_rolls, os_gammon, ts, x, h, y, best_p)
        return -1, gen
    for i in range(n):
        _swap_into(outb[0, i], sw)
        _static(sw, W1s, b1s, W2s, b2s, os_rolls, os_gammon, ts, x, h, y, p)
        e0[i] = -_eq(p)
    order = np.argsort(-e0[:n], kind="mergesort")
    best = order[0]
    if n > 1:
        best_e = -1e300
        for j in range(min(prune, n)):
            i = order[j]
            e, gen = _reply_value(outb[0, i], W1s, b1s, W2s, b2s, os_rolls, os_gammon, ts, keys[1], table[1],
                                  stamp[1], gen, outb[1], outs[1], outn[1], sw, opp, x, h, y, p)
            if e > best_e:
                best_e = e
                best = i
    _swap_into(outb[0, best], sw)
    _static(sw, W1s, b1s, W2s, b2s, os_rolls, os_gammon, ts, x, h, y, best_p)
    return best, gen


# ----------------------------------------------------------------------------- the kernel
@nb.njit(cache=True)
def _outcome_mwc(p, am, ao, cube, pre, post) -> float:
    """Match winning chance of the outcome distribution ``p`` with the cube dead at ``cube``."""
    pl = 1.0 - p[0]
    return ((p[0] - p[1]) * mwc_after(pre, post, am, ao, cube) + (p[1] - p[2]) * mwc_after(pre, post, am, ao, 2 * cube)
            + p[2] * mwc_after(pre, post, am, ao, 3 * cube) + (pl - p[3]) * mwc_after(pre, post, am, ao, -cube)
            + (p[3] - p[4]) * mwc_after(pre, post, am, ao, -2 * cube) + p[4] * mwc_after(pre, post, am, ao, -3 * cube))


@nb.njit(cache=True)
def _rel_owner(owner, side) -> int:
    """Absolute owner (-1 centred, 0 root, 1 the other) -> cube-kernel code for ``side`` on roll."""
    if owner < 0:
        return 0
    return 1 if owner == side else 2


@nb.njit(cache=True)
def _cf_after(pa, board_after, side, money, aw, cube, owner, crawford, cube0, pre, post) -> float:
    """Root player's cubeful value of ``board_after`` (opponent of ``side`` on roll, outputs ``pa``)."""
    s2 = 1 - side
    v = cubeful_value(pa, money, aw[s2], aw[side], cube, _rel_owner(owner, s2), crawford, cube_x(board_after), pre, post)
    if money:
        v = v / cube0
        return v if s2 == 0 else -v
    return v if s2 == 0 else 1.0 - v


@nb.njit(cache=True)
def rollout_kernel(board0, first, count, seed, ply, prune, truncate, bo_trunc, vr, cubeful, money, am, ao,
                   cube0, owner0, crawford, pre, post, W1s, b1s, W2s, b2s, os_rolls, os_gammon, ts, sums, sumsq):
    """Play trials ``first .. first + count - 1`` of ``board0`` (``[1]`` on roll, the root
    player); add each trial's :data:`OUTPUTS` to ``sums`` and their squares to ``sumsq``.

    ``owner0``: -1 centred, 0 the root player, 1 his opponent; ``am``/``ao``: points away
    (ignored for money).  Returns the number of half-moves played.
    """
    levels = 2
    keys = np.zeros((levels, MAX_PLAYS, 2), np.uint64)
    table = np.zeros((levels, _TABLE), np.int64)
    stamp = np.zeros((levels, _TABLE), np.int64)
    outb = np.zeros((levels, MAX_PLAYS, 2, 25), np.int8)
    outs = np.zeros((levels, MAX_PLAYS, 4, 2), np.int64)
    outn = np.zeros((levels, MAX_PLAYS), np.int64)
    e0 = np.zeros(MAX_PLAYS, np.float64)
    x = np.zeros(MAX_INPUTS, np.float32)
    nh = 1
    for c in range(3):
        nh = max(nh, W1s[c].shape[1])
    h = np.empty(nh, np.float32)
    y = np.empty(5, np.float32)
    p = np.zeros(5, np.float64)
    bp = np.zeros(5, np.float64)
    pc = np.zeros(5, np.float64)
    cv = np.zeros(4, np.float64)
    sw = np.zeros((2, 25), np.int8)
    opp = np.zeros((2, 25), np.int8)
    b = np.zeros((2, 25), np.int8)
    perm = np.zeros(36, np.int64)
    vr_b = np.zeros((21, 2, 25), np.int8)
    vr_p = np.zeros((21, 5), np.float64)
    vr_cf = np.zeros(21, np.float64)
    vr_has = np.zeros(21, np.bool_)
    luck = np.zeros(6, np.float64)
    res = np.zeros(K, np.float64)
    out = np.zeros(5, np.float64)
    aw = np.zeros(2, np.int64)
    aw[0] = am
    aw[1] = ao
    gen = 0
    plies = 0
    for trial in range(first, first + count):
        for s in range(2):
            for i in range(25):
                b[s, i] = board0[s, i]
        side = 0  # player on roll: 0 = root, 1 = the other
        cube = cube0
        owner = owner0
        for k in range(6):
            luck[k] = 0.0
        cf_final = 0.0
        done = False
        t = 0
        while not done:
            # ---- end of the trial?
            if game_over_probs(b, out):
                pts = 1 + (1 if out[1] > 0.5 or out[3] > 0.5 else 0) + (1 if out[2] > 0.5 or out[4] > 0.5 else 0)
                won = out[0] > 0.5
                if won == (side == 0):
                    root_pts = pts * cube
                else:
                    root_pts = -pts * cube
                if side == 1:
                    tmp0 = 1.0 - out[0]
                    out[0], out[1], out[2], out[3], out[4] = tmp0, out[3], out[4], out[1], out[2]
                cf_final = root_pts / cube0 if money else mwc_after(pre, post, am, ao, root_pts)
                break
            stop = (truncate > 0 and t >= truncate) or t >= MAX_TURNS or (bo_trunc and _bo.in_two_sided(b))
            if stop:
                _static(b, W1s, b1s, W2s, b2s, os_rolls, os_gammon, ts, x, h, y, pc)
                if cubeful:
                    rel = _rel_owner(owner, side)
                    if money and _bo.in_two_sided(b):
                        v = _bo.ts_lookup(ts, b)
                        vm = cube * (v[1] if rel == 1 else (v[2] if rel == 0 else v[3]))
                    else:
                        vm = cubeful_value(pc, money, aw[side], aw[1 - side], cube, rel, crawford, cube_x(b), pre, post)
                    if money:
                        cf_final = (vm if side == 0 else -vm) / cube0
                    else:
                        cf_final = vm if side == 0 else 1.0 - vm
                if side == 0:
                    for k in range(5):
                        out[k] = pc[k]
                else:
                    out[0], out[1], out[2], out[3], out[4] = 1.0 - pc[0], pc[3], pc[4], pc[1], pc[2]
                break
            # ---- cube action of the player on roll (not the root's first turn)
            if cubeful and t > 0:
                rel = _rel_owner(owner, side)
                _static(b, W1s, b1s, W2s, b2s, os_rolls, os_gammon, ts, x, h, y, pc)
                code = cube_values(pc, money, aw[side], aw[1 - side], cube, rel, crawford, cube_x(b), pre, post, cv)
                if code == 1:  # double
                    if cv[3] < 0.5:  # pass: the doubler wins the cube; the cubeless
                        # outputs are those of the position (as when truncating)
                        root_pts = cube if side == 0 else -cube
                        if side == 0:
                            for k in range(5):
                                out[k] = pc[k]
                        else:
                            out[0], out[1], out[2], out[3], out[4] = 1.0 - pc[0], pc[3], pc[4], pc[1], pc[2]
                        cf_final = root_pts / cube0 if money else mwc_after(pre, post, am, ao, root_pts)
                        break
                    cube *= 2
                    owner = 1 - side
            # ---- roll and play
            d1, d2 = _roll(seed, trial, t, perm)
            if vr:
                for r in range(21):
                    if ply == 0:
                        i, gen = _choose0(b, _RD1[r], _RD2[r], W1s, b1s, W2s, b2s, os_rolls, os_gammon, ts, keys[0],
                                          table[0], stamp[0], gen, outb[0], outs[0], outn[0], sw, x, h, y, p, bp)
                    else:
                        i, gen = _choose1(b, _RD1[r], _RD2[r], W1s, b1s, W2s, b2s, os_rolls, os_gammon, ts, keys,
                                          table, stamp, gen, outb, outs, outn, sw, opp, x, h, y, p, bp, prune, e0)
                    vr_has[r] = i >= 0
                    if i >= 0:
                        for s in range(2):
                            for q in range(25):
                                vr_b[r, s, q] = outb[0, i, s, q]
                    for k in range(5):
                        vr_p[r, k] = bp[k]
                    if cubeful:
                        if i >= 0:
                            _swap_into(outb[0, i], sw)
                        else:
                            _swap_into(b, sw)
                        vr_cf[r] = _cf_after(bp, sw, side, money, aw, cube, owner, crawford, cube0, pre, post)
                ra = _RIDX[d1, d2]
                # luck of the mover in his own terms: outputs after the roll, opponent's view
                for k in range(5):
                    m = 0.0
                    for r in range(21):
                        m += _RW[r] * vr_p[r, k]
                    dl = vr_p[ra, k] - m  # from the opponent's view (he is on roll next)
                    # root view: the next player on roll is 1 - side
                    if 1 - side == 0:
                        luck[k] += dl
                    else:
                        # opponent-view outputs inverted: win -> 1 - win, gammons swap
                        if k == 0:
                            luck[0] -= dl
                        elif k == 1:
                            luck[3] += dl
                        elif k == 2:
                            luck[4] += dl
                        elif k == 3:
                            luck[1] += dl
                        else:
                            luck[2] += dl
                if cubeful:
                    m = 0.0
                    for r in range(21):
                        m += _RW[r] * vr_cf[r]
                    luck[5] += vr_cf[ra] - m
                if vr_has[ra]:
                    _swap_into(vr_b[ra], b)
                else:
                    _swap_into(b.copy(), b)
            else:
                if ply == 0:
                    i, gen = _choose0(b, d1, d2, W1s, b1s, W2s, b2s, os_rolls, os_gammon, ts, keys[0], table[0],
                                      stamp[0], gen, outb[0], outs[0], outn[0], sw, x, h, y, p, bp)
                else:
                    i, gen = _choose1(b, d1, d2, W1s, b1s, W2s, b2s, os_rolls, os_gammon, ts, keys, table, stamp,
                                      gen, outb, outs, outn, sw, opp, x, h, y, p, bp, prune, e0)
                if i >= 0:
                    _swap_into(outb[0, i], b)
                else:
                    _swap_into(b.copy(), b)
            side = 1 - side
            t += 1
            plies += 1
        # ---- record the trial (root player's view)
        for k in range(5):
            res[k] = out[k] - luck[k]
        res[5] = 2.0 * res[0] - 1.0 + res[1] - res[3] + res[2] - res[4]
        res[6] = 0.0 if money else _outcome_mwc(res, am, ao, cube0, pre, post)
        res[7] = (cf_final - luck[5]) if cubeful else 0.0
        for k in range(K):
            sums[k] += res[k]
            sumsq[k] += res[k] * res[k]
    return plies


# ----------------------------------------------------------------------------- Python side
@dataclass(frozen=True)
class RolloutSettings:
    """What a rollout does.  ``truncate``: stop after that many half-moves (0 = play to the
    end) and evaluate statically; ``bearoff_truncation``: stop once both sides fit the
    two-sided bear-off database (exact there); ``prune``: candidates checked at 1 ply."""

    trials: int = 1296
    seed: int = 1
    ply: int = 0
    cubeful: bool = False
    truncate: int = 0
    variance_reduction: bool = False
    bearoff_truncation: bool = True
    prune: int = 4

    def __post_init__(self) -> None:
        if self.trials < 1:
            raise RolloutError(f"trials must be at least 1, got {self.trials}")
        if not 0 <= self.seed < 2**63:
            raise RolloutError(f"seed must be between 0 and 2**63 - 1, got {self.seed}")
        if self.ply not in (0, 1):
            raise RolloutError(f"checker play at {self.ply} ply is not supported: use 0 or 1")
        if self.truncate < 0:
            raise RolloutError(f"truncate must be 0 (none) or a number of half-moves, got {self.truncate}")
        if self.prune < 1:
            raise RolloutError(f"prune must be at least 1, got {self.prune}")

    def key(self) -> dict:
        """The settings as written into output records (resume compares these)."""
        return {"trials": self.trials, "seed": self.seed, "ply": self.ply, "cubeful": self.cubeful,
                "truncate": self.truncate, "vr": self.variance_reduction,
                "bearoff_truncation": self.bearoff_truncation}

    def chunks(self) -> list[tuple[int, int]]:
        """(first trial, count) of each unit of work, in merge order."""
        return [(f, min(CHUNK, self.trials - f)) for f in range(0, self.trials, CHUNK)]


@dataclass(frozen=True)
class Partial:
    """(n, sum, sum of squares) per output for some trials; merge, never average."""

    n: int
    sums: np.ndarray
    sumsq: np.ndarray
    plies: int = 0

    @classmethod
    def empty(cls) -> "Partial":
        return cls(0, np.zeros(K), np.zeros(K), 0)

    def merge(self, other: "Partial") -> "Partial":
        return Partial(self.n + other.n, self.sums + other.sums, self.sumsq + other.sumsq, self.plies + other.plies)

    def mean(self) -> np.ndarray:
        return self.sums / self.n

    def se(self) -> np.ndarray:
        """Standard errors of the means, sqrt(var / n) (conservative with stratified dice)."""
        if self.n < 2:
            return np.full(K, math.nan)
        var = (self.sumsq - self.sums * self.sums / self.n) / (self.n - 1)
        return np.sqrt(np.maximum(var, 0.0) / self.n)


@dataclass(frozen=True)
class Job:
    """One position to roll out: the root board (``[1]`` on roll) and its cube/score."""

    board: np.ndarray
    money: bool = True
    away: tuple[int, int] = (0, 0)
    cube: int = 1
    owner: int = -1  #: -1 centred, 0 the player on roll, 1 his opponent
    crawford: bool = False

    @classmethod
    def make(cls, position: Position, state=None) -> "Job":
        if position.is_game_over():
            raise RolloutError("the game is over in this position")
        board = np.ascontiguousarray(position.to_array(), np.int8)
        if state is None:
            return cls(board)
        me = state.player_on_roll
        owner = -1 if state.cube_owner < 0 else (0 if state.cube_owner == me else 1)
        if state.is_money:
            return cls(board, True, (0, 0), state.cube, owner, False)
        a = state.away
        away = (a[me], a[1 - me])
        met = load_met()
        if min(away) < 1:
            raise RolloutError(f"the match is over at score {state.score[0]}-{state.score[1]} of {state.match_length}")
        if max(away) > met.length:
            raise RolloutError(f"{max(away)}-away is beyond the {met.length}-point match equity table")
        return cls(board, False, away, state.cube, owner, bool(state.crawford))


@dataclass(frozen=True)
class RolloutResult:
    """Means and standard errors of a rollout, from the player on roll's side.

    ``probs``: win, win gammon, win backgammon, lose gammon, lose backgammon (cumulative).
    ``equity``: cubeless money equity.  ``mwc``: cubeless match winning chance (match
    only).  ``cubeful_equity``: money points per starting cube, or in a match the
    normalised money-equivalent of ``mwc_cubeful``.
    """

    trials: int
    probs: tuple[float, ...]
    probs_se: tuple[float, ...]
    equity: float
    equity_se: float
    settings: RolloutSettings
    cubeful_equity: Optional[float] = None
    cubeful_equity_se: Optional[float] = None
    mwc: Optional[float] = None
    mwc_se: Optional[float] = None
    mwc_cubeful: Optional[float] = None
    mwc_cubeful_se: Optional[float] = None
    plies: int = field(default=0, compare=False)

    @classmethod
    def from_partial(cls, part: Partial, settings: RolloutSettings, job: Job) -> "RolloutResult":
        m, s = part.mean(), part.se()
        f = dict(trials=part.n, probs=tuple(float(v) for v in m[:5]), probs_se=tuple(float(v) for v in s[:5]),
                 equity=float(m[5]), equity_se=float(s[5]), settings=settings, plies=part.plies)
        if not job.money:
            f.update(mwc=float(m[6]), mwc_se=float(s[6]))
        if settings.cubeful:
            if job.money:
                f.update(cubeful_equity=float(m[7]), cubeful_equity_se=float(s[7]))
            else:
                met = load_met()
                lo = float(mwc_after(met.pre, met.post, job.away[0], job.away[1], -job.cube))
                hi = float(mwc_after(met.pre, met.post, job.away[0], job.away[1], job.cube))
                scale = 2.0 / (hi - lo)
                f.update(mwc_cubeful=float(m[7]), mwc_cubeful_se=float(s[7]),
                         cubeful_equity=float(scale * (m[7] - lo) - 1.0), cubeful_equity_se=float(scale * s[7]))
        return cls(**f)

    def record(self, evaluator: str = "", digits: int = 6) -> dict:
        """A JSON-ready dict (settings and evaluator included, floats rounded to ``digits``)."""
        def r(v):
            return None if v is None else round(float(v), digits)

        d = dict(self.settings.key())
        d["evaluator"] = evaluator
        d["trials"] = self.trials
        d["probs"] = [r(v) for v in self.probs]
        d["probs_se"] = [r(v) for v in self.probs_se]
        d["equity"] = r(self.equity)
        d["equity_se"] = r(self.equity_se)
        for name in ("cubeful_equity", "cubeful_equity_se", "mwc", "mwc_se", "mwc_cubeful", "mwc_cubeful_se"):
            v = getattr(self, name)
            if v is not None:
                d[name] = r(v)
        return d


# -- workers -------------------------------------------------------------------------------
_WORKER: dict = {}


def _context(weights) -> tuple:
    """Per-process arrays: the net (``weights`` or the one this process was given), the
    bear-off databases and the match equity table."""
    if weights is None:
        weights = _WORKER.get("weights")
    if weights is None:
        from bgtools.engine.nn import load_default_network

        net = load_default_network()
        if net is None:
            raise RolloutError("no neural network weights: pass some with --weights")
        weights = net.weights
        _WORKER["weights"] = weights
    if "db" not in _WORKER:
        _WORKER["db"] = _bo.load_databases()
    db = _WORKER["db"]
    met = load_met()
    return weights.arrays(), db, met


def _init_worker(weights) -> None:
    _WORKER["weights"] = weights


def run_chunk(job: Job, settings: RolloutSettings, first: int, count: int, weights=None) -> Partial:
    """Roll out trials ``first .. first + count - 1`` of ``job`` (runs in any process)."""
    (W1, b1, W2, b2), db, met = _context(weights)
    sums = np.zeros(K)
    sumsq = np.zeros(K)
    am, ao = job.away if not job.money else (1, 1)
    plies = rollout_kernel(job.board, first, count, settings.seed, settings.ply, settings.prune, settings.truncate,
                           settings.bearoff_truncation, settings.variance_reduction, settings.cubeful, job.money,
                           am, ao, job.cube, job.owner, job.crawford, met.pre, met.post, W1, b1, W2, b2,
                           db.os_rolls, db.os_gammon, db.ts, sums, sumsq)
    return Partial(count, sums, sumsq, int(plies))


def warm_up(weights=None) -> None:
    """Compile (or load from Numba's cache) the kernels in this process."""
    pos = Position.initial()
    s = RolloutSettings(trials=1, truncate=2, variance_reduction=True, cubeful=True)
    run_chunk(Job.make(pos), s, 0, 1, weights)


# -- executors -------------------------------------------------------------------------------
class _Box:
    """A finished result standing in for a future (hashed by identity)."""

    __slots__ = ("value",)

    def __init__(self, value) -> None:
        self.value = value


class _Inline:
    """Runs each task at once in this process."""

    def __init__(self, weights) -> None:
        self.weights = weights

    def submit(self, job, settings, first, count):
        return _Box(run_chunk(job, settings, first, count, self.weights))

    def wait(self, pending):
        return list(pending)

    def result(self, fut):
        return fut.value

    def close(self) -> None:
        pass


class _Pool:
    """A local process pool (spawned workers, each given the weights once)."""

    def __init__(self, weights, workers: int) -> None:
        import concurrent.futures as cf
        import multiprocessing as mp

        self._cf = cf
        self.pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn"),
                                           initializer=_init_worker, initargs=(weights,))

    def submit(self, job, settings, first, count):
        return self.pool.submit(run_chunk, job, settings, first, count, None)

    def wait(self, pending):
        done, _ = self._cf.wait(pending, return_when=self._cf.FIRST_COMPLETED)
        return list(done)

    def result(self, fut):
        return fut.result()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


class _Dask:
    """An existing dask.distributed cluster; the weights are scattered to every worker once."""

    def __init__(self, weights, address) -> None:
        import distributed

        self._d = distributed
        self.own = False
        if isinstance(address, distributed.Client):
            self.client = address
        else:
            self.client = distributed.Client(address)
            self.own = True
        self.ac = None
        self.weights = self.client.scatter(weights, broadcast=True)
        self.client.run(warm_up, weights)  # each worker compiles or loads the kernels once

    def submit(self, job, settings, first, count):
        fut = self.client.submit(run_chunk, job, settings, first, count, self.weights, pure=False)
        if self.ac is None:
            self.ac = self._d.as_completed([fut], loop=self.client.loop)
        else:
            self.ac.add(fut)
        return fut

    def wait(self, pending):
        return [next(self.ac)]

    def result(self, fut):
        return fut.result()

    def close(self) -> None:
        if self.own:
            self.client.close()


def _weights_or_default(weights):
    if weights is not None:
        return weights
    from bgtools.engine.nn import load_default_network

    net = load_default_network()
    if net is None:
        raise RolloutError("no neural network weights: pass some with --weights")
    return net.weights


def rollout_many(jobs: Iterable[Job], settings: RolloutSettings, weights=None, workers: int = 1,
                 dask=None, on_chunk: Optional[Callable[[int, int], None]] = None) -> Iterator[RolloutResult]:
    """Roll out each job; yield the results in the jobs' order as soon as each is complete.

    ``workers`` > 1 uses a local process pool; ``dask`` (a scheduler address or a
    ``distributed.Client``) sends the work to that cluster.  ``on_chunk(job index, trials)``
    is called after every finished chunk (progress reporting).
    """
    weights = _weights_or_default(weights)
    jobs = list(jobs)
    if dask is not None:
        ex = _Dask(weights, dask)
        window = 4 * max(1, len(ex.client.nthreads()))
    elif workers > 1:
        ex = _Pool(weights, workers)
        window = 3 * workers
    else:
        ex = _Inline(weights)
        window = 1
    chunks = settings.chunks()
    tasks = ((j, c) for j in range(len(jobs)) for c in range(len(chunks)))
    parts: dict[int, list] = {}
    pending: dict = {}
    next_out = 0
    try:
        exhausted = False
        while next_out < len(jobs):
            while not exhausted and len(pending) < window:
                try:
                    j, c = next(tasks)
                except StopIteration:
                    exhausted = True
                    break
                first, count = chunks[c]
                pending[ex.submit(jobs[j], settings, first, count)] = (j, c)
            for fut in ex.wait(list(pending)):
                j, c = pending.pop(fut)
                part = ex.result(fut)
                parts.setdefault(j, [None] * len(chunks))[c] = part
                if on_chunk is not None:
                    on_chunk(j, part.n)
            while next_out < len(jobs) and next_out in parts and all(p is not None for p in parts[next_out]):
                total = Partial.empty()
                for p in parts.pop(next_out):
                    total = total.merge(p)
                yield RolloutResult.from_partial(total, settings, jobs[next_out])
                next_out += 1
    finally:
        ex.close()


def rollout(position: Position, state=None, settings: RolloutSettings | None = None, weights=None,
            workers: int = 1, dask=None) -> RolloutResult:
    """Roll out one position (player on roll before his roll); see :class:`RolloutSettings`.

    ``state`` is a :class:`~bgtools.core.matchstate.MatchState` (None: money, cube 1 centred);
    ``weights`` a :class:`~bgtools.engine.nn.Weights` (None: the shipped network).
    """
    settings = settings or RolloutSettings()
    return next(rollout_many([Job.make(position, state)], settings, weights, workers, dask))


# ----------------------------------------------------------------------------- batch files
CSV_COLUMNS = ("id", "trials", "seed", "ply", "cubeful", "truncate", "vr", "bearoff_truncation", "evaluator",
               *OUTPUTS[:5], *(f"{o}_se" for o in OUTPUTS[:5]), "equity", "equity_se", "cubeful_equity",
               "cubeful_equity_se", "mwc", "mwc_se", "mwc_cubeful", "mwc_cubeful_se")


def read_id_file(path: str) -> list[tuple[int, str]]:
    """(line number, ID) from a file of IDs, one a line (blank and ``#`` lines skipped), or
    a CSV file with an ``id`` column (e.g. from ``bgtools export``)."""
    import csv
    import io
    import sys

    text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8-sig").read()
    lines = text.splitlines()
    first = next((ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")), "")
    header = [h.strip().lower() for h in next(csv.reader([first]))] if "," in first else []
    if "id" in header:
        start = lines.index(first)
        reader = csv.reader(io.StringIO("\n".join(lines[start:])))
        col = header.index("id")
        out = []
        for i, row in enumerate(reader):
            if i == 0 or not row or not any(c.strip() for c in row):
                continue
            if col >= len(row):
                raise RolloutError(f"{path}: CSV row {i + 1} has no id field")
            out.append((start + i + 1, row[col].strip()))
        return out
    return [(n, ln.strip()) for n, ln in enumerate(lines, start=1) if ln.strip() and not ln.lstrip().startswith("#")]


def _flat(label: str, rec: dict) -> dict:
    """A record as CSV strings (the column set is fixed)."""
    row = {c: "" for c in CSV_COLUMNS}
    row["id"] = label
    for k, v in rec.items():
        if k == "probs":
            for name, x in zip(OUTPUTS[:5], v):
                row[name] = repr(x)
        elif k == "probs_se":
            for name, x in zip(OUTPUTS[:5], v):
                row[f"{name}_se"] = repr(x)
        elif k in row:
            row[k] = v if isinstance(v, str) else json_scalar(v)
    return row


def json_scalar(v) -> str:
    import json

    return json.dumps(v)


class OutputFile:
    """Append-only results file (JSON lines, or CSV when the name ends in ``.csv``): one
    complete record per position, flushed and synced as it is written.  ``resume`` keeps
    what is there (dropping a torn last line) and reports which records it holds."""

    def __init__(self, path: str, resume: bool) -> None:
        import csv

        self.path = path
        self.csv = path.lower().endswith(".csv")
        self.done: list[tuple] = []
        if resume and os.path.exists(path):
            with open(path, "rb+") as f:
                data = f.read()
                keep = data.rfind(b"\n") + 1
                if keep < len(data):
                    f.truncate(keep)  # a record cut short by a crash
                    data = data[:keep]
            text = data.decode("utf-8")
            if self.csv:
                rows = list(csv.DictReader(text.splitlines()))
                if text and tuple(text.splitlines()[0].split(",")) != CSV_COLUMNS:
                    raise RolloutError(f"{path}: not a bgtools rollout CSV (different columns)")
                self.done = [self._key_csv(r) for r in rows]
            else:
                import json

                for n, line in enumerate(text.splitlines(), start=1):
                    try:
                        rec = json.loads(line)
                    except ValueError:
                        raise RolloutError(f"{path}: line {n} is not JSON") from None
                    self.done.append(self._key_json(rec))
            self.f = open(path, "a", encoding="utf-8", newline="")
        else:
            self.f = open(path, "w", encoding="utf-8", newline="")
        if self.csv and self.f.tell() == 0:
            self._write(",".join(CSV_COLUMNS) + "\n")

    @staticmethod
    def _key_json(rec: dict) -> tuple:
        return tuple(json_scalar(rec.get(k)) for k in ("id", *RolloutSettings().key(), "evaluator"))

    @staticmethod
    def _key_csv(row: dict) -> tuple:
        return tuple(row.get(k, "") if k == "id" else row.get(k, "") for k in ("id", *RolloutSettings().key(), "evaluator"))

    def key(self, label: str, settings: RolloutSettings, evaluator: str) -> tuple:
        rec = {"id": label, **settings.key(), "evaluator": evaluator}
        if self.csv:
            return self._key_csv(_flat(label, rec))
        return self._key_json(rec)

    def _write(self, text: str) -> None:
        self.f.write(text)
        self.f.flush()
        os.fsync(self.f.fileno())

    def write(self, label: str, rec: dict) -> None:
        import csv
        import io

        if self.csv:
            buf = io.StringIO()
            csv.DictWriter(buf, CSV_COLUMNS, lineterminator="\n").writerow(_flat(label, rec))
            self._write(buf.getvalue())
        else:
            self._write(json_scalar({"id": label, **rec}) + "\n")

    def close(self) -> None:
        self.f.close()
