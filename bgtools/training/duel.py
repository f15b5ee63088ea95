"""Head-to-head money matches of two nets: duplicate dice, 0 ply (or 1), cubeless.

Game pair ``k`` draws one dice sequence from seed ``seed + k`` and plays it twice, net A
moving first in one game and net B in the other, so the luck of the dice cancels within a
pair.  The ppg is A's mean points per game (1 single, 2 gammon, 3 backgammon); its 95 %
interval comes from the spread of the pair means, which duplicate dice makes independent.
Both nets move with :func:`bgtools.engine.chooser.choose` (no bear-off databases).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba as nb
import numpy as np

from bgtools.engine.chooser import choose, make_chooser, new_chooser_buffers, swap_into
from bgtools.engine.nets.nn import Weights
from bgtools.engine.play import MAX_TURNS, duplicate_dice, game_points, opening_board

__all__ = ["HeadToHead", "duel_weights"]


@nb.njit(cache=True)
def _h2h_kernel(ch_a, ch_b, n_pairs, seed):
    """Points per game for A, float64[2 * n_pairs]; game 2k: A moves first, 2k+1: B first."""
    res = np.zeros(2 * n_pairs, np.float64)
    buf_a = new_chooser_buffers(ch_a.net)
    buf_b = new_chooser_buffers(ch_b.net)
    bp = np.empty(5, np.float64)
    dice = np.zeros((MAX_TURNS, 2), np.int64)
    for k in range(n_pairs):
        np.random.seed(seed + k)
        duplicate_dice(dice)
        for g in range(2):
            a_side = g  # A moves on even turns in game 0, odd turns in game 1
            board = opening_board()
            for t in range(MAX_TURNS):
                mover = t % 2
                if mover == a_side:
                    i = choose(board, dice[t, 0], dice[t, 1], ch_a, buf_a, bp)
                    if i >= 0:
                        swap_into(buf_a.mine.boards[i], board)
                    else:
                        swap_into(board.copy(), board)
                else:
                    i = choose(board, dice[t, 0], dice[t, 1], ch_b, buf_b, bp)
                    if i >= 0:
                        swap_into(buf_b.mine.boards[i], board)
                    else:
                        swap_into(board.copy(), board)
                pts = game_points(board)  # board[1] is the side that did not move
                if pts != 0:
                    res[2 * k + g] = -pts if mover == a_side else pts
                    break
    return res


@dataclass(frozen=True)
class HeadToHead:
    """A against B over duplicate-dice pairs (points from A's side)."""

    games: int
    ppg: float
    ci95: float
    win_rate: float
    gammon_rate: float

    def __str__(self) -> str:
        return (f"{self.ppg:+.3f} ppg \u00b1 {self.ci95:.3f} (95% CI) over {self.games} games, "
                f"A wins {100 * self.win_rate:.1f}%, gammons+ {100 * self.gammon_rate:.1f}%")

    def to_dict(self) -> dict:
        return {"games": self.games, "ppg": self.ppg, "ci95": self.ci95, "win_rate": self.win_rate,
                "gammon_rate": self.gammon_rate}


def duel_weights(a: Weights, b: Weights, games: int, seed: int = 1, ply: int = 0, candidates: int = 6,
                 points: bool = False):
    """Play ``games`` (rounded up to even) cubeless money games of net ``a`` against ``b``.

    Returns a :class:`HeadToHead` (and the float64 points per game for ``a`` when ``points``).
    """
    if games < 2:
        raise ValueError(f"games must be 2 or more, not {games}")
    n_pairs = (games + 1) // 2
    ch_a = make_chooser(a.arrays(), ply, candidates, None, stable=True)
    ch_b = make_chooser(b.arrays(), ply, candidates, None, stable=True)
    res = _h2h_kernel(ch_a, ch_b, n_pairs, int(seed))
    pair = res.reshape(-1, 2).mean(axis=1)
    ci = 1.96 * float(pair.std(ddof=1)) / math.sqrt(len(pair)) if len(pair) > 1 else float("nan")
    out = HeadToHead(len(res), float(res.mean()), ci, float((res > 0).mean()), float((np.abs(res) >= 2).mean()))
    return (out, res) if points else out
