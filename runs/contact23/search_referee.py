"""Which way does our own search rank the contact picks?  (issue 35, twenty-fifth session)

runs/contact23/referee.sh found our rollouts and gnubg's 2 ply ranking the two 0-ply players' contact picks the other
way round (docs/training.md, "The contact siblings measured early").  Here our own search at PLY referees the same
judge_dev contact records (their candidates: gnubg's three best at 2 ply, gnubg's 0-ply pick and ours), valued by the
shipped analysis net at PLY with the shipped pruning net, as the analysis searches: which of the two does it side with?

From the repository root: ``PYTHONPATH=. python runs/contact23/search_referee.py GROUPS.jsonl PLY [ROLLOUTS]``:
the same table as ``runs/crash21/referee.py report`` with our PLY search as the referee (beside gnubg's 2 ply and,
with ROLLOUTS, our rollouts: how often the search's best is theirs).
"""
from __future__ import annotations

import json
import sys
import time

import numpy as np

from bgtools.core.position import Position
from bgtools.engine.evaluation import equity, evaluate_boards


def main(groups_path: str, ply: int, rollouts: str | None = None) -> None:
    groups = [json.loads(line) for line in open(groups_path, encoding="utf-8")]
    ids = list(dict.fromkeys(c for g in groups for c in g["candidates"]))
    boards = np.stack([Position.from_id(i).to_array() for i in ids])
    t = time.process_time()
    probs = evaluate_boards(boards, ply)
    cpu = time.process_time() - t
    val = dict(zip(ids, (-equity(probs)).tolist()))  # the mover's equity: the opponent is on roll after the play
    ro = None
    if rollouts:
        from bgtools.training.calibrate import read_rollouts
        r = read_rollouts(rollouts)
        ro = {i.split(":")[0]: -float(equity(p[None].astype(np.float64))[0]) for i, p in zip(r.ids, r.probs)}
    same_g2 = same_ro = 0
    loss: dict[str, list[float]] = {"gnubg 2-ply best": [], "gnubg 0-ply": [], "ours 0-ply": []}
    for g in groups:
        c = g["candidates"]
        v = np.array([val[k] for k in c])
        best = c[int(np.argmax(v))]
        best_g2 = c[int(np.argmax(g["eq2"]))]
        same_g2 += best == best_g2
        if ro is not None:
            same_ro += best == c[int(np.argmax([ro[k] for k in c]))]
        lo = {k: 1000 * (v.max() - val[k]) for k in c}
        loss["gnubg 2-ply best"].append(lo[best_g2])
        loss["gnubg 0-ply"].append(lo[g["gnubg_0ply"]])
        loss["ours 0-ply"].append(lo[g["ours_0ply"]])
    n = len(groups)
    d = np.array(loss["ours 0-ply"]) - np.array(loss["gnubg 0-ply"])
    print(f"{n} records, {len(ids)} positions at {ply} ply ({cpu:.0f} CPU s): the search's best is gnubg's 2-ply best in "
          f"{same_g2} ({100 * same_g2 / n:.1f} %)" + (f", our rollouts' best in {same_ro} ({100 * same_ro / n:.1f} %)"
                                                     if ro is not None else ""))
    print(f"loss by our {ply} ply (millipoints, over the candidates): " + ", ".join(
        f"{k} {np.mean(x):.2f} ± {np.std(x, ddof=1) / np.sqrt(n):.2f}" for k, x in loss.items())
          + f"; ours 0-ply less gnubg 0-ply {d.mean():+.2f} ± {d.std(ddof=1) / np.sqrt(n):.2f}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else None)
