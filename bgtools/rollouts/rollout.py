"""Rollouts: play a position out many times and average the results.

A rollout is cut into chunks of :data:`~bgtools.rollouts.settings.CHUNK` trials
(:mod:`bgtools.rollouts.settings`), each played by the game kernel
(:mod:`bgtools.rollouts.kernel`) with dice that depend only on (seed, trial)
(:mod:`bgtools.rollouts.dice`), wherever an executor runs it
(:mod:`bgtools.rollouts.executors`; a task holds as many consecutive chunks of a job as
take about :data:`TASK_SECONDS`); the chunks' sums are merged in chunk order, so the
results are the same for any number of worker processes (``jobs``) and any grouping.
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator, Optional, Sequence

from bgtools.core.position import Position
from bgtools.rollouts.executors import make_executor, weights_or_default
from bgtools.rollouts.settings import Job, Partial, RolloutResult, RolloutSettings

__all__ = ["rollout", "rollout_many", "RolloutSettings", "RolloutResult"]


def rollout_many(positions: Iterable[Job], settings: RolloutSettings, weights=None, jobs: int = 1,
                 dask=None, on_chunk: Optional[Callable[[int, int], None]] = None,
                 units: Optional[Sequence[tuple[int, int]]] = None,
                 on_part: Optional[Callable[[int, int, Partial], None]] = None,
                 executor: Optional[tuple] = None) -> Iterator[RolloutResult]:
    """Roll out each of ``positions`` (:class:`~bgtools.rollouts.settings.Job`: a position
    with its cube and score); yield the results in their order as soon as each is complete.

    ``jobs`` > 1 uses a local pool of that many processes; ``dask`` (a scheduler address or a
    ``distributed.Client``) sends the work to that cluster.  ``on_chunk(job index, trials)``
    is called for every finished chunk (progress reporting), those of a task together when
    the task is done.  ``units``: the (first trial, count) units of work, in merge order
    (None: the settings' chunks); ``on_part(job index, unit index, partial)`` is called for
    each unit's own sums as it is merged, in unit order per job (paired statistics across
    jobs, :mod:`bgtools.rollouts.candidates`).  ``executor``: an (executor, window) of
    :func:`~bgtools.rollouts.executors.make_executor` that the caller keeps for several calls
    (and closes); None: one made for this call.
    """
    weights = weights_or_default(weights)
    todo = list(positions)
    ex, window = executor if executor is not None else make_executor(weights, jobs, dask, settings.ply)
    n_chunks = settings.n_chunks if units is None else len(units)  # units are made as they are submitted
    unit = settings.chunk if units is None else units.__getitem__
    left = len(todo) * n_chunks  # chunks not yet submitted
    job, chunk = 0, 0  # the next of them
    group = 1
    merged: dict[int, tuple[int, Partial]] = {}  # job -> (chunks merged in order, their sum)
    early: dict[int, dict[int, Partial]] = {}  # job -> chunks done before one in front of them
    backlog = 0  # chunks in ``early``
    pending: dict = {}
    next_out = 0
    try:
        while next_out < len(todo):
            while left > 0 and len(pending) < window and backlog < MAX_BACKLOG:
                # a task: ``group`` consecutive chunks of one job, never so many that some
                # of the window's places would stay empty for want of chunks
                take = min(group, max(1, left // window), n_chunks - chunk)
                task = [unit(i) for i in range(chunk, chunk + take)]
                pending[ex.submit(todo[job], settings, task)] = (job, chunk, take)
                left -= take
                chunk += take
                if chunk == n_chunks:
                    job, chunk = job + 1, 0
            for fut in ex.wait(list(pending)):
                j, c, take = pending.pop(fut)
                done, seconds = ex.result(fut)  # a ChunkResult (parts, seconds)
                held = early.setdefault(j, {})
                for i, part in enumerate(done):
                    held[c + i] = part
                    if on_chunk is not None:
                        on_chunk(j, part.n)
                k, total = merged.get(j, (0, Partial.empty()))
                backlog += len(done)
                while k in held:  # merged in chunk order, never averaged
                    part = held.pop(k)
                    if on_part is not None:
                        on_part(j, k, part)
                    total = total.merge(part)
                    k += 1
                    backlog -= 1
                merged[j] = (k, total)
                group = _group_size(take, seconds)
            while next_out < len(todo) and merged.get(next_out, (0, None))[0] == n_chunks:
                total = merged.pop(next_out)[1]
                early.pop(next_out, None)
                yield RolloutResult.from_partial(total, settings, todo[next_out])
                next_out += 1
    finally:
        if executor is None:
            ex.close()


#: the seconds a task is sized to take (a call of the kernel costs ~40 us, ~10 % of a
#: chunk of a short race; tasks this long still report progress often)
TASK_SECONDS = 0.05
#: the most chunks a task holds
MAX_GROUP = 64
#: the most finished chunks held while one before them is still running (no new work is
#: sent out meanwhile), so that memory stays flat even when one task stalls
MAX_BACKLOG = 4096


def _group_size(took: int, seconds: float) -> int:
    """Chunks in the next task, from the last one's ``took`` chunks in ``seconds``.  Only
    the work's grouping depends on it, never the results (each chunk's sums are its own)."""
    if seconds <= 0.0:
        return MAX_GROUP
    return max(1, min(MAX_GROUP, int(TASK_SECONDS * took / seconds)))


def rollout(position: Position, state=None, settings: RolloutSettings | None = None, weights=None,
            jobs: int = 1, dask=None) -> RolloutResult:
    """Roll out one position (player on roll before his roll); see :class:`RolloutSettings`.

    ``state`` is a :class:`~bgtools.core.matchstate.MatchState` (None: money, cube 1 centred);
    ``weights`` a :class:`~bgtools.engine.nets.nn.Weights` (None: the shipped rollout network).
    """
    settings = settings or RolloutSettings()
    job = Job.make(position, state, settings.jacoby, settings.beavers, settings.table)
    return next(rollout_many([job], settings, weights, jobs, dask))
