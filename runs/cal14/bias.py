"""How far a net's 0-ply outputs sit from our own rollouts of the same positions (issue 35's cube values, issue 37).

``python runs/cal14/bias.py ROLLOUTS.jsonl [--weights NET ...]``: ROLLOUTS holds ``bgtools rollout`` records (cubeless,
played to the end by the shipped rollout net); for each net, the mean of (net - rollout) per output, per class of the
position and for positions with the player on roll, or his opponent, on the bar, with standard errors over positions.
Only our own nets and rollouts: nothing from another program.
"""
from __future__ import annotations

import argparse
import json
import math

import numpy as np

from bgtools.core.position import Position
from bgtools.engine.evaluation import evaluate_boards
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import NeuralEvaluator

OUTPUTS = ("win", "win g", "win bg", "lose g", "lose bg")


def load(path: str) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    ids, probs, se = [], [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r.get("cubeful"):
                continue
            ids.append(r["id"])
            probs.append(r["probs"])
            se.append(r["probs_se"])
    boards = np.stack([Position.from_id(i).to_array() for i in ids]).astype(np.int8)
    return ids, boards, np.array(probs), np.array(se)


def groups(boards: np.ndarray) -> dict[str, np.ndarray]:
    cls = np.array([Position.from_array(b).classify().name.lower() for b in boards])
    out = {c: cls == c for c in sorted(set(cls))}
    out["on roll on the bar"] = boards[:, 1, 24] > 0
    out["opponent on the bar"] = boards[:, 0, 24] > 0
    out["all"] = np.ones(len(boards), bool)
    return out


def report(name: str, p: np.ndarray, roll: np.ndarray, g: dict[str, np.ndarray]) -> None:
    print(f"{name}: mean (net - rollout) per output, ± standard error over positions")
    for k, m in g.items():
        d = p[m] - roll[m]
        n = int(m.sum())
        if n < 10:
            continue
        cells = "  ".join(f"{o} {d[:, j].mean():+.4f}±{d[:, j].std(ddof=1) / math.sqrt(n):.4f}"
                          for j, o in enumerate(OUTPUTS))
        eq = (d @ np.array([2.0, 1.0, 1.0, -1.0, -1.0]))
        print(f"  {k:20} n={n:5}  {cells}  equity {eq.mean():+.4f}±{eq.std(ddof=1) / math.sqrt(n):.4f}"
              f"  mean|eq| {np.abs(eq).mean():.4f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rollouts")
    ap.add_argument("--weights", nargs="*", default=["bgtools/data/nn_analysis.npz"])
    a = ap.parse_args()
    ids, boards, roll, se = load(a.rollouts)
    g = groups(boards)
    print(f"{len(ids)} positions; mean rollout standard error per output: "
          + " ".join(f"{v:.4f}" for v in se.mean(axis=0)))
    for w in a.weights:
        ev = NeuralEvaluator(load_weights(w))
        report(f"{w} ({ev.version}) 0 ply", evaluate_boards(boards, 0, ev), roll, g)


if __name__ == "__main__":
    main()
