"""A game's rolls resolved and applied in one Numba call (the fast path of the replay).

:func:`resolve_rolls` takes the board before a run of rolls and, for each roll, the player,
the dice and the written move already split into checker paths ``(from, to, times)``; the
kernel checks each against the legal plays (:func:`bgtools.core.movegen.find_play`) and
applies it, so Python works once per game instead of once per move.  It stops at the first
roll it cannot settle alone (an illegal or ambiguous move, a move it was not given as
paths, the end of the game): the replay settles that roll in Python, with its messages,
and calls the kernel again for the rest.

Roll kinds (``meta[i, 3]``): :data:`PATHS` (checker paths written), :data:`EMPTY` (no move
written: dance, forced play or roll only), :data:`ROLLED` (a roll recorded without a play),
:data:`UNKNOWN` (XG's ``???``), :data:`STEPS` (exact single-die steps, as SGF gives them),
:data:`PYTHON` (left to the Python replay).
Result codes (``res[i, 0]``): :data:`PLAY`, :data:`DANCE`, :data:`NOPLAY` (legal plays
exist, none made).
"""

from __future__ import annotations

from array import array
from functools import lru_cache
from typing import Optional, Sequence

import numba as nb
import numpy as np

from bgtools.core.movegen import find_play, generate, new_move_buffers
from bgtools.core.moveparse import MoveParseError, parse_move_text

__all__ = ["resolve_rolls", "new_results", "KernelRun", "pack_rolls", "play_steps", "token_path", "PATHS", "EMPTY", "ROLLED", "UNKNOWN", "PYTHON",
           "STEPS", "PLAY", "DANCE", "NOPLAY", "MAX_PATHS"]

PATHS, EMPTY, ROLLED, UNKNOWN, STEPS, PYTHON = 0, 1, 2, 3, 4, 9
PLAY, DANCE, NOPLAY = 0, 1, 2
#: checker paths one roll may have for the kernel (more: the Python replay reads it)
MAX_PATHS = 8


@nb.njit(cache=True)
def _by_hits(b, n, target, starred, landings, buf):
    """The one play of ``buf`` leaving the mover's side as ``target`` whose hits fit the written
    move (:func:`bgtools.core.moveparse.parse_play`'s rule: every starred point and every landing
    on a blot hit, nothing hit but landings and starred points, the fewest hits); -1 if none
    or several."""
    required = starred
    for q in range(1, 25):
        if (landings >> q) & 1 and b[0, 24 - q] == 1:
            required |= 1 << q
    allowed = starred | landings
    best = -1
    fewest = 99
    ties = 0
    for i in range(n):
        same = True
        for s in range(25):
            if buf.boards[i, 1, s] != target[s]:
                same = False
                break
        if not same:
            continue
        hits = 0
        nh = 0
        for j in range(24):
            if b[0, j] == 1 and buf.boards[i, 0, j] == 0:
                hits |= 1 << (24 - j)
                nh += 1
        if (required & ~hits) != 0 or (hits & ~allowed) != 0:
            continue
        if nh < fewest:
            best, fewest, ties = i, nh, 1
        elif nh == fewest:
            ties += 1
    return best if ties == 1 else -1


@nb.njit(cache=True)
def _kernel(board, meta, paths, start, res, after, buf):
    """Resolve rolls ``start..`` of ``meta``/``paths`` from ``board`` (``[1]`` = the player of
    roll ``start``); fill ``res``/``after``; return the index of the first roll not settled."""
    b = board.copy()
    persp = meta[start, 0]
    target = np.zeros(25, np.int8)
    k = meta.shape[0]
    for i in range(start, k):
        p = meta[i, 0]
        kind = meta[i, 3]
        if kind == 9:
            return i
        if p != persp:  # the same player rolls twice: look from the other side
            for s in range(25):
                t = b[0, s]
                b[0, s] = b[1, s]
                b[1, s] = t
            persp = p
        d1 = meta[i, 1]
        d2 = meta[i, 2]
        idx = -1
        if kind == 0 or kind == 4:
            for s in range(25):
                target[s] = b[1, s]
            for j in range(meta[i, 4]):
                a = paths[i, j, 0]
                to = paths[i, j, 1]
                sa = 24 if a == 25 else a - 1
                for _ in range(paths[i, j, 2]):
                    if target[sa] <= 0:
                        return i
                    target[sa] -= 1
                    if to != 0:
                        target[to - 1] += 1
            n, first, count = find_play(b, d1, d2, target, buf)
            if n == 0 or count == 0:
                return i
            if count > 1:  # plays alike but for hits: the written stars decide, as in parse_play
                first = _by_hits(b, n, target, meta[i, 5], meta[i, 6], buf) if kind == 0 else -1
                if first < 0:
                    return i
            idx = first
        else:
            n = generate(b, d1, d2, buf)
            if kind == 2:
                res[i, 0] = 2
            elif n == 0:
                res[i, 0] = 1
            elif n == 1:
                idx = 0
            else:
                res[i, 0] = 2
        res[i, 1] = n
        if idx >= 0:
            res[i, 0] = 0
            ns = buf.nsteps[idx]
            res[i, 2] = ns
            code = 0
            scale = 1
            for j in range(ns):
                fr = buf.steps[idx, j, 0] + 1  # the mover's point numbers, 0 = off
                to = buf.steps[idx, j, 1] + 1
                res[i, 3 + 2 * j] = fr
                res[i, 4 + 2 * j] = to
                code += (fr * 26 + to) * scale  # every step's number is 26 or more: one code per play
                scale *= 676
            res[i, 11] = code
            left = 0
            for s in range(25):
                after[i, 0, s] = buf.boards[idx, 0, s]
                after[i, 1, s] = buf.boards[idx, 1, s]
                b[0, s] = buf.boards[idx, 1, s]  # the opponent is on roll now
                b[1, s] = buf.boards[idx, 0, s]
                left += buf.boards[idx, 1, s]
            persp = 1 - p
            if left == 0:  # borne off: the game is over, the replay takes it from here
                return i + 1
    return k


@lru_cache(maxsize=1 << 14)
def token_path(token: str) -> Optional[tuple[int, int, int]]:
    """``(from, to, times)`` of one written checker move (``24/16*``, ``bar/20``, ``8/4(2)``);
    None when it cannot be read (the Python replay then says why)."""
    info = _token_info(token)
    return None if info is None else info[:3]


@lru_cache(maxsize=1 << 14)
def _token_info(token: str) -> Optional[tuple[int, int, int, int, int]]:
    """``(from, to, times, starred, landing)``: a move's path and, as bit masks of the mover's
    points, the points marked ``*`` on the way and where it lands (0 when borne off)."""
    try:
        parsed = parse_move_text(token)
    except MoveParseError:
        return None
    if len(parsed) != 1:
        return None
    pts, n = parsed[0]
    starred = 0
    for q, star in pts[1:]:
        if star and q:
            starred |= 1 << q
    to = pts[-1][0]
    return pts[0][0], to, n, starred, (1 << to) if to else 0


def pack_rolls(rolls: Sequence) -> tuple[np.ndarray, np.ndarray]:
    """``meta`` int64[k, 7] (player, d1, d2, kind, paths, starred, landings) and ``paths``
    int64[k, MAX_PATHS, 3] of the rolls, dice larger first; ``starred`` and ``landings`` are
    the bit masks of a written move's ``*`` points and landing points (see :func:`_by_hits`).

    Both are built from bytes kept per written text and per (player, dice): most rolls cost
    two look-ups (the arrays are what ``np.array`` of the rows would give)."""
    metas: list[bytes] = []
    blobs: list[bytes] = []
    head, texts = _HEAD, _TEXTS
    for a in rolls:
        try:
            h = head.get((a.player, a.dice))
        except TypeError:  # dice not as a tuple
            h = None
        if h is None:
            h = _head(a.player, a.dice)
        if a.steps is None and a.status == "play":
            got = texts.get(a.text)
            tail, blob = got if got is not None else _text_paths(a.text)
        else:
            tail, blob = _other_paths(a)
        metas.append(h)
        metas.append(tail)
        blobs.append(blob)
    k = len(blobs)
    meta = np.frombuffer(bytearray(b"".join(metas)), np.int64).reshape(k, 7)
    paths = np.frombuffer(bytearray(b"".join(blobs)), np.int64).reshape(k, MAX_PATHS, 3)
    return meta, paths


#: the first three ``meta`` columns (player, larger die, smaller die) as bytes, by (player, dice)
_HEAD: dict[tuple, bytes] = {}


def _head(player: int, dice: tuple[int, int]) -> bytes:
    d1, d2 = dice
    if d1 < d2:
        d1, d2 = d2, d1
    h = array("q", [player, d1, d2]).tobytes()
    if type(dice) is tuple and type(player) is int and type(d1) is int and type(d2) is int and len(_HEAD) < 1 << 10:
        _HEAD[(player, dice)] = h
    return h


def _packed(kind: int, hops, starred: int = 0, landings: int = 0) -> tuple[bytes, bytes]:
    """(the last four ``meta`` columns: kind, number of paths, starred, landings; the paths
    padded to MAX_PATHS), as bytes."""
    flat = [x for h in hops for x in h[:3]]
    flat += [0] * (3 * MAX_PATHS - len(flat))
    return array("q", [kind, len(hops), starred, landings]).tobytes(), array("q", flat).tobytes()


_NONE = _packed(PYTHON, ())


#: :func:`_text_paths` of the texts met so far (texts repeat)
_TEXTS: dict[str, tuple[bytes, bytes]] = {}


def _text_paths(text: str) -> tuple[bytes, bytes]:
    """:func:`_packed` of a written move, kept in :data:`_TEXTS`."""
    got = _text_packed(text)
    if len(_TEXTS) >= 1 << 15:
        _TEXTS.clear()
    _TEXTS[text] = got
    return got


def _text_packed(text: str) -> tuple[bytes, bytes]:
    words = text.replace(",", " ").split()
    if not words:
        return _packed(EMPTY, ())
    if len(words) > MAX_PATHS:
        return _NONE
    hops = []
    starred = landings = 0
    for w in words:
        h = _token_info(w)
        if h is None:
            return _NONE
        hops.append(h)
        starred |= h[3]
        landings |= h[4]
    return _packed(PATHS, hops, starred, landings)


def _other_paths(a) -> tuple[bytes, bytes]:
    status = a.status
    if a.steps is not None:
        if status not in ("play", "dance"):
            return _NONE
        if not a.steps:
            return _packed(EMPTY, ())
        if len(a.steps) > MAX_PATHS or not all(1 <= x <= 25 and 0 <= y < x for x, y in a.steps):
            return _NONE
        # exact single-die steps: the kernel settles them when only one play fits the board;
        # several plays alike but for hits go to Python, which follows the steps' order
        return _packed(STEPS, [(x, y, 1) for x, y in a.steps])
    if status == "rolled":
        return _packed(ROLLED, ())
    if status == "unknown":
        return _packed(UNKNOWN, ())
    return _NONE


_BUF = None


def new_results(k: int) -> tuple[np.ndarray, np.ndarray]:
    """Result arrays for ``k`` rolls: ``res`` int64[k, 12] (code, legal plays, steps, then the
    steps' (from, to) slots in the mover's numbering, 25 = bar, 0 = off, then the play's number
    (see :func:`play_steps`)) and ``after`` int8[k, 2, 25] (the board after the play, mover
    still as ``[1]``)."""
    return np.zeros((k, 12), np.int64), np.zeros((k, 2, 25), np.int8)


class KernelRun:
    """A game's rolls packed for :func:`resolve_rolls` (``meta``, ``paths`` from
    :func:`pack_rolls`), the roll number of each action (``where``, -1 for other actions),
    each roll's kind (``kinds``), and the kernel's last run: its first and end roll (``start``,
    ``stop``), its result arrays (``res``, ``after``, :func:`new_results`) and that run's
    result rows as lists (``rows``)."""

    __slots__ = ("meta", "paths", "where", "kinds", "start", "stop", "res", "after", "rows")

    def __init__(self, meta: np.ndarray, paths: np.ndarray, where: list[int]) -> None:
        self.meta, self.paths, self.where = meta, paths, where
        self.kinds: list[int] = meta[:, 3].tolist()
        self.start = self.stop = 0
        self.res, self.after = new_results(meta.shape[0])
        self.rows: list = []


#: the steps of the plays met so far, by the number the kernel gives them (plays repeat)
_STEPS: dict[int, tuple] = {}


def play_steps(row: list) -> tuple:
    """The ``(from, to)`` steps of a settled play from its ``res`` row (a list)."""
    code = row[11]
    st = _STEPS.get(code)
    if st is None:
        n = row[2]
        st = tuple(zip(row[3:3 + 2 * n:2], row[4:4 + 2 * n:2]))
        if len(_STEPS) > 1 << 16:
            _STEPS.clear()
        _STEPS[code] = st
    return st


def resolve_rolls(board: np.ndarray, meta: np.ndarray, paths: np.ndarray, start: int,
                  res: np.ndarray, after: np.ndarray) -> int:
    """Run the kernel from roll ``start`` (``board``: int8[2, 25], ``[1]`` = that roll's player),
    filling ``res``/``after`` (see :func:`new_results`); returns the first roll not settled."""
    global _BUF
    if _BUF is None:
        _BUF = new_move_buffers()
    return int(_kernel(np.ascontiguousarray(board, dtype=np.int8), meta, paths, start, res, after, _BUF))
