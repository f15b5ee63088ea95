"""Worker processes end when their parent is killed (bgtools.base.workers, issue 13)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bgtools.base.workers import exit_with_parent, pool_options, set_parent_death_signal

ROOT = Path(__file__).resolve().parent.parent

# a parent that starts a pool through the helper, reports its workers' pids and waits to be killed
PARENT = r"""
import json, os, sys, time
import multiprocessing as mp
import concurrent.futures as cf
from bgtools.base.workers import pool_options

kind, use_prctl, busy = sys.argv[1], sys.argv[2] == "1", sys.argv[3] == "1"


def spin(_):
    t = time.time()
    while time.time() - t < 60:
        pass


def mark(tag):
    os.environ["BGTOOLS_TEST_INIT"] = tag


def has_mark(_):
    return os.getpid(), os.environ.get("BGTOOLS_TEST_INIT")


if __name__ == "__main__":
    if kind == "pool":
        pool = mp.get_context("fork").Pool(2, **pool_options(mark, "ok", use_prctl=use_prctl))
        got = pool.map(has_mark, range(8), chunksize=1)
        pids = [p.pid for p in pool._pool]
        if busy:
            pool.map_async(spin, range(2), chunksize=1)
    else:
        ex = cf.ProcessPoolExecutor(2, mp_context=mp.get_context("spawn"),
                                    **pool_options(mark, "ok", use_prctl=use_prctl))
        got = list(ex.map(has_mark, range(8)))
        pids = list(ex._processes)
        if busy:
            [ex.submit(spin, i) for i in range(2)]
    from multiprocessing import resource_tracker
    tracker = getattr(resource_tracker._resource_tracker, "_pid", None)
    print(json.dumps({"workers": pids, "init": sorted({m for _, m in got}), "tracker": tracker}), flush=True)
    time.sleep(120)
"""


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")  # a zombie has ended
    except FileNotFoundError:
        return True


def _wait_gone(pids, seconds: float) -> list:
    end = time.time() + seconds
    while time.time() < end:
        left = [p for p in pids if not _gone(p)]
        if not left:
            return []
        time.sleep(0.1)
    return [p for p in pids if not _gone(p)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("kind, use_prctl, busy", [
    ("pool", True, False), ("pool", True, True), ("pool", False, False), ("pool", False, True),
    ("executor", True, False), ("executor", False, True),
])
def test_workers_end_when_the_parent_is_killed(tmp_path, kind, use_prctl, busy):
    script = tmp_path / "parent.py"
    script.write_text(PARENT)
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.Popen([sys.executable, str(script), kind, str(int(use_prctl)), str(int(busy))],
                         stdout=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    workers: list = []
    try:
        info = json.loads(p.stdout.readline())
        workers = info["workers"]
        assert len(workers) == 2 and info["init"] == ["ok"]  # the pool's own initializer ran too
        assert not any(_gone(w) for w in workers)  # alive while the parent is
        time.sleep(0.3)
        os.kill(p.pid, signal.SIGKILL)
        p.wait(10)
        left = _wait_gone(workers, 5.0)
        assert left == [], f"workers {left} outlived their parent"
        if info["tracker"]:  # the resource tracker ends once nobody holds its pipe
            assert _wait_gone([info["tracker"]], 5.0) == []
    finally:
        if p.poll() is None:
            p.kill()
        for pid in workers:  # never leave one behind, whatever failed
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_a_worker_whose_parent_is_already_gone_exits_at_once():
    code = "from bgtools.base.workers import exit_with_parent\nexit_with_parent(1)\nprint('still here')\n"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert r.returncode == 128 + signal.SIGTERM and "still here" not in r.stdout


def test_pool_options_and_the_prctl_call():
    opts = pool_options(print, "x")
    assert opts["initializer"] is exit_with_parent and opts["initargs"] == (os.getpid(), print, "x")
    assert pool_options(use_prctl=False)["initializer"] is not exit_with_parent
    if sys.platform.startswith("linux"):
        # in a child, so this test process keeps no death signal
        r = subprocess.run([sys.executable, "-c", "from bgtools.base.workers import set_parent_death_signal as s;"
                            "import sys; sys.exit(0 if s() else 1)"], timeout=60, cwd=ROOT)
        assert r.returncode == 0
    else:
        assert set_parent_death_signal() is False
