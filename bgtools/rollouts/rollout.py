"""Rollouts: play a position out many times and average the results.

A rollout is cut into chunks of :data:`~bgtools.rollouts.settings.CHUNK` trials
(:mod:`bgtools.rollouts.settings`), each played by the game kernel
(:mod:`bgtools.rollouts.kernel`) with dice that depend only on (seed, trial)
(:mod:`bgtools.rollouts.dice`), wherever an executor runs it
(:mod:`bgtools.rollouts.executors`; a task holds as many consecutive chunks of a job as
take about :data:`TASK_SECONDS`); the chunks' sums are merged in chunk order, so the
results are the same for any number of workers and any grouping.
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
    is called for every finished chunk (progress reporting), those of a task together when
    the task is done.
    """
    weights = weights_or_default(weights)
    jobs = list(jobs)
    ex, window = make_executor(weights, workers, dask, settings.ply)
    chunks = settings.chunks()
    left = len(jobs) * len(chunks)  # chunks not yet submitted
    job, chunk = 0, 0  # the next of them
    group = 1
    parts: dict[int, list] = {}
    pending: dict = {}
    next_out = 0
    try:
        while next_out < len(jobs):
            while left > 0 and len(pending) < window:
                # a task: ``group`` consecutive chunks of one job, never so many that some
                # of the window's places would stay empty for want of chunks
                take = min(group, max(1, left // window), len(chunks) - chunk)
                pending[ex.submit(jobs[job], settings, chunks[chunk:chunk + take])] = (job, chunk, take)
                left -= take
                chunk += take
                if chunk == len(chunks):
                    job, chunk = job + 1, 0
            for fut in ex.wait(list(pending)):
                j, c, take = pending.pop(fut)
                done, seconds = ex.result(fut)
                slots = parts.setdefault(j, [None] * len(chunks))
                for i, part in enumerate(done):
                    slots[c + i] = part
                    if on_chunk is not None:
                        on_chunk(j, part.n)
                group = _group_size(take, seconds)
            while next_out < len(jobs) and next_out in parts and all(p is not None for p in parts[next_out]):
                total = Partial.empty()
                for p in parts.pop(next_out):
                    total = total.merge(p)
                yield RolloutResult.from_partial(total, settings, jobs[next_out])
                next_out += 1
    finally:
        ex.close()


#: the seconds a task is sized to take (a call of the kernel costs ~40 us, ~10 % of a
#: chunk of a short race; tasks this long still report progress often)
TASK_SECONDS = 0.05
#: the most chunks a task holds
MAX_GROUP = 64


def _group_size(took: int, seconds: float) -> int:
    """Chunks in the next task, from the last one's ``took`` chunks in ``seconds``.  Only
    the work's grouping depends on it, never the results (each chunk's sums are its own)."""
    if seconds <= 0.0:
        return MAX_GROUP
    return max(1, min(MAX_GROUP, int(TASK_SECONDS * took / seconds)))


def rollout(position: Position, state=None, settings: RolloutSettings | None = None, weights=None,
            workers: int = 1, dask=None) -> RolloutResult:
    """Roll out one position (player on roll before his roll); see :class:`RolloutSettings`.

    ``state`` is a :class:`~bgtools.core.matchstate.MatchState` (None: money, cube 1 centred);
    ``weights`` a :class:`~bgtools.engine.nn.Weights` (None: the shipped network).
    """
    settings = settings or RolloutSettings()
    job = Job.make(position, state, settings.jacoby, settings.beavers)
    return next(rollout_many([job], settings, weights, workers, dask))
