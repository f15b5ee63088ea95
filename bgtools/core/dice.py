"""The 21 distinct rolls of two dice and their chances: the one table every module sums over.

:data:`ROLLS` is ``int64[21, 2]``, larger die first, in gnubg's order (66, 65, ..., 11);
:data:`ROLL_WEIGHTS` its chances (1/36 for a double, 2/36 otherwise), :data:`ROLL_WAYS`
the number of the 36 rolls each stands for, :data:`ROLL_INDEX` ``[larger, smaller]`` its
row.  All are plain NumPy arrays that Numba kernels read as globals.  :data:`ROLL_PAIRS`
is the same order as Python tuples (``bgtools.ROLLS``).

:data:`ASCENDING_ROLLS` / :data:`ASCENDING_ROLL_WEIGHTS` are the second order, smaller die
first (11, 12, ..., 66), kept on purpose: the duel players (:mod:`bgtools.engine.play`)
sum the opponent's replies in it, and their results depend on the order of that sum.

>>> ROLL_PAIRS[:3], float(ROLL_WEIGHTS.sum()), int(ROLL_WAYS.sum())
(((6, 6), (6, 5), (6, 4)), 1.0, 36)
>>> ROLLS[ROLL_INDEX[5, 2]].tolist(), ASCENDING_ROLLS[1].tolist()
([5, 2], [1, 2])
"""

from __future__ import annotations

import numpy as np

__all__ = ["ROLLS", "ROLL_WAYS", "ROLL_WEIGHTS", "ROLL_INDEX", "ROLL_PAIRS", "ASCENDING_ROLLS",
           "ASCENDING_ROLL_WEIGHTS", "N_ROLLS", "PIPS_PER_ROLL"]

#: how many distinct rolls there are
N_ROLLS = 21
#: the mean pips of a roll, a double's four moves counted (49/6 = 8.1667)
PIPS_PER_ROLL = 49.0 / 6.0

#: the 21 rolls (larger die, smaller die) in gnubg's order: 66, 65, 64, ..., 22, 21, 11
ROLLS = np.array([(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)], np.int64)
#: of the 36 rolls, how many each of :data:`ROLLS` stands for (1 for a double, else 2)
ROLL_WAYS = np.where(ROLLS[:, 0] == ROLLS[:, 1], 1, 2).astype(np.int64)
#: the chance of each of :data:`ROLLS`
ROLL_WEIGHTS = ROLL_WAYS / 36.0
#: ``ROLL_INDEX[larger, smaller]``: the row of that roll in :data:`ROLLS`
ROLL_INDEX = np.zeros((7, 7), np.int64)
ROLL_INDEX[ROLLS[:, 0], ROLLS[:, 1]] = np.arange(N_ROLLS)
#: :data:`ROLLS` as Python tuples of ints
ROLL_PAIRS: tuple[tuple[int, int], ...] = tuple((int(a), int(b)) for a, b in ROLLS)

#: the second order, smaller die first: 11, 12, ..., 16, 22, ..., 66 (the duel players' replies)
ASCENDING_ROLLS = np.array([(a, b) for a in range(1, 7) for b in range(a, 7)], np.int64)
#: the chance of each of :data:`ASCENDING_ROLLS`
ASCENDING_ROLL_WEIGHTS = np.where(ASCENDING_ROLLS[:, 0] == ASCENDING_ROLLS[:, 1], 1, 2) / 36.0
