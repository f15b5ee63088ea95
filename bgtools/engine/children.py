"""The positions below a position: every play of every roll (or of chosen rolls), as boards
with the opponent on roll, the siblings among them, and the best one per roll by a value.

The lookahead of :mod:`bgtools.engine.evaluation` and the cubeful one of
:mod:`bgtools.engine.cubeful.cubesearch` search these; :mod:`bgtools.training.prunefit` draws its
data from them.  Numba kernels on plain arrays.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from bgtools.core.dice import ROLLS  # re-exported: the children of roll r are in this order
from bgtools.core.movegen import generate, new_move_buffers

__all__ = ["ROLLS", "expand_rolls", "expand_children", "live_children", "best_children"]


@nb.njit(cache=True)
def expand_rolls(boards, rolls):
    """Every play of some rolls of every board, as boards with the opponent on roll.

    ``rolls`` int64[n, k]: for board ``i`` the ``k`` rolls ``ROLLS[rolls[i, j]]``.  Returns
    (children int8[m, 2, 25], offsets int64[n * k + 1]): the children of board i, its j-th roll
    are ``children[offsets[i*k+j]:offsets[i*k+j+1]]``; a roll with no legal play has one
    child, the board itself passed to the opponent.
    """
    n = boards.shape[0]
    nk = rolls.shape[1]
    buf = new_move_buffers()
    out_b = buf.boards
    cap = n * nk * 24 + 64
    children = np.empty((cap, 2, 25), np.int8)
    offsets = np.zeros(n * nk + 1, np.int64)
    k = 0
    for i in range(n):
        for j in range(nk):
            r = rolls[i, j]
            m = generate(boards[i], ROLLS[r, 0], ROLLS[r, 1], buf)
            need = k + max(m, 1)
            if need > cap:
                cap = max(2 * cap, need + 1024)
                bigger = np.empty((cap, 2, 25), np.int8)
                bigger[:k] = children[:k]
                children = bigger
            if m == 0:
                for p in range(25):
                    children[k, 0, p] = boards[i, 1, p]
                    children[k, 1, p] = boards[i, 0, p]
                k += 1
            else:
                for q in range(m):
                    for p in range(25):
                        children[k, 0, p] = out_b[q, 1, p]
                        children[k, 1, p] = out_b[q, 0, p]
                    k += 1
            offsets[i * nk + j + 1] = k
    return children[:k], offsets


@nb.njit(cache=True)
def expand_children(boards):
    """Every play of every roll of every board (:func:`expand_rolls` with the 21 rolls in
    :data:`ROLLS` order): the children of board i, roll r are
    ``children[offsets[i*21+r]:offsets[i*21+r+1]]``."""
    n = boards.shape[0]
    rolls = np.empty((n, 21), np.int64)
    for i in range(n):
        for r in range(21):
            rolls[i, r] = r
    return expand_rolls(boards, rolls)


def live_children(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The positions the plays of every roll of ``boards`` lead to, as :func:`expand_children`,
    less finished games and rolls without a play (the siblings an incremental evaluation
    updates from their parent): ``(parents, children, parent_of)``, the boards turned round
    (the opponent on roll, as the children), the children and the index of each one's board.
    A board whose game is over has none."""
    b = np.ascontiguousarray(boards, np.int8).reshape(-1, 2, 25)
    children, offsets = expand_children(b)
    n = b.shape[0]
    parent_of = np.repeat(np.arange(n), offsets[21::21] - offsets[:-1:21])
    parents = np.ascontiguousarray(b[:, ::-1])

    def live(x: np.ndarray) -> np.ndarray:  # both sides still have checkers on the board
        return (x.sum(axis=2, dtype=np.int64) > 0).all(axis=1)

    # a roll without a play has the board itself turned round as its one child: no play makes that
    keep = live(children) & live(parents)[parent_of] & (children != parents[parent_of]).any(axis=(1, 2))
    return parents, np.ascontiguousarray(children[keep]), parent_of[keep]


@nb.njit(cache=True)
def best_children(child_equity, offsets):
    """Per (board, roll) group, the child whose player on roll (the opponent) fares worst."""
    g = offsets.shape[0] - 1
    best = np.empty(g, np.int64)
    for j in range(g):
        lo = offsets[j]
        bi = lo
        be = child_equity[lo]
        for c in range(lo + 1, offsets[j + 1]):
            if child_equity[c] < be:
                be = child_equity[c]
                bi = c
        best[j] = bi
    return best
