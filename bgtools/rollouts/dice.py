"""A rollout trial's dice: stratified first two rolls, counter-based later rolls.

Trial ``i`` in block ``i // 1296`` uses digits ``a = i % 36`` and ``b = (i // 36) % 36``;
its first roll is ``perm0[a]`` and its second ``perm1[(a + b) % 36]``, with permutations
of the 36 rolls drawn afresh for each block from the seed (gnubg's stratification): every
36 consecutive trials (from a multiple of 36) hold each first roll once, every 1,296 each
pair of first two rolls.  Later rolls come from a counter-based generator (splitmix64 of
seed, trial and turn).  So a trial's dice depend only on (seed, trial number), never on
which process plays it.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from bgtools.core.dice import ROLL_INDEX, ROLL_WEIGHTS, ROLLS  # re-exported: the kernel's names

__all__ = ["roll", "roll_memo", "new_roll_memo", "roll_dice", "ROLLS", "ROLL_WEIGHTS", "ROLL_INDEX"]


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


@nb.njit(cache=True, inline="always")
def _to_dice(r):
    d1 = r // 6 + 1
    d2 = r % 6 + 1
    if d1 < d2:
        return d2, d1
    return d1, d2


@nb.njit(cache=True, inline="always")
def _first_index(trial, turn) -> int:
    """The entry of the permutation of roll ``turn`` (0 or 1) that ``trial`` reads."""
    a = trial % 36
    return a if turn == 0 else (a + (trial // 36) % 36) % 36


@nb.njit(cache=True)
def roll(seed, trial, turn, perm):
    """(larger die, smaller die) of ``trial`` at ``turn`` (0 = the first roll);
    ``perm`` is int64[36] scratch."""
    if turn < 2:
        r = _perm_pick(seed, trial // 1296, turn, _first_index(trial, turn), perm)
    else:
        r = _below36(_hash3(seed, trial, turn))
    return _to_dice(r)


@nb.njit(cache=True)
def new_roll_memo():
    """Scratch for :func:`roll_memo`: int64[2, 37], no block's permutations held yet."""
    m = np.zeros((2, 37), np.int64)
    m[:, 36] = -1
    return m


@nb.njit(cache=True)
def roll_memo(seed, trial, turn, memo):
    """:func:`roll`, the permutations of the first two rolls kept in ``memo``
    (:func:`new_roll_memo`; row ``turn``, the block in its last entry) while the trials
    stay in one block of 1,296: they are the same for all its trials, and shuffling 36
    rolls twice a trial was a tenth of a short game's cost.  Same dice as :func:`roll`."""
    if turn < 2:
        block = trial // 1296
        row = memo[turn]
        if row[36] != block:
            _perm_pick(seed, block, turn, 0, row)
            row[36] = block
        r = row[_first_index(trial, turn)]
    else:
        r = _below36(_hash3(seed, trial, turn))
    return _to_dice(r)


def roll_dice(seed: int, trial: int, turns: int) -> list[tuple[int, int]]:
    """The first ``turns`` rolls of a trial (larger die first)."""
    perm = np.zeros(36, np.int64)
    out: list[tuple[int, int]] = []
    for t in range(turns):
        d = roll(seed, trial, t, perm)
        out.append((int(d[0]), int(d[1])))
    return out
