"""A first run says that it compiles the kernels (and about how long that takes); a warm run
says nothing; ``bgtools warmup`` compiles them in advance."""

from __future__ import annotations

import os
import subprocess
import sys

import numba as nb

from bgtools.analysis.warmup import GROUPS, group_of
from bgtools.base.compiles import watch_compiles

NOTICE = "bgtools: compiling the move generation kernels, once after installing: about"


def _bgtools(args: list[str], cache) -> subprocess.CompletedProcess:
    env = dict(os.environ, BGTOOLS_NUMBA_CACHE_DIR=str(cache))
    return subprocess.run([sys.executable, "-m", "bgtools", *args], capture_output=True, text=True, env=env,
                          timeout=900)


def test_a_first_run_says_it_compiles_and_a_warm_run_does_not(tmp_path):
    # ``moves`` is the cheapest command that compiles kernels (move generation: a few seconds)
    cold = _bgtools(["moves", "4HPwATDgc/ABMA", "31"], tmp_path)
    assert cold.returncode == 0, cold.stderr
    assert "8/5 6/5" in cold.stdout
    assert cold.stderr.count(NOTICE) == 1
    warm = _bgtools(["moves", "4HPwATDgc/ABMA", "31"], tmp_path)
    assert warm.returncode == 0 and warm.stdout == cold.stdout
    assert "compiling" not in warm.stderr


def test_warmup_compiles_the_groups_it_is_given(tmp_path):
    r = _bgtools(["warmup", "move generation", "--jobs", "1"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("move generation: ready (")
    after = _bgtools(["moves", "4HPwATDgc/ABMA", "31"], tmp_path)
    assert after.returncode == 0 and "compiling" not in after.stderr


def test_warmup_refuses_an_unknown_group(tmp_path):
    r = _bgtools(["warmup", "nonsense"], tmp_path)
    assert r.returncode == 2
    assert r.stderr.startswith("bgtools: error: unknown group 'nonsense'") and r.stderr.count("\n") == 1


def test_watch_compiles_sees_a_compile_and_not_a_compiled_kernel():
    calls: list[str] = []

    @nb.njit(cache=False)
    def twice(x):
        return 2 * x

    with watch_compiles(lambda: calls.append("start"), lambda: calls.append("end")):
        assert twice(3) == 6
        assert calls == ["start", "end"]
        assert twice(4) == 8  # compiled already
    assert calls == ["start", "end"]
    assert twice(2.5) == 5.0  # (a new signature compiles, but nobody watches now)
    assert calls == ["start", "end"]


def test_every_command_that_compiles_has_one_group():
    named = [c for g in GROUPS for c in g.commands]
    assert len(named) == len(set(named))
    assert group_of("rollout").name == "rollout" and group_of("hint").name == "evaluation"
    assert group_of("show") is None


def test_warmup_help_reads_like_the_other_commands():
    from typer.main import get_command
    from typer.testing import CliRunner

    from bgtools.cli.app import app

    r = CliRunner().invoke(app, ["warmup", "--help"], terminal_width=200)
    assert r.exit_code == 0 and "<int>" not in r.stdout and "GROUP" in r.stdout
    assert all(p.help for p in get_command(app).commands["warmup"].params)


def test_a_pool_compiles_the_kernels_in_the_parent_before_its_workers_start(monkeypatch):
    from bgtools.rollouts import executors

    calls: list = []
    monkeypatch.setattr(executors, "warm_up", lambda weights, ply=0, helpers=0: calls.append(("warm_up", ply, helpers)))
    monkeypatch.setattr(executors, "_Pool", lambda weights, workers: calls.append(("pool", workers)) or "pool")
    assert executors.make_executor(None, 2, None, 1) == ("pool", 6)
    assert calls == [("warm_up", 1, 1), ("pool", 2)]
    calls.clear()
    ex, window = executors.make_executor(None, 1)
    assert calls == [] and window == 1  # one process: it compiles when it first runs a chunk


def test_the_notice_starts_the_helper_once_at_the_first_compile_and_waits_for_it():
    from bgtools.cli.common import compile_notice

    events: list[str] = []

    def helper():
        events.append("helper started")
        return lambda: events.append("helper waited for")

    @nb.njit(cache=False)
    def thrice(x):
        return 3 * x

    with compile_notice("test", 1, helper):
        assert thrice(2) == 6
        assert thrice(1.5) == 4.5  # a second compile starts no second helper
        assert events == ["helper started"]
    assert events == ["helper started", "helper waited for"]
    with compile_notice("test", 1, helper):  # nothing compiles: no helper
        assert thrice(3) == 9
    assert events == ["helper started", "helper waited for"]


def test_the_search_helper_compiles_its_kernels_in_another_process(tmp_path, monkeypatch):
    from bgtools.analysis.warmup import start_helper

    from bgtools.analysis.warmup import _analysis_callees, _search_callees

    group = group_of("hint")
    assert group.helper is _search_callees
    # the analysis' helper compiles the same, then the rollout kernels (late-game plays are settled by rollouts)
    assert group_of("annotate").helper is _analysis_callees
    group.helper()  # in this process: runs (the kernels load from the cache or compile)
    monkeypatch.setenv("BGTOOLS_NUMBA_CACHE_DIR", str(tmp_path))  # the helper compiles into an empty cache
    close = start_helper(group)
    if close is None:
        assert (os.cpu_count() or 1) < 2
        return
    import time

    t = time.monotonic()
    while not any(tmp_path.rglob("*.nbi")) and time.monotonic() - t < 300:
        time.sleep(0.5)
    found = any(tmp_path.rglob("*.nbi"))  # its kernels are in the cache for the command's own process
    t = time.monotonic()
    close()  # a helper still at work is stopped, at once
    assert found and time.monotonic() - t < 30
