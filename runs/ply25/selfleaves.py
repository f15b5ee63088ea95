"""The leaves of our own 1-ply searches, rolled out (issue 35; twenty-fifth session): the data for the lever
runs/ply25/leaves.py points to (docs/training.md, "The leaves turn them round").

The rolls are runs/contact23's (``rolls.jsonl``: positions of our own contact self-play, seed 23, a roll each, the
candidates the three best at 0 and at 1 ply within 0.2, whose own rollouts are runs/contact23's ``rollouts.jsonl``);
each candidate's 21 leaves (the positions after the opponent's best reply by 0 ply, we on roll,
``bgtools.engine.evaluation.best_replies`` with the shipped analysis net and pruning net) are rolled out like them
(324 trials with variance reduction; ``runs/ply25/selfleaves.sh``, dice seed 2526).  From the repository root
(``PYTHONPATH=.``):

* ``python runs/ply25/selfleaves.py draw ROLLS.jsonl N IDS.txt LEAVES.jsonl``: the first N rolls' leaves, roll by roll
  (each leaf once in IDS, in the order of the rolls), and a line a roll: its candidates, each one's 21 leaves and the
  net's 0-ply values of them (the mover's equity, we on roll);
* ``python runs/ply25/selfleaves.py report LEAVES.jsonl ROLLOUTS [PARENTS]``: over the rolls whose leaves are all
  rolled out, how often the 1-ply pick with the leaves valued by the rollouts differs from the net's, and the mean
  absolute error of the net's leaf values; with PARENTS (the candidates' own rollouts, runs/contact23's), each 1-ply
  pick's loss by those.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from bgtools.core.position import Position
from bgtools.engine.evaluation import best_replies, equity
from runs.ply25.leaves import W, complete, rollout_values


def draw(rolls_path: str, n: int, ids_out: str, leaves_out: str) -> None:
    ids: list[str] = []
    seen: set[str] = set()
    lines = []
    with open(rolls_path, encoding="utf-8") as f:
        for k, line in enumerate(f):
            if k >= n:
                break
            r = json.loads(line)
            boards = np.stack([Position.from_id(c).to_array() for c in r["candidates"]])  # the opponent on roll
            leaves, probs = best_replies(boards)
            leaf_ids = [Position.from_array(b).position_id() for b in leaves]
            net = equity(probs).reshape(len(boards), 21)
            lines.append(json.dumps({"id": r["id"], "dice": r["dice"], "candidates": r["candidates"],
                                     "leaves": [leaf_ids[21 * j:21 * j + 21] for j in range(len(boards))],
                                     "net": np.round(net, 5).tolist()}))
            for i in leaf_ids:
                if i not in seen:
                    seen.add(i)
                    ids.append(i)
    Path(ids_out).write_text("".join(i + "\n" for i in ids), encoding="utf-8")
    Path(leaves_out).write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    print(f"{leaves_out}: {len(lines)} rolls; {ids_out}: {len(ids)} leaves to roll out")


def report(leaves_path: str, rollouts: str, parents: str | None = None) -> None:
    ro = rollout_values(rollouts)  # a leaf's rollout: we on roll
    par = rollout_values(parents, -1.0) if parents else None  # a candidate's rollout: the opponent on roll
    n = differ = 0
    errs, loss_net, loss_ro = [], [], []
    for o, net, rol in complete(leaves_path, ro):
        n += 1
        errs.append(np.abs(net - rol).mean())
        a, b = int(np.argmax(net @ W)), int(np.argmax(rol @ W))
        differ += a != b
        if par is not None and all(c in par for c in o["candidates"]):
            v = np.array([par[c] for c in o["candidates"]])
            loss_net.append(1000 * (v.max() - v[a]))
            loss_ro.append(1000 * (v.max() - v[b]))
    print(f"{n} rolls: the 1-ply pick with rolled-out leaves differs from the net's in {differ}; "
          f"mean |net - rollout| of a leaf {np.mean(errs):.4f}")
    if loss_net:
        d = np.array(loss_ro) - np.array(loss_net)
        print(f"by the candidates' own rollouts ({len(d)} rolls), the 1-ply pick loses {np.mean(loss_net):.2f} millipoints "
              f"with the net's leaves, {np.mean(loss_ro):.2f} with the rolled-out ones ({d.mean():+.2f} ± "
              f"{d.std(ddof=1) / np.sqrt(len(d)):.2f})")


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "draw":
        draw(args[0], int(args[1]), args[2], args[3])
    elif cmd == "report":
        report(*args[:3])
    else:
        raise SystemExit(__doc__)
