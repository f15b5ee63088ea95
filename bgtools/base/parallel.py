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
import multiprocessing as mp
import threading
import warnings
from typing import Any, Callable, Generator, Iterable, Iterator, Optional, TypeVar

from bgtools.base.errors import BgtoolsError
from bgtools.base.workers import pool_options

__all__ = ["ParallelError", "ordered_map", "dask_client", "IN_FLIGHT_PER_WORKER"]

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
                initargs: tuple = ()) -> Generator[R, None, None]:
    """``fn(item)`` for each of ``items``, in order, streamed.

    ``dask`` (a scheduler address or a ``distributed.Client``) runs one task per item on
    that cluster; else ``jobs > 1`` runs them in a local pool of ``jobs`` processes (forked
    where possible, so what this process has loaded is there already; each runs
    ``init(*initargs)`` first), else here, one by one.  At most ``in_flight`` tasks (default
    :data:`IN_FLIGHT_PER_WORKER` per worker) are unfinished at once.  An exception raised
    by ``fn`` is raised here, in its turn; stopping early cancels what is left.
    """
    if dask is not None:
        return _dask_map(fn, items, dask, in_flight)
    if jobs > 1:
        return _pool_map(fn, items, jobs, in_flight or IN_FLIGHT_PER_WORKER * jobs, init, initargs)
    return _local_map(fn, items, init, initargs)


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
    """In a pool worker: (``fn(x)``, the warnings it raised as (text, category, file, line))."""
    with warnings.catch_warnings(record=True) as log:
        warnings.simplefilter("always")
        r = fn(x)
    return r, [(str(w.message), w.category, w.filename, w.lineno) for w in log]


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


def _pool_map(fn, items, jobs: int, limit: int, init, initargs) -> Generator:
    from concurrent.futures import ProcessPoolExecutor

    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, **pool_options(_start_worker, init, initargs))
    task = functools.partial(_captured, fn)
    finished = False
    try:
        yield from _bounded(lambda x: pool.submit(task, x), items, limit, lambda f: _reshow(f.result()))
        finished = True
    finally:
        if not finished:  # stopped early or failed: drop queued tasks, end running ones now
            for p in list((getattr(pool, "_processes", None) or {}).values()):
                try:
                    p.terminate()
                except Exception:
                    pass
        pool.shutdown(wait=True, cancel_futures=True)


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
