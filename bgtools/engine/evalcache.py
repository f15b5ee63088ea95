"""A cache of 0-ply outputs by board, for Numba code that values the same positions again.

A rollout meets the same positions over and over: every trial starts from the root, its
first two rolls are stratified, and a short race has few positions at all.  gnubg keeps an
evaluation cache for this; so does the rollout kernel (:mod:`bgtools.rollouts.kernel`),
one per worker process, kept from chunk to chunk.  What a slot holds is the net's full pass
(or an exact value), the same whichever chunk wrote it, so a rollout's results stay the same
for any number of workers and any order of the chunks.

An :class:`EvalCache` is direct-mapped: ``1 << bits`` slots, each holding the whole board
it was written for (its 50 counts packed into 7 words, so a hit is exact, never a hash
collision) and the five outputs of the player on roll.  A newer board takes the slot of an
older one.  ``bits`` 0 gives a cache that holds nothing (:func:`cache_find` always misses,
:func:`cache_put` writes nothing): the chooser's buffers carry one of those unless a caller
asks for more.

>>> import numpy as np
>>> c = new_eval_cache(4)
>>> b = np.zeros((2, 25), np.int8); b[1, 5] = 15; b[0, 5] = 15
>>> out = np.zeros(5)
>>> slot = cache_find(c, b, out); slot >= 0        # a miss: where to store the value
True
>>> cache_put(c, slot, np.array([0.5, 0.1, 0.0, 0.1, 0.0]))
>>> cache_find(c, b, out), float(out[0])           # a hit: -1 and the outputs
(-1, 0.5)
>>> int(c.stats[0]), int(c.stats[1])               # hits, misses
(1, 1)
"""

from __future__ import annotations

from typing import NamedTuple

import numba as nb
import numpy as np

__all__ = ["EvalCache", "new_eval_cache", "cache_find", "cache_put", "ChoiceCache", "new_choice_cache", "choice_find",
           "choice_put", "KEY_WORDS"]

#: words of a packed board: 50 counts of 8 bits
KEY_WORDS = 7


class EvalCache(NamedTuple):
    """Slots of boards and their outputs (see the module notes); :func:`new_eval_cache`."""

    keys: np.ndarray  #: uint64[slots, KEY_WORDS] the board of each slot, packed
    vals: np.ndarray  #: float64[slots, 5] its outputs, the player on roll's
    used: np.ndarray  #: bool[slots] the slot holds a board
    key: np.ndarray  #: uint64[KEY_WORDS] the board of the last look-up, packed
    stats: np.ndarray  #: int64[2] hits and misses so far


@nb.njit(cache=True)
def new_eval_cache(bits: int) -> EvalCache:
    """An empty cache of ``1 << bits`` slots (``bits`` 0: none, a cache that holds nothing)."""
    n = (1 << bits) if bits > 0 else 0
    return EvalCache(np.zeros((n, KEY_WORDS), np.uint64), np.zeros((n, 5), np.float64), np.zeros(n, np.bool_),
                     np.zeros(KEY_WORDS, np.uint64), np.zeros(2, np.int64))


@nb.njit(cache=True, inline="always")
def _slot(c: EvalCache, board, tag) -> int:
    """Pack ``board`` and ``tag`` (a small number, 0 for a plain position) into ``c.key``;
    return the slot they hash to."""
    key = c.key
    h = np.uint64(0x243F6A8885A308D3)
    for w in range(KEY_WORDS):
        v = np.uint64(0)
        for j in range(8):
            q = 8 * w + j
            if q < 25:
                v |= np.uint64(np.uint8(board[0, q])) << np.uint64(8 * j)
            elif q < 50:
                v |= np.uint64(np.uint8(board[1, q - 25])) << np.uint64(8 * j)
        if w == KEY_WORDS - 1:
            v |= np.uint64(tag) << np.uint64(16)  # above the last two counts
        key[w] = v
        h = (h ^ v) * np.uint64(0x9E3779B97F4A7C15)
        h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(c.used.shape[0] - 1))


@nb.njit(cache=True, inline="always")
def _holds(c: EvalCache, slot: int) -> bool:
    """Whether ``slot`` holds the board packed last (``c.key``)."""
    if not c.used[slot]:
        return False
    for w in range(KEY_WORDS):
        if c.keys[slot, w] != c.key[w]:
            return False
    return True


@nb.njit(cache=True, inline="always")
def _probe(c: EvalCache, board, out, tag) -> int:
    """The slot of ``board`` and ``tag``: on a hit its outputs into ``out`` and the slot
    (>= 0); on a miss ``-2 - slot``; ``-1`` when the cache holds nothing."""
    if c.used.shape[0] == 0:
        return -1
    slot = _slot(c, board, tag)
    if _holds(c, slot):
        for k in range(5):
            out[k] = c.vals[slot, k]
        c.stats[0] += 1
        return slot
    c.stats[1] += 1
    return -2 - slot


@nb.njit(cache=True, inline="always")
def cache_find(c: EvalCache, board, out, tag=0) -> int:
    """Look ``board`` (int8[2, 25]) up: on a hit, its outputs into ``out`` and -1; on a miss,
    the slot :func:`cache_put` is to write (``-2`` when the cache holds nothing)."""
    r = _probe(c, board, out, tag)
    if r >= 0:
        return -1
    return -2 if r == -1 else -2 - r


@nb.njit(cache=True, inline="always")
def cache_put(c: EvalCache, slot: int, out) -> None:
    """Store ``out`` for the board of the last :func:`cache_find` (a miss at ``slot``)."""
    if slot < 0:
        return
    for w in range(KEY_WORDS):
        c.keys[slot, w] = c.key[w]
    for k in range(5):
        c.vals[slot, k] = out[k]
    c.used[slot] = True


class ChoiceCache(NamedTuple):
    """A play chosen for a board and a roll: the board after it (the mover still ``[1]``),
    whether there was one, and its outputs (what the chooser hands back)."""

    values: EvalCache  #: the chooser's outputs, keyed by board and roll
    after: np.ndarray  #: int8[slots, 2, 25] the board after the play
    played: np.ndarray  #: bool[slots] False: no legal play


@nb.njit(cache=True)
def new_choice_cache(bits: int) -> ChoiceCache:
    """An empty :class:`ChoiceCache` of ``1 << bits`` slots (``bits`` 0: none)."""
    n = (1 << bits) if bits > 0 else 0
    return ChoiceCache(new_eval_cache(bits), np.zeros((n, 2, 25), np.int8), np.zeros(n, np.bool_))


@nb.njit(cache=True, inline="always")
def choice_find(cc: ChoiceCache, board, roll: int, after, out) -> int:
    """The choice for ``board`` and roll number ``roll`` (1..21): on a hit, the board after
    it into ``after``, its outputs into ``out``, and 1 (a play) or 0 (none); on a miss, a code
    for :func:`choice_put` (-1 when the cache holds nothing, ``-2 - slot`` else)."""
    r = _probe(cc.values, board, out, roll)
    if r < 0:
        return r  # -1 (no cache) or -2 - slot (a miss)
    if not cc.played[r]:
        return 0
    for a in range(2):
        for i in range(25):
            after[a, i] = cc.after[r, a, i]
    return 1


@nb.njit(cache=True, inline="always")
def choice_put(cc: ChoiceCache, code: int, after, played: bool, out) -> None:
    """Store a choice after a miss (``code`` from :func:`choice_find`; the key is the one it packed)."""
    if code > -2:
        return
    slot = -2 - code
    cache_put(cc.values, slot, out)
    cc.played[slot] = played
    if played:
        for a in range(2):
            for i in range(25):
                cc.after[slot, a, i] = after[a, i]
