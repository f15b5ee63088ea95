"""Incremental evaluation of siblings (bgtools/engine/nets/incremental.py) against the full forward
pass: every oracle position, every roll, every play, and the replies of the 1-ply search."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numba as nb
import numpy as np
import pytest

from bgtools.core.movegen import generate, new_move_buffers
from bgtools.engine.chooser import choose0, make_chooser, new_chooser_buffers, swap_into
from bgtools.engine.nets.incremental import net_probs_inc, new_inc_base, set_base
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import (N_RACE_EXTRA, Net, Weights, add_race_inputs, as_net, game_over_probs, init_weights,
                                    net_probs, new_eval_buffers)

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def boards():
    with gzip.open(DATA / "oracle_positions.jsonl.gz", "rt") as fh:
        return np.array([json.loads(line)["board"] for line in fh], np.int8)


@nb.njit(cache=False)
def _compare(boards, net):
    """Max |incremental - full| over every play of every roll, with the counts of siblings
    valued and of those that took the incremental path (same class as the base)."""
    mb = new_move_buffers()
    ev, ev2 = new_eval_buffers(net), new_eval_buffers(net)
    base = new_inc_base(net)
    sw = np.zeros((2, 25), np.int8)
    parent = np.zeros((2, 25), np.int8)
    a = np.zeros(5)
    b = np.zeros(5)
    worst, count, same = 0.0, 0, 0
    for i in range(boards.shape[0]):
        board = boards[i]
        swap_into(board, parent)
        if game_over_probs(parent, a):
            continue
        set_base(parent, net, base)
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                n = generate(board, d1, d2, mb)
                for k in range(n):
                    swap_into(mb.boards[k], sw)
                    if game_over_probs(sw, a):
                        continue
                    c1 = net_probs_inc(sw, net, ev, base, a)
                    c2 = net_probs(sw, net, ev2, b)
                    if c1 != c2:
                        return -1.0, count, same
                    count += 1
                    if c1 == base.cls[0]:
                        same += 1
                    for o in range(5):
                        worst = max(worst, abs(a[o] - b[o]))
    return worst, count, same


def _race_inputs_net():
    """The rollout net with a race layer reading the race inputs, their weights random."""
    w = add_race_inputs(load_weights(None, "rollout"))
    W1 = list(w.W1)
    W1[2] = W1[2].copy()
    W1[2][-N_RACE_EXTRA:] = np.random.default_rng(5).normal(0, 0.3, (N_RACE_EXTRA, W1[2].shape[1]))
    return Weights(tuple(W1), w.b1, w.W2, w.b2)


@pytest.mark.parametrize("which", ["rollout", "analysis", "wide-random", "race-inputs"])
def test_incremental_equals_full_on_every_play(boards, which):
    # the two shipped nets (the analysis net reads the contact inputs: a WideNet), a small random one, and one
    # whose race layer reads the race inputs
    w = {"wide-random": lambda: init_weights((40, 24, 12), seed=4), "race-inputs": _race_inputs_net}.get(
        which, lambda: load_weights(None, which))()
    worst, count, same = _compare(boards, as_net(tuple(w.arrays())))
    assert worst >= 0, "net class differs between the two paths"
    assert count > 100_000 and same > 0.8 * count  # the incremental path is the common one
    assert worst < 2e-6, worst  # float32 rounding of the sum's order, nothing more


@nb.njit(cache=False)
def _full_pass(after, n, got, ref, ev):
    """(best play by the full pass, its equity, the equity of play ``got``) among ``after[:n]``."""
    p = np.zeros(5)
    sw = np.zeros((2, 25), np.int8)
    best, best_e, e_got = -1, -1e300, 0.0
    for k in range(n):
        swap_into(after[k], sw)
        if not game_over_probs(sw, p):
            net_probs(sw, ref, ev, p)
        e = -(2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4])
        if k == got:
            e_got = e
        if e > best_e:
            best, best_e = k, e
    return best, best_e, e_got


def _choose_all(boards, ch, ref):
    """choose0's pick against the argmax of the full pass, over every roll of every board;
    returns (rolls, rolls where they differ by more than a near-tie).  ``choose0`` is called as it is
    compiled for the other tests (a kernel of our own around it would compile the whole search again)."""
    buf = new_chooser_buffers(ch.net)
    mb = new_move_buffers()
    ev = new_eval_buffers(ref)
    bp = np.zeros(5)
    rolls, bad = 0, 0
    for b in boards:
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                got = choose0(b, d1, d2, ch, buf, bp)
                n = generate(b, d1, d2, mb)
                if n < 2:
                    continue
                rolls += 1
                best, best_e, e_got = _full_pass(mb.boards, n, got, ref, ev)
                if got != best and best_e - e_got > 1e-5:
                    bad += 1
    return rolls, bad


def test_choose0_picks_the_full_pass_best(boards):
    w = load_weights(None, "rollout")  # the net the chooser plays in rollouts
    net = Net(*w.arrays())
    rolls, bad = _choose_all(boards[:400], make_chooser(net, 0), net)
    assert rolls > 5000 and bad == 0
