"""A first rollout on two cores compiles the kernel's callees in two processes: the helper
starts only when something is compiled, and the callees compiled apart are the very ones the
kernel calls (else the kernel compiles them again, and the helper's work was for nothing)."""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import subprocess
import sys
import textwrap
from contextlib import contextmanager

import pytest

from bgtools.base import compiles
from bgtools.rollouts import executors, warm_up
from bgtools.rollouts.leaves import HELPER, PARENT, warm_callees


class _InlinePool:
    """Stands in for the helper's process pool: runs each task here, records what it did."""

    made: list = []

    def __init__(self, **kwargs) -> None:
        _InlinePool.made.append(("pool", kwargs["max_workers"]))

    def submit(self, fn, *args):
        _InlinePool.made.append(("submit", args[0]))
        fut: cf.Future = cf.Future()
        fut.set_result(fn(*args))
        return fut

    def shutdown(self, wait=True) -> None:
        _InlinePool.made.append(("shutdown", wait))


@pytest.fixture
def pool(monkeypatch):
    _InlinePool.made = []
    monkeypatch.setattr(cf, "ProcessPoolExecutor", _InlinePool)
    return _InlinePool.made


def _settings():
    from bgtools.engine.cubeful.met import METS, load_met
    from bgtools.rollouts.settings import RolloutSettings

    return RolloutSettings(trials=1, cubeful=True, met=load_met(next(iter(METS))))


def test_no_helper_when_the_kernels_are_in_the_cache(pool):
    warm_up()  # compiled (or loaded) now: nothing below compiles
    executors._callees_with_help(None, _settings())
    assert pool == []


def test_a_helper_takes_its_half_when_something_compiles(pool, monkeypatch):
    @contextmanager
    def cold(started, finished):  # as if the first callee were not in the cache
        started()
        yield
        finished()

    monkeypatch.setattr(compiles, "watch_compiles", cold)
    executors._callees_with_help(None, _settings())
    assert pool == [("pool", 1), ("submit", HELPER), ("shutdown", True)]


def test_an_unknown_half_is_refused():
    with pytest.raises(ValueError, match="unknown half"):
        warm_callees("everything")
    assert warm_callees(PARENT) == PARENT and warm_callees(HELPER) == HELPER


#: what the kernel may still compile itself after both halves: Numba's own helpers (not
#: kept in the on-disk cache), and the few callees typed only inside it
KERNEL_OWN = {"_outcome_mwc", "ol_np_zeros", "ol_np_empty", "ol_max", "ol_min", "make_quicksort_impl"}

PROBE = textwrap.dedent("""
    import json
    from numba.core import event
    from bgtools.rollouts import warm_up
    from bgtools.rollouts.leaves import HELPER, PARENT, warm_callees

    warm_callees(HELPER)
    warm_callees(PARENT)
    stack, kids = [], set()

    class Listener(event.Listener):
        def on_start(self, ev):
            name = ev.data["dispatcher"].py_func.__qualname__.split(".")[0]
            if stack and stack[-1] == "rollout_kernel":
                kids.add(name)
            stack.append(name)

        def on_end(self, ev):
            stack.pop()

    event.register("numba:compile", Listener())
    warm_up()
    print(json.dumps(sorted(kids)))
""")


@pytest.mark.slow
def test_the_halves_are_the_callees_the_kernel_calls(tmp_path):
    # a first compile in an empty cache: about a minute of CPU
    env = dict(os.environ, BGTOOLS_NUMBA_CACHE_DIR=str(tmp_path))
    r = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, timeout=900)
    assert r.returncode == 0, r.stderr
    compiled_by_the_kernel = set(json.loads(r.stdout.strip().splitlines()[-1]))
    assert compiled_by_the_kernel <= KERNEL_OWN, compiled_by_the_kernel - KERNEL_OWN
