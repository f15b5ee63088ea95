"""Numba players and duplicate-dice matches: a net against pubeval or against another net.

The net moves with :mod:`bgtools.engine.chooser` (no bear-off databases): at 0-ply it
takes the play after which the opponent's position (he is on roll) is worst for him; at
1-ply it averages, over the opponent's 21 rolls, his best 0-ply reply, for the best few
(``candidates``) by 0-ply.  pubeval moves with
:func:`bgtools.engine.nets.pubeval.pubeval_choose`.  Game results are cubeless money points
(1 single, 2 gammon, 3 backgammon).

Duplicate dice: game pair ``k`` draws one dice sequence from seed ``seed + k`` and plays
it twice, the net moving first in one game and its opponent in the other.  One kernel,
:func:`duel_kernel`, plays both kinds of duel (pubeval or a second net as the opponent) and
one type, :class:`DuelResult`, sums them up (:mod:`bgtools.training.duel` duels two nets).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numba as nb
import numpy as np

from bgtools.base.borrow import borrow, keep_alive
from bgtools.core.dice import ASCENDING_ROLL_WEIGHTS, ASCENDING_ROLLS
from bgtools.engine.chooser import choose, make_chooser, new_chooser_buffers, swap_into
from bgtools.engine.nets.nn import Weights, game_over_probs
from bgtools.engine.nets.pubeval import pubeval_choose, pubeval_weights

__all__ = ["DuelResult", "duel_vs_pubeval", "duel_kernel", "duel_chooser", "game_points", "game_over_board", "opening_board",
           "duplicate_dice", "MAX_TURNS"]

MAX_TURNS = 2000


def duel_chooser(weights: Weights, ply: int = 0, candidates: int = 6):
    """The :class:`~bgtools.engine.chooser.Chooser` the net duels (and self-plays) with:
    no bear-off databases, 1-ply candidates in quicksort order, replies smaller die first."""
    return make_chooser(weights.arrays(), ply, candidates, None, stable=False, rolls=ASCENDING_ROLLS,
                        weights=ASCENDING_ROLL_WEIGHTS)  # the replies at 1 ply summed smaller die first


@nb.njit(cache=True)
def game_points(board) -> int:
    """Points won by ``board[1]`` when a side is off (negative if he lost); 0 otherwise
    (the result scored by :func:`bgtools.engine.nets.nn.game_over_probs`)."""
    out = np.empty(5, np.float64)
    if not game_over_probs(board, out):
        return 0
    if out[0] > 0.5:
        return 1 + int(out[1]) + int(out[2])
    return -(1 + int(out[3]) + int(out[4]))


@nb.njit(cache=True)
def opening_board():
    """int8[2, 25]: both sides on the starting points (gnubg's order, ``[1]`` on roll)."""
    board = np.zeros((2, 25), np.int8)
    for s in range(2):
        board[s, 5] = 5
        board[s, 7] = 3
        board[s, 12] = 5
        board[s, 23] = 2
    return board


@nb.njit(cache=True)
def duplicate_dice(dice) -> None:
    """Fill ``dice[t] = (larger, smaller)`` for every turn from Numba's seeded generator (seed it
    first); the opening roll is never a double.  Both games of a duplicate pair use these."""
    for t in range(dice.shape[0]):
        while True:
            a = np.random.randint(1, 7)
            b = np.random.randint(1, 7)
            if t > 0 or a != b:
                break
        dice[t, 0] = max(a, b)
        dice[t, 1] = min(a, b)


@nb.njit(cache=True)
def game_over_board(board) -> bool:
    a = 0
    b = 0
    for i in range(25):
        a += board[0, i]
        b += board[1, i]
    return a == 0 or b == 0


@nb.njit(cache=True)
def duel_kernel(ch_a, ch_b, pub, vs_pubeval, n_pairs, seed):
    """Points per game for player A, float64[2 * n_pairs] (pairs of duplicate-dice games; in
    game ``2k`` A moves first, in ``2k + 1`` his opponent).  A moves with the chooser ``ch_a``,
    his opponent with ``ch_b`` or, with ``vs_pubeval``, as pubeval with the weights ``pub``
    (``ch_b`` then only lends its buffers' shape)."""
    res = np.zeros(2 * n_pairs, np.float64)
    # one call site of the (inlined) chooser for both nets, entered with borrowed views
    # (bgtools.base.borrow): no reference counting of the sixty arrays of a chooser and its buffers
    owned = (new_chooser_buffers(ch_a.net), new_chooser_buffers(ch_b.net))
    bufs = borrow(owned)
    chs = borrow((ch_a, ch_b))
    bp = np.empty(5, np.float64)
    dice = np.zeros((MAX_TURNS, 2), np.int64)
    for k in range(n_pairs):
        np.random.seed(seed + k)
        duplicate_dice(dice)
        for g in range(2):
            a_side = g  # player index (0 moves first) A plays
            board = opening_board()
            for t in range(MAX_TURNS):
                d1 = dice[t, 0]
                d2 = dice[t, 1]
                mover = t % 2
                who = 0 if mover == a_side else 1
                buf = bufs[who]
                mine = buf.mine
                if vs_pubeval and who == 1:
                    i = pubeval_choose(board, d1, d2, pub, mine)
                else:
                    i = choose(board, d1, d2, chs[who], buf, bp)
                if i >= 0:
                    swap_into(mine.boards[i], board)
                else:
                    swap_into(board.copy(), board)
                # board[0] is now the side that just moved; game_points is from board[1]'s view
                pts = game_points(board)
                if pts != 0:
                    res[2 * k + g] = -pts if mover == a_side else pts
                    break
    keep_alive(owned)
    return res


@dataclass(frozen=True)
class DuelResult:
    """A duel over duplicate-dice game pairs, points from the side of A (the net against
    pubeval, or net A against net B: ``label`` "A " names him in the text)."""

    games: int
    ppg: float
    ci95: float
    win_rate: float
    gammon_rate: float
    label: str = field(default="", compare=False)

    @classmethod
    def of(cls, res: np.ndarray, label: str = "") -> "DuelResult":
        """From A's points per game ``res`` of :func:`duel_kernel`; the 95 % interval uses the
        spread of the pair means (each pair = one dice sequence, both seatings), which is what
        duplicate dice makes independent."""
        pair = res.reshape(-1, 2).mean(axis=1)
        ci = 1.96 * float(pair.std(ddof=1)) / math.sqrt(len(pair)) if len(pair) > 1 else float("nan")
        return cls(len(res), float(res.mean()), ci, float((res > 0).mean()), float((np.abs(res) >= 2).mean()), label)

    def __str__(self) -> str:
        return (f"{self.ppg:+.3f} ppg \u00b1 {self.ci95:.3f} (95% CI) over {self.games} games, "
                f"{self.label}wins {100 * self.win_rate:.1f}%, gammons+ {100 * self.gammon_rate:.1f}%")

    def to_dict(self) -> dict:
        return {"games": self.games, "ppg": self.ppg, "ci95": self.ci95, "win_rate": self.win_rate,
                "gammon_rate": self.gammon_rate}


def duel_vs_pubeval(weights: Weights, games: int, seed: int = 1, ply: int = 0, candidates: int = 6,
                    points: bool = False):
    """Play ``games`` (rounded up to even) cubeless games against pubeval with duplicate dice
    (a :class:`DuelResult`, and the net's points per game when ``points``)."""
    n_pairs = (games + 1) // 2
    ch = duel_chooser(weights, ply, candidates)
    res = duel_kernel(ch, ch, pubeval_weights(), True, n_pairs, seed)
    out = DuelResult.of(res)
    return (out, res) if points else out
