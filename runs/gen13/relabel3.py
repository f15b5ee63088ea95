"""Issue 37, deeper targets (docs/training.md, "What the next session should run", item 1): the rows of generation 13's
decision data where the search's verdict matters most, relabelled by gen12's 3-ply search.

gen13's rows (``runs/gen13/data.sh``: gen12's own play, every kept play of one roll of each position valued by gen12 at
2 ply) taught gen12 its own 2-ply choices a second time.  Here the two rows of each roll where gen12's 0-ply pick and its
2-ply pick part (the "pairs" of gnubg's recipe: 28,526 rows of 14,263 rolls) are valued again at 3 ply, with the
same net and the shipped analysis pruning net, as ``train decisions --ply 3`` values its rows.  The rolls go in a
seeded order (seed 1313), in parts of ``--chunk`` rows, so a run stopped early has relabelled a random subset; parts
already made from the same rows are kept (run it again and it goes on).  ``merge`` then writes a copy of the decision
data with those rows' targets replaced (the other rows keep their 2-ply targets).  Only our own net and search.

    python runs/gen13/relabel3.py label [--jobs 2] [--parts N]     # DATA/gen13/relabel3/part-*.npz
    python runs/gen13/relabel3.py merge OUT.npz [--only]           # gen13's decisions.npz, relabelled rows replaced
                                                                   # (--only: those rows alone)
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

from bgtools.base.parallel import ordered_map
from bgtools.training.datasets import load_npz, part_path, save_npz
from bgtools.training.label import array_tag

DATA = Path(os.environ.get("DATA", "/work/data"))
SRC = DATA / "gen13" / "data" / "decisions.npz"
PARTS = DATA / "gen13" / "relabel3"
WEIGHTS = "runs/gen12/candidate.npz"
SEED = 1313


def chosen_rows(z) -> np.ndarray:
    """The rows of the decision data ``z`` to relabel, in the order they are labelled: the pick rows of each parting
    roll, rolls in seeded order."""
    roll, pick, gap = z["roll"], z["pick"], z["gap"]
    rows = np.flatnonzero((pick != 0) & (gap > 0))
    rolls = np.unique(roll[rows])
    order = np.random.default_rng(SEED).permutation(rolls.size)
    rank = np.empty(rolls.size, np.int64)
    rank[order] = np.arange(rolls.size)
    key = rank[np.searchsorted(rolls, roll[rows])]
    return rows[np.lexsort((rows, key))]


def _label(task: tuple) -> tuple[int, np.ndarray, float]:
    k, boards = task
    from bgtools.engine.evaluation import evaluate_boards
    from bgtools.engine.nets.nn import NeuralEvaluator, Weights
    from bgtools.engine.nets.prune import load_default_pruning

    t0 = time.perf_counter()
    ev = NeuralEvaluator(Weights.load(WEIGHTS), prune=load_default_pruning("analysis"))
    return k, evaluate_boards(boards, 3, ev).astype(np.float32), time.perf_counter() - t0


def label(jobs: int, chunk: int, parts: int | None) -> None:
    z = np.load(SRC)
    rows = chosen_rows(z)
    boards = z["boards"][rows]
    n = (rows.size + chunk - 1) // chunk
    todo = []
    for k in range(n):
        b = boards[k * chunk:(k + 1) * chunk]
        p = part_path(PARTS, k)
        if p.is_file() and str(load_npz(p, "boards_sha256")["boards_sha256"]) == array_tag(b):
            continue
        todo.append((k, b))
    todo = todo[:parts] if parts is not None else todo
    print(f"{rows.size} rows in {n} parts; {len(todo)} to make", flush=True)
    PARTS.mkdir(parents=True, exist_ok=True)
    for k, t, secs in ordered_map(_label, iter(todo), jobs=jobs):
        lo = k * chunk
        save_npz(part_path(PARTS, k), targets=t, rows=rows[lo:lo + t.shape[0]],
                 boards_sha256=np.array(array_tag(boards[lo:lo + t.shape[0]])))
        print(f"part {k}: {t.shape[0]} rows, {secs:.0f} s", flush=True)


def merge(out: str, only: bool = False) -> None:
    z = dict(np.load(SRC))
    targets = z["targets"].copy()
    got = []
    for p in sorted(PARTS.glob("part-*.npz")):
        d = np.load(p)
        targets[d["rows"]] = d["targets"]
        got.append(d["rows"])
    done = int(sum(r.size for r in got))
    z["targets"] = targets
    if only:
        keep = np.sort(np.concatenate(got))
        z = {k: v[keep] for k, v in z.items()}
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, **z)
    print(f"{out}: {done} of {targets.shape[0]} rows relabelled at 3 ply")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("label")
    a.add_argument("--jobs", type=int, default=2)
    a.add_argument("--chunk", type=int, default=500)
    a.add_argument("--parts", type=int, default=None)
    m = sub.add_parser("merge")
    m.add_argument("out")
    m.add_argument("--only", action="store_true")
    args = ap.parse_args()
    if args.cmd == "label":
        label(args.jobs, args.chunk, args.parts)
    else:
        merge(args.out, args.only)


if __name__ == "__main__":
    main()
