"""The pruning net: a tiny net that ranks the candidate plays of a roll so that the full
net (:mod:`bgtools.engine.nets.nn`) values only the best few.

Inside a search (the replies of every roll at 1 and 2 ply, :func:`bgtools.engine.evaluation.evaluate_boards`)
most of the time goes to valuing with the full net every play of every roll, only to keep
the best one per roll.  The pruning net sees only the raw board (per side 25 slots x 4 units
in the cumulative form of :mod:`bgtools.engine.nets.features` and the checkers off, 202 inputs,
no hand-made features), has one ReLU hidden layer of a few units and one linear output,
the cubeless money equity of the player on roll.  Its hidden layer is summed from the rows of
the occupied points only, so a board costs a few hundred additions.  It is trained by our
own pipeline to give the main net's 0-ply equities (:mod:`bgtools.training.prunefit`),
never from another program's numbers.

:class:`Pruning` (the net and how many plays per roll it keeps) is what an evaluator carries
(``evaluator.prune``) for :func:`bgtools.engine.evaluation.evaluate_boards` to use.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import NamedTuple, Optional

import numba as nb
import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from bgtools.engine.nets.nn import NetUse, equity_from_probs, game_over_probs

__all__ = ["PRUNE_INPUTS", "PRUNE_SIDE", "PruneNet", "make_prune_net", "Pruning", "prune_inputs", "prune_value", "prune_values",
           "prune_children_values", "prune_base", "prune_sibling_value", "prune_play_values", "prune_keep", "prune_select",
           "PRUNE_MAX_HIDDEN", "no_pruning", "load_default_pruning", "SHIPPED_PRUNING", "DEFAULT_KEEP"]

#: inputs per side: 25 slots (24 points and the bar) x 4 units, then checkers off / 15
PRUNE_SIDE = 101
PRUNE_INPUTS = 2 * PRUNE_SIDE
#: The shipped pruning nets, by the use of the shipped net each ranks like (``nn.SHIPPED_WEIGHTS``): the analysis
#: net's ranks like gen9w, the rollout net's like gen4 (which costs gen8 no measurable depth).
SHIPPED_PRUNING = {"analysis": "prune_analysis.npz", "rollout": "prune_weights.npz"}
#: plays per roll the full net values after pruning
DEFAULT_KEEP = 6
#: the most hidden units a pruning net may have (the move chooser's scratch is this long)
PRUNE_MAX_HIDDEN = 256


class PruneNet(NamedTuple):
    """The pruning net's layers as the kernels take them (make one with :func:`make_prune_net`)."""

    W1: np.ndarray  #: float32[PRUNE_INPUTS, hidden] (C order: one input's weights contiguous)
    b1: np.ndarray  #: float32[hidden]
    w2: np.ndarray  #: float32[hidden]
    b2: np.ndarray  #: float32[1]
    #: float32[50, 16, hidden]: what slot ``s`` (side ``s // 25``, point ``s % 25``) holding ``n``
    #: checkers adds to the hidden layer (the sum of its four units' rows of ``W1``), so that a
    #: changed slot costs two rows, read without building its units
    slots: np.ndarray


def make_prune_net(W1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray) -> PruneNet:
    """A :class:`PruneNet` from its layers (float32), its slot table computed from ``W1``."""
    W1 = np.ascontiguousarray(W1, np.float32)
    n = np.arange(16, dtype=np.float64)
    units = np.stack([n >= 1, n >= 2, n >= 3, np.where(n > 3, (n - 3) * 0.5, 0.0)], axis=1)  # [16, 4]
    rows = np.stack([W1[(s // 25) * PRUNE_SIDE + 4 * (s % 25):][:4] for s in range(50)]).astype(np.float64)
    slots = np.einsum("nu,suh->snh", units, rows).astype(np.float32)
    return PruneNet(W1, np.ascontiguousarray(b1, np.float32), np.ascontiguousarray(w2, np.float32),
                    np.ascontiguousarray(b2, np.float32).reshape(1), np.ascontiguousarray(slots))


@dataclass(frozen=True)
class Pruning:
    """A pruning net and the plays per roll kept for the full net (``keep``); ``meta``:
    name, version, training figures."""

    net: PruneNet
    keep: int = DEFAULT_KEEP
    meta: dict = field(default_factory=dict, compare=False)

    @property
    def tag(self) -> str:
        """What names this pruning in a cache key: its version (or a digest of its weights) and ``keep``."""
        v = self.meta.get("version") or hashlib.sha256(b"".join(np.ascontiguousarray(a).tobytes()
                                                                for a in self.net[:4])).hexdigest()[:12]
        return f"prune={v}/{self.keep}"

    def save(self, path: str | Path) -> None:
        import json

        path = Path(path)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(tmp, W1=self.net.W1, b1=self.net.b1, w2=self.net.w2, b2=self.net.b2,
                            keep=np.array(self.keep), meta=np.array(json.dumps(self.meta)))
        tmp.replace(path)

    @classmethod
    def load(cls, path_or_file, keep: Optional[int] = None) -> "Pruning":
        import json

        with np.load(path_or_file, allow_pickle=False) as z:
            W1, b1, w2, b2 = (np.asarray(z[k], np.float32) for k in ("W1", "b1", "w2", "b2"))
            k = int(z["keep"]) if keep is None else keep
            meta = json.loads(str(z["meta"]))
        if W1.ndim != 2 or W1.shape[0] != PRUNE_INPUTS or not W1.shape[1] == b1.shape[0] == w2.shape[0] \
                or b2.shape != (1,):
            raise ValueError(f"not a pruning net: layers {[a.shape for a in (W1, b1, w2, b2)]}")
        net = make_prune_net(W1, b1, w2, b2)
        if k < 1:
            raise ValueError(f"keep must be 1 or more, not {k}")
        if net.W1.shape[1] > PRUNE_MAX_HIDDEN:
            raise ValueError(f"a pruning net has at most {PRUNE_MAX_HIDDEN} hidden units, not {net.W1.shape[1]}")
        return cls(net, k, meta)

    def with_keep(self, keep: int) -> "Pruning":
        if keep < 1:
            raise ValueError(f"keep must be 1 or more, not {keep}")
        return Pruning(self.net, keep, self.meta)


@functools.lru_cache(maxsize=1)
def no_pruning() -> PruneNet:
    """A stand-in net for kernels that take one when no pruning is wanted (one hidden unit;
    made once, never written)."""
    z = np.zeros
    return make_prune_net(z((PRUNE_INPUTS, 1), np.float32), z(1, np.float32), z(1, np.float32), z(1, np.float32))


def load_default_pruning(use: NetUse = "analysis") -> Optional[Pruning]:
    """The shipped pruning net for ``use`` (:data:`SHIPPED_PRUNING`: the one that ranks like the shipped net of that
    use), or None when it is not shipped."""
    res = resources.files("bgtools.data").joinpath(SHIPPED_PRUNING[use])
    if not res.is_file():
        return None
    with res.open("rb") as f:
        return Pruning.load(f)


@nb.njit(cache=True)
def prune_inputs(boards):
    """float32[n, PRUNE_INPUTS]: the inputs the pruning net sees (for training and tests;
    the kernels below never build them), on-roll side (``[1]``) first."""
    n = boards.shape[0]
    x = np.zeros((n, PRUNE_INPUTS), np.float32)
    for i in range(n):
        for s in range(2):
            side = boards[i, 1 - s]
            base = s * PRUNE_SIDE
            on = 0
            for p in range(25):
                c = side[p]
                on += c
                k = base + 4 * p
                if c >= 1:
                    x[i, k] = 1.0
                if c >= 2:
                    x[i, k + 1] = 1.0
                if c >= 3:
                    x[i, k + 2] = 1.0
                if c > 3:
                    x[i, k + 3] = (c - 3) * 0.5
            x[i, base + 100] = (15 - on) / 15.0
    return x


@nb.njit(cache=True, inline="always")
def _add_side(side, s0, net, h) -> None:
    """Add the slots of ``side`` (slot numbers from ``s0``: 0 on roll, 25 the other side)
    and its checkers off to ``h``."""
    T = net.slots
    nh = T.shape[2]
    on = 0
    for p in range(25):
        c = side[p]
        if c == 0:
            continue
        on += c
        for j in range(nh):
            h[j] += T[s0 + p, c, j]
    if on < 15:
        f = np.float32((15 - on) / 15.0)
        k = (s0 // 25) * PRUNE_SIDE + 100
        for j in range(nh):
            h[j] += f * net.W1[k, j]


@nb.njit(cache=True, fastmath=True)
def _relu_out(h, net) -> float:
    """The output from the hidden pre-activations ``h`` (called, not inlined, to keep its
    fastmath flags: the sum may be reordered, and vectorised)."""
    v = np.float32(0.0)
    for j in range(net.w2.shape[0]):
        v += net.w2[j] * max(h[j], np.float32(0.0))
    return float(v + net.b2[0])


@nb.njit(cache=True)
def prune_value(board, net, h, out) -> float:
    """The pruning net's equity for ``board[1]`` on roll (exact for a finished game);
    ``h`` float32[at least hidden] and ``out`` float64[5] are scratch."""
    if game_over_probs(board, out):
        return equity_from_probs(out)
    prune_base(board, net, h)
    return _relu_out(h, net)


@nb.njit(cache=True)
def prune_values(boards, net):
    """float64[n]: :func:`prune_value` of each board."""
    n = boards.shape[0]
    res = np.empty(n, np.float64)
    h = np.empty(net.b1.shape[0], np.float32)
    out = np.empty(5, np.float64)
    for i in range(n):
        res[i] = prune_value(boards[i], net, h, out)
    return res


@nb.njit(cache=True, inline="always")
def prune_base(board, net, base) -> None:
    """The hidden pre-activations of ``board`` (``[1]`` on roll) into ``base``: the base of
    :func:`prune_sibling_value` for boards laid out as it is."""
    for j in range(net.b1.shape[0]):
        base[j] = net.b1[j]
    _add_side(board[1], 0, net, base)
    _add_side(board[0], 25, net, base)


@nb.njit(cache=True, inline="always")
def _sibling_hidden(on, off, base_board, base, net, h):
    """The hidden pre-activations of a sibling of ``base_board`` (hidden layer ``base``,
    :func:`prune_base`) into ``h``: ``on``/``off`` its rows (int8[25]) of the player on
    roll and of the other.  The changed slots are found first, without branches, as a
    50-bit mask (bit ``2p``: the player on roll's slot ``p``, ``2p + 1`` the other's), then
    visited in increasing order, two rows of the slot table each.  Returns the two sides'
    checker counts (on roll, other); a count of 0 means the game is over."""
    T = net.slots
    nh = T.shape[2]
    for j in range(nh):
        h[j] = base[j]
    n1 = 0
    n0 = 0
    b1 = 0
    b0 = 0
    m = np.uint64(0)
    for p in range(25):
        a1, c1, a0, c0 = base_board[1, p], on[p], base_board[0, p], off[p]
        b1 += a1
        n1 += c1
        b0 += a0
        n0 += c0
        m |= (np.uint64(a1 != c1) | (np.uint64(a0 != c0) << np.uint64(1))) << np.uint64(2 * p)
    while m != np.uint64(0):
        q = np.int64(trailing_zeros(m))
        m &= m - np.uint64(1)
        p = q >> 1
        if q & 1:
            a, b, s0 = base_board[0, p], off[p], 25
        else:
            a, b, s0 = base_board[1, p], on[p], 0
        for j in range(nh):
            h[j] += T[s0 + p, b, j] - T[s0 + p, a, j]
    if n0 == 0 or n1 == 0:
        return n1, n0
    W1 = net.W1
    if n1 != b1:
        f = np.float32((b1 - n1) / 15.0)  # checkers off: (15 - n1) / 15 less (15 - b1) / 15
        for j in range(nh):
            h[j] += f * W1[100, j]
    if n0 != b0:
        f = np.float32((b0 - n0) / 15.0)
        for j in range(nh):
            h[j] += f * W1[PRUNE_SIDE + 100, j]
    return n1, n0


@nb.njit(cache=True, inline="always")
def prune_sibling_value(board, base_board, base, net, h, out) -> float:
    """:func:`prune_value` of ``board``, summed from the hidden layer ``base`` of
    ``base_board`` (:func:`prune_base`; the same player on roll, a game not over) by the
    slots whose counts differ (two rows of the slot table each): a play changes a few
    points, so this costs a fraction of a whole board.  Equal to :func:`prune_value` to
    float32 rounding."""
    n1, n0 = _sibling_hidden(board[1], board[0], base_board, base, net, h)
    if n0 == 0 or n1 == 0:  # the game is over: its exact value
        game_over_probs(board, out)
        return equity_from_probs(out)
    return _relu_out(h, net)


@nb.njit(cache=True, error_model="numpy")
def prune_play_values(base_board, plays, n, net, base, h, sw, out, values) -> None:
    """:func:`prune_sibling_value` of each of ``plays[:n]`` (boards with the mover as ``[1]``,
    as the move generator writes them; each is read turned round, the opponent on roll, as
    ``base_board`` is laid out) into ``values[:n]``, without turning them round.  One call
    for a roll's plays (the chooser's kernels are compiled without fastmath; this one keeps
    its own flags).  ``sw`` int8[2, 25] and ``out`` float64[5] are scratch."""
    for i in range(n):
        n1, n0 = _sibling_hidden(plays[i, 0], plays[i, 1], base_board, base, net, h)
        if n0 == 0 or n1 == 0:
            for p in range(25):
                sw[0, p] = plays[i, 1, p]
                sw[1, p] = plays[i, 0, p]
            game_over_probs(sw, out)
            values[i] = equity_from_probs(out)
        else:
            values[i] = _relu_out(h, net)


@nb.njit(cache=True)
def prune_children_values(boards, children, offsets, net):
    """:func:`prune_value` of ``children`` as :func:`bgtools.engine.children.expand_children`
    lays them out (the plays of roll ``r`` of board ``i`` are ``offsets[i*21+r]:offsets[i*21+r+1]``),
    each by :func:`prune_sibling_value` from its board turned round (as the children are)."""
    n = boards.shape[0]
    res = np.empty(children.shape[0], np.float64)
    nh = net.b1.shape[0]
    base = np.empty(nh, np.float32)
    h = np.empty(nh, np.float32)
    out = np.empty(5, np.float64)
    turned = np.empty((2, 25), np.int8)
    for i in range(n):
        lo, hi = offsets[i * 21], offsets[i * 21 + 21]
        if hi == lo:
            continue
        for p in range(25):
            turned[0, p] = boards[i, 1, p]
            turned[1, p] = boards[i, 0, p]
        prune_base(turned, net, base)
        for c in range(lo, hi):
            res[c] = prune_sibling_value(children[c], turned, base, net, h, out)
    return res


@nb.njit(cache=True, inline="always")
def prune_keep(values, n, keep, top) -> int:
    """The ``keep`` of ``values[:n]`` that are lowest (ties to the earlier) into ``top``, in
    increasing index order; all ``n`` when there are no more.  Returns how many."""
    if n <= keep:
        for i in range(n):
            top[i] = i
        return n
    t = 0
    for c in range(n):
        v = values[c]
        if t == keep and v >= values[top[t - 1]]:
            continue
        q = t if t < keep else keep - 1
        while q > 0 and values[top[q - 1]] > v:
            top[q] = top[q - 1]
            q -= 1
        top[q] = c
        if t < keep:
            t += 1
    for a in range(1, t):  # into increasing order (a few entries: no call to a general sort)
        ta = top[a]
        q = a
        while q > 0 and top[q - 1] > ta:
            top[q] = top[q - 1]
            q -= 1
        top[q] = ta
    return t


@nb.njit(cache=True)
def prune_select(values, offsets, keep):
    """Per group ``offsets[g]:offsets[g + 1]`` of candidates (the plays of one roll, the
    opponent on roll after each), the ``keep`` with the lowest ``values`` (the best plays
    for the mover; ties to the earlier), in their original order.  Returns (indices
    int64[m], group offsets int64[groups + 1] into them)."""
    g = offsets.shape[0] - 1
    sel = np.empty(offsets[g] - offsets[0], np.int64)
    sel_off = np.zeros(g + 1, np.int64)
    top = np.empty(max(1, int((offsets[1:] - offsets[:-1]).max())) if g else 1, np.int64)
    m = 0
    for j in range(g):
        lo = offsets[j]
        t = prune_keep(values[lo:offsets[j + 1]], offsets[j + 1] - lo, keep, top)
        for q in range(t):
            sel[m] = lo + top[q]
            m += 1
        sel_off[j + 1] = m
    return sel[:m], sel_off
