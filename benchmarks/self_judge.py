"""The self-judge (issue 37, item 1): the 0-ply (and 1-ply) net's pick loss against our own 2-ply.

No gnubg: the referee is our own search (``bgtools.training.selfjudge``), on held-out rolls of
the judged net's own self-play (seed 3701 by default, a seed no training set used).  Mean loss
in millipoints ± standard error per category, and the mean |0-ply - 2-ply| equity of the
candidate plays.  Examples::

    PYTHONPATH=. python benchmarks/self_judge.py --positions 600              # the shipped net
    PYTHONPATH=. python benchmarks/self_judge.py --weights A.npz --against B.npz --referee B.npz

With ``--against`` both nets are judged on the same rolls (drawn from the first net's
self-play) by the same referee (``--referee``, default the first net), with the paired
difference.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from bgtools.base.fileio import atomic_write
from bgtools.engine.nets.networks import WeightsFileError, load_weights
from bgtools.training.selfjudge import CATEGORIES, HELD_OUT_SEED, held_out_rolls, paired_summary, self_judge


def _cell(s: dict) -> str:
    return f"{s['mean']:.2f} ± {s['se']:.2f}" if s["n"] > 1 else ("0.00" if s["n"] else "-")


def table(res: dict, other: dict | None = None) -> str:
    head = ["category", "rolls", "0-ply loss", "1-ply loss", "mean abs 0-ply - ref equity (milli)"]
    if other is not None:
        head += ["other 0-ply", "paired 0-ply (ours - other)"]
    lines = ["| " + " | ".join(head) + " |", "| --- " + "| ---: " * (len(head) - 1) + "|"]
    for c in (*CATEGORIES, "all"):
        s0 = res["ply0"][c]
        if not s0["n"]:
            continue
        m = res["mae0"][c]
        row = [f"**{c}**" if c == "all" else c, str(s0["n"]), _cell(s0), _cell(res["ply1"][c]),
               f"{1000 * m['mean']:.1f}"]
        if other is not None:
            row += [_cell(other["ply0"][c]), _cell(other["paired"][c])]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--weights", default=None, help="the judged net (.npz; default: the shipped net)")
    ap.add_argument("--referee", default=None, help="the net whose search referees (default: the judged net)")
    ap.add_argument("--against", default=None, metavar="NPZ", help="also judge this net, paired")
    ap.add_argument("--positions", type=int, default=600, help="held-out rolls (default 600)")
    ap.add_argument("--seed", type=int, default=HELD_OUT_SEED)
    ap.add_argument("--classes", default="", help="only rolls of these categories, comma-separated "
                    f"({', '.join(CATEGORIES)}; default: all)")
    ap.add_argument("--ply", type=int, default=2, help="the referee's ply (default 2)")
    ap.add_argument("--keep", type=int, default=8, help="candidates per roll valued by the referee")
    ap.add_argument("--threshold", type=float, default=0.16, help="... within this of the 0-ply best")
    ap.add_argument("--prune", action="store_true", help="the referee searches with the shipped pruning net")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--json-out", default=None, metavar="FILE", help="also write the JSON to FILE")
    args = ap.parse_args(argv)
    try:
        w = load_weights(args.weights)
        ref = load_weights(args.referee) if args.referee else w
        other_w = load_weights(args.against) if args.against else None
    except WeightsFileError as e:
        print(f"self_judge: {e}", file=sys.stderr)
        return 2
    pruning = None
    if args.prune:
        from bgtools.training.label import shipped_pruning

        pruning = shipped_pruning()
    t0 = time.perf_counter()
    classes = tuple(c.strip() for c in args.classes.split(",") if c.strip())
    try:
        rolls = held_out_rolls(w, args.positions, args.seed, categories=classes)
    except ValueError as e:
        print(f"self_judge: {e}", file=sys.stderr)
        return 2
    res = self_judge(w, rolls, ref, args.ply, args.keep, args.threshold, pruning)
    other = None
    if other_w is not None:
        other = self_judge(other_w, rolls, ref, args.ply, args.keep, args.threshold, pruning)
        other["paired"] = paired_summary(res["loss0"], other["loss0"], res["categories"])
    dt = time.perf_counter() - t0
    settings = {"weights": args.weights or "shipped", "referee": args.referee or "the judged net",
                "positions": args.positions, "classes": args.classes or "all", "seed": args.seed, "ply": args.ply, "keep": args.keep,
                "threshold": args.threshold, "prune": args.prune, "seconds": round(dt, 1),
                "candidates": res["candidates"], "version": str(w.meta.get("version", "?"))}
    drop = ("loss0", "loss1", "categories")
    out = {"settings": settings, "result": {k: v for k, v in res.items() if k not in drop}}
    if other is not None:
        out["against"] = {k: v for k, v in other.items() if k not in drop}
    if args.json_out:
        atomic_write(args.json_out, json.dumps(out, indent=1) + "\n")
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(", ".join(f"{k} {v}" for k, v in settings.items()))
        print(table(res, other))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
