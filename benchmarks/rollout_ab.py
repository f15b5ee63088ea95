"""Our rollouts' CPU time in this checkout against another checkout, in alternating processes.

For a change to the rollout kernel that must leave every result the same: each round runs one
process per checkout (this one and ``--other``, each with its own Numba cache folder), each
process rolls out the positions below from cold caches (as ``rollout_vs_gnubg_speed.py`` does,
one core, bear-off truncation off) ``--reps`` times per mode and keeps its least CPU time;
printed per position and mode: the least over the rounds for each checkout, the ratio
other / this (above 1: this checkout is faster), and whether the two gave the same equities.

    python benchmarks/rollout_ab.py --other /path/to/old/checkout [--rounds 3] [--reps 2]
        [--cache DIR --other-cache DIR] [--positions ID:FACTOR,...]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the slow records of rollout_vs_gnubg_speed.py (bear-ins, a crashed bear-off, a short race) and
#: the power of two times 648 trials each gets
POSITIONS = "d7sBADB25xsAAA:4,73YAABzZ7TYAAA:4,39sCAAH/zQADAA:16,HQAA4L8HAIIAAA:128"
MODES = (("cubeless", 648), ("cubeless+VR", 72), ("cubeful", 648))

CHILD = r'''
import json, os, sys, time
from dataclasses import replace
sys.path.insert(0, sys.argv[1])
from bgtools.core.position import Position
from bgtools.engine.nets.nn import load_default_network
from bgtools.rollouts import Job, RolloutSettings, rollout_many
from bgtools.rollouts.executors import clear_caches
net = load_default_network("rollout").weights
def one(pid, mode, trials):
    s = RolloutSettings(trials=trials, seed=1, cubeful=mode == "cubeful", variance_reduction="VR" in mode,
                        bearoff_truncation=False, jacoby=False)
    job = replace(Job.make(Position.from_id(pid), None, jacoby=False), first_cube=False)
    clear_caches()
    t0 = time.process_time()
    res = next(rollout_many([job], s, net, jobs=1))
    return time.process_time() - t0, res
out = {}
for item in sys.argv[3].split(","):
    pid, factor = item.rsplit(":", 1)
    for mode, n in json.loads(sys.argv[4]):
        one(pid, mode, 4)  # compile or load the kernels
        best = None
        for _ in range(int(sys.argv[2])):
            t, res = one(pid, mode, n * int(factor))
            best = t if best is None else min(best, t)
        out[pid + " " + mode] = [best, res.equity, res.cubeful_equity]
print(json.dumps(out))
'''


def run(root: Path, cache: str, reps: int, positions: str) -> dict:
    env = dict(os.environ, BGTOOLS_NUMBA_CACHE_DIR=cache, NUMBA_NUM_THREADS="1")
    got = subprocess.run([sys.executable, "-c", CHILD, str(root), str(reps), positions, json.dumps(MODES)],
                         capture_output=True, text=True, env=env, check=True)
    return json.loads(got.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--other", required=True, help="the other checkout (e.g. a git worktree of the commit before)")
    ap.add_argument("--cache", default=os.environ.get("BGTOOLS_NUMBA_CACHE_DIR", ""),
                    help="this checkout's Numba cache folder (default: $BGTOOLS_NUMBA_CACHE_DIR)")
    ap.add_argument("--other-cache", required=True, help="the other checkout's Numba cache folder")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--positions", default=POSITIONS, help="ID:FACTOR,... (trials: 648 x FACTOR, 72 x FACTOR with VR)")
    args = ap.parse_args(argv)
    t = time.perf_counter()
    mine: list[dict] = []
    theirs: list[dict] = []
    for _ in range(args.rounds):
        mine.append(run(ROOT, args.cache, args.reps, args.positions))
        theirs.append(run(Path(args.other), args.other_cache, args.reps, args.positions))
    print(f"# python benchmarks/rollout_ab.py --other {args.other} --rounds {args.rounds} --reps {args.reps}: "
          f"{time.perf_counter() - t:.0f} s wall; least CPU seconds of each checkout, one core, cold caches")
    print(f"{'position':16} {'mode':12} {'this':>8} {'other':>8} {'other/this':>10}  same results")
    for key in mine[0]:
        a = min(r[key][0] for r in mine)
        b = min(r[key][0] for r in theirs)
        same = mine[0][key][1:] == theirs[0][key][1:]
        pid, mode = key.split(" ")
        print(f"{pid:16} {mode:12} {a:8.4f} {b:8.4f} {b / a:10.3f}  {same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
