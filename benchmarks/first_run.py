"""The first run after installing: commands timed with an empty Numba kernel cache.

Each command runs as a user runs it (a whole ``bgtools`` process, start-up included) with
``BGTOOLS_NUMBA_CACHE_DIR`` a new empty folder, so it compiles every kernel it uses; then
once more with that folder filled (what every later run costs).  For each run it prints the
wall time, the CPU time of the process and its children (user + system: the work, which a
busy machine does not inflate as it does the wall time), the load average when it started,
and what the command said on stderr meanwhile (the compile notice).  The goals (issue 38):
``rollout 4HPwATDgc/ABMA --trials 1296 --jobs 2`` within 45 s and ``hint 4HPwATDgc/ABMA 31
--ply 2`` within 30 s of wall time on a quiet 2-core machine.

    python benchmarks/first_run.py [--repeat 1] [--only rollout|hint] [--fresh-install] [--keep]

``--fresh-install`` empties ``BGTOOLS_CACHE_DIR`` too (the bear-off databases are then built
and no evaluation is cached: all a new user's first run pays); ``--keep`` leaves the cache
folders (their paths are printed) and the outputs beside them.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

COMMANDS = {
    "rollout": (["rollout", "4HPwATDgc/ABMA", "--trials", "1296", "--jobs", "2", "--json"], 45.0),
    "hint": (["hint", "4HPwATDgc/ABMA", "31", "--ply", "2"], 30.0),
}


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(args: list[str], cache: Path, fresh_install: bool = False) -> dict:
    """Run ``bgtools ARGS`` with the kernel cache in ``cache`` (and with ``fresh_install``
    every other cache of bgtools beside it): wall, CPU, load, output."""
    env = dict(os.environ, BGTOOLS_NUMBA_CACHE_DIR=str(cache / "numba"))
    if fresh_install:
        env["BGTOOLS_CACHE_DIR"] = str(cache / "bgtools")
    load = os.getloadavg()[0]
    cpu0 = _children_cpu()
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "bgtools", *args], capture_output=True, text=True, env=env, cwd=ROOT)
    wall = time.perf_counter() - t0
    return {"wall": wall, "cpu": _children_cpu() - cpu0, "load": load, "rc": p.returncode, "stdout": p.stdout,
            "stderr": p.stderr}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=1, help="cold runs of each command")
    ap.add_argument("--only", choices=sorted(COMMANDS), action="append", help="these commands only")
    ap.add_argument("--fresh-install", action="store_true", help="every cache of bgtools empty, not only the kernels'")
    ap.add_argument("--keep", action="store_true", help="keep the cache folders")
    a = ap.parse_args()
    names = a.only or list(COMMANDS)
    print(f"{os.cpu_count()} cores; load average now {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(f"{'command':8} {'run':5} {'wall s':>7} {'cpu s':>7} {'load':>5}  goal  stderr")
    failed = 0
    for name in names:
        args, goal = COMMANDS[name]
        for i in range(a.repeat):
            cache = Path(tempfile.mkdtemp(prefix="bgtools-first-run-"))
            try:
                outputs = []
                for run in ("cold", "warm"):
                    r = timed(args, cache, a.fresh_install)
                    outputs.append(r["stdout"])
                    said = " | ".join(line for line in r["stderr"].splitlines() if line.strip()) or "(nothing)"
                    ok = "" if run == "warm" else ("met" if r["wall"] <= goal else "MISSED")
                    print(f"{name:8} {run:5} {r['wall']:7.1f} {r['cpu']:7.1f} {r['load']:5.2f}  {ok:6} {said[:160]}")
                    if r["rc"] != 0:
                        failed += 1
                        print(r["stderr"], file=sys.stderr)
                if outputs[0] != outputs[1]:
                    failed += 1
                    print(f"{name}: the cold run's output differs from the warm run's", file=sys.stderr)
                if a.keep:
                    (cache / f"{name}.out").write_text(outputs[0])
                    print(f"  kept {cache}")
            finally:
                if not a.keep:
                    shutil.rmtree(cache, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
