"""Our cube decisions against gnubg 1.07's cube analysis, per money/match and per category.

For every record of gnubg's cube oracle (../shared/oracle/cube.jsonl, else the slice in
tests/data/cube.jsonl.gz) where the cube is available, our decision with our own net at
``--ply`` (0 by default; 1-2 ply is a cubeful lookahead, slower: use ``--every N``) beside
gnubg's at 0 and at 2 ply: the share of gnubg's *clear* records (its three equities more
than 0.02 apart) where the proper action is the same, and the mean absolute difference of
the no double / double-take / double-pass equities (per unit of the current cube).
Two-sided bear-off positions at money are left out (gnubg takes its database's values there).

    python benchmarks/cube_vs_gnubg.py [--ply 0] [--every 1]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from bgtools.core.position import Position  # noqa: E402
from bgtools.engine.cubeful.cube import CENTRED, OPP_OWNS, OWNED, CubeInfo  # noqa: E402
from bgtools.engine.cubeful.cubesearch import cube_advice_at  # noqa: E402

SHARED = ROOT.parent / "shared" / "oracle" / "cube.jsonl"
SLICE = ROOT / "tests" / "data" / "cube.jsonl.gz"
OWNER = {"centred": CENTRED, "on_roll": OWNED, "opponent": OPP_OWNS}


def records():
    if SHARED.is_file():
        with open(SHARED) as f:
            return [json.loads(line) for line in f], str(SHARED)
    with gzip.open(SLICE, "rt") as f:
        return [json.loads(line) for line in f], str(SLICE)


def info(r) -> CubeInfo:
    away = (0, 0) if r["match_length"] == 0 else (r["away_on_roll"], r["away_opponent"])
    return CubeInfo(r["cube"], OWNER[r["cube_owner_rel"]], away, bool(r["crawford"]), bool(r["jacoby"]),
                    bool(r["beavers"]))


def clear(e) -> bool:
    return min(abs(e["nd"] - e["dt"]), abs(e["nd"] - e["dp"]), abs(e["dt"] - e["dp"])) > 0.02


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ply", type=int, default=0, choices=(0, 1, 2))
    ap.add_argument("--every", type=int, default=1, help="use every Nth record")
    ap.add_argument("--weights", default=None, help="a net's .npz (default: the shipped analysis net)")
    args = ap.parse_args(argv)
    ev = None
    if args.weights:
        from bgtools.engine.evaluation import with_pruning
        from bgtools.engine.nets.networks import load_weights
        from bgtools.engine.nets.nn import NeuralEvaluator
        from bgtools.engine.nets.prune import load_default_pruning

        # searched as the analysis searches: the shipped analysis pruning net ranks the replies
        ev = with_pruning(NeuralEvaluator(load_weights(args.weights)), load_default_pruning())
    recs, src = records()
    stats: dict = defaultdict(lambda: {"n": 0, "a0": [0, 0], "a2": [0, 0], "d0": [], "d2": []})
    for r in recs[::args.every]:
        if not r["cube_available"] or (r["match_length"] == 0 and r["gnubg_class"] == 4):
            continue
        a = cube_advice_at(Position.from_id(r["position_id"]), info(r), args.ply, evaluator=ev)
        if a.double_take is None:
            continue
        kind = "money" if r["match_length"] == 0 else "match"
        for key in ((kind, r["category"]), (kind, "all")):
            s = stats[key]
            s["n"] += 1
            for tag, e in (("0", r["eval_0ply"]), ("2", r.get("eval_2ply"))):
                if not e or e.get("dt") is None:
                    continue
                s["d" + tag].append([abs(a.no_double - e["nd"]), abs(a.double_take - e["dt"]),
                                     abs(a.double_pass - e["dp"])])
                if clear(e):
                    s["a" + tag][0] += a.action == e["action"]
                    s["a" + tag][1] += 1
    print(f"{src}: {args.weights or 'the shipped net'} at {args.ply} ply (every {args.every}th record) against gnubg 1.07 at 0 and 2 ply")
    print(f"{'kind':6} {'category':18} {'n':>5} {'same action, clear (0-ply)':>27} {'(2-ply)':>14} "
          f"{'mean |ND DT DP| vs 0-ply':>26} {'vs 2-ply':>22}")
    for (kind, cat) in sorted(stats, key=lambda k: (k[0], k[1] == "all", k[1])):
        s = stats[(kind, cat)]

        def pct(a):
            return f"{a[0]}/{a[1]} ({100 * a[0] / a[1]:.0f}%)" if a[1] else "-"

        def mad(d):
            return " ".join(f"{v:.3f}" for v in np.mean(d, axis=0)) if d else "-"

        print(f"{kind:6} {cat:18} {s['n']:5d} {pct(s['a0']):>27} {pct(s['a2']):>14} {mad(s['d0']):>26} "
              f"{mad(s['d2']):>22}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
