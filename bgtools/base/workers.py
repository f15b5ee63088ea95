"""Worker processes that do not outlive their parent.

A pool's workers are separate processes: when the parent is killed (``kill -9``, the OOM
killer) nothing tells them, and idle ones wait for work for ever while busy ones finish
what they were given.  :func:`exit_with_parent` is a pool initializer that fixes this:

* on Linux it asks the kernel (``prctl(PR_SET_PDEATHSIG, SIGTERM)``) to send the worker
  SIGTERM as soon as its parent dies;
* everywhere it also starts a daemon thread that checks ``os.getppid()`` twice a second and
  ends the worker when the parent is gone (the fallback where ``prctl`` does not exist).

Use it as ``Pool(n, initializer=exit_with_parent, initargs=(os.getpid(),))`` or, with an
initializer of your own, ``initializer=exit_with_parent, initargs=(os.getpid(), init, *args)``.
:func:`pool_options` gives those two keyword arguments.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import Any, Callable, Optional

__all__ = ["exit_with_parent", "pool_options", "set_parent_death_signal", "watch_parent", "usable_cores", "POLL_SECONDS"]

#: how often the fallback thread looks at the parent
POLL_SECONDS = 0.5
_PR_SET_PDEATHSIG = 1


def set_parent_death_signal(sig: int = signal.SIGTERM) -> bool:
    """Ask Linux to send ``sig`` to this process when its parent dies; False where unsupported.

    The kernel sends it when the thread that created this process ends, so create workers
    from a long-lived thread (multiprocessing pools do, from the main thread or their
    worker-handler thread, which lives as long as the pool)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return False
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    prctl.restype = ctypes.c_int
    return prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0


def _parent_gone(parent_pid: int) -> bool:
    return os.getppid() != parent_pid


def watch_parent(parent_pid: int, poll: float = POLL_SECONDS, exit_code: int = 128 + signal.SIGTERM) -> threading.Thread:
    """Start a daemon thread that ends this process (``os._exit``) once ``parent_pid`` is no
    longer its parent (an orphan is adopted by init or a subreaper, so ``getppid`` changes)."""

    def run() -> None:
        ev = threading.Event()
        while not ev.wait(poll):
            if _parent_gone(parent_pid):
                os._exit(exit_code)

    t = threading.Thread(target=run, name="bgtools-parent-watch", daemon=True)
    t.start()
    return t


def exit_with_parent(parent_pid: Optional[int] = None, init: Optional[Callable[..., Any]] = None,
                     *initargs: Any, use_prctl: bool = True) -> None:
    """Pool initializer: make this worker end when its parent ``parent_pid`` (default: the
    current parent) dies, then run ``init(*initargs)`` if given."""
    pid = os.getppid() if parent_pid is None else int(parent_pid)
    if use_prctl:
        set_parent_death_signal(signal.SIGTERM)
    if _parent_gone(pid):  # the parent died before we got here
        os._exit(128 + signal.SIGTERM)
    watch_parent(pid)
    if init is not None:
        init(*initargs)


def _fallback_only(parent_pid: int, init: Optional[Callable[..., Any]] = None, *initargs: Any) -> None:
    """:func:`exit_with_parent` without ``prctl`` (to test the watcher thread alone)."""
    exit_with_parent(parent_pid, init, *initargs, use_prctl=False)


def pool_options(init: Optional[Callable[..., Any]] = None, *initargs: Any, use_prctl: bool = True) -> dict:
    """``{"initializer": ..., "initargs": ...}`` for ``multiprocessing.Pool`` or
    ``ProcessPoolExecutor``: workers end with this process, after running ``init(*initargs)``."""
    fn = exit_with_parent if use_prctl else _fallback_only
    return {"initializer": fn, "initargs": (os.getpid(), init, *initargs)}


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform has one, else every core)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1
