"""What the pruning net buys and costs in a search: 1- and 2-ply hints with and without it.

    PYTHONPATH=. python benchmarks/prune.py [--positions N] [--prune NPZ] [--plies 1,2]

For ``N`` positions of the oracle set (tests/data/oracle_positions.jsonl.gz; a seeded roll
each), ranks the plays at each ply with the shipped net, once with the pruning net (the
shipped one, or ``--prune``) and once without (the baseline, the full search, timed in the
same run, alternating by position so that a change of load falls on both); prints the CPU
seconds of each, their ratio, how often the best play differs, and the mean and largest
difference of the best play's equity.  Then the pruning net's cost per board beside the
full net's (0-ply ``static_probs``) over the children of those positions.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from bgtools.core.position import Position  # noqa: E402
from bgtools.engine.children import expand_children  # noqa: E402
from bgtools.engine.evaluation import default_evaluator, rank_plays, static_probs  # noqa: E402
from bgtools.engine.nets.nn import NeuralEvaluator  # noqa: E402
from bgtools.engine.nets.prune import Pruning, load_default_pruning, prune_values  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=150)
    ap.add_argument("--prune", default=None, help="a pruning net .npz (default: the shipped one)")
    ap.add_argument("--plies", default="1,2")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    pruning = Pruning.load(args.prune) if args.prune else load_default_pruning()
    if pruning is None:
        print("no pruning net shipped; give --prune", file=sys.stderr)
        return 2
    base = default_evaluator()
    full = NeuralEvaluator(base.weights)
    pruned = NeuralEvaluator(base.weights, prune=pruning)
    with gzip.open(ROOT / "tests" / "data" / "oracle_positions.jsonl.gz", "rt") as fh:
        boards = np.array([json.loads(line)["board"] for line in fh], np.int8)
    rng = np.random.default_rng(args.seed)
    pick = rng.choice(len(boards), size=min(args.positions, len(boards)), replace=False)
    cases = []
    for i in pick:
        pos = Position.from_array(boards[i])
        if pos.is_game_over():
            continue
        d = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        cases.append((pos, d))
    print(f"{len(cases)} positions (seed {args.seed}), pruning {pruning.tag}, net {base.version}")
    rank_plays(cases[0][0], cases[0][1], 1, pruned)  # compile / load kernels
    for ply in (int(x) for x in args.plies.split(",")):
        t = {"pruned": 0.0, "full": 0.0}
        differ, diffs = 0, []
        for pos, d in cases:
            res = {}
            for name, ev in (("pruned", pruned), ("full", full)):
                c = time.process_time()
                res[name] = rank_plays(pos, d, ply, ev)
                t[name] += time.process_time() - c
            if not res["full"]:
                continue
            a, b = res["pruned"][0], res["full"][0]
            differ += a.play.after_id != b.play.after_id
            diffs.append(abs(a.equity - b.equity))
        print(f"ply {ply}: pruned {t['pruned']:.2f} s, full {t['full']:.2f} s -> {t['full'] / t['pruned']:.2f}x "
              f"as fast; best play differs in {differ} of {len(diffs)}; best play's equity differs by "
              f"{np.mean(diffs):.4f} on average, {np.max(diffs):.4f} at most")
    children, _ = expand_children(np.stack([p.to_array() for p, _ in cases]).astype(np.int8))
    static_probs(children[:10], full)
    prune_values(children[:10], pruning.net)
    best = {"prune": 1e9, "full": 1e9}
    for _ in range(3):
        c = time.process_time()
        prune_values(children, pruning.net)
        best["prune"] = min(best["prune"], time.process_time() - c)
        c = time.process_time()
        static_probs(children, full)
        best["full"] = min(best["full"], time.process_time() - c)
    n = children.shape[0]
    print(f"per board over {n:,} children: pruning net {1e9 * best['prune'] / n:,.0f} ns, full net "
          f"{1e9 * best['full'] / n:,.0f} ns ({best['full'] / best['prune']:.1f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
