"""Our rollouts against gnubg 1.07's on the 50 oracle positions (1296 trials, 0-ply, cubeless).

For each position and each output (the five probabilities and the cubeless equity) the
difference must lie within 3 combined standard errors, sqrt(se_ours^2 + se_gnubg^2); a
position agrees when all six do.  Games are played to the end, no bear-off truncation,
as gnubg's were.  The dice differ (our seeded stratified dice, gnubg's Mersenne Twister).

    PYTHONPATH=. python benchmarks/rollout_vs_gnubg.py [--weights runs/main/best.npz] [--jobs 2] [--vr] [--no-prune]
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import time
from pathlib import Path

import numpy as np

from bgtools.engine.nets.nn import Weights, load_default_network
from bgtools.core.position import Position
from bgtools.rollouts import Job, RolloutSettings, rollout_many

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "oracle_rollouts.jsonl.gz"
NAMES = ("win", "wg", "wbg", "lg", "lbg", "equity")
G_KEYS = ("p_win", "p_win_gammon", "p_win_backgammon", "p_lose_gammon", "p_lose_backgammon", "cubeless_equity")
G_SE = ("se_win", "se_win_gammon", "se_win_backgammon", "se_lose_gammon", "se_lose_backgammon", "se_cubeless_equity")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--weights", help="weights .npz (default: the shipped network)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--vr", action="store_true", help="compare the 12 variance-reduced rollouts instead")
    ap.add_argument("--trials", type=int, default=1296)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--no-prune", action="store_true", help="the net values every play (no pruning net)")
    args = ap.parse_args()
    w = Weights.load(args.weights) if args.weights else load_default_network("rollout").weights
    recs = [json.loads(line) for line in gzip.open(args.data, "rt")]
    rows = []
    for r in recs:
        for ro in r["rollouts"]:
            if ro["variance_reduction"] == args.vr:
                rows.append((r, ro))
    settings = RolloutSettings(trials=args.trials, seed=args.seed, variance_reduction=args.vr, bearoff_truncation=False,
                               pruning=not args.no_prune)
    positions = [Job.make(Position.from_board(r["board"])) for r, _ in rows]
    t0 = time.perf_counter()
    results = list(rollout_many(positions, settings, w, jobs=args.jobs))
    wall = time.perf_counter() - t0
    ok = 0
    ok_eq = 0
    bad = []
    for (r, ro), res in zip(rows, results):
        ours = list(res.probs) + [res.equity]
        se = list(res.probs_se) + [res.equity_se]
        z = []
        for k in range(6):
            comb = math.sqrt(se[k] ** 2 + ro[G_SE[k]] ** 2)
            d = ours[k] - ro[G_KEYS[k]]
            z.append(abs(d) / comb if comb > 0 else (0.0 if abs(d) < 1e-9 else math.inf))
        worst = int(np.argmax(z))
        ok_eq += z[5] < 3.0
        if max(z) < 3.0:
            ok += 1
        else:
            bad.append((r, ro, res, worst, z[worst]))
        print(f"idx {r['idx']:5d} {r['category']:<18} eq ours {res.equity:+.4f}±{res.equity_se:.4f} "
              f"gnubg {ro['cubeless_equity']:+.4f}±{ro['se_cubeless_equity']:.4f}  z(eq) {z[5]:.2f}  max z {max(z):.2f} ({NAMES[worst]})")
    print(f"\nequity within 3 combined SE: {ok_eq}/{len(rows)} ({100 * ok_eq / len(rows):.0f} %)")
    print(f"all six outputs within 3 combined SE: {ok}/{len(rows)} ({100 * ok / len(rows):.0f} %); "
          f"{len(rows) * args.trials} games in {wall:.1f} s wall with {args.jobs} processes "
          f"({len(rows) * args.trials / wall:.0f} games/s); net {w.meta.get('version')}")
    for r, ro, res, k, z in bad:
        print(f"  disagrees: idx {r['idx']} {r['position_id']} ({r['category']}): {NAMES[k]} "
              f"ours {([*res.probs, res.equity])[k]:.4f} gnubg {ro[G_KEYS[k]]:.4f} (z = {z:.1f})")


if __name__ == "__main__":
    main()
