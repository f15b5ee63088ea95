"""The work the rollout kernel leaves out changes no result.

* The first layer adds its rows four at a time (:func:`bgtools.engine.nets.nn.add_rows`): the
  same bits as one row at a time, for full and incremental passes and any number of rows.
* A forced play in contact is not valued when the caller says it will not read its outputs (bit
  4 of ``done`` in :func:`bgtools.engine.chooser.best_play0`); the play is the same.
* :func:`bgtools.engine.cubeful.cube.may_double` is exactly where :func:`cube_values` says
  "unavailable", so the kernel can skip those cube turns without valuing the position.
(Whole rollouts: ``benchmarks/rollout_fingerprint.py --check
benchmarks/results/rollout_fingerprint_farrace.json`` prints "identical" with the shipped rollout net; the
``_3cf9d84.json`` set was gen8's, ``_roll13.json`` roll13's, ``_roll13cal.json`` roll13cal's, ``_roll13cal2.json``
roll13cal2's before far races were valued from the bear-off database.)
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numba as nb
import numpy as np
import pytest

from bgtools.core.movegen import generate_boards, is_contact, new_move_buffers
from bgtools.engine import bearoff as bo
from bgtools.engine.chooser import best_play0, make_chooser, new_chooser_buffers
from bgtools.engine.cubeful.cube import UNAVAILABLE, CubeArgs, cube_values, cube_x, may_double
from bgtools.engine.cubeful.met import load_met
from bgtools.engine.nets.incremental import delta_layer
from bgtools.engine.nets.nn import first_layer, load_default_network
from bgtools.engine.nets.prune import load_default_pruning

DATA = Path(__file__).parent / "data" / "evals.jsonl.gz"


@nb.njit(fastmath={"contract"})
def _one_row_at_a_time(x, bx, W1, b0, h):
    """The former loop: ``h = b0 + sum of (x - bx)[j] * W1[j]`` over the differing rows, one row a pass."""
    for k in range(W1.shape[1]):
        h[k] = b0[k]
    for j in range(W1.shape[0]):
        v = x[j] - bx[j]
        if v != 0.0:
            for k in range(W1.shape[1]):
                h[k] += v * W1[j, k]


@pytest.mark.parametrize("nh", [64, 128, 256])
def test_rows_four_at_a_time_are_the_same_bits(nh):
    rng = np.random.default_rng(nh)
    nin = 61
    W1 = rng.normal(0, 0.3, (nin, nh)).astype(np.float32)
    b1 = rng.normal(0, 0.3, nh).astype(np.float32)
    idx = np.zeros(nin, np.int32)
    zero = np.zeros(nin, np.float32)
    got, want, base = (np.zeros(nh, np.float32) for _ in range(3))
    for m in list(range(12)) + [30, 45, 61]:  # every remainder of m / 4, and many rows
        for _ in range(20):
            x = np.zeros(nin, np.float32)
            x[rng.choice(nin, m, replace=False)] = rng.normal(0, 1, m).astype(np.float32)
            first_layer(x, nin, W1, b1, got, idx)
            _one_row_at_a_time(x, zero, W1, b1, want)
            assert np.array_equal(got, want)
            # incremental: from the pass of another board
            bx = x.copy()
            bx[rng.choice(nin, 5, replace=False)] = rng.normal(0, 1, 5).astype(np.float32)
            first_layer(bx, nin, W1, b1, base, idx)
            delta_layer(x, bx, nin, W1, base, got, idx)
            _one_row_at_a_time(x, bx, W1, base, want)
            assert np.array_equal(got, want)


def _positions() -> list[np.ndarray]:
    with gzip.open(DATA, "rt") as f:
        return [np.array(json.loads(line)["board"], np.int8) for line in f]


@pytest.fixture(scope="module")
def chooser():
    net = load_default_network("rollout")
    return make_chooser(net.weights.arrays(), 0, tables=bo.load_databases().tables(),
                        pruning=load_default_pruning("rollout"))


@pytest.mark.parametrize("cubeful", [False, True])
def test_forced_plays_are_not_valued_only_when_asked(chooser, cubeful):
    """With bit 4 a roll of one legal play or none in a position in contact returns at once
    (bit 8 set, the outputs left alone); out of contact, with more plays, or without bit 4, the
    same play and outputs as ever.  Cubeless (no cube arguments) and cubeful (money, the kernel's
    0-ply cubeful chooser)."""
    moves = new_move_buffers()
    buf = new_chooser_buffers(chooser.net)
    met = load_met()
    args = CubeArgs(True, 1, 1, 1, 0, False, False, met.pre, met.post) if cubeful else None
    seen = {"skipped": 0, "forced, no contact": 0, "choice": 0}
    for board in _positions()[:400]:
        for d1, d2 in ((6, 6), (5, 5), (6, 5), (2, 1), (4, 4)):
            n = generate_boards(board, d1, d2, moves)
            plain = np.full(5, -7.0)
            done = np.zeros(2, np.int64)
            i = best_play0(board, d1, d2, chooser, buf, plain, done, args, 1, cubeful)
            assert done[0] & 8 == 0 and np.all(plain != -7.0)
            asked = np.full(5, -7.0)
            done = np.array([4, 0], np.int64)
            j = best_play0(board, d1, d2, chooser, buf, asked, done, args, 1, cubeful)
            assert i == j
            if n <= 1 and is_contact(board):
                seen["skipped"] += 1
                assert j == n - 1 and done[0] & 8 and np.all(asked == -7.0)
            else:
                seen["forced, no contact" if n <= 1 else "choice"] += 1
                assert done[0] & 8 == 0 and np.array_equal(plain, asked)
    assert min(seen.values()) > 0 and seen["choice"] > 100, seen


def _may_double_by_the_rules(c: CubeArgs) -> bool:
    """The cube is not his opponent's; at money he may always double; in a match not in the
    Crawford game, and only while the cube is below his points to go."""
    if c.owner == 2:
        return False
    return c.money or (not c.crawford and c.away_me > c.cube)


def test_may_double_is_where_the_cube_is_unavailable():
    met = load_met()
    p = np.array([0.7, 0.3, 0.02, 0.1, 0.01])
    board = np.zeros((2, 25), np.int8)
    board[0, 5] = board[1, 5] = 15
    out = np.zeros(4)
    kinds = set()
    for money in (True, False):
        for am, ao in ((1, 1), (2, 5), (3, 3), (5, 2), (7, 7)):
            for cube in (1, 2, 4, 8):
                for owner in (0, 1, 2):
                    for crawford in (False, True):
                        c = CubeArgs(money, am, ao, cube, owner, crawford and not money, False, met.pre, met.post)
                        ok = may_double(c)
                        kinds.add(ok)
                        assert ok == _may_double_by_the_rules(c)
                        assert ok == (cube_values(p, c, cube_x(board), out) != UNAVAILABLE)
                        if owner == 2:
                            assert not ok
    assert kinds == {True, False}
