"""Rollout speed: games per second per core (CPU time), 0-ply cubeless, opening position,
with and without variance reduction, and the standard error reached per second of work.

The baseline timed in the same run is the rollout without variance reduction; the VR
figures are printed as ratios against it (cost per game, and efficiency = how much less
CPU time VR needs for the same standard error).  gnubg 1.07's figures on this kind of
machine (shared/oracle/timing.md: 227-289 games/s without VR, 12.6-12.8 with, one core)
are printed for comparison; ours are CPU seconds of one process so other load on the
machine matters less.

    PYTHONPATH=. python benchmarks/rollout.py [--weights runs/main/best.npz] [--trials 1296] [--vr-trials 144]
"""

from __future__ import annotations

import argparse
import time

from bgtools.engine.nets.nn import Weights, load_default_network
from bgtools.core.position import Position
from bgtools.rollouts import Job, RolloutSettings, run_chunk, warm_up

GNUBG_NO_VR = (227.0, 289.0)
GNUBG_VR = (12.6, 12.8)


def measure(job, settings, weights):
    c0, t0 = time.process_time(), time.perf_counter()
    part = run_chunk(job, settings, 0, settings.trials, weights)
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    se = float(part.se()[5])
    return settings.trials / cpu, wall, cpu, se, part.plies / settings.trials


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--weights")
    ap.add_argument("--trials", type=int, default=1296)
    ap.add_argument("--vr-trials", type=int, default=144)
    ap.add_argument("--id", default="4HPwATDgc/ABMA")
    args = ap.parse_args()
    w = Weights.load(args.weights) if args.weights else load_default_network("rollout").weights
    warm_up(w)
    job = Job.make(Position.from_id(args.id))
    rows = {}
    for name, vr, n in (("no VR", False, args.trials), ("VR", True, args.vr_trials)):
        s = RolloutSettings(trials=n, seed=1, variance_reduction=vr, bearoff_truncation=False)
        rows[name] = measure(job, s, w)
        gps, wall, cpu, se, plies = rows[name]
        print(f"{name:6s} {n:5d} games  {gps:7.1f} games/s per core (CPU {cpu:.1f} s, wall {wall:.1f} s)  "
              f"{plies:.1f} half-moves/game  equity SE {se:.4f}  SE after 1 CPU-s {se * (cpu ** 0.5):.4f}")
    g0, _, c0, se0, _ = rows["no VR"]
    g1, _, c1, se1, _ = rows["VR"]
    eff = (se0 ** 2 * c0) / (se1 ** 2 * c1) if se1 > 0 else float("inf")
    print(f"VR costs {g0 / g1:.1f}x per game; for equal SE it needs {1 / eff:.2f}x the CPU time of plain "
          f"rollouts (efficiency {eff:.2f}x)")
    print(f"vs gnubg 1.07 one core: no VR {g0 / GNUBG_NO_VR[1]:.2f}-{g0 / GNUBG_NO_VR[0]:.2f}x, "
          f"VR {g1 / GNUBG_VR[1]:.2f}-{g1 / GNUBG_VR[0]:.2f}x (goal 4x); net {w.meta.get('version')}")


if __name__ == "__main__":
    main()
