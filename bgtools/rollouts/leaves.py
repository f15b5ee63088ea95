"""The rollout kernel's callees, compiled apart so that two processes share a first compile.

Numba compiles a kernel's callees when it types the kernel, one after the other, in the
process that compiles it; each goes to the on-disk cache, and a process that needs one
later loads it from there.  :func:`warm_callees` compiles (or loads) one of two halves of
those callees by calling them as the kernel does, with arguments of the same types: a
helper process takes :data:`HELPER`, the process that then compiles the kernel takes
:data:`PARENT` meanwhile, and the kernel finds every callee ready (about two fifths of its
first compile, on a 2-core machine nearly half of that saved).  A callee typed otherwise
than the kernel types it is compiled once more by the kernel: slower, never different.
"""

from __future__ import annotations

from typing import Optional

import numpy as np
from numba.core import types as nbt

from bgtools.core.movegen import generate_boards, is_contact, new_move_buffers
from bgtools.core.position import Position
from bgtools.engine import bearoff as _bo
from bgtools.engine.farrace import FAR_ROLLS, far_probs_with, far_race_roll, far_side_into
from bgtools.engine.chooser import Chooser, chooser_buffers_with, make_chooser
from bgtools.engine.cubeful.cube import CubeArgs, cube_values, cube_x, cubeful_value, flip_owner
from bgtools.engine.cubeful.met import METS, load_met, mwc_after
from bgtools.engine.evalcache import new_choice_cache, new_eval_cache
from bgtools.engine.nets.incremental import delta_layer
from bgtools.engine.nets.nn import NET_MAX_INPUTS, encode_net, forward_row, game_over_probs
from bgtools.engine.nets.prune import PRUNE_MAX_HIDDEN, prune_play_values
from bgtools.rollouts.dice import new_roll_memo, roll_memo
from bgtools.rollouts.settings import weights_or_default

__all__ = ["warm_callees", "HELPER", "PARENT"]

#: the half a helper process compiles: the cube's decisions, the search's buffers and the dice
HELPER = "cube, buffers and dice"
#: the half the kernel's own process compiles: move generation, the nets, pruning, bear-off
PARENT = "moves and nets"


def _board() -> np.ndarray:
    """An int8[2, 25] board laid out as the kernel's own (a fresh C-ordered array)."""
    return np.ascontiguousarray(Position.initial().to_array(), np.int8)


def _cube_and_buffers(ch: Chooser) -> None:
    met = load_met(next(iter(METS)))
    p = np.array([0.5, 0.15, 0.01, 0.12, 0.01])
    x = cube_x(_board())
    args = CubeArgs(True, 1, 1, 1, 0, False, False, met.pre, met.post)  # as the kernel's _seen_by types it
    cube_values(p, args, x, np.zeros(4))
    cubeful_value(p, args, x)
    flip_owner(1)  # the kernel's own turn of the owner code to the other side
    chooser_buffers_with(ch.net, new_eval_cache(0), new_choice_cache(0))
    roll_memo(1, 0, 0, new_roll_memo())
    # the kernel types its first call with the turn still the literal 0, and compiles that too
    roll_memo.compile((nbt.int64, nbt.int64, nbt.IntegerLiteral(0), nbt.Array(nbt.int64, 2, "C")))


def _moves_and_nets(ch: Chooser) -> None:
    b = _board()
    moves = new_move_buffers()
    generate_boards(b, 3, 1, moves)
    net = ch.net
    x = np.zeros(NET_MAX_INPUTS, np.float32)
    h = np.zeros(max(w.shape[1] for w in net.W1s), np.float32)
    y = np.zeros(5, np.float32)
    c = encode_net(b, net, x, None)  # (the shipped kind of net: no extra inputs)
    W1 = net.W1s[c]
    idx = np.zeros(NET_MAX_INPUTS, np.int32)
    forward_row(x, W1.shape[0], W1, net.b1s[c], net.W2s[c], net.b2s[c], h, y, idx)
    delta_layer(x, x.copy(), W1.shape[0], W1, h.copy(), h, idx)
    p = np.zeros(5)
    game_over_probs(b, p)
    is_contact(b)
    sw = np.zeros((2, 25), np.int8)
    pv = np.zeros(moves.boards.shape[0])
    ph = np.zeros(PRUNE_MAX_HIDDEN, np.float32)
    prune_play_values(b, moves.boards, 0, ch.pnet, ph.copy(), ph, sw, p, pv)
    tables = ch.tables
    _bo.in_two_sided(b)
    _bo.in_one_sided(b[0])
    if tables.ts.shape[0] > 0:
        _bo.ts_lookup(tables.ts, b)
        _bo.one_sided_probs_into(tables.os_rolls, tables.os_gammon, b, np.zeros(5))
        far_race_roll(b, moves.boards, 0)
        dist = np.zeros((2, FAR_ROLLS))
        far_side_into(tables, b[0], dist)
        far_probs_with(tables, b, dist, np.zeros(5))
    met = load_met(next(iter(METS)))
    mwc_after(met.pre, met.post, 1, 1, 1)


def _chooser() -> Chooser:
    """A chooser like a rollout's: the shipped nets and the bear-off databases."""
    from bgtools.engine.nets.prune import load_default_pruning

    return make_chooser(weights_or_default(None).arrays(), 0, tables=_bo.load_databases().tables(),
                        pruning=load_default_pruning("rollout"))


def warm_callees(half: str, ch: Optional[Chooser] = None) -> str:
    """Compile (or load) the callees of the rollout kernel in ``half`` (:data:`HELPER` or
    :data:`PARENT`) for ``ch``, the chooser the kernel is to be given (None: a rollout's
    with the shipped nets: a helper's types are the same for any weights); returns ``half``."""
    if ch is None:
        ch = _chooser()
    if half == HELPER:
        _cube_and_buffers(ch)
    elif half == PARENT:
        _moves_and_nets(ch)
    else:
        raise ValueError(f"unknown half {half!r}")
    return half
