"""Time to annotate a 7-point match, beside gnubg's ``analyse match``, and the warm-cache speed-up.

First the analysis' kernels (``bgtools warmup``'s group), untimed; then for each ply (default 0 and 2): the
first game alone, untimed in the comparison (it loads the network and compiles the kernels, or loads them
from Numba's cache: that first call's time is printed), then one cold run of :func:`bgtools.analysis.analyse_match`
with an empty evaluation cache (the baseline, timed in this run), then a second run of the
same match with the cache warm; prints both times and their ratio.  When gnubg is
installed, times its ``analyse match`` (chequer play and cube at the same ply, luck at
0 ply as its default) on the same file in the same run and prints our time / gnubg's.
Last, the whole processes as a user runs them: ``bgtools annotate --ply N --no-cache FILE``
beside gnubg started, importing the file and analysing it.
(shared/oracle/timing.md: gnubg takes about 0.4 s at 0 ply and 20 s at 2 ply per
gnubg-vs-gnubg 7-point match on these 2-core machines.)

    python benchmarks/annotate.py [--plies 0,2] [FILE]

Default FILE: tests/data/matches/selfplay/010.mat (7 points, 4 games, 147 unforced plays).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bgtools.analysis.analyse import analyse_match  # noqa: E402
from bgtools.analysis.evalcache import EvalStore  # noqa: E402
from bgtools.analysis.warmup import warm_groups  # noqa: E402
from bgtools.formats import read_match  # noqa: E402

GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")

_GNUBG_SCRIPT = """
import gnubg, time, json
gnubg.command('set analysis chequerplay evaluation plies {ply}')
gnubg.command('set analysis cubedecision evaluation plies {ply}')
gnubg.command('set analysis chequerplay evaluation prune on')
gnubg.command('set threads 1')
gnubg.command('import mat "{path}"')
t = time.time()
gnubg.command('analyse match')
print("SECONDS", json.dumps(time.time() - t))
"""


def gnubg_time(path: Path, ply: int) -> tuple[float, float] | None:
    """gnubg's ``analyse match`` time and its whole process's time (start, import, analyse)."""
    if GNUBG is None or path.suffix != ".mat":
        return None
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "a.py"
        script.write_text(_GNUBG_SCRIPT.format(ply=ply, path=path))
        t = time.perf_counter()
        p = subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], capture_output=True, text=True, timeout=900)
        whole = time.perf_counter() - t
    for line in p.stdout.splitlines():
        if line.startswith("SECONDS"):
            return float(json.loads(line.split(None, 1)[1])), whole
    return None


def command_time(path: Path, ply: int) -> float:
    """The whole ``bgtools annotate --ply N --no-cache FILE`` process, as a user runs it."""
    cmd = [sys.executable, "-m", "bgtools", "annotate", "--ply", str(ply), "--no-cache", str(path)]
    t = time.perf_counter()
    subprocess.run(cmd, capture_output=True, check=True, cwd=ROOT, timeout=900)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?", default=str(ROOT / "tests/data/matches/selfplay/010.mat"))
    ap.add_argument("--plies", default="0,2")
    args = ap.parse_args()
    path = Path(args.file).resolve()
    m = read_match(str(path))
    print(f"{path.name}: {m.length}-point match, {len(m.games)} games; NUMBA_NUM_THREADS=1")
    unforced = None
    # outside the timings: the analysis' kernels (the late-game rollouts' too, which a first game may not reach)
    t = time.perf_counter()
    for _ in warm_groups(["analysis"]):
        pass
    print(f"the analysis' kernels compiled or loaded: {time.perf_counter() - t:.2f} s", flush=True)
    for ply in (int(x) for x in args.plies.split(",")):
        # load the network and compile (or load from Numba's disk cache) this ply's kernels
        # outside the timings: the first game alone, without a cache
        t = time.perf_counter()
        analyse_match(dataclasses.replace(m, games=m.games[:1]), ply=ply, cache=None)
        print(f"ply {ply}: first call (one game; loads the net, compiles or loads the kernels) "
              f"{time.perf_counter() - t:.2f} s", flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "evals.sqlite"
            with EvalStore(db) as cache:
                t = time.perf_counter()
                a = analyse_match(m, ply=ply, cache=cache)
                cold = time.perf_counter() - t
            with EvalStore(db) as cache:
                t = time.perf_counter()
                b = analyse_match(m, ply=ply, cache=cache)
                warm = time.perf_counter() - t
                entries = len(cache)
        assert [d.equity_loss for d in a.decisions] == [d.equity_loss for d in b.decisions]
        unforced = sum(d.kind == "checker" and not d.forced for d in a.decisions)
        g = gnubg_time(path, ply)
        line = (f"ply {ply}: {unforced} unforced plays, {len(a.decisions)} decisions; cold cache {cold:.2f} s "
                f"({1000 * cold / max(unforced, 1):.0f} ms per unforced play), warm cache {warm:.2f} s "
                f"-> speed-up x{cold / warm:.1f} ({entries} cached evaluations)")
        if g is not None:
            line += (f"; gnubg analyse match {g[0]:.2f} s -> ours / gnubg = {cold / g[0]:.2f}x (cold), "
                     f"{warm / g[0]:.2f}x (warm)")
        print(line, flush=True)
        whole = command_time(path, ply)
        line = f"ply {ply}: whole command `bgtools annotate --ply {ply} --no-cache` {whole:.2f} s"
        if g is not None:
            line += f"; whole gnubg process (start, import, analyse) {g[1]:.2f} s -> {whole / g[1]:.2f}x"
        print(line, flush=True)


if __name__ == "__main__":
    main()
