"""Our 0-ply cubeless equity against gnubg's 2-ply on the 500 oracle positions.

Prints the mean absolute equity difference per position category (and per net class) for
each weights file given, plus gnubg's own 0-ply for scale.  The positions and gnubg's
numbers (``benchmarks/data/gnubg_evals.jsonl``) are copied from the project's gnubg oracle.

    PYTHONPATH=. python benchmarks/nn_vs_gnubg.py                      # the shipped net
    PYTHONPATH=. python benchmarks/nn_vs_gnubg.py runs/main/snapshots/*.npz
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import numpy as np

DATA = Path(__file__).parent / "data" / "gnubg_evals.jsonl"


def equity(p: np.ndarray) -> np.ndarray:
    return 2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("weights", nargs="*", help=".npz files (default: the shipped net)")
    ap.add_argument("--untrained", action="store_true", help="also show freshly initialised nets")
    args = ap.parse_args()

    from bgtools.engine.nets.features import net_class
    from bgtools.engine.nets.nn import NeuralEvaluator, init_weights, load_default_network

    rows = [json.loads(line) for line in DATA.read_text().splitlines()]
    boards = np.array([r["board"] for r in rows], np.int8)
    g2 = np.array([r["eval_2ply"][5] for r in rows])
    g0 = np.array([r["eval_0ply"][5] for r in rows])
    cats = [r["category"] for r in rows]
    classes = ["over", "contact", "crashed", "race"]
    ncls = [classes[net_class(b) + 1] for b in boards]

    evs = []
    if args.untrained:
        evs.append(("untrained", NeuralEvaluator(init_weights(), version="nn-untrained")))
    for w in args.weights:
        ev = NeuralEvaluator.from_file(w)
        evs.append((f"{ev.version} ({ev.weights.meta.get('games', '?')} games)", ev))
    if not args.weights:
        ev = load_default_network()
        if ev is None:
            raise SystemExit("no shipped weights in bgtools/data/; pass weights files")
        evs.append((f"{ev.version} ({ev.weights.meta.get('games', '?')} games)", ev))
    cols = [("gnubg 0-ply", g0)] + [(name, equity(ev.evaluate_boards(boards))) for name, ev in evs]

    def table(keys: list[str], title: str) -> None:
        groups = defaultdict(list)
        for i, k in enumerate(keys):
            groups[k].append(i)
        print(f"\nmean |equity - gnubg 2-ply| by {title}")
        print(f"{'':<20}{'n':>5}" + "".join(f"{name[:28]:>30}" for name, _ in cols))
        for k in sorted(groups) + ["ALL"]:
            idx = np.array(groups[k]) if k != "ALL" else np.arange(len(keys))
            print(f"{k:<20}{len(idx):>5}" + "".join(f"{np.abs(e[idx] - g2[idx]).mean():>30.4f}" for _, e in cols))

    table(cats, "oracle category")
    table(ncls, "our net class")


if __name__ == "__main__":
    main()
