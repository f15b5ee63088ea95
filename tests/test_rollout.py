"""Rollout engine: dice, merging, exactness against the bear-off database, determinism."""

import importlib
import json
from collections import Counter

import numpy as np
import pytest

from bgtools.engine import bearoff as bo
from bgtools.core.matchstate import MatchState
from bgtools.engine.nets.nn import load_default_network
from bgtools.core.position import Position
from bgtools.rollouts import (CHUNK, Job, Partial, RolloutError, RolloutSettings, roll_dice, rollout, rollout_many,
                             run_chunk, run_chunks)

rollout_module = importlib.import_module("bgtools.rollouts.rollout")  # (the package's ``rollout`` is the function)

W = load_default_network("rollout").weights


def test_dice_stratified_first_two_rolls():
    seed = 7
    first = [roll_dice(seed, i, 2) for i in range(2 * 1296)]
    for block in range(2):
        rows = first[block * 1296:(block + 1) * 1296]
        # every 36 trials: each of the 36 ordered outcomes (as unordered rolls: 1 or 2 times)
        for s in range(0, 1296, 36):
            c = Counter(r[0] for r in rows[s:s + 36])
            assert len(c) == 21 and all(v == (1 if a == b else 2) for (a, b), v in c.items())
        pairs = Counter((r[0], r[1]) for r in rows)
        assert len(pairs) == 21 * 21
        assert sum(pairs.values()) == 1296
    # a different block draws different permutations; a different seed different dice
    assert first[:36] != first[1296:1296 + 36]
    assert [roll_dice(8, i, 3) for i in range(36)] != [roll_dice(7, i, 3) for i in range(36)]
    # later rolls look uniform
    later = Counter(roll_dice(seed, i, 6)[5] for i in range(3600))
    assert len(later) == 21 and later[(6, 6)] < later[(6, 5)]


def test_memoised_dice_are_the_plain_dice_across_blocks_and_seeds():
    """The rollout kernel's roll_memo keeps a block's two permutations: the same dice as
    roll, whatever trial it starts from and however it crosses blocks of 1,296."""
    from bgtools.rollouts.dice import new_roll_memo, roll, roll_memo

    perm = np.zeros(36, np.int64)
    for seed in (1, 12345):
        memo = new_roll_memo()
        trials = list(range(1290, 1300)) + list(range(5, 12)) + list(range(2590, 2600)) + [40000, 3]
        for trial in trials:
            for turn in range(4):
                assert roll_memo(seed, trial, turn, memo) == roll(seed, trial, turn, perm)


def test_dice_depend_only_on_seed_and_trial():
    assert roll_dice(3, 1000, 10) == roll_dice(3, 1000, 10)
    assert roll_dice(3, 1000, 10) != roll_dice(3, 1001, 10)


def test_partial_merge_is_exact_sums():
    job = Job.make(Position.initial())
    s = RolloutSettings(trials=10, truncate=4)
    a = run_chunk(job, s, 0, 4, W)
    b = run_chunk(job, s, 4, 6, W)
    whole = run_chunk(job, s, 0, 10, W)
    m = a.merge(b)
    assert m.n == 10
    np.testing.assert_allclose(m.sums, whole.sums, rtol=1e-12)
    np.testing.assert_allclose(m.sumsq, whole.sumsq, rtol=1e-12)
    assert Partial.empty().merge(m).n == 10


def _two_sided_positions(n, seed=5):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        sides = []
        for _ in range(2):
            k = int(rng.integers(1, 7))
            side = [0] * 25
            for pt in rng.integers(0, 6, size=k):
                side[int(pt)] += 1
            sides.append(side)
        out.append(Position.from_sides(sides[0], sides[1]))
    return out


def test_exact_bearoff_rollouts_converge():
    """100 two-sided database positions rolled out to the end (no database truncation):
    |rollout - exact| < 3 standard errors for at least 97 of them."""
    db = bo.load_databases()
    positions = _two_sided_positions(100)
    s = RolloutSettings(trials=1296, seed=11, bearoff_truncation=False)
    results = list(rollout_many([Job.make(p) for p in positions], s, W))
    ok = 0
    for p, r in zip(positions, results):
        exact = float(bo.ts_lookup(db.ts, p.to_array().astype(np.int8))[0])
        d = abs(r.probs[0] - exact)
        ok += d < 3 * r.probs_se[0] or d < 1e-9
        assert r.probs[1] == 0.0 and r.probs[3] == 0.0  # no gammons with 6 checkers or fewer
    assert ok >= 97


def test_variance_reduction_with_exact_values_is_exact():
    """With exact values for every position, luck removes all the noise."""
    db = bo.load_databases()
    for p in _two_sided_positions(5, seed=9):
        r = rollout(p, settings=RolloutSettings(trials=36, variance_reduction=True, bearoff_truncation=False),
                    weights=W)
        exact = float(bo.ts_lookup(db.ts, p.to_array().astype(np.int8))[0])
        assert r.probs[0] == pytest.approx(exact, abs=1e-4)
        assert r.probs_se[0] < 1e-4


def test_bearoff_truncation_and_cubeful_money_is_exact_at_the_root():
    db = bo.load_databases()
    p = _two_sided_positions(1, seed=3)[0]
    r = rollout(p, settings=RolloutSettings(trials=4, cubeful=True), weights=W)
    v = bo.ts_lookup(db.ts, p.to_array().astype(np.int8))
    assert r.probs[0] == pytest.approx(v[0]) and r.cubeful_equity == pytest.approx(v[2])
    assert r.probs_se[0] == 0.0


def test_results_independent_of_jobs():
    positions = [Job.make(Position.initial()), Job.make(Position.from_id("cGfwQEK7AAAAAA"))]
    s = RolloutSettings(trials=CHUNK + 20, truncate=6, seed=4)
    one = list(rollout_many(positions, s, W, jobs=1))
    two = list(rollout_many(positions, s, W, jobs=2))
    assert [r.record("x") for r in one] == [r.record("x") for r in two]
    assert one[0] != one[1]


@pytest.mark.parametrize("pid,cubeful,vr", [("cGfwQEK7AAAAAA", False, False), ("4HPwATDgc/ABMA", True, True)])
def test_chunks_in_one_call_are_each_as_played_alone(pid, cubeful, vr):
    job = Job.make(Position.from_id(pid))
    s = RolloutSettings(trials=30, truncate=6, seed=9, cubeful=cubeful, variance_reduction=vr)
    chunks = [(0, 7), (7, 1), (8, 22)]
    together = run_chunks(job, s, chunks, W)
    for (first, count), part in zip(chunks, together):
        alone = run_chunk(job, s, first, count, W)
        assert part.n == alone.n == count and part.plies == alone.plies > 0
        assert part.sums.tobytes() == alone.sums.tobytes() and part.sumsq.tobytes() == alone.sumsq.tobytes()
    assert together[0].sums.tobytes() != together[2].sums.tobytes()


def test_results_independent_of_task_grouping(monkeypatch):
    positions = [Job.make(Position.initial()), Job.make(Position.from_id("cGfwQEK7AAAAAA"))]
    s = RolloutSettings(trials=5 * CHUNK + 3, truncate=4, seed=2)
    got, sizes = [], []
    for group in (1, 2, 64):
        def fixed(took, seconds, group=group):
            sizes.append(took)
            return group
        monkeypatch.setattr(rollout_module, "_group_size", fixed)
        got.append([r.record("x") for r in rollout_many(positions, s, W, jobs=1)])
    assert got[0] == got[1] == got[2]
    assert max(sizes) == 6 and 2 in sizes  # tasks of 1, 2 and (at most) all 6 chunks of a job ran
    # tasks of several chunks through a process pool (pickled out and back): 4 jobs of 6
    # chunks, 2 workers (6 tasks in flight) leave room for tasks of up to 4 chunks
    jobs4 = positions + [Job.make(Position.from_id("4HPwATDgc/ABMA")), Job.make(Position.from_id("sGfwATDgc/ABMA"))]
    pool_sizes: list[int] = []
    monkeypatch.setattr(rollout_module, "_group_size", lambda took, seconds: pool_sizes.append(took) or 64)
    pooled = [r.record("x") for r in rollout_many(jobs4, s, W, jobs=2)]
    monkeypatch.undo()
    assert pooled[:2] == got[0]
    assert pooled[2:] == [r.record("x") for r in rollout_many(jobs4[2:], s, W, jobs=1)]
    assert max(pool_sizes) > 1


def test_task_size_follows_the_time_a_task_took():
    assert rollout_module._group_size(1, 0.5) == 1
    assert rollout_module._group_size(4, rollout_module.TASK_SECONDS) == 4
    assert rollout_module._group_size(1, 1e-6) == rollout_module.MAX_GROUP
    assert rollout_module._group_size(3, 0.0) == rollout_module.MAX_GROUP


def test_match_and_cubeful_outputs():
    ms = MatchState(match_length=5, score=(1, 2), player_on_roll=1)
    r = rollout(Position.initial(), ms, RolloutSettings(trials=72, cubeful=True, truncate=8, variance_reduction=True),
                weights=W)
    assert 0.0 < r.mwc < 1.0 and 0.0 < r.mwc_cubeful < 1.0
    assert r.mwc_se < 0.05 and r.cubeful_equity is not None
    rec = r.record("x")
    assert {"probs", "equity", "equity_se", "mwc", "mwc_cubeful", "cubeful_equity"} <= set(rec)
    money = rollout(Position.initial(), None, RolloutSettings(trials=36, cubeful=True, truncate=4), weights=W)
    assert money.mwc is None and money.cubeful_equity is not None


def test_one_ply_rollout_runs():
    r = rollout(Position.initial(), None, RolloutSettings(trials=4, ply=1, truncate=2), weights=W)
    assert r.trials == 4 and 0 < r.probs[0] < 1


def test_bad_settings_and_positions():
    with pytest.raises(RolloutError):
        RolloutSettings(trials=0)
    with pytest.raises(RolloutError):
        RolloutSettings(ply=3)
    over = Position.from_sides([0] * 25, [1] + [0] * 24)
    with pytest.raises(RolloutError):
        Job.make(over)
    with pytest.raises(RolloutError):
        Job.make(Position.initial(), MatchState(match_length=31, score=(0, 0)))


def test_record_is_json():
    r = rollout(Position.initial(), None, RolloutSettings(trials=3, truncate=2), weights=W)
    rec = json.loads(json.dumps(r.record("net")))
    assert rec["trials"] == 3 and len(rec["probs"]) == 5 and rec["evaluator"] == "net"
