"""Seeded self-play with exploration, recording positions for supervised training.

Both players are the same net at 0 ply (cubeless, no bear-off databases, as in TD training).
Every turn the position before the roll is recorded (whichever side is on roll, so both
players' positions are kept).  With chance ``explore`` a turn explores: instead of the best
play it takes, uniformly, one of the other plays whose 0-ply equity is within ``margin`` of
the best (when there is one); both sides of that decision are then recorded, i.e. also the
position the best play would have led to (opponent on roll), so the data hold the road not
taken beside the one followed.

Game ``g`` of a run with seed ``s`` draws its dice and exploration from Numba's generator
seeded with ``s * 10**9 + g``, so any game, and any chunk of games, can be replayed alone:
:func:`selfplay_games` of games ``a .. b`` gives the same positions whether or not it runs
after games ``0 .. a - 1``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from bgtools.core.movegen import generate, new_move_buffers
from bgtools.engine.chooser import swap_into
from bgtools.engine.nets.nn import Weights, eval_board, equity_from_probs, new_eval_buffers
from bgtools.engine.play import game_over_board, opening_board

__all__ = ["selfplay_games", "MAX_TURNS", "GAME_SEED_STRIDE"]

MAX_TURNS = 2000
GAME_SEED_STRIDE = 10**9


@nb.njit(cache=True)
def _selfplay_kernel(net, first_game, n_games, seed, explore, margin):
    """(boards int8[k, 2, 25], game int32[k], explored int8[k]) for games first_game..+n_games."""
    cap = max(64, n_games * 80)
    out = np.empty((cap, 2, 25), np.int8)
    game = np.empty(cap, np.int32)
    expl = np.zeros(cap, np.int8)
    buf = new_move_buffers()
    ev = new_eval_buffers(net)
    p = np.empty(5, np.float64)
    sw = np.empty((2, 25), np.int8)
    eq = np.empty(buf.boards.shape[0], np.float64)
    cand = np.empty(buf.boards.shape[0], np.int64)
    k = 0
    for g in range(first_game, first_game + n_games):
        np.random.seed(seed * GAME_SEED_STRIDE + g)
        board = opening_board()
        for t in range(MAX_TURNS):
            if k + 2 > cap:
                cap *= 2
                o2 = np.empty((cap, 2, 25), np.int8)
                o2[:k] = out[:k]
                out = o2
                g2 = np.empty(cap, np.int32)
                g2[:k] = game[:k]
                game = g2
                e2 = np.zeros(cap, np.int8)
                e2[:k] = expl[:k]
                expl = e2
            out[k] = board
            game[k] = g
            k += 1
            while True:
                d1 = np.random.randint(1, 7)
                d2 = np.random.randint(1, 7)
                if t > 0 or d1 != d2:
                    break
            u = np.random.random()
            n = generate(board, max(d1, d2), min(d1, d2), buf)
            if n == 0:
                swap_into(board.copy(), board)
                continue
            best = 0
            for i in range(n):
                swap_into(buf.boards[i], sw)
                eval_board(sw, net, ev, p)
                eq[i] = -equity_from_probs(p)
                if eq[i] > eq[best]:
                    best = i
            pick = best
            if u < explore and n > 1:
                m = 0
                for i in range(n):
                    if i != best and eq[i] >= eq[best] - margin:
                        cand[m] = i
                        m += 1
                if m > 0:
                    pick = cand[np.random.randint(0, m)]
                    swap_into(buf.boards[best], sw)
                    if not game_over_board(sw):
                        out[k] = sw
                        game[k] = g
                        expl[k] = 1
                        k += 1
            swap_into(buf.boards[pick], board)
            if game_over_board(board):
                break
    return out[:k].copy(), game[:k].copy(), expl[:k].copy()


def selfplay_games(weights: Weights, first_game: int, n_games: int, seed: int, explore: float = 0.1,
                   margin: float = 0.04) -> dict[str, np.ndarray]:
    """Play games ``first_game .. first_game + n_games - 1`` and return their positions.

    Returns ``boards`` int8[k, 2, 25] (player on roll ``[1]``, before his roll), ``game``
    int32[k] and ``explored`` int8[k] (1 for a position the best play of an exploring turn
    would have reached, recorded beside the play taken).  ``explore`` is the chance a turn
    explores, ``margin`` the equity window (cubeless money points) it picks from.
    """
    if not 0.0 <= explore <= 1.0:
        raise ValueError(f"explore must be a chance from 0 to 1, not {explore}")
    if margin < 0.0:
        raise ValueError(f"margin must be 0 or more, not {margin}")
    b, g, e = _selfplay_kernel(weights.arrays(), int(first_game), int(n_games), int(seed), float(explore),
                               float(margin))
    return {"boards": b, "game": g, "explored": e}
