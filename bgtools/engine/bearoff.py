"""Exact bear-off databases, built with Numba and cached on disk.

Two databases, both following GNU Backgammon's conventions so that their entries
agree with gnubg's ``gnubg_os0.bd`` and ``gnubg_ts0.bd``:

* **one-sided**: every side of up to 15 checkers on the six home points (54,264
  positions).  For each: ``P(all checkers off in exactly k rolls)``, k = 0..31, with
  the play that minimises the expected number of rolls; and the distribution of rolls
  needed to take the *first* checker off (gammon chances; with fewer than 15 checkers
  on the board that is 0 rolls), with the play that minimises its expectation.
* **two-sided**: both sides with up to 6 checkers on the six home points (924 x 924
  positions), player on roll to roll: exact cubeless win probability (play maximises
  it) and exact money cubeful equities per unit cube for the player on roll *not
  doubling now*, with the cube owned by him / centred / owned by the opponent
  (optimal cube and checker play afterwards, each value maximised on its own).

Index of a side (``bearoff_index``): gnubg's combinatorial ``positionbearoff`` --
sides ordered by number of checkers, then by the ascending list of the points the
checkers sit on, lexicographically; the empty side is 0.  Sides of up to 6 checkers
have the same index in both databases; the two-sided record of (on roll ``a``,
opponent ``b``) is ``a * 924 + b``.

Numba-callable API (plain arrays; get them with :func:`load_databases`):

* ``bearoff_index(side) -> int``: ``side`` = any int array whose first 6 entries are
  the counts on points 1..6.
* ``os_rolls[idx, k]``, ``os_gammon[idx, k]``: float64[54264, 32] distributions;
  ``os_mean[idx]``: expected rolls to bear off.
* ``ts[a * 924 + b]``: float64[4] = (P(win), equity owned, equity centred, equity
  opponent owns) for the player on roll with side index ``a``; see ``ts_lookup``.
* ``ts_lookup(ts, board) -> float64[4]`` for an int8[2, 25] board (gnubg order) whose
  sides both fit the two-sided database (check with ``in_two_sided(board)``).
* ``one_sided_probs(os_rolls, os_gammon, board) -> float64[5]``: gnubg's one-sided
  estimate of the five outputs for a board with both sides home (exact distributions
  combined as if independent: play minimises rolls, not losses).
* ``os_moments[idx]``: mean and variance of the rolls to bear off and of those to the first
  checker off (:func:`one_sided_moments`), for the far races of :mod:`bgtools.engine.farrace`.

``bgtools bearoff build`` (or :func:`load_databases` on first use) builds both in a
few seconds and caches them under ``platformdirs.user_cache_dir("bgtools")``
(``BGTOOLS_CACHE_DIR`` overrides).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numba as nb
import numpy as np

from bgtools.base.cachedir import cache_dir
from bgtools.core.dice import ROLL_WEIGHTS, ROLLS
from bgtools.core.movegen import generate, new_move_buffers

__all__ = [
    "BearoffDatabases",
    "load_databases",
    "BearoffTables",
    "empty_tables",
    "build_databases",
    "cache_dir",
    "bearoff_index",
    "side_from_index",
    "in_one_sided",
    "in_two_sided",
    "ts_lookup",
    "one_sided_probs",
    "one_sided_probs_into",
    "one_sided_moments",
    "N_ONE_SIDED",
    "N_TWO_SIDED_SIDE",
    "DB_VERSION",
]

N_ONE_SIDED = 54264  #: C(21, 6): up to 15 checkers on 6 points
N_TWO_SIDED_SIDE = 924  #: C(12, 6): up to 6 checkers on 6 points
MAX_ROLLS = 32
DB_VERSION = "bgtools-bearoff-1"

# C(n, k) for n, k < 32
_BINOM = np.zeros((32, 32), np.int64)
for _n in range(32):
    _BINOM[_n, 0] = 1
    for _k in range(1, _n + 1):
        _BINOM[_n, _k] = _BINOM[_n - 1, _k - 1] + _BINOM[_n - 1, _k]

# ----------------------------------------------------------------------------- index
# _STEP[prev, p, left]: what the first checker on point p adds to the index when the
# previous occupied point is ``prev`` and ``left`` checkers are still to be placed after it:
# the sequences that put a point in prev..p-1 there instead (positionbearoff's inner sum,
# summed once per point rather than walked per checker)
_STEP = np.zeros((6, 6, 16), np.int64)
for _prev in range(6):
    for _p in range(_prev, 6):
        for _left in range(16):
            _STEP[_prev, _p, _left] = sum(int(_BINOM[(6 - _v) + _left - 1, _left]) for _v in range(_prev, _p))


@nb.njit(cache=True, inline="always")
def bearoff_index(side) -> int:
    """gnubg's ``positionbearoff`` index of the checkers on points 1..6 (``side[0:6]``):
    sides with fewer checkers first, then the ascending sequences of their points in
    lexicographic order (one table step per occupied point)."""
    n = 0
    for p in range(6):
        n += side[p]
    idx = _BINOM[n + 5, 6]  # sides with fewer checkers come first
    left = n  # checkers not yet placed in the ascending sequence
    prev = 0
    for p in range(6):
        c = side[p]
        if c > 0:
            left -= c
            idx += _STEP[prev, p, left + c - 1]
            prev = p
    return idx


@nb.njit(cache=True)
def _all_sides(n_max):
    """int8[C(n_max+6, 6), 6]: the side of every index."""
    total = _BINOM[n_max + 6, 6]
    out = np.zeros((total, 6), np.int8)
    s = np.zeros(6, np.int64)
    for a in range(n_max + 1):
        for b in range(n_max + 1 - a):
            for c in range(n_max + 1 - a - b):
                for d in range(n_max + 1 - a - b - c):
                    for e in range(n_max + 1 - a - b - c - d):
                        for f in range(n_max + 1 - a - b - c - d - e):
                            s[0] = a
                            s[1] = b
                            s[2] = c
                            s[3] = d
                            s[4] = e
                            s[5] = f
                            i = bearoff_index(s)
                            for p in range(6):
                                out[i, p] = s[p]
    return out


def side_from_index(idx: int) -> tuple[int, ...]:
    """The six counts (points 1..6) of one-sided index ``idx`` (inverse of ``bearoff_index``)."""
    if not 0 <= idx < N_ONE_SIDED:
        raise ValueError(f"bear-off index {idx} out of range 0..{N_ONE_SIDED - 1}")
    return tuple(int(x) for x in _sides_table()[idx])


_SIDES: np.ndarray | None = None


def _sides_table() -> np.ndarray:
    global _SIDES
    if _SIDES is None:
        _SIDES = _all_sides(15)
    return _SIDES


@nb.njit(cache=True)
def in_one_sided(side) -> bool:
    """True when all of this 25-slot side's checkers are on points 1..6 (and some are left)."""
    n = 0
    for p in range(6, 25):
        if side[p] != 0:
            return False
    for p in range(6):
        n += side[p]
    return n > 0


@nb.njit(cache=True)
def in_two_sided(board) -> bool:
    """True when both sides of an int8[2, 25] board fit the two-sided database."""
    for s in range(2):
        n = 0
        for p in range(6, 25):
            if board[s, p] != 0:
                return False
        for p in range(6):
            n += board[s, p]
        if n > 6:
            return False
    return True


# ----------------------------------------------------------------------------- builds
@nb.njit(cache=True)
def _quantize(p):
    """Round a distribution to 16-bit fractions (u/65535) that sum to exactly 1, the way
    gnubg's one-sided database stores them: the largest entry absorbs the rounding."""
    total = 0
    big = 0
    for t in range(p.shape[0]):
        u = np.floor(p[t] * 65535.0 + 0.5 + 1e-6)
        p[t] = u
        total += np.int64(u)
        if u > p[big]:
            big = t
    p[big] += 65535 - total
    for t in range(p.shape[0]):
        p[t] /= 65535.0


@nb.njit(cache=True)
def _one_sided_kernel(sides, quantize):
    n_pos = sides.shape[0]
    dist = np.zeros((n_pos, MAX_ROLLS), np.float64)
    gdist = np.zeros((n_pos, MAX_ROLLS), np.float64)
    mean = np.zeros(n_pos, np.float64)
    gmean = np.zeros(n_pos, np.float64)
    dist[0, 0] = 1.0
    gdist[0, 0] = 1.0
    buf = new_move_buffers()
    out_b = buf.boards
    board = np.zeros((2, 25), np.int8)
    for idx in range(1, n_pos):
        n = 0
        for p in range(6):
            board[1, p] = sides[idx, p]
            n += sides[idx, p]
        for r in range(21):
            w = ROLL_WEIGHTS[r]
            k = generate(board, ROLLS[r, 0], ROLLS[r, 1], buf)
            best = -1
            best_m = 1e300
            gbest = -1
            gbest_m = 1e300
            for q in range(k):
                j = bearoff_index(out_b[q, 1])
                if mean[j] < best_m:
                    best_m = mean[j]
                    best = j
                if gmean[j] < gbest_m:
                    gbest_m = gmean[j]
                    gbest = j
            for t in range(MAX_ROLLS - 1):
                dist[idx, t + 1] += w * dist[best, t]
            if n == 15:
                for t in range(MAX_ROLLS - 1):
                    gdist[idx, t + 1] += w * gdist[gbest, t]
        if n < 15:
            gdist[idx, 0] = 1.0
        if quantize:
            _quantize(dist[idx])
            _quantize(gdist[idx])
        m = 0.0
        g = 0.0
        for t in range(MAX_ROLLS):
            m += t * dist[idx, t]
            g += t * gdist[idx, t]
        mean[idx] = m
        gmean[idx] = g
    return dist, gdist, mean


@nb.njit(cache=True)
def _successors(sides):
    """For each side of up to 6 checkers and each roll, the indices after each distinct play."""
    n_pos = sides.shape[0]
    cap = 64
    succ = np.zeros((n_pos, 21, cap), np.int32)
    nsucc = np.zeros((n_pos, 21), np.int32)
    buf = new_move_buffers()
    out_b = buf.boards
    board = np.zeros((2, 25), np.int8)
    for idx in range(1, n_pos):
        for p in range(6):
            board[1, p] = sides[idx, p]
        for r in range(21):
            k = generate(board, ROLLS[r, 0], ROLLS[r, 1], buf)
            if k > cap:
                raise ValueError("too many plays")
            for q in range(k):
                succ[idx, r, q] = bearoff_index(out_b[q, 1])
            nsucc[idx, r] = k
    return succ, nsucc


@nb.njit(cache=True)
def _q16(e):
    """An equity in [-1, 1] as gnubg's two-sided database stores it, u / 32767.5 - 1 with
    u a 16-bit integer rounded towards the middle (32767.5), i.e. towards equity 0."""
    x = (e + 1.0) * 32767.5
    if x < 32767.5:
        u = np.ceil(x - 1e-7)
    else:
        u = np.floor(x + 1e-7)
    return u / 32767.5 - 1.0


@nb.njit(cache=True)
def _two_sided_kernel(succ, nsucc, quantize):
    m = succ.shape[0]
    pw = np.zeros((m, m), np.float64)
    own = np.zeros((m, m), np.float64)  # no double now, player on roll owns the cube
    cen = np.zeros((m, m), np.float64)  # no double now, cube centred
    opp = np.zeros((m, m), np.float64)  # opponent owns the cube
    for s in range(2 * m - 1):
        lo = s - (m - 1)
        if lo < 0:
            lo = 0
        hi = s if s < m - 1 else m - 1
        for a in range(lo, hi + 1):
            b = s - a
            if b == 0:  # the opponent has borne off: lost (a = b = 0 never arises in play)
                pw[a, b] = 0.0
                own[a, b] = -1.0
                cen[a, b] = -1.0
                opp[a, b] = -1.0
                continue
            if a == 0:
                pw[a, b] = 1.0
                own[a, b] = 1.0
                cen[a, b] = 1.0
                opp[a, b] = 1.0
                continue
            tp = 0.0
            tow = 0.0
            tce = 0.0
            top = 0.0
            for r in range(21):
                bp = -2.0
                bo = -2.0
                bc = -2.0
                bq = -2.0
                for q in range(nsucc[a, r]):
                    j = succ[a, r, q]
                    if j == 0:
                        vp = 1.0
                        vo = 1.0
                        vc = 1.0
                        vq = 1.0
                    else:
                        # the opponent is on roll at (b, j); his cube options, then his view negated
                        dbl = 2.0 * opp[b, j]
                        if dbl > 1.0:
                            dbl = 1.0
                        vp = 1.0 - pw[b, j]
                        vo = -opp[b, j]  # I own: he cannot double
                        vc = -max(cen[b, j], dbl)
                        vq = -max(own[b, j], dbl)  # he owns: he may redouble
                    if vp > bp:
                        bp = vp
                    if vo > bo:
                        bo = vo
                    if vc > bc:
                        bc = vc
                    if vq > bq:
                        bq = vq
                w = ROLL_WEIGHTS[r]
                tp += w * bp
                tow += w * bo
                tce += w * bc
                top += w * bq
            if quantize:
                tp = (_q16(2.0 * tp - 1.0) + 1.0) / 2.0
                tow = _q16(tow)
                tce = _q16(tce)
                top = _q16(top)
            pw[a, b] = tp
            own[a, b] = tow
            cen[a, b] = tce
            opp[a, b] = top
    out = np.empty((m * m, 4), np.float64)
    for a in range(m):
        for b in range(m):
            k = a * m + b
            out[k, 0] = pw[a, b]
            out[k, 1] = own[a, b]
            out[k, 2] = cen[a, b]
            out[k, 3] = opp[a, b]
    return out


# ----------------------------------------------------------------------------- lookups
@nb.njit(cache=True)
def ts_lookup(ts, board):
    """(P(win), equity owned, centred, opponent owns) for the player on roll ``board[1]``."""
    a = bearoff_index(board[1])
    b = bearoff_index(board[0])
    return ts[a * N_TWO_SIDED_SIDE + b]


@nb.njit(cache=True)
def one_sided_probs(os_rolls, os_gammon, board):
    """Five cumulative outputs for the player on roll from the one-sided distributions
    (:func:`one_sided_probs_into` a new array)."""
    out = np.zeros(5, np.float64)
    one_sided_probs_into(os_rolls, os_gammon, board, out)
    return out


@nb.njit(cache=True)
def one_sided_probs_into(os_rolls, os_gammon, board, out) -> None:
    """The five cumulative outputs for the player on roll from the one-sided distributions,
    into ``out`` (float64[5]; nothing allocated: the rollout kernel's choices value every
    play of a bear-off with it).

    The player on roll wins if he needs no more rolls than his opponent.  Gammons need
    the loser to have all 15 checkers on the board: he is gammoned if his first checker
    would come off too late.  (Both sides must be home; no backgammons are possible.)
    """
    me = bearoff_index(board[1])
    op = bearoff_index(board[0])
    pm = os_rolls[me]
    po = os_rolls[op]
    for k in range(5):
        out[k] = 0.0
    # tail_o[i] = P(opponent needs >= i rolls)
    tail = 1.0
    win = 0.0
    for i in range(MAX_ROLLS):
        win += pm[i] * tail
        tail -= po[i]
    out[0] = win
    n_me = 0
    n_op = 0
    for p in range(6):
        n_me += board[1, p]
        n_op += board[0, p]
    if n_op == 15:
        go = os_gammon[op]
        tail = 1.0
        wg = 0.0
        for i in range(MAX_ROLLS):
            wg += pm[i] * tail  # I finish in i rolls, he has not yet taken one off in i - 1
            tail -= go[i]
        out[1] = wg
    if n_me == 15:
        gm = os_gammon[me]
        tail = 1.0  # P(my first checker needs > j rolls)
        lg = 0.0
        for j in range(MAX_ROLLS):
            tail -= gm[j]
            lg += po[j] * tail
        out[3] = lg


# ----------------------------------------------------------------------------- Python side
class BearoffTables(NamedTuple):
    """The arrays Numba kernels look positions up in (see :meth:`BearoffDatabases.tables`)."""

    os_rolls: np.ndarray  #: float64[54264, 32] one-sided rolls-to-bear-off distributions
    os_gammon: np.ndarray  #: float64[54264, 32] rolls to take the first checker off
    ts: np.ndarray  #: float64[924 * 924, 4] two-sided (P(win), equity owned, centred, opponent owns)
    os_moments: np.ndarray  #: float64[54264, 4] :func:`one_sided_moments`


def empty_tables() -> BearoffTables:
    """Tables of the right types holding nothing, for kernels told not to use them."""
    return BearoffTables(np.zeros((0, MAX_ROLLS)), np.zeros((0, MAX_ROLLS)), np.zeros((0, 4)), np.zeros((0, 4)))


def one_sided_moments(os_rolls: np.ndarray, os_gammon: np.ndarray, os_mean: np.ndarray | None = None) -> np.ndarray:
    """float64[n, 4]: per one-sided position the mean and variance of the rolls to bear off,
    then those of the rolls to take the first checker off (``os_mean``: the database's own
    mean, where it has one)."""
    k = np.arange(os_rolls.shape[1], dtype=np.float64)
    mean = os_rolls @ k if os_mean is None else os_mean
    gmean = os_gammon @ k
    var = np.maximum(os_rolls @ (k * k) - mean**2, 0.0)
    gvar = np.maximum(os_gammon @ (k * k) - gmean**2, 0.0)
    return np.ascontiguousarray(np.stack([mean, var, gmean, gvar], axis=1))


@dataclass(frozen=True)
class BearoffDatabases:
    """The two databases as plain arrays (pass them into Numba code as they are)."""

    os_rolls: np.ndarray  #: float64[54264, 32]
    os_gammon: np.ndarray  #: float64[54264, 32]
    os_mean: np.ndarray  #: float64[54264]
    ts: np.ndarray  #: float64[924 * 924, 4]
    build_seconds: dict
    os_moments: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))  #: float64[54264, 4] (from the distributions)

    def __post_init__(self) -> None:
        if self.os_moments.shape[0] != self.os_rolls.shape[0]:
            object.__setattr__(self, "os_moments", one_sided_moments(self.os_rolls, self.os_gammon, self.os_mean))

    def tables(self) -> BearoffTables:
        return BearoffTables(self.os_rolls, self.os_gammon, self.ts, self.os_moments)

    def one_sided(self, side) -> np.ndarray:
        """Rolls-to-bear-off distribution of a side (6 counts or 25 slots)."""
        return self.os_rolls[bearoff_index(np.asarray(side, np.int64)[:6])]

    def two_sided(self, board) -> np.ndarray:
        """(P(win), equity owned, centred, opponent owns) of an int8[2, 25] board."""
        return ts_lookup(self.ts, np.asarray(board, np.int8))


def _cache_file() -> Path:
    return cache_dir() / f"{DB_VERSION}.npz"


def build_databases() -> BearoffDatabases:
    """Build both databases from scratch (a few seconds; the first call also compiles)."""
    t0 = time.perf_counter()
    sides = _sides_table()
    os_rolls, os_gammon, os_mean = _one_sided_kernel(sides, True)
    t1 = time.perf_counter()
    succ, nsucc = _successors(sides[:N_TWO_SIDED_SIDE])
    ts = _two_sided_kernel(succ, nsucc, True)
    t2 = time.perf_counter()
    return BearoffDatabases(os_rolls, os_gammon, os_mean, ts, {"one_sided": t1 - t0, "two_sided": t2 - t1})


def save_databases(db: BearoffDatabases, path: Path | None = None) -> Path:
    """Write the databases to the cache (atomically); returns the file."""
    path = path or _cache_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    from bgtools.base.fileio import atomic_path

    with atomic_path(path, suffix=".npz") as tmp, open(tmp, "wb") as f:
        np.savez(f, os_rolls=db.os_rolls, os_gammon=db.os_gammon, os_mean=db.os_mean, ts=db.ts)
    return path


_DB: BearoffDatabases | None = None


def load_databases(*, rebuild: bool = False) -> BearoffDatabases:
    """The databases: from memory, else the cache file, else built (and cached)."""
    global _DB
    if _DB is not None and not rebuild:
        return _DB
    path = _cache_file()
    db = None
    if path.exists() and not rebuild:
        try:
            with np.load(path) as z:
                db = BearoffDatabases(z["os_rolls"], z["os_gammon"], z["os_mean"], z["ts"], {})
            if db.os_rolls.shape != (N_ONE_SIDED, MAX_ROLLS) or db.ts.shape != (N_TWO_SIDED_SIDE**2, 4):
                db = None
        except (OSError, ValueError, KeyError):
            db = None  # unreadable cache: rebuild it
    if db is None:
        db = build_databases()
        try:
            save_databases(db, path)
        except OSError:
            pass  # a read-only cache folder only costs a rebuild next time
    _DB = db
    return db
