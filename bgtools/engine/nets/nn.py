"""Our own neural evaluator: one small sigmoid net per position class.

Each net maps the inputs of :mod:`bgtools.engine.nets.features` through one sigmoid hidden layer to
five sigmoid outputs for the player on roll, before he rolls: P(win), P(win gammon),
P(win backgammon), P(lose gammon), P(lose backgammon), cumulative as in gnubg.
Finished games are scored exactly.

The weights are plain float32 arrays, grouped per layer in tuples indexed by net class
(``NET_CONTACT``, ``NET_CRASHED``, ``NET_RACE``) and bundled as one :class:`Net`, so that
Numba code elsewhere (self-play, rollouts) can call :func:`eval_board` / :func:`net_probs`
directly with the net and an :class:`EvalBuffers` of scratch arrays.

Importing this module compiles nothing; the kernels compile (or load from cache) on first use.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal, NamedTuple

import numba as nb
import numpy as np

from numba.extending import overload

from bgtools.core.movegen import new_move_buffers
from bgtools.engine.nets.contactinputs import N_EXTRA_SIDE, encode_extra
from bgtools.engine.nets.features import CLASS_OVER, MAX_INPUTS, N_INPUTS, NET_RACE, encode
from bgtools.engine.nets.raceinputs import N_RACE_EXTRA_SIDE, encode_race_extra

__all__ = [
    "Weights",
    "Net",
    "WideNet",
    "N_EXTRA",
    "N_RACE_EXTRA",
    "NET_MAX_INPUTS",
    "encode_net",
    "as_net",
    "reads_contact_inputs",
    "reads_race_inputs",
    "add_race_inputs",
    "EvalBuffers",
    "new_eval_buffers",
    "NeuralEvaluator",
    "init_weights",
    "add_contact_inputs",
    "nn_forward",
    "forward_row",
    "first_layer",
    "add_rows",
    "hidden_out",
    "make_consistent",
    "net_probs",
    "eval_board",
    "evaluate_net",
    "evaluate_boards_kernel",
    "equity_from_probs",
    "load_default_network",
    "SHIPPED_WEIGHTS",
    "NetUse",
]

#: The shipped nets (in ``bgtools/data/``) by use.  ``analysis``: the stronger net, whose contact and crashed nets
#: read the contact inputs (:class:`WideNet`); eval, hint, annotate, the library and training's defaults value with
#: it.  ``rollout``: the plain net rollouts play, 2.4 x faster a play and a little weaker (docs/training.md,
#: "Shipping").
SHIPPED_WEIGHTS = {"analysis": "nn_analysis.npz", "rollout": "nn_weights.npz"}
NetUse = Literal["analysis", "rollout"]
NET_NAMES = ("contact", "crashed", "race")


class Net(NamedTuple):
    """The weights as Numba kernels take them: per layer a tuple indexed by net class."""

    W1s: tuple  #: float32[inputs, hidden] per class
    b1s: tuple  #: float32[hidden] per class
    W2s: tuple  #: float32[hidden, 5] per class (column-major from :class:`Weights`)
    b2s: tuple  #: float32[5] per class


#: inputs of :mod:`bgtools.engine.nets.contactinputs` that a :class:`WideNet`'s contact and
#: crashed layers read after the encoder's (issue 37)
N_EXTRA = 2 * N_EXTRA_SIDE
#: inputs of :mod:`bgtools.engine.nets.raceinputs` (exactly-k-off units and the crossover count) that a
#: race layer may read after the encoder's (issue 37, item 2): read when its first layer has the rows
N_RACE_EXTRA = 2 * N_RACE_EXTRA_SIDE
#: the most inputs a net reads (a wide contact net's): the size of the input buffers
NET_MAX_INPUTS = MAX_INPUTS + N_EXTRA
assert N_INPUTS[NET_RACE] + N_RACE_EXTRA <= NET_MAX_INPUTS


class WideNet(NamedTuple):
    """A :class:`Net` whose contact and crashed layers read :data:`N_EXTRA` more inputs
    (``contactinputs.encode_extra``) after the encoder's.  A type of its own, so that the
    kernels compiled for a :class:`Net` (the shipped kind) hold no code for those inputs."""

    W1s: tuple  #: float32[inputs, hidden] per class
    b1s: tuple  #: float32[hidden] per class
    W2s: tuple  #: float32[hidden, 5] per class (column-major from :class:`Weights`)
    b2s: tuple  #: float32[5] per class


class EvalBuffers(NamedTuple):
    """Scratch of one forward pass; after :func:`eval_board` it holds the inputs, hidden
    activations and raw outputs of the last board evaluated by a net."""

    x: np.ndarray  #: float32[NET_MAX_INPUTS]
    h: np.ndarray  #: float32[largest hidden layer]
    y: np.ndarray  #: float32[5]
    idx: np.ndarray  #: int32[NET_MAX_INPUTS] the first layer's list of non-zero inputs
    mb: Any  #: move buffers for a :class:`WideNet`'s hit inputs; None for a :class:`Net`


def reads_contact_inputs(W1s) -> bool:
    """Whether first layers ``W1s`` (contact, crashed, race) read the :data:`N_EXTRA` inputs
    after the encoder's in the contact and crashed nets; ValueError for any other size (the
    race layer reads :data:`N_RACE_EXTRA` more, or not, either way)."""
    rows = tuple(int(w.shape[0]) for w in W1s)
    if rows[2] not in (N_INPUTS[2], N_INPUTS[2] + N_RACE_EXTRA):
        raise ValueError(f"a race layer of {rows[2]} inputs: a race net reads {N_INPUTS[2]}, or "
                         f"{N_RACE_EXTRA} more")
    if rows[:2] == tuple(N_INPUTS[:2]):
        return False
    if rows[:2] == (N_INPUTS[0] + N_EXTRA, N_INPUTS[1] + N_EXTRA):
        return True
    raise ValueError(f"first layers of {rows} inputs: a net reads {tuple(N_INPUTS)}, or "
                     f"{N_EXTRA} more in its contact and crashed layers")


def reads_race_inputs(W1s) -> bool:
    """Whether the race layer of first layers ``W1s`` reads the :data:`N_RACE_EXTRA` inputs
    of :mod:`bgtools.engine.nets.raceinputs` after the encoder's (ValueError for a size no net reads)."""
    reads_contact_inputs(W1s)
    return int(W1s[NET_RACE].shape[0]) == N_INPUTS[NET_RACE] + N_RACE_EXTRA


@dataclass(frozen=True)
class Weights:
    """Per-class layers: ``W1[c]`` float32[inputs, hidden], ``b1[c]`` [hidden],
    ``W2[c]`` [hidden, 5] (stored column-major), ``b2[c]`` [5]; ``meta`` holds name,
    version, training figures."""

    W1: tuple[np.ndarray, ...]
    b1: tuple[np.ndarray, ...]
    W2: tuple[np.ndarray, ...]
    b2: tuple[np.ndarray, ...]
    meta: dict = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        # W2 column-major (a copy only where it is not): each output's weights contiguous for
        # hidden_out; an array already so is kept, so training in place still trains these
        object.__setattr__(self, "W2", tuple(np.asfortranarray(a) for a in self.W2))

    @property
    def hidden(self) -> tuple[int, ...]:
        return tuple(int(w.shape[1]) for w in self.W1)

    @property
    def wide(self) -> bool:
        """Whether the contact and crashed layers read the :data:`N_EXTRA` inputs after the
        encoder's (a :class:`WideNet`); ValueError for first layers of any other size."""
        return reads_contact_inputs(self.W1)

    @property
    def race_inputs(self) -> bool:
        """Whether the race layer reads the :data:`N_RACE_EXTRA` inputs after the encoder's."""
        return reads_race_inputs(self.W1)

    def arrays(self) -> Net | WideNet:
        """The layers as a :class:`Net`, or a :class:`WideNet` when :attr:`wide` (a tuple:
        ``W1, b1, W2, b2 = w.arrays()`` works)."""
        return (WideNet if self.wide else Net)(self.W1, self.b1, self.W2, self.b2)

    def copy(self) -> "Weights":
        W1, b1, W2, b2 = (tuple(a.copy(order="K") for a in t) for t in self.arrays())
        return Weights(W1, b1, W2, b2, meta=dict(self.meta))

    def save(self, path: str | Path, **extra: np.ndarray) -> None:
        """Write an ``.npz`` (float32 layers, JSON ``meta``, plus any ``extra`` arrays)."""
        d: dict[str, np.ndarray] = {}
        for c in range(3):
            d[f"W1_{c}"], d[f"b1_{c}"] = self.W1[c], self.b1[c]
            d[f"W2_{c}"], d[f"b2_{c}"] = self.W2[c], self.b2[c]
        d["meta"] = np.array(json.dumps(self.meta))
        d.update(extra)
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(tmp, **d)  # type: ignore[arg-type]  # numpy's stub types **kwds loosely
        tmp.replace(path)

    @classmethod
    def load(cls, path_or_file) -> "Weights":
        with np.load(path_or_file, allow_pickle=False) as z:
            W1 = tuple(np.ascontiguousarray(z[f"W1_{c}"], np.float32) for c in range(3))
            b1 = tuple(np.ascontiguousarray(z[f"b1_{c}"], np.float32) for c in range(3))
            W2 = tuple(np.ascontiguousarray(z[f"W2_{c}"], np.float32) for c in range(3))
            b2 = tuple(np.ascontiguousarray(z[f"b2_{c}"], np.float32) for c in range(3))
            meta = json.loads(str(z["meta"])) if "meta" in z else {}
        return cls(W1, b1, W2, b2, meta)


def init_weights(hidden: tuple[int, int, int] = (128, 64, 64), seed: int = 0) -> Weights:
    """Small random weights (seeded) for nets with ``hidden`` units (contact, crashed, race)."""
    rng = np.random.default_rng(seed)
    W1, b1, W2, b2 = [], [], [], []
    for c in range(3):
        nin, nh = N_INPUTS[c], hidden[c]
        W1.append(rng.normal(0.0, 1.0 / np.sqrt(nin), (nin, nh)).astype(np.float32))
        b1.append(np.zeros(nh, np.float32))
        W2.append(rng.normal(0.0, 1.0 / np.sqrt(nh), (nh, 5)).astype(np.float32))
        b2.append(np.array([0.0, -2.0, -4.0, -2.0, -4.0], np.float32))
    return Weights(tuple(W1), tuple(b1), tuple(W2), tuple(b2), {"hidden": list(hidden)})


def add_contact_inputs(w: Weights) -> Weights:
    """``w`` with its contact and crashed layers reading the :data:`N_EXTRA` inputs of
    :mod:`bgtools.engine.nets.contactinputs` after the encoder's, their weights zero, so the
    net gives exactly ``w``'s outputs until it is trained (``w`` itself when it reads them)."""
    if w.wide:
        return w
    W1 = list(w.W1)
    for c in range(2):
        W1[c] = np.ascontiguousarray(np.concatenate([W1[c], np.zeros((N_EXTRA, W1[c].shape[1]), np.float32)]))
    return Weights(tuple(W1), w.b1, w.W2, w.b2, dict(w.meta, contact_inputs=True))


def add_race_inputs(w: Weights) -> Weights:
    """``w`` with its race layer reading the :data:`N_RACE_EXTRA` inputs of
    :mod:`bgtools.engine.nets.raceinputs` after the encoder's, their weights zero, so the net
    gives exactly ``w``'s outputs until it is trained (``w`` itself when it reads them)."""
    if w.race_inputs:
        return w
    W1 = list(w.W1)
    W1[NET_RACE] = np.ascontiguousarray(np.concatenate(
        [W1[NET_RACE], np.zeros((N_RACE_EXTRA, W1[NET_RACE].shape[1]), np.float32)]))
    return Weights(tuple(W1), w.b1, w.W2, w.b2, dict(w.meta, race_inputs=True))


def widen_weights(w: Weights, hidden: tuple[int, int, int], seed: int = 0) -> Weights:
    """``w`` with more hidden units per class: its own units kept, the new ones with small
    seeded input weights and zero output weights, so the wider net gives exactly ``w``'s
    outputs until it is trained.  A class may keep its width; none may shrink."""
    rng = np.random.default_rng(seed)
    W1, b1, W2 = [], [], []
    for c in range(3):
        nin, old = w.W1[c].shape
        add = hidden[c] - old
        if add < 0:
            raise ValueError(f"class {c}: {hidden[c]} hidden units, fewer than the net's {old}")
        W1.append(np.ascontiguousarray(np.concatenate(
            [w.W1[c], rng.normal(0.0, 0.5 / np.sqrt(nin), (nin, add)).astype(np.float32)], 1)))
        b1.append(np.concatenate([w.b1[c], np.zeros(add, np.float32)]))
        W2.append(np.ascontiguousarray(np.concatenate([w.W2[c], np.zeros((add, 5), np.float32)], 0)))
    return Weights(tuple(W1), tuple(b1), tuple(W2), tuple(w.b2), dict(w.meta, hidden=list(hidden)))


# -- kernels ------------------------------------------------------------------------------
# The logistic function as a rational function of v, clamped to [-16, 16]:
#     sigmoid(v) ~ 1/2 + v P(v^2) / Q(v^2),  P of degree 3, Q of degree 4,
# the coefficients fitted here (a weighted least-squares fit of the odd part, reweighted
# towards its largest errors; all positive, so float32 Horner steps do not cancel).  Its
# error is below 3e-7 everywhere (tests/test_forward_fast.py), under the 1.1e-7 tail lost
# by the clamp plus float32 rounding.  Unlike a table it needs no gather: only multiplies,
# adds, one division and two clamps, so a loop over the hidden units vectorises (a libm
# exp() call per unit was most of a forward pass's cost; a table lookup came next).
_SIG_CLAMP = 16.0
_SIG_P = (0.24999984068960213, 0.008071063346286489, 4.592017640096104e-05, 4.4183179825692614e-08)
_SIG_Q = (1.0, 0.11561700083042671, 0.0014852556002242308, 3.7037086419604165e-06, 9.468955603470051e-10)
_P0, _P1, _P2, _P3 = (np.float32(c) for c in _SIG_P)
_Q1, _Q2, _Q3, _Q4 = (np.float32(c) for c in _SIG_Q[1:])


@nb.njit(cache=True, inline="always", fastmath=True, error_model="numpy")
def sigmoid(v):
    """1 / (1 + exp(-v)) for a float32, to 3e-7 (a rational function, branch-free)."""
    x = min(max(v, np.float32(-_SIG_CLAMP)), np.float32(_SIG_CLAMP))
    x2 = x * x
    p = ((_P3 * x2 + _P2) * x2 + _P1) * x2 + _P0
    q = (((_Q4 * x2 + _Q3) * x2 + _Q2) * x2 + _Q1) * x2 + np.float32(1.0)
    return max(np.float32(0.5) + x * p / q, np.float32(0.0))  # (rounding: never below 0)


# first_layer and hidden_out are called, not inlined: Numba's inline="always" compiles the
# inlined code with the caller's flags, and the chooser's kernels have no fastmath, without
# which the dot products below do not vectorise (the call costs a few nanoseconds); add_rows
# is inlined into first_layer and delta_layer, which carry its flags
@nb.njit(cache=True, inline="always")
def nonzero_list(x, nin, idx) -> int:
    """The indices ``j < nin`` with ``x[j] != 0`` into ``idx``, in increasing order; returns
    how many.  Branch-free: a test per input whose outcome the processor cannot predict
    (about half of a board's inputs are zero, in no pattern) cost more than the rows it skipped."""
    m = 0
    for j in range(nin):
        idx[m] = j
        m += x[j] != 0.0
    return m


@nb.njit(cache=True, fastmath={"contract"})
def first_layer(x, nin, W1, b1, h, idx) -> None:
    """The hidden pre-activations ``h[:hidden] = b1 + x[:nin] @ W1`` (zero inputs skipped;
    ``idx``: int32 scratch of ``nin`` or more).  The rows are added in increasing order, so
    the sums are the same as a plain loop's, to the bit: four rows a pass over ``h``
    (:func:`add_rows`), each added in turn, so ``h`` is loaded and stored a quarter as often
    (the weights' rows are read from the level-2 cache either way)."""
    nh = W1.shape[1]
    for k in range(nh):
        h[k] = b1[k]
    m = nonzero_list(x, nin, idx)
    add_rows(x, None, W1, h, idx, m)


@nb.njit(cache=True, inline="always", fastmath={"contract"})
def add_rows(x, bx, W1, h, idx, m) -> None:
    """``h += (x - bx)[j] * W1[j]`` for the rows ``j = idx[:m]`` in that order (``bx`` None:
    ``x[j]``), four rows a pass over ``h``: each sum is ``((h + a) + b) + ...`` as a row at a time
    makes it (only multiply-adds are fused: no reassociation), so the result is the same to
    the bit as adding one row a pass, in about 0.8 of the time."""
    nh = W1.shape[1]
    t = 0
    while t + 4 <= m:
        j0, j1, j2, j3 = idx[t], idx[t + 1], idx[t + 2], idx[t + 3]
        if bx is None:
            v0, v1, v2, v3 = x[j0], x[j1], x[j2], x[j3]
        else:
            v0, v1, v2, v3 = x[j0] - bx[j0], x[j1] - bx[j1], x[j2] - bx[j2], x[j3] - bx[j3]
        for k in range(nh):
            h[k] = (((h[k] + v0 * W1[j0, k]) + v1 * W1[j1, k]) + v2 * W1[j2, k]) + v3 * W1[j3, k]
        t += 4
    while t < m:
        j = idx[t]
        v = x[j] if bx is None else x[j] - bx[j]
        for k in range(nh):
            h[k] += v * W1[j, k]
        t += 1


@nb.njit(cache=True, fastmath=True, error_model="numpy")
def hidden_out(h, W2, b2, y) -> None:
    """From the pre-activations in ``h``: the hidden sigmoids (into ``h``) and the five raw
    sigmoid outputs into ``y``.  ``W2`` [hidden, 5] of any layout; the :class:`Weights`
    keep it column-major, which makes the five dot products contiguous (vectorised)."""
    nh = W2.shape[0]
    for k in range(nh):
        h[k] = sigmoid(h[k])
    for o in range(5):
        a = np.float32(b2[o])
        for k in range(nh):
            a += h[k] * W2[k, o]
        y[o] = sigmoid(a)


@nb.njit(cache=True, fastmath=True)
def forward_row(x, nin, W1, b1, W2, b2, h, y, idx) -> None:
    """One row: hidden activations into ``h``, the five raw sigmoid outputs into ``y``
    (``idx``: :func:`first_layer`'s scratch)."""
    first_layer(x, nin, W1, b1, h, idx)
    hidden_out(h, W2, b2, y)


@nb.njit(cache=True, inline="always")
def make_consistent(y) -> None:
    """Clip cumulative outputs: P(win bg) <= P(win g) <= P(win); likewise for losses."""
    w = min(max(y[0], 0.0), 1.0)
    y[0] = w
    y[1] = min(y[1], w)
    y[2] = min(y[2], y[1])
    y[3] = min(y[3], 1.0 - w)
    y[4] = min(y[4], y[3])


@nb.njit(cache=True)
def nn_forward(X, W1, b1, W2, b2):
    """Plain batched forward pass of one net: float32[n, inputs] -> float64[n, 5] (raw)."""
    n = X.shape[0]
    out = np.empty((n, 5), np.float64)
    h = np.empty(W1.shape[1], np.float32)
    y = np.empty(5, np.float32)
    idx = np.empty(W1.shape[0], np.int32)
    for i in range(n):
        forward_row(X[i], W1.shape[0], W1, b1, W2, b2, h, y, idx)
        for o in range(5):
            out[i, o] = y[o]
    return out


@nb.njit(cache=True)
def game_over_probs(board, out) -> bool:
    """Exact outputs when a side has borne off all its checkers (then return True)."""
    me = 0
    opp = 0
    for i in range(25):
        me += board[1, i]
        opp += board[0, i]
    if me > 0 and opp > 0:
        return False
    # the loser is the side with checkers left
    loser = 0 if me == 0 else 1
    left = opp if me == 0 else me
    g = 1.0 if left == 15 else 0.0
    bg = 0.0
    if g > 0.0:
        for i in range(18, 25):
            if board[loser, i] > 0:
                bg = 1.0
    for o in range(5):
        out[o] = 0.0
    if me == 0:
        out[0], out[1], out[2] = 1.0, g, bg
    else:
        out[3], out[4] = g, bg
    return True


def as_net(arrays) -> Net | WideNet:
    """``arrays`` (a :class:`Net`, a :class:`WideNet` or the four tuples of layers) as the
    kernels' bundle, a :class:`WideNet` when its first layers read the extra inputs."""
    if isinstance(arrays, (Net, WideNet)):
        return arrays
    W1s, b1s, W2s, b2s = (tuple(a) for a in arrays)
    return (WideNet if reads_contact_inputs(W1s) else Net)(W1s, b1s, W2s, b2s)


def _is_wide(net_type) -> bool:
    return getattr(net_type, "instance_class", None) is WideNet


def extra_scratch(net):
    """Scratch for ``net``'s extra inputs: move buffers for a :class:`WideNet`, None for a
    :class:`Net` (kernels only; chosen by the net's type when Numba compiles the caller)."""
    raise NotImplementedError("extra_scratch is for Numba kernels")


@overload(extra_scratch)
def _extra_scratch(net):
    if _is_wide(net):
        return lambda net: new_move_buffers()
    return lambda net: None


@nb.njit(cache=True)
def encode_net(board, net, x, mb) -> int:
    """Fill ``x`` with the inputs ``net`` reads for ``board``: the encoder's, and with ``mb``
    (the :func:`extra_scratch` of a :class:`WideNet`) the :data:`N_EXTRA` more after a
    contact or crashed net's, and :data:`N_RACE_EXTRA` more after a race net's whose first
    layer has their rows; return the net class.  With ``mb`` None (a :class:`Net`'s)
    Numba drops the contact part when it compiles, so the shipped kind's kernels hold no code
    for it."""
    c = encode(board, x)
    if mb is not None:
        if c != NET_RACE:
            encode_extra(board, x[N_INPUTS[c]:], mb)
    if c == NET_RACE and net.W1s[NET_RACE].shape[0] > N_INPUTS[NET_RACE]:
        encode_race_extra(board, x[N_INPUTS[NET_RACE]:])
    return c


@nb.njit(cache=True)
def new_eval_buffers(net):
    """Fresh :class:`EvalBuffers` for ``net`` (callable from Python and from Numba code)."""
    nh = 1
    for c in range(3):
        nh = max(nh, net.W1s[c].shape[1])
    return EvalBuffers(np.zeros(NET_MAX_INPUTS, np.float32), np.empty(nh, np.float32), np.empty(5, np.float32),
                       np.zeros(NET_MAX_INPUTS, np.int32), extra_scratch(net))


# ``inline="always"`` on the per-board helpers: a kernel that takes bundles (Net,
# EvalBuffers) pays for unpacking them on every call, which costs ~10% in the hot loops
@nb.njit(cache=True, inline="always")
def net_probs(board, net, ev, out) -> int:
    """The net's outputs for ``board[1]`` on roll (a game not over) into ``out``
    (float64[5]), clipped to consistent cumulative probabilities; return the net class."""
    c = encode_net(board, net, ev.x, ev.mb)
    W1 = net.W1s[c]
    forward_row(ev.x, W1.shape[0], W1, net.b1s[c], net.W2s[c], net.b2s[c], ev.h, ev.y, ev.idx)
    for o in range(5):
        out[o] = ev.y[o]
    make_consistent(out)
    return c


@nb.njit(cache=True, inline="always")
def eval_board(board, net, ev, out) -> int:
    """Outputs for ``board[1]`` on roll into ``out`` (float64[5]), finished games scored
    exactly; return the net class (``CLASS_OVER`` for a finished game)."""
    if game_over_probs(board, out):
        return CLASS_OVER
    return net_probs(board, net, ev, out)


@nb.njit(cache=True)
def evaluate_net(boards, net):
    """float64[n, 5] outputs for each board's player on roll (``[1]``), before his roll."""
    n = boards.shape[0]
    res = np.empty((n, 5), np.float64)
    ev = new_eval_buffers(net)
    out = np.empty(5, np.float64)
    for i in range(n):
        eval_board(boards[i], net, ev, out)
        for o in range(5):
            res[i, o] = out[o]
    return res


def evaluate_boards_kernel(boards, W1s, b1s, W2s, b2s):
    """:func:`evaluate_net` with the layers given one by one (plain-array entry point; a
    :class:`WideNet` when the first layers read the extra inputs)."""
    return evaluate_net(boards, as_net((W1s, b1s, W2s, b2s)))


@nb.njit(cache=True)
def equity_from_probs(p) -> float:
    """Cubeless money equity: 2 P(w) - 1 + (P(wg) - P(lg)) + (P(wbg) - P(lbg))."""
    return 2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]


# -- the evaluator -----------------------------------------------------------------------
class NeuralEvaluator:
    """Static (0-ply) evaluator backed by our trained nets.

    ``evaluate_boards(boards)`` takes int8[n, 2, 25] boards (gnubg order, ``[1]`` on roll,
    before his roll) and returns float64[n, 5] probabilities.
    """

    def __init__(self, weights: Weights, name: str | None = None, version: str | None = None,
                 prune: Any = None, rollout_weights: Weights | None = None) -> None:
        self.weights = weights
        self.name = name or weights.meta.get("name", "bgtools-nn")
        self.version = version or weights.meta.get("version", "nn-untrained")
        #: the :class:`bgtools.engine.nets.prune.Pruning` searches use with this net, or None (typed
        #: loosely: that module builds on this one)
        self.prune = prune
        #: the net rollouts valued with this evaluator play (the analysis's rollout tier): ``weights`` unless
        #: another is given (the shipped evaluator rolls out with the faster shipped rollout net)
        self.rollout_weights = rollout_weights if rollout_weights is not None else weights

    @classmethod
    def from_file(cls, path: str | Path) -> "NeuralEvaluator":
        return cls(Weights.load(path))

    def evaluate_boards(self, boards: np.ndarray) -> np.ndarray:
        b = np.ascontiguousarray(boards, dtype=np.int8).reshape(-1, 2, 25)
        return evaluate_net(b, self.weights.arrays())

    def evaluate(self, position) -> np.ndarray:
        """float64[5] for a :class:`~bgtools.core.position.Position` (player on roll's view)."""
        return self.evaluate_boards(position.to_array()[None])[0]

    def __repr__(self) -> str:
        return f"NeuralEvaluator(name={self.name!r}, version={self.version!r}, hidden={self.weights.hidden})"


def load_default_network(use: NetUse = "analysis") -> NeuralEvaluator | None:
    """The shipped network for ``use`` (:data:`SHIPPED_WEIGHTS`), or None when it is not shipped."""
    res = resources.files("bgtools.data").joinpath(SHIPPED_WEIGHTS[use])
    if not res.is_file():
        return None
    with res.open("rb") as f:
        return NeuralEvaluator(Weights.load(f))
