"""Do our rollouts and gnubg's 2 ply agree on crashed plays?  (issue 37, item 5; twenty-first session)

The crashed looks fitted to our sibling rollouts (runs/crash21 i-n) pick better by those rollouts on held-out rolls
and no better by the judge sets, whose referee is gnubg's 2 ply.  Here the two referees meet on the same plays: the
crashed records of the judge sets, each record's candidates (gnubg's three best at 2 ply, gnubg's 0-ply pick and
the shipped net's 0-ply pick) rolled out as runs/crash21's siblings were (324 trials with variance reduction, dice
seed 2121, common to the candidates of a record).

From the repository root (``PYTHONPATH=.:benchmarks``):

* ``python runs/crash21/referee.py draw IDS.txt GROUPS.jsonl SET [SET ...] [--class CLASS]``: the positions to roll
  out, and a line a record (its set, idx, candidates with gnubg's 2-ply equity, the picks); CLASS (twenty-fifth
  session: ``contact``, for runs/contact23/referee.sh; default ``crashed``) the judge category drawn;
* ``python runs/crash21/referee.py report ROLLOUTS GROUPS.jsonl [NET.npz ...]``: how often the rollouts' best is
  gnubg's 2-ply best, and each pick's loss in millipoints by either referee over the candidates; then each NET's
  0-ply pick where it is one of the candidates, paired against the shipped net's on the same records.
"""
from __future__ import annotations

import json
import sys

import numpy as np

from bgtools.engine.evaluation import default_evaluator, equity
from bgtools.training.calibrate import read_rollouts
from runs.crash21.siblings import write_ids_and_records


def draw(ids_out: str, groups_out: str, sets: list[str], category: str = "crashed") -> None:
    import judge  # benchmarks/judge.py

    lines, ids, seen = [], [], set()
    for path in sets:
        recs = [r for r in judge.load_records(path) if r["judge_category"] == category]
        ours = judge.our_picks(recs, default_evaluator(), 0)
        for r, pick in zip(recs, ours):
            eq2 = {p["position_id"]: p["eq2"] for p in r["plays"]}
            top = sorted(eq2, key=lambda k: -eq2[k])[:3]
            cands = list(dict.fromkeys([*top, r["picks"]["gnubg_0ply"], pick]))
            lines.append(json.dumps({"set": path, "idx": r["idx"], "candidates": cands,
                                     "eq2": [eq2[c] for c in cands], "gnubg_0ply": r["picks"]["gnubg_0ply"],
                                     "ours_0ply": pick}))
            for c in cands:
                if c not in seen:
                    seen.add(c)
                    ids.append(c)
    write_ids_and_records(ids_out, ids, groups_out, lines)
    print(f"{groups_out}: {len(lines)} {category} records; {ids_out}: {len(ids)} positions to roll out")


def report(rollouts: str, groups: str, nets: list[str] = ()) -> None:
    t = read_rollouts(rollouts)
    ro = {i.split(":")[0]: -float(equity(p[None].astype(np.float64))[0]) for i, p in zip(t.ids, t.probs)}
    same, n = 0, 0
    by_ro: dict[str, list[float]] = {"gnubg 2-ply best": [], "gnubg 0-ply": [], "ours 0-ply": []}
    by_g2: dict[str, list[float]] = {"rollouts' best": [], "gnubg 0-ply": [], "ours 0-ply": []}
    for line in open(groups, encoding="utf-8"):
        g = json.loads(line)
        c = g["candidates"]
        if not all(k in ro for k in c):
            continue
        n += 1
        v = np.array([ro[k] for k in c])
        e2 = np.array(g["eq2"])
        best_ro, best_g2 = c[int(np.argmax(v))], c[int(np.argmax(e2))]
        same += best_ro == best_g2
        lr = {k: 1000 * (v.max() - ro[k]) for k in c}
        lg = {k: 1000 * (e2.max() - e2[c.index(k)]) for k in c}
        by_ro["gnubg 2-ply best"].append(lr[best_g2])
        by_ro["gnubg 0-ply"].append(lr[g["gnubg_0ply"]])
        by_ro["ours 0-ply"].append(lr[g["ours_0ply"]])
        by_g2["rollouts' best"].append(lg[best_ro])
        by_g2["gnubg 0-ply"].append(lg[g["gnubg_0ply"]])
        by_g2["ours 0-ply"].append(lg[g["ours_0ply"]])
    print(f"{n} records: the rollouts' best is gnubg's 2-ply best in {same} ({100 * same / max(n, 1):.1f} %)")
    for name, d in (("by our rollouts", by_ro), ("by gnubg's 2 ply", by_g2)):
        print(f"loss {name} (millipoints, over the candidates): " + ", ".join(
            f"{k} {np.mean(x):.2f} ± {np.std(x, ddof=1) / np.sqrt(len(x)):.2f}" for k, x in d.items()))
    if nets:
        _nets(ro, [json.loads(line) for line in open(groups, encoding="utf-8")], nets)


def _nets(ro: dict, groups: list[dict], nets: list[str]) -> None:
    import judge  # benchmarks/judge.py

    from bgtools.engine.nets.networks import load_weights
    from bgtools.engine.nets.nn import NeuralEvaluator

    groups = [g for g in groups if all(k in ro for k in g["candidates"])]
    by_set: dict[str, dict] = {}
    for g in groups:
        by_set.setdefault(g["set"], {r["idx"]: r for r in judge.load_records(g["set"])})
    recs = [by_set[g["set"]][g["idx"]] for g in groups]
    for path in nets:
        picks = judge.our_picks(recs, NeuralEvaluator(load_weights(path)), 0)
        d_ro, d_g2, outside = [], [], 0
        for g, pick in zip(groups, picks):
            c = g["candidates"]
            if pick not in c:
                outside += 1
                continue
            v = {k: ro[k] for k in c}
            e2 = dict(zip(c, g["eq2"]))
            d_ro.append(1000 * (v[g["ours_0ply"]] - v[pick]))
            d_g2.append(1000 * (e2[g["ours_0ply"]] - e2[pick]))
        for name, d in (("by our rollouts", d_ro), ("by gnubg's 2 ply", d_g2)):
            x = np.array(d)
            print(f"{path}: 0-ply pick paired vs the shipped net's {name} {x.mean():+.2f} ± "
                  f"{x.std(ddof=1) / np.sqrt(len(x)):.2f} millipoints over {len(x)} records ({outside} picks outside the "
                  "candidates)")


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "draw":
        cls = "crashed"
        if "--class" in args:
            k = args.index("--class")
            cls = args[k + 1]
            del args[k:k + 2]
        draw(args[0], args[1], args[2:], cls)
    elif cmd == "report":
        report(args[0], args[1], args[2:])
    else:
        raise SystemExit(__doc__)
