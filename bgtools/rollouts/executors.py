"""Where rollout chunks run: this process, a local process pool, or a Dask cluster.

:func:`run_chunk` plays one chunk of trials in any process, :func:`run_chunks` several
consecutive chunks of a job in one call; each worker process loads the bear-off databases
and is given the weights once.  Every executor offers ``submit`` (a job and a list of its
chunks, sent to the worker as one :class:`ChunkTask`), ``wait`` (some finished futures),
``result`` (a :class:`ChunkResult`: the chunks' partial results and the seconds they took) and
``close``.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from bgtools.core.position import Position
from bgtools.engine import bearoff as _bo
from bgtools.engine.chooser import make_chooser
from bgtools.engine.cubeful.met import METS, load_met
from bgtools.engine.evalcache import new_choice_cache, new_eval_cache
from bgtools.rollouts.kernel import CACHE_BITS, CHOICE_BITS, Stakes, TrialSettings, rollout_kernel
from bgtools.rollouts.settings import N_OUTPUTS, Job, Partial, RolloutSettings, weights_or_default

__all__ = ["run_chunk", "run_chunks", "warm_up", "make_executor", "weights_or_default", "ChunkTask", "ChunkResult",
           "clear_caches"]


class ChunkTask(NamedTuple):
    """What a worker is sent: consecutive ``chunks`` ((first trial, count) each) of ``job``."""

    job: Job
    settings: RolloutSettings
    chunks: list[tuple[int, int]]


class ChunkResult(NamedTuple):
    """What a worker sends back: the chunks' partial results, in order, and the seconds they took."""

    parts: list[Partial]
    seconds: float

_WORKER: dict = {}


def _context(weights) -> tuple:
    """Per-process data: the weights (``weights`` or those this process was given) and the
    bear-off databases."""
    if weights is None:
        weights = _WORKER.get("weights")
    if weights is None:
        weights = _WORKER["weights"] = weights_or_default(None)
    if "db" not in _WORKER:
        _WORKER["db"] = _bo.load_databases()
    return weights, _WORKER["db"]


def _pruning():
    """The shipped rollout net's pruning net (loaded once per process), or None when none is shipped."""
    if "pruning" not in _WORKER:
        from bgtools.engine.nets.prune import load_default_pruning

        _WORKER["pruning"] = load_default_pruning("rollout")
    return _WORKER["pruning"]


def _caches(weights, settings: RolloutSettings, job: Job) -> tuple:
    """This process's evaluation cache for ``weights``, and its cache of choices for them,
    ``settings``' checker play and, in a cubeful rollout, ``job``'s stakes (new ones when
    the weights change; the choices of the last few kinds of play are kept).  They outlive a
    chunk: what they hold is the net's full pass, exact values (see
    :func:`bgtools.engine.chooser.chooser_buffers_with`) and the choices made from them,
    whatever chunk filled them, so a chunk's results do not depend on which chunks the
    process ran before."""
    if _WORKER.get("cache_for") is not weights:
        _WORKER["cache"] = new_eval_cache(CACHE_BITS)
        _WORKER["cache_for"] = weights
        _WORKER["choices"] = {}
    info = job.info
    stakes = ((info.money, info.away, info.cube, info.crawford, info.jacoby and info.money, settings.table.digest)
              if settings.cubeful else None)
    play = (settings.ply, settings.candidates, settings.pruning, settings.cubeful, stakes)
    kept = _WORKER["choices"]
    if play not in kept:
        if len(kept) >= 4:
            del kept[next(iter(kept))]  # the oldest
        kept[play] = new_choice_cache(CHOICE_BITS)
    return _WORKER["cache"], kept[play]


def clear_caches() -> None:
    """Forget this process's evaluation cache and caches of choices (:func:`_caches`): the
    next rollout here starts cold, as in a new process (a benchmark's rounds; results never
    depend on them)."""
    for key in ("cache", "cache_for", "choices"):
        _WORKER.pop(key, None)


def _init_worker(weights) -> None:
    _WORKER["weights"] = weights


def run_chunk(job: Job, settings: RolloutSettings, first: int, count: int, weights=None) -> Partial:
    """Roll out trials ``first .. first + count - 1`` of ``job`` (runs in any process)."""
    return run_chunks(job, settings, [(first, count)], weights)[0]


def run_chunks(job: Job, settings: RolloutSettings, chunks: list[tuple[int, int]], weights=None) -> list[Partial]:
    """:func:`run_chunk` of each (first, count) in ``chunks``, in one call of the kernel
    (the same results as one call each, for less)."""
    w, db = _context(weights)
    met = settings.table
    n = len(chunks)
    sums = np.zeros((n, N_OUTPUTS))
    sumsq = np.zeros((n, N_OUTPUTS))
    plies = np.zeros(n, np.int64)
    firsts = np.array([f for f, _ in chunks], np.int64)
    counts = np.array([c for _, c in chunks], np.int64)
    info = job.info
    am, ao = info.away if not info.money else (1, 1)
    spec = TrialSettings(settings.seed, settings.truncate, settings.bearoff_truncation, settings.variance_reduction,
                         settings.cubeful)
    stakes = Stakes(info.money, am, ao, info.cube, info.owner, info.crawford, met.pre, met.post,
                    info.jacoby and info.money, job.first_cube)
    ch = make_chooser(w.arrays(), settings.ply, settings.candidates, db.tables(),
                      pruning=_pruning() if settings.pruning else None)
    cache, choices = _caches(w, settings, job)
    one_ply = None if settings.ply == 0 else 1  # (the kernel compiled for that search only)
    rollout_kernel(job.board, firsts, counts, spec, stakes, ch, one_ply, sums, sumsq, plies, cache, choices)
    return [Partial(int(counts[i]), sums[i], sumsq[i], int(plies[i])) for i in range(n)]


def _timed_chunks(task: ChunkTask, weights=None) -> ChunkResult:
    """:func:`run_chunks` of ``task`` and the seconds it took, for the executors' sizing of tasks."""
    t0 = time.perf_counter()
    parts = run_chunks(task.job, task.settings, task.chunks, weights)
    return ChunkResult(parts, time.perf_counter() - t0)


def warm_up(weights=None, ply: int = 0, helpers: int = 0) -> None:
    """Compile (or load from Numba's cache) the kernels of ``ply`` checker play in this process.
    ``helpers`` > 0: where they are not in the cache, a helper process compiles half of the
    kernel's callees meanwhile (:mod:`bgtools.rollouts.leaves`; for a caller with two cores)."""
    pos = Position.initial()
    # the shipped table (a money position does not use it): a worker's environment is never read
    s = RolloutSettings(trials=1, truncate=2, variance_reduction=True, cubeful=True, ply=ply,
                        met=load_met(next(iter(METS))))
    if helpers > 0:
        _callees_with_help(weights, s)
    run_chunk(Job.make(pos), s, 0, 1, weights)


def _callees_with_help(weights, settings: RolloutSettings) -> None:
    """Compile (or load) the rollout kernel's callees: this process half of them, and where
    one of those is not in the cache (a first run), a helper process the other half at the
    same time; returns when both are done (the kernel then finds them all compiled)."""
    import concurrent.futures as cf
    import multiprocessing as mp

    from bgtools.base.compiles import watch_compiles
    from bgtools.base.workers import pool_options
    from bgtools.rollouts.leaves import HELPER, PARENT, warm_callees

    w, db = _context(weights)
    ch = make_chooser(w.arrays(), settings.ply, settings.candidates, db.tables(),
                      pruning=_pruning() if settings.pruning else None)
    helper: list = []

    def started() -> None:  # the first compile: the cache is cold, so start the helper
        if not helper:
            pool = cf.ProcessPoolExecutor(max_workers=1, mp_context=mp.get_context("spawn"), **pool_options())
            light = ch._replace(tables=_bo.empty_tables())  # (the helper's half needs the net only)
            helper.append((pool, pool.submit(warm_callees, HELPER, light)))

    with watch_compiles(started, lambda: None):
        warm_callees(PARENT, ch)
    for pool, fut in helper:
        try:
            fut.result()
        except Exception:  # (a helper that failed leaves its half to the kernel's compile: slower, not different)
            pass
        finally:
            pool.shutdown(wait=True)


class _Box:
    """A finished result standing in for a future (hashed by identity)."""

    __slots__ = ("value",)

    def __init__(self, value) -> None:
        self.value = value


class _Inline:
    """Runs each task at once in this process."""

    def __init__(self, weights) -> None:
        self.weights = weights

    def submit(self, job, settings, chunks):
        return _Box(_timed_chunks(ChunkTask(job, settings, chunks), self.weights))

    def wait(self, pending):
        return list(pending)

    def result(self, fut):
        return fut.value

    def close(self) -> None:
        pass


class _Pool:
    """A local pool of ``jobs`` processes (spawned, each given the weights once)."""

    def __init__(self, weights, jobs: int) -> None:
        import concurrent.futures as cf

        from bgtools.base.parallel import process_pool

        self._cf = cf
        # the pool of every command; workers end when this process dies, even by kill -9
        self.pool = process_pool(jobs, _init_worker, (weights,), spawn=True)

    def submit(self, job, settings, chunks):
        return self.pool.submit(_timed_chunks, ChunkTask(job, settings, chunks), None)

    def wait(self, pending):
        done, _ = self._cf.wait(pending, return_when=self._cf.FIRST_COMPLETED)
        return list(done)

    def result(self, fut):
        return fut.result()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


class _Dask:
    """An existing dask.distributed cluster; the weights are scattered to every worker once."""

    def __init__(self, weights, address, ply: int = 0) -> None:
        from bgtools.base.parallel import dask_client

        self.client, self.own = dask_client(address)  # the client every --dask command gets
        import distributed

        self._d = distributed
        self.ac = None
        self.weights = self.client.scatter(weights, broadcast=True)
        self.client.run(warm_up, weights, ply)  # each worker compiles or loads the kernels once

    def submit(self, job, settings, chunks):
        fut = self.client.submit(_timed_chunks, ChunkTask(job, settings, chunks), self.weights, pure=False)
        if self.ac is None:
            self.ac = self._d.as_completed([fut], loop=self.client.loop)
        else:
            self.ac.add(fut)
        return fut

    def wait(self, pending):
        return [next(self.ac)]

    def result(self, fut):
        return fut.result()

    def close(self) -> None:
        if self.own:
            self.client.close()


def make_executor(weights, jobs: int = 1, dask=None, ply: int = 0):
    """(executor, how many tasks to keep in flight): the Dask cluster at ``dask`` (an
    address or a ``distributed.Client``), a local pool of ``jobs`` processes, or this
    process; ``ply``: the checker play whose kernels a pool or cluster compiles first."""
    if dask is not None:
        ex = _Dask(weights, dask, ply)
        return ex, 4 * max(1, len(ex.client.nthreads()))
    if jobs > 1:
        # compile the kernels here, once, before the workers start: they then load them from
        # Numba's cache (after installing, each worker compiled the same kernels: twice the work)
        warm_up(weights, ply, helpers=1)
        return _Pool(weights, jobs), 3 * jobs
    return _Inline(weights), 1
