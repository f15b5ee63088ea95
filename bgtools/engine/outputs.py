"""The five outputs of an evaluation, and the same outcomes seen from the other player.

Every evaluation in bgtools is five probabilities for one player, in gnubg's cumulative order:
P(win), P(win a gammon or more), P(win a backgammon), P(lose a gammon or more), P(lose a
backgammon).  Seen from his opponent the win turns round (``1 - P(win)``) and the gammon and
backgammon outputs change places (his wins are the other's losses).  This module is the one
place that says so: :func:`invert_probs` for arrays (any leading shape), and for the kernels
:func:`turn_into`, :func:`add_turned` (a weighted sum of turned outputs, as lookahead averages
the replies), :func:`add_outputs` (a sum seen from either side), :func:`clamp` (back into the
cumulative order after rounding) and :func:`add_change` (a *change* of outputs, such as a roll's luck: there the
win's change is negated, not subtracted from 1).
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = ["OUTPUT_NAMES", "invert_probs", "turn_into", "add_turned", "add_change", "add_outputs", "clamp"]

#: the five outputs, in order
OUTPUT_NAMES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


def invert_probs(probs) -> np.ndarray:
    """The same outcomes seen from the other player (float64, any leading shape).

    >>> invert_probs([0.6, 0.2, 0.01, 0.1, 0.02]).round(2).tolist()
    [0.4, 0.1, 0.02, 0.2, 0.01]
    """
    p = np.asarray(probs, np.float64)
    out = np.empty_like(p)
    out[..., 0] = 1.0 - p[..., 0]
    out[..., 1] = p[..., 3]
    out[..., 2] = p[..., 4]
    out[..., 3] = p[..., 1]
    out[..., 4] = p[..., 2]
    return out


@nb.njit(cache=True, inline="always")
def turn_into(src, dst) -> None:
    """``dst`` = ``src`` seen from the other player (``dst`` may be ``src``)."""
    dst[0], dst[1], dst[2], dst[3], dst[4] = 1.0 - src[0], src[3], src[4], src[1], src[2]


@nb.njit(cache=True, inline="always")
def add_turned(w, src, acc) -> None:
    """``acc += w * src`` seen from the other player."""
    acc[0] += w * (1.0 - src[0])
    acc[1] += w * src[3]
    acc[2] += w * src[4]
    acc[3] += w * src[1]
    acc[4] += w * src[2]


@nb.njit(cache=True, inline="always")
def add_outputs(src, turn, acc) -> None:
    """``acc += src``, seen from the other player when ``turn``."""
    if turn:
        add_turned(1.0, src, acc)
    else:
        for k in range(5):
            acc[k] += src[k]


@nb.njit(cache=True, inline="always")
def add_change(d, turn, acc) -> None:
    """``acc += d``, a change of the five outputs, seen from the other player when ``turn``
    (his win's change is the negated change of ours)."""
    if turn:
        acc[0] -= d[0]
        acc[1] += d[3]
        acc[2] += d[4]
        acc[3] += d[1]
        acc[4] += d[2]
    else:
        for k in range(5):
            acc[k] += d[k]


@nb.njit(cache=True, inline="always")
def clamp(p) -> None:
    """Put ``p`` into the cumulative order in place: 0 <= P(win) <= 1, 0 <= P(win bg) <=
    P(win g) <= P(win), 0 <= P(lose bg) <= P(lose g) <= 1 - P(win) (sums of many terms can
    miss by rounding)."""
    p[0] = min(max(p[0], 0.0), 1.0)
    p[1] = min(max(p[1], 0.0), p[0])
    p[2] = min(max(p[2], 0.0), p[1])
    p[3] = min(max(p[3], 0.0), 1.0 - p[0])
    p[4] = min(max(p[4], 0.0), p[3])
