"""Incremental evaluation of sibling positions: the plays of one roll, the replies to one play.

All the plays of a roll lead to positions that differ from the position before the roll in a
few inputs (about 12 of the 224 of a contact net: the raw units of the few points a play
touches and the hand-made features that move), where a full first layer reads every non-zero
input (about 42).  :func:`set_base` encodes a base position once and keeps its inputs and its
hidden pre-activations in an :class:`IncBase`; :func:`net_probs_inc` then encodes a sibling
and updates the base's pre-activations by the rows of ``W1`` whose inputs changed, before
the hidden and output layers as usual.  A sibling of another net class (a play that breaks
contact) gets the full pass.  The result equals :func:`bgtools.engine.nets.nn.net_probs` up to
float32 rounding of the sum's order (tests/test_incremental.py: every oracle position, every
roll, every play).
"""

from __future__ import annotations

from typing import NamedTuple

import numba as nb
import numpy as np

from typing import Any

from bgtools.engine.nets.nn import (NET_MAX_INPUTS, add_rows, encode_net, extra_scratch, first_layer, hidden_out,
                                    make_consistent, new_eval_buffers)

__all__ = ["IncBase", "new_inc_base", "set_base", "delta_layer", "net_probs_inc", "evaluate_siblings"]


class IncBase(NamedTuple):
    """The base of a set of siblings: its inputs, hidden pre-activations and net class."""

    x: np.ndarray  #: float32[NET_MAX_INPUTS]
    h: np.ndarray  #: float32[largest hidden layer] (pre-activations, before the sigmoid)
    cls: np.ndarray  #: int64[1]: the base's net class, -1 while none is set
    idx: np.ndarray  #: int32[NET_MAX_INPUTS] scratch: the inputs that differ (see :func:`delta_layer`)
    mb: Any  #: scratch of a wide net's extra inputs (``nn.extra_scratch``)


@nb.njit(cache=True)
def new_inc_base(net):
    """A fresh :class:`IncBase` for ``net`` (callable from Python and from Numba code)."""
    nh = 1
    for c in range(3):
        nh = max(nh, net.W1s[c].shape[1])
    return IncBase(np.zeros(NET_MAX_INPUTS, np.float32), np.zeros(nh, np.float32), np.full(1, -1, np.int64),
                   np.zeros(NET_MAX_INPUTS, np.int32), extra_scratch(net))


@nb.njit(cache=True, inline="always")
def set_base(board, net, base) -> None:
    """Make ``board`` (``[1]`` on roll, a game not over) the base of the next siblings."""
    c = encode_net(board, net, base.x, base.mb)
    W1 = net.W1s[c]
    first_layer(base.x, W1.shape[0], W1, net.b1s[c], base.h, base.idx)
    base.cls[0] = c


@nb.njit(cache=True, fastmath={"contract"})
def delta_layer(x, bx, nin, W1, bh, h, idx) -> None:
    """``h[:hidden] = bh + (x - bx)[:nin] @ W1``: the base's pre-activations ``bh`` (inputs
    ``bx``) updated by the rows of ``W1`` whose inputs differ in ``x``, in increasing order
    (``idx``: int32 scratch; the list is made without a branch per input, as
    :func:`bgtools.engine.nets.nn.nonzero_list`; the rows are added four a pass, to the same
    bits, by :func:`bgtools.engine.nets.nn.add_rows`).  Called, not inlined, to keep its own
    fastmath flags (see :func:`bgtools.engine.nets.nn.first_layer`)."""
    nh = W1.shape[1]
    for k in range(nh):
        h[k] = bh[k]
    m = 0
    for j in range(nin):
        idx[m] = j
        m += x[j] != bx[j]
    add_rows(x, bx, W1, h, idx, m)


@nb.njit(cache=True, inline="always")
def net_probs_inc(board, net, ev, base, out) -> int:
    """As :func:`bgtools.engine.nets.nn.net_probs` (``board[1]`` on roll, a game not over), the
    first layer updated from ``base`` where the net class is the base's; return the class."""
    x = ev.x
    h = ev.h
    c = encode_net(board, net, x, ev.mb)
    W1 = net.W1s[c]
    nin = W1.shape[0]
    if c == base.cls[0]:
        delta_layer(x, base.x, nin, W1, base.h, h, ev.idx)
    else:
        first_layer(x, nin, W1, net.b1s[c], h, ev.idx)
    hidden_out(h, net.W2s[c], net.b2s[c], ev.y)
    for o in range(5):
        out[o] = ev.y[o]
    make_consistent(out)
    return c


@nb.njit(cache=True)
def evaluate_siblings(parents, boards, parent_of, net):
    """float64[n, 5]: the net's outputs for ``boards`` (``[1]`` on roll, games not over),
    each updated from its parent ``parents[parent_of[i]]`` (a board not over, laid out as
    the siblings are: the same player on roll) with :func:`net_probs_inc`; the boards of a
    parent come together (``parent_of`` does not decrease) so that each parent is encoded once."""
    n = boards.shape[0]
    res = np.empty((n, 5), np.float64)
    ev = new_eval_buffers(net)
    base = new_inc_base(net)
    out = np.empty(5, np.float64)
    cur = -1
    for i in range(n):
        if parent_of[i] != cur:
            cur = parent_of[i]
            set_base(parents[cur], net, base)
        net_probs_inc(boards[i], net, ev, base, out)
        for o in range(5):
            res[i, o] = out[o]
    return res
