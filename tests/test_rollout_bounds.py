"""Rollouts of any allowed size in flat memory, and a bound on the size (issue 38 item 8); the
match equity table travels in the settings and names the records (issue 34 items 3 and 6)."""

import json
import tracemalloc

import numpy as np
import pytest

from bgtools.core.position import Position
from bgtools.engine.cubeful.met import load_met
from bgtools.rollouts.executors import ChunkResult
import importlib
from bgtools.rollouts.settings import (CHUNK, MAX_TRIALS, N_OUTPUTS, Job, Partial, RolloutError,
                                       RolloutSettings)

rollout_module = importlib.import_module("bgtools.rollouts.rollout")  # (the package's ``rollout`` is the function)


def test_trials_are_bounded_and_chunks_are_made_lazily():
    s = RolloutSettings(trials=MAX_TRIALS)
    assert s.n_chunks == -(-MAX_TRIALS // CHUNK)
    gen = s.chunks()
    assert next(gen) == (0, CHUNK) and next(gen) == (CHUNK, CHUNK)  # a generator, not a list of millions
    assert s.chunk(s.n_chunks - 1) == ((s.n_chunks - 1) * CHUNK, MAX_TRIALS - (s.n_chunks - 1) * CHUNK)
    small = RolloutSettings(trials=2 * CHUNK + 5)
    assert list(small.chunks()) == [(0, CHUNK), (CHUNK, CHUNK), (2 * CHUNK, 5)]
    for bad in (0, -1, MAX_TRIALS + 1, 10**20):
        with pytest.raises(RolloutError, match="trials must be 1 to 1,000,000,000"):
            RolloutSettings(trials=bad)
    with pytest.raises(RolloutError, match="truncate"):
        RolloutSettings(truncate=10**20)


class _Fake:
    """An executor whose chunks cost nothing (sums = the first trial), optionally holding
    the first task back until every other is done (a stalled worker)."""

    def __init__(self, stall: bool) -> None:
        self.stall = stall
        self.boxes: dict = {}
        self.first = None
        self.most_pending = 0

    def submit(self, job, settings, chunks):
        box = (len(chunks), tuple(chunks))
        fut = object()
        self.boxes[fut] = box
        if self.first is None:
            self.first = fut
        return fut

    def wait(self, pending):
        self.most_pending = max(self.most_pending, len(pending))
        if self.stall and len(pending) > 1:
            return [f for f in pending if f is not self.first]
        return list(pending)

    def result(self, fut):
        _, chunks = self.boxes.pop(fut)
        return ChunkResult([Partial(c, np.full(N_OUTPUTS, float(f)), np.full(N_OUTPUTS, 1.0), 1) for f, c in chunks], 0.05)

    def close(self):
        pass


@pytest.mark.parametrize("stall", [False, True])
def test_memory_stays_flat_however_many_trials(monkeypatch, stall):
    fake = _Fake(stall)
    monkeypatch.setattr(rollout_module, "make_executor", lambda w, jobs, dask, ply=0: (fake, 24))
    monkeypatch.setattr(rollout_module, "_group_size", lambda took, seconds: 1)
    trials = 5_000_000  # 34,723 chunks: before, a list of them all and a slot for each
    s = RolloutSettings(trials=trials)
    job = Job.make(Position.initial())
    tracemalloc.start()
    try:
        res = next(rollout_module.rollout_many([job], s, weights=object()))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert res.trials == trials
    n = s.n_chunks
    mean_first = sum(s.chunk(i)[0] for i in range(n)) / trials  # each chunk adds its first trial
    assert res.equity == pytest.approx(mean_first)  # every chunk merged once
    assert peak < 3_000_000, peak  # MAX_BACKLOG chunks at most while the first one stalls


def test_the_settings_carry_the_table_and_the_key_names_it(tmp_path):
    default = load_met()
    s = RolloutSettings()
    assert s.table == default and s.key()["met"] == default.identity
    d = {"name": "Shifted", "pre_crawford": (np.clip(default.pre + 0.01, 0, 1)).tolist(),
         "post_crawford": default.post.tolist()}
    f = tmp_path / "shifted.json"
    f.write_text(json.dumps(d))
    other = load_met(str(f))
    t = RolloutSettings(met=other)
    assert t.table is other and t.key()["met"] != s.key()["met"] and "Shifted" in t.key()["met"]
    assert t != s  # equal settings need the same table
    import pickle

    assert pickle.loads(pickle.dumps(t)).table == other  # what a worker process gets
