"""Numba players and duplicate-dice matches against pubeval.

A player picks one of the plays ``_gen`` generated for a roll.  The net player at 0-ply
takes the play after which the opponent's position (he is on roll) is worst for him;
at 1-ply it averages, over the opponent's 21 rolls, his best 0-ply reply, for the best
few (``prune``) candidates by 0-ply.  Game results are cubeless money points
(1 single, 2 gammon, 3 backgammon).

Duplicate dice: game pair ``k`` draws one dice sequence from seed ``seed + k`` and plays
it twice, the net moving first in one game and pubeval in the other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba as nb
import numpy as np

from bgtools.engine.features import MAX_INPUTS
from bgtools.core.movegen import MAX_PLAYS, _TABLE, _gen
from bgtools.engine.nn import Weights, equity_from_probs, eval_board
from bgtools.engine.pubeval import _score, is_race, pubeval_weights

__all__ = ["DuelResult", "duel_vs_pubeval", "net_choose0", "net_choose1", "game_points", "new_scratch"]

MAX_TURNS = 2000
_ROLL_D1 = np.array([a for a in range(1, 7) for b in range(a, 7)], np.int64)
_ROLL_D2 = np.array([b for a in range(1, 7) for b in range(a, 7)], np.int64)
_ROLL_W = np.array([1.0 if a == b else 2.0 for a in range(1, 7) for b in range(a, 7)], np.float64) / 36.0


def new_scratch(levels: int = 1):
    """Move-generator scratch arrays, one set per search level: a tuple
    (keys, table, stamp, boards, steps, nsteps) with a leading ``levels`` axis."""
    return (np.zeros((levels, MAX_PLAYS, 2), np.uint64), np.zeros((levels, _TABLE), np.int64),
            np.zeros((levels, _TABLE), np.int64), np.zeros((levels, MAX_PLAYS, 2, 25), np.int8),
            np.zeros((levels, MAX_PLAYS, 4, 2), np.int64), np.zeros((levels, MAX_PLAYS), np.int64))


@nb.njit(cache=True)
def _swap_into(src, dst) -> None:
    for i in range(25):
        dst[0, i] = src[1, i]
        dst[1, i] = src[0, i]


@nb.njit(cache=True)
def game_points(board) -> int:
    """Points won by ``board[1]`` when a side is off (negative if he lost); 0 otherwise."""
    me = 0
    opp = 0
    for i in range(25):
        me += board[1, i]
        opp += board[0, i]
    if me > 0 and opp > 0:
        return 0
    loser = 0 if me == 0 else 1
    left = opp if me == 0 else me
    pts = 1
    if left == 15:
        pts = 2
        for i in range(18, 25):
            if board[loser, i] > 0:
                pts = 3
                break
    return pts if me == 0 else -pts


@nb.njit(cache=True)
def net_choose0(board, d1, d2, W1s, b1s, W2s, b2s, keys, table, stamp, gen, outb, outs, outn,
                sw, x, h, y, p, best_p):
    """0-ply choice: (index or -1, gen, n plays).  ``best_p`` gets the chosen position's
    outputs seen by the opponent, who is then on roll."""
    gen += 1
    n, gen = _gen(board, d1, d2, keys, table, stamp, gen, outb, outs, outn)
    if n == 0:
        return -1, gen, 0
    best = 0
    best_e = -1e300
    for i in range(n):
        _swap_into(outb[i], sw)
        eval_board(sw, W1s, b1s, W2s, b2s, x, h, y, p)
        e = -equity_from_probs(p)
        if e > best_e:
            best_e = e
            best = i
            for o in range(5):
                best_p[o] = p[o]
    return best, gen, n


@nb.njit(cache=True)
def _one_ply_equity(after, W1s, b1s, W2s, b2s, keys, table, stamp, gen, outb, outs, outn, sw, x, h, y, p, rd1, rd2, rw):
    """Mover's equity of ``after`` (mover as [1], opponent to roll) averaged over the
    opponent's 21 rolls, each answered by his best 0-ply play."""
    _swap_into(after, sw)
    if game_over_board(sw):
        eval_board(sw, W1s, b1s, W2s, b2s, x, h, y, p)
        return -equity_from_probs(p), gen
    opp_view = sw.copy()
    tot = 0.0
    for r in range(21):
        gen += 1
        n, gen = _gen(opp_view, rd1[r], rd2[r], keys, table, stamp, gen, outb, outs, outn)
        if n == 0:
            # he cannot move: we are on roll in the same position
            _swap_into(opp_view, sw)
            eval_board(sw, W1s, b1s, W2s, b2s, x, h, y, p)
            tot += rw[r] * equity_from_probs(p)
            continue
        worst = 1e300
        for i in range(n):
            _swap_into(outb[i], sw)
            eval_board(sw, W1s, b1s, W2s, b2s, x, h, y, p)
            e = equity_from_probs(p)  # our equity, we are on roll
            if e < worst:
                worst = e
        tot += rw[r] * worst
    return tot, gen


@nb.njit(cache=True)
def game_over_board(board) -> bool:
    a = 0
    b = 0
    for i in range(25):
        a += board[0, i]
        b += board[1, i]
    return a == 0 or b == 0


@nb.njit(cache=True)
def net_choose1(board, d1, d2, W1s, b1s, W2s, b2s, keys, table, stamp, gen, outb, outs, outn,
                sw, x, h, y, p, prune, rd1, rd2, rw):
    """1-ply choice among the ``prune`` best 0-ply candidates: (index or -1, gen).
    Uses scratch level 0 for our plays and level 1 for the replies."""
    gen += 1
    n, gen = _gen(board, d1, d2, keys[0], table[0], stamp[0], gen, outb[0], outs[0], outn[0])
    if n == 0:
        return -1, gen
    if n == 1:
        return 0, gen
    e0 = np.empty(n, np.float64)
    for i in range(n):
        _swap_into(outb[0, i], sw)
        eval_board(sw, W1s, b1s, W2s, b2s, x, h, y, p)
        e0[i] = -equity_from_probs(p)
    order = np.argsort(-e0)
    k = min(prune, n)
    best = order[0]
    best_e = -1e300
    for j in range(k):
        i = order[j]
        e, gen = _one_ply_equity(outb[0, i], W1s, b1s, W2s, b2s, keys[1], table[1], stamp[1], gen,
                                 outb[1], outs[1], outn[1], sw, x, h, y, p, rd1, rd2, rw)
        if e > best_e:
            best_e = e
            best = i
    return best, gen


@nb.njit(cache=True)
def _duel_kernel(W1s, b1s, W2s, b2s, wr, wc, n_pairs, seed, ply, prune, rd1, rd2, rw,
                 keys, table, stamp, outb, outs, outn):
    """Points per game for the net, float64[2 * n_pairs] (pairs of duplicate-dice games)."""
    res = np.zeros(2 * n_pairs, np.float64)
    x = np.zeros(MAX_INPUTS, np.float32)
    nh = 1
    for c in range(3):
        nh = max(nh, W1s[c].shape[1])
    h = np.empty(nh, np.float32)
    y = np.empty(5, np.float32)
    p = np.empty(5, np.float64)
    bp = np.empty(5, np.float64)
    sw = np.zeros((2, 25), np.int8)
    dice = np.zeros((MAX_TURNS, 2), np.int64)
    gen = 0
    for k in range(n_pairs):
        np.random.seed(seed + k)
        for t in range(MAX_TURNS):
            while True:
                a = np.random.randint(1, 7)
                b = np.random.randint(1, 7)
                if t > 0 or a != b:
                    break
            dice[t, 0] = max(a, b)
            dice[t, 1] = min(a, b)
        for g in range(2):
            net_side = g  # player index (0 moves first) the net plays
            board = np.zeros((2, 25), np.int8)
            for s in range(2):
                board[s, 5] = 5
                board[s, 7] = 3
                board[s, 12] = 5
                board[s, 23] = 2
            pts = 0
            for t in range(MAX_TURNS):
                d1 = dice[t, 0]
                d2 = dice[t, 1]
                mover = t % 2
                if mover == net_side:
                    if ply == 0:
                        i, gen, n = net_choose0(board, d1, d2, W1s, b1s, W2s, b2s, keys[0], table[0], stamp[0],
                                                gen, outb[0], outs[0], outn[0], sw, x, h, y, p, bp)
                    else:
                        i, gen = net_choose1(board, d1, d2, W1s, b1s, W2s, b2s, keys, table, stamp, gen,
                                             outb, outs, outn, sw, x, h, y, p, prune, rd1, rd2, rw)
                else:
                    gen += 1
                    n, gen = _gen(board, d1, d2, keys[0], table[0], stamp[0], gen, outb[0], outs[0], outn[0])
                    i = -1
                    if n > 0:
                        w = wr if is_race(board) else wc
                        best_s = -1e300
                        for j in range(n):
                            s = _score(outb[0, j], w)
                            if s > best_s:
                                best_s = s
                                i = j
                if i >= 0:
                    _swap_into(outb[0, i], board)
                else:
                    _swap_into(board.copy(), board)
                # board[0] is now the side that just moved
                pts = game_points(board)
                if pts != 0:
                    # game_points is from board[1]'s view, the side that did not move
                    mover_pts = -pts
                    res[2 * k + g] = mover_pts if mover == net_side else -mover_pts
                    break
    return res


@dataclass(frozen=True)
class DuelResult:
    """Net vs pubeval over duplicate-dice game pairs (points from the net's side)."""

    games: int
    ppg: float
    ci95: float
    win_rate: float
    gammon_rate: float

    def __str__(self) -> str:
        return (f"{self.ppg:+.3f} ppg \u00b1 {self.ci95:.3f} (95% CI) over {self.games} games, "
                f"wins {100 * self.win_rate:.1f}%, gammons+ {100 * self.gammon_rate:.1f}%")


def duel_vs_pubeval(weights: Weights, games: int, seed: int = 1, ply: int = 0, prune: int = 6,
                    points: bool = False):
    """Play ``games`` (rounded up to even) cubeless games against pubeval with duplicate dice.

    The confidence interval uses the spread of the pair means (each pair = one dice
    sequence, both seatings), which is what duplicate dice makes independent.
    """
    n_pairs = (games + 1) // 2
    wr, wc = pubeval_weights()
    keys, table, stamp, outb, outs, outn = new_scratch(2)
    res = _duel_kernel(*weights.arrays(), wr, wc, n_pairs, seed, ply, prune, _ROLL_D1, _ROLL_D2, _ROLL_W,
                       keys, table, stamp, outb, outs, outn)
    pair = res.reshape(-1, 2).mean(axis=1)
    ci = 1.96 * float(pair.std(ddof=1)) / math.sqrt(len(pair)) if len(pair) > 1 else float("nan")
    out = DuelResult(len(res), float(res.mean()), ci, float((res > 0).mean()), float((np.abs(res) >= 2).mean()))
    return (out, res) if points else out
