"""Rollouts: play a position out many times and average the results.

A rollout is cut into chunks of :data:`~bgtools.rollouts.settings.CHUNK` trials
(:mod:`bgtools.rollouts.settings`), each played by the game kernel
(:mod:`bgtools.rollouts.kernel`) with dice that depend only on (seed, trial)
(:mod:`bgtools.rollouts.dice`), wherever an executor runs it
(:mod:`bgtools.rollouts.executors`); the chunks' sums are merged in chunk order, so the
results are the same for any number of workers.
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator, Optional

from bgtools.core.position import Position
from bgtools.rollouts.executors import make_executor, weights_or_default
from bgtools.rollouts.settings import Job, Partial, RolloutResult, RolloutSettings

__all__ = ["rollout", "rollout_many", "RolloutSettings", "RolloutResult"]


def rollout_many(jobs: Iterable[Job], settings: RolloutSettings, weights=None, workers: int = 1,
                 dask=None, on_chunk: Optional[Callable[[int, int], None]] = None) -> Iterator[RolloutResult]:
    """Roll out each job; yield the results in the jobs' order as soon as each is complete.

    ``workers`` > 1 uses a local process pool; ``dask`` (a scheduler address or a
    ``distributed.Client``) sends the work to that cluster.  ``on_chunk(job index, trials)``
    is called after every finished chunk (progress reporting).
    """
    weights = weights_or_default(weights)
    jobs = list(jobs)
    ex, window = make_executor(weights, workers, dask)
    chunks = settings.chunks()
    tasks = ((j, c) for j in range(len(jobs)) for c in range(len(chunks)))
    parts: dict[int, list] = {}
    pending: dict = {}
    next_out = 0
    try:
        exhausted = False
        while next_out < len(jobs):
            while not exhausted and len(pending) < window:
                try:
                    j, c = next(tasks)
                except StopIteration:
                    exhausted = True
                    break
                first, count = chunks[c]
                pending[ex.submit(jobs[j], settings, first, count)] = (j, c)
            for fut in ex.wait(list(pending)):
                j, c = pending.pop(fut)
                part = ex.result(fut)
                parts.setdefault(j, [None] * len(chunks))[c] = part
                if on_chunk is not None:
                    on_chunk(j, part.n)
            while next_out < len(jobs) and next_out in parts and all(p is not None for p in parts[next_out]):
                total = Partial.empty()
                for p in parts.pop(next_out):
                    total = total.merge(p)
                yield RolloutResult.from_partial(total, settings, jobs[next_out])
                next_out += 1
    finally:
        ex.close()


def rollout(position: Position, state=None, settings: RolloutSettings | None = None, weights=None,
            workers: int = 1, dask=None) -> RolloutResult:
    """Roll out one position (player on roll before his roll); see :class:`RolloutSettings`.

    ``state`` is a :class:`~bgtools.core.matchstate.MatchState` (None: money, cube 1 centred);
    ``weights`` a :class:`~bgtools.engine.nn.Weights` (None: the shipped network).
    """
    settings = settings or RolloutSettings()
    job = Job.make(position, state, settings.jacoby, settings.beavers)
    return next(rollout_many([job], settings, weights, workers, dask))
