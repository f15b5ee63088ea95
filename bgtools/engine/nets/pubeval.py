"""Tesauro's pubeval: the public-domain linear benchmark player.

The weights (``bgtools/data/pubeval_weights.json``) are the published ones; the
encoding follows Tesauro's description (122 inputs, five per point plus bar and off).
pubeval only ranks the plays of one roll: the race/contact weight vector is chosen from
the position *before* the play and every candidate is scored *after* it.

>>> from bgtools import Position
>>> player = PubevalPlayer()
>>> board = player.choose(Position.initial().to_array(), 3, 1)
>>> Position.from_array(board).on_roll[:8]
(0, 0, 0, 0, 2, 4, 0, 2)
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

import numba as nb
import numpy as np

from bgtools.core.movegen import generate, is_contact, new_move_buffers

__all__ = ["PubevalWeights", "pubeval_weights", "pubeval_score", "pubeval_scores", "pubeval_choose", "is_race",
           "PubevalPlayer", "WIN_SCORE"]

WIN_SCORE = 99999999.0


class PubevalWeights(NamedTuple):
    """pubeval's two weight vectors, float64[122] each."""

    race: np.ndarray
    contact: np.ndarray


@lru_cache(maxsize=1)
def pubeval_weights() -> PubevalWeights:
    """(race, contact) weight vectors, float64[122] each."""
    text = resources.files("bgtools.data").joinpath("pubeval_weights.json").read_text()
    w = json.loads(text)
    return PubevalWeights(np.array(w["race"], np.float64), np.array(w["contact"], np.float64))


@nb.njit(cache=True)
def is_race(board) -> bool:
    """True when every checker of the side on roll has passed every opposing checker."""
    return not is_contact(board)


@nb.njit(cache=True)
def pubeval_score(board, w) -> float:
    """pubeval's score of a board *after* a play (mover still as ``[1]``) with weights ``w``."""
    on = 0
    for i in range(25):
        on += board[1, i]
    if on == 0:
        return WIN_SCORE
    s = 0.0
    for k in range(24):
        p = 24 - k  # point number, from the mover's side
        n = board[1, p - 1] - board[0, 24 - p]
        j = 5 * k
        if n == -1:
            s += w[j]
        elif n == 1:
            s += w[j + 1]
        elif n >= 2:
            s += w[j + 2]
            if n == 3:
                s += w[j + 3]
            elif n >= 4:
                s += w[j + 4] * (n - 3) * 0.5
    s += w[120] * board[0, 24] * 0.5
    s += w[121] * (15 - on) / 15.0
    return s


@nb.njit(cache=True)
def _scores(boards_after, w):
    out = np.empty(boards_after.shape[0], np.float64)
    for i in range(boards_after.shape[0]):
        out[i] = pubeval_score(boards_after[i], w)
    return out


def pubeval_scores(boards_after: np.ndarray, race: bool) -> np.ndarray:
    """pubeval scores of boards *after* a play (mover still as ``[1]``), float64[n]."""
    wr, wc = pubeval_weights()
    b = np.ascontiguousarray(boards_after, dtype=np.int8).reshape(-1, 2, 25)
    return _scores(b, wr if race else wc)


@nb.njit(cache=True)
def pubeval_choose(board, d1, d2, weights, buf) -> int:
    """Index of pubeval's play among the plays generated into ``buf`` (-1: no legal play).

    ``weights`` is a :class:`PubevalWeights`, ``buf`` a
    :class:`~bgtools.core.movegen.MoveBuffers`; ``buf.boards[:n]`` holds the candidates
    afterwards.  Ties go to the first generated play.
    """
    n = generate(board, d1, d2, buf)
    if n == 0:
        return -1
    w = weights.race if is_race(board) else weights.contact
    best = 0
    best_s = -1e300
    for i in range(n):
        s = pubeval_score(buf.boards[i], w)
        if s > best_s:
            best_s = s
            best = i
    return best


class PubevalPlayer:
    """pubeval as a move chooser: ``choose(board, d1, d2)`` returns the board after its
    play (mover still as ``[1]``), or ``None`` when there is no legal play."""

    name = "pubeval"

    def __init__(self) -> None:
        self.weights = pubeval_weights()
        self.wr, self.wc = self.weights
        self._buf = new_move_buffers()

    def choose(self, board: np.ndarray, d1: int, d2: int) -> np.ndarray | None:
        b = np.ascontiguousarray(board, dtype=np.int8)
        i = pubeval_choose(b, d1, d2, self.weights, self._buf)
        return None if i < 0 else self._buf.boards[i].copy()
