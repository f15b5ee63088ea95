"""Mapping a function over many inputs in order: in this process, in a local process pool,
or on a Dask cluster, streamed.

:func:`ordered_map` yields ``fn(item)`` for each item in the order of ``items`` whatever
runs it, so a command's output is the same for any ``--jobs`` and for ``--dask``.  It is
lazy at both ends: ``items`` is read only as tasks are started (at most ``in_flight`` of
them unfinished at once) and each result is handed over as soon as it and all before it
are done, so memory stays flat over any number of inputs.  Pool workers end with this
process (:func:`bgtools.base.workers.pool_options`); the Python warnings a pool task
raises are shown here, in its turn, as if it had run here (on Dask they stay in the
worker's log).  The move generator and replay kernels keep per-process scratch buffers,
so on Dask the tasks of one worker process run one at a time (:func:`_serial`): give
the workers one thread each and as many processes as cores (``dask worker --nthreads 1
--nworkers N``).

>>> list(ordered_map(abs, iter([-2, 1, -3])))
[2, 1, 3]
"""

from __future__ import annotations

import collections
import functools
import gc
import itertools
import multiprocessing as mp
import pickle
import threading
import traceback
import warnings
from typing import Any, Callable, Generator, Iterable, Iterator, Optional, TypeVar

from bgtools.base.collector import gc_paused
from bgtools.base.errors import BgtoolsError
from bgtools.base.workers import pool_options

__all__ = ["ParallelError", "WorkerTraceback", "ordered_map", "chunk_size", "dask_client", "IN_FLIGHT_PER_WORKER"]

T = TypeVar("T")
R = TypeVar("R")

#: tasks kept unfinished per worker: enough to keep every worker busy, few enough to stay small
IN_FLIGHT_PER_WORKER = 2


class ParallelError(BgtoolsError):
    """The workers asked for cannot be had (no dask.distributed, no scheduler at the address)."""


def dask_client(address: Any):
    """(client, owned): a ``distributed.Client`` for ``address`` (a scheduler address or a
    client, which is then used as it is and not closed)."""
    try:
        import distributed
    except ImportError:
        raise ParallelError("--dask needs dask.distributed: pip install 'bgtools[dask]'") from None
    if isinstance(address, distributed.Client):
        return address, False
    try:
        return distributed.Client(address), True  # waits distributed.comm.timeouts.connect (dask config)
    except (OSError, TimeoutError, ValueError) as e:
        raise ParallelError(f"{address}: cannot reach the Dask scheduler: {e}") from None


def ordered_map(fn: Callable[[T], R], items: Iterable[T], *, jobs: int = 1, dask: Any = None,
                in_flight: int = 0, init: Optional[Callable[..., Any]] = None,
                initargs: tuple = (), chunk: int = 1) -> Generator[R, None, None]:
    """``fn(item)`` for each of ``items``, in order, streamed.

    ``dask`` (a scheduler address or a ``distributed.Client``) runs one task per item on
    that cluster; else ``jobs > 1`` runs them in a local pool of ``jobs`` processes (forked
    where possible, so what this process has loaded is there already; each runs
    ``init(*initargs)`` first), else here, one by one.  At most ``in_flight`` tasks (default
    :data:`IN_FLIGHT_PER_WORKER` per worker) are unfinished at once.  ``chunk``: in the
    pool, up to that many items go to a worker as one task (fewer hand-overs for many
    small items, such as match files: see :func:`chunk_size`); the results are the same
    and come one by one.  An exception raised by ``fn`` is raised here, in its turn (after
    the results of the items before it); stopping early cancels what is left.
    """
    if dask is not None:
        return _dask_map(fn, items, dask, in_flight)
    if jobs > 1:
        limit = in_flight or IN_FLIGHT_PER_WORKER * jobs
        if chunk > 1:
            return _chunked_pool_map(fn, items, jobs, limit, init, initargs, chunk)
        return _pool_map(fn, items, jobs, limit, init, initargs)
    return _local_map(fn, items, init, initargs)


def chunk_size(n: int, jobs: int) -> int:
    """Items per pool task for ``n`` small tasks over ``jobs`` workers: at most 4, and few
    enough that every worker still gets four tasks or more (so that the last ones end
    about together).

    >>> chunk_size(61, 2), chunk_size(10, 2), chunk_size(10_000, 2), chunk_size(5, 1)
    (4, 1, 4, 1)
    """
    if jobs <= 1:
        return 1
    return max(1, min(4, n // (4 * jobs)))


def _local_map(fn, items, init, initargs) -> Generator:
    if init is not None:
        init(*initargs)
    for x in items:
        yield fn(x)


def _bounded(submit, items, limit: int, result) -> Iterator:
    """Keep up to ``limit`` submitted tasks and yield their results in submission order."""
    pending: collections.deque = collections.deque()
    it = iter(items)
    exhausted = False
    while True:
        while not exhausted and len(pending) < limit:
            try:
                x = next(it)
            except StopIteration:
                exhausted = True
                break
            pending.append(submit(x))
        if not pending:
            return
        fut = pending.popleft()
        yield result(fut)
        del fut


def _captured(fn, x) -> tuple:
    """In a pool worker: (``fn(x)``, the warnings it raised as (text, category, file, line)).

    The garbage collector is paused for the task (:func:`~bgtools.base.collector.gc_paused`):
    what a task makes (a match read and replayed) is garbage once it returns and goes by
    reference counting, so the collector's passes over it while it was alive (a tenth of
    reading a file) are saved; cyclic garbage waits for the first pass after the task."""
    with warnings.catch_warnings(record=True) as log, gc_paused():
        warnings.simplefilter("always")
        r = fn(x)
    return r, [(str(w.message), w.category, w.filename, w.lineno) for w in log]


class WorkerTraceback(Exception):
    """The traceback of an exception raised in a pool worker (its ``__cause__`` here), as text."""


def _captured_chunk(fn, xs) -> list:
    """In a pool worker: :func:`_captured` of each of ``xs`` in turn, as a list; an item
    whose ``fn`` raises ends it with ``(None, its traceback, the exception)`` (the items
    after it are not run, as they would not be one by one).  An exception that cannot be
    pickled is handed back as a RuntimeError naming it, so that the results before it
    still come back."""
    out: list = []
    for x in xs:
        try:
            out.append(_captured(fn, x))
        except Exception as e:
            tb = traceback.format_exc()
            try:
                pickle.loads(pickle.dumps(e))
            except Exception:
                e = RuntimeError(f"{type(e).__name__}: {e} (in a pool worker; it cannot be pickled)")
            out.append((None, tb, e))
            break
    return out


def _chunks(items: Iterable, size: int) -> Iterator[list]:
    """``items`` in lists of up to ``size``, read lazily."""
    it = iter(items)
    while True:
        ch = list(itertools.islice(it, size))
        if not ch:
            return
        yield ch


#: warning registries of the re-shown warnings, one per source file (as a module's own)
_REGISTRIES: dict = {}


def _reshow(res: tuple):
    """Show the warnings a worker captured here, through this process's filters; return its result."""
    r, caught = res
    for text, category, filename, lineno in caught:
        warnings.warn_explicit(text, category, filename, lineno, registry=_REGISTRIES.setdefault(filename, {}))
    return r


def _start_worker(init, initargs: tuple) -> None:
    """A pool worker's start: what it has from its parent (a forked copy) is moved out of the
    garbage collector's sight (``gc.freeze``), so that the collector does not walk it again
    and again (nor copy its memory pages, shared with the parent, by writing to them: a
    worker forked from a large process read match files at half the speed); then ``init``."""
    gc.freeze()
    if init is not None:
        init(*initargs)


def process_pool(jobs: int, init: Optional[Callable[..., Any]] = None, initargs: tuple = (), *,
                 spawn: bool = False):
    """The local pool every command uses: ``jobs`` worker processes that end when this
    process dies (even by kill -9), each started by ``init(*initargs)``; forked where the
    system can (workers share what this process has read), or ``spawn``-ed (fresh workers:
    the rollout pool, whose workers load the kernels and keep their own caches)."""
    from concurrent.futures import ProcessPoolExecutor

    method = "spawn" if spawn or "fork" not in mp.get_all_start_methods() else "fork"
    ctx = mp.get_context(method)
    return ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, **pool_options(_start_worker, init, initargs))


def _pool_map(fn, items, jobs: int, limit: int, init, initargs, captured: bool = True) -> Generator:
    """``fn`` over ``items`` in a pool of ``jobs`` workers, ``limit`` tasks in flight;
    ``captured``: ``fn``'s warnings are caught there and shown here (else ``fn`` does it)."""
    pool = process_pool(jobs, init, initargs)
    task = functools.partial(_captured, fn) if captured else fn
    finished = False
    try:
        yield from _bounded(lambda x: pool.submit(task, x), items, limit,
                            (lambda f: _reshow(f.result())) if captured else (lambda f: f.result()))
        finished = True
    finally:
        if not finished:  # stopped early or failed: drop queued tasks, end running ones now
            for p in list((getattr(pool, "_processes", None) or {}).values()):
                try:
                    p.terminate()
                except Exception:
                    pass
        pool.shutdown(wait=True, cancel_futures=True)


def _chunked_pool_map(fn, items, jobs: int, limit: int, init, initargs, chunk: int) -> Generator:
    """:func:`_pool_map` with ``chunk`` items per task, the results handed over one by one."""
    task = functools.partial(_captured_chunk, fn)
    for results in _pool_map(task, _chunks(items, chunk), jobs, limit, init, initargs, captured=False):
        for res in results:
            if len(res) == 3:  # the item raised there: here, in its turn, with the worker's traceback
                raise res[2] from WorkerTraceback(res[1])
            yield _reshow(res)


#: one task at a time per process on Dask (its worker threads share the kernels' buffers)
_TASK_LOCK = threading.Lock()


def _serial(fn, x):
    with _TASK_LOCK:
        return fn(x)


def _dask_map(fn, items, address, limit: int) -> Generator:
    client, owned = dask_client(address)
    try:
        if not limit:
            limit = IN_FLIGHT_PER_WORKER * max(1, sum(client.nthreads().values()))
        pending: list = []

        def submit(x):
            fut = client.submit(_serial, fn, x, pure=False)
            pending.append(fut)
            return fut

        def result(fut):
            pending.remove(fut)
            return fut.result()

        try:
            yield from _bounded(submit, items, limit, result)
        finally:
            if pending:
                client.cancel(pending)
    finally:
        if owned:
            client.close()
