"""The rollout kernel's shortcuts leave every result as it was.

* A worker's caches are value-transparent: a chunk rolled out from cold caches
  (:func:`bgtools.rollouts.executors.clear_caches`) gives the same sums as after other work.
* The cube decision is skipped where the chooser's outputs of the position (first layer summed
  incrementally) put the roller more than ``CUBE_MARGIN`` from doubling: those outputs must
  differ from the full pass's by far less than that margin, for money and match stakes.
* ``one_sided_probs_into`` (no allocation) equals ``one_sided_probs``.
(Byte-identity of whole ``bgtools rollout`` records over 14 settings:
``benchmarks/rollout_fingerprint.py --check benchmarks/results/rollout_fingerprint_farrace.json``, with the shipped
rollout net and far races valued from the bear-off database; ``_roll13cal2.json`` was before them, ``_3cf9d84.json`` gen8's.)
"""

from __future__ import annotations

import gzip
import json
from dataclasses import replace
from pathlib import Path

import numpy as np

from bgtools.core.movegen import generate_boards, new_move_buffers
from bgtools.core.position import Position
from bgtools.engine import bearoff as bo
from bgtools.engine.cubeful.cube import CubeArgs, cube_values, cube_x
from bgtools.engine.cubeful.met import load_met
from bgtools.engine.nets.incremental import evaluate_siblings
from bgtools.engine.nets.nn import evaluate_net, load_default_network
from bgtools.rollouts import Job, RolloutSettings, run_chunks
from bgtools.rollouts.executors import clear_caches
from bgtools.rollouts.kernel import CUBE_MARGIN

DATA = Path(__file__).parent / "data" / "evals.jsonl.gz"


def _records(category: str, n: int) -> list[dict]:
    with gzip.open(DATA, "rt") as f:
        recs = [json.loads(line) for line in f]
    return [r for r in recs if r["category"] == category][:n]


def test_cold_caches_give_the_same_sums():
    net = load_default_network("rollout").weights
    job = replace(Job.make(Position.from_id("d7sBADB25xsAAA")), first_cube=False)
    s = RolloutSettings(trials=24, cubeful=True, variance_reduction=True, bearoff_truncation=False)
    clear_caches()
    cold = run_chunks(job, s, [(0, 12), (12, 12)], net)
    warm = run_chunks(job, s, [(12, 12), (0, 12)], net)[::-1]  # after the first call: warm caches
    clear_caches()
    again = run_chunks(job, s, [(0, 12), (12, 12)], net)
    for a, b, c in zip(cold, warm, again):
        assert a.plies == b.plies == c.plies > 0
        assert np.array_equal(a.sums, b.sums) and np.array_equal(a.sums, c.sums)
        assert np.array_equal(a.sumsq, b.sumsq)


def _siblings(records) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every play of two rolls of each record's position, laid out as the kernel values them
    (the opponent on roll), with their parents (the position turned round)."""
    buf = new_move_buffers()
    parents, boards, parent_of = [], [], []
    for r in records:
        b = np.array(r["board"], np.int8)
        for d1, d2 in ((3, 1), (6, 6)):
            n = generate_boards(b, d1, d2, buf)
            if n == 0:
                continue
            parents.append(b[::-1].copy())
            for i in range(n):
                boards.append(buf.boards[i][::-1].copy())
                parent_of.append(len(parents) - 1)
    return np.array(parents), np.array(boards), np.array(parent_of, np.int64)


def _margins(p, board, money, am, ao, cube, owner, met) -> float:
    cv = np.zeros(4)
    cube_values(p, CubeArgs(money, am, ao, cube, owner, False, False, met.pre, met.post), cube_x(board), cv)
    return min(cv[1], cv[2]) - cv[0]


def test_incremental_outputs_cannot_change_a_cube_decision_the_kernel_skips():
    net = load_default_network("rollout").weights.arrays()
    parents, boards, parent_of = _siblings(_records("contact", 40) + _records("crashed", 10))
    assert boards.shape[0] > 500
    inc = evaluate_siblings(parents, boards, parent_of, net)
    full = evaluate_net(boards, net)
    assert np.abs(inc - full).max() < 1e-5
    met = load_met()
    worst = 0.0
    for i in range(boards.shape[0]):
        for money, am, ao, cube in ((True, 1, 1, 1), (True, 1, 1, 4), (False, 5, 3, 1), (False, 7, 2, 2)):
            for owner in (0, 1, 2):  # centred, the player on roll's, his opponent's
                a = _margins(inc[i], boards[i], money, am, ao, cube, owner, met)
                b = _margins(full[i], boards[i], money, am, ao, cube, owner, met)
                scale = cube if money else 1
                worst = max(worst, abs(a - b) / scale)
    assert worst < CUBE_MARGIN / 100, worst


def test_one_sided_probs_into_is_one_sided_probs():
    tables = bo.load_databases().tables()
    rng = np.random.default_rng(3)
    out = np.full(5, 7.0)
    for _ in range(300):
        board = np.zeros((2, 25), np.int8)
        for s in range(2):
            for _c in range(int(rng.integers(1, 16))):
                board[s, int(rng.integers(0, 6))] += 1
        bo.one_sided_probs_into(tables.os_rolls, tables.os_gammon, board, out)
        assert np.array_equal(out, bo.one_sided_probs(tables.os_rolls, tables.os_gammon, board))


def test_variance_reduced_cubeful_chunks_split_any_way():
    """Variance reduction makes each board's bases once for its 21 rolls: the sums of a chunk
    do not depend on what the kernel played before it in the same call."""
    net = load_default_network("rollout").weights
    job = replace(Job.make(Position.from_id("ZvsQJAj/HQAAOA")), first_cube=False)
    s = RolloutSettings(trials=12, cubeful=True, variance_reduction=True, bearoff_truncation=False)
    together = run_chunks(job, s, [(0, 6), (6, 6)], net)
    alone = run_chunks(job, s, [(6, 6)], net)
    assert np.array_equal(together[1].sums, alone[0].sums) and together[1].plies == alone[0].plies
