"""A study for issue 37 (docs/training.md, "A third set of rollouts"): the contact and crashed nets' hidden layer fitted
to our rollouts too, not only their output layer.

From gen12 (runs/gen12/candidate.npz): on one half of runs/cal14-16's positions (the halves ``train calibrate`` holds
out), the output layer refitted as ``train calibrate --layer output --ridge 3`` does, then every weight of the class's
net (first layer, hidden biases, output layer) fitted by Adam (rate 1e-3, full batch) to the same rollouts, with
``lam / 2 * |theta - theta0|^2`` holding it near that start; the mean |equity error| measured on the other half, both
halves in turn.  ``make`` fits the shipped recipe's net (runs/cal16/candidate.npz) the same way on every position,
for the judge sets.  From the repository root (after the three data.sh):

    PYTHONPATH=. python runs/cal16/hidden_study.py heldout contact 1e-3,1e-4,1e-5 600
    PYTHONPATH=. python runs/cal16/hidden_study.py make OUT.npz 1e-3 150 1e-2 100   # contact lam, epochs; crashed
"""
from __future__ import annotations

import os
import sys

import numpy as np

from bgtools.engine.nets.features import NET_CONTACT, NET_CRASHED, net_classes
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import NET_NAMES, Weights
from bgtools.training.calibrate import _halves, _refit, read_rollouts
from bgtools.training.fit import EQUITY_WEIGHTS, gradients, prepare
from bgtools.training.fit import logistic as sig

D = os.environ.get("DATA", "/work/data")
# SETS=14,15,16,17 takes runs/cal17's fourth set too (the fifteenth session's look: runs/cal18/hidden_heldout.txt)
FILES = [f"{D}/cal{k}/rollouts.jsonl" for k in os.environ.get("SETS", "14,15,16").split(",")]


def adam(x: np.ndarray, t: np.ndarray, start: list[np.ndarray], lam: float, epochs: int,
         test=None, every: int = 50) -> tuple[list[np.ndarray], list[tuple[int, float]]]:
    """Full-batch Adam on the summed cross-entropy (mean over rows) plus the pull toward ``start``."""
    th = [a.copy() for a in start]
    m = [np.zeros_like(a) for a in th]
    v = [np.zeros_like(a) for a in th]
    trace = []
    for ep in range(1, epochs + 1):
        _, g = gradients(x, t, *th)
        for i in range(4):
            g[i] = g[i] + lam * (th[i] - start[i])
            m[i] = 0.9 * m[i] + 0.1 * g[i]
            v[i] = 0.999 * v[i] + 0.001 * g[i] ** 2
            th[i] = th[i] - 1e-3 * (m[i] / (1 - 0.9 ** ep)) / (np.sqrt(v[i] / (1 - 0.999 ** ep)) + 1e-8)
        if test is not None and ep % every == 0:
            trace.append((ep, test(th)))
    return th, trace


def heldout(net: str, lams: list[float], epochs: int) -> None:
    c = NET_NAMES.index(net)
    tg = read_rollouts(FILES)
    w = load_weights("runs/gen12/candidate.npz")
    data = prepare(tg.boards, tg.probs, wide=w.wide)
    x, t = data.x[c].astype(np.float64), data.t[c].astype(np.float64)
    hc = _halves(tg.ids)[net_classes(tg.boards) == c]
    W10, b10, W20, b20 = (np.asarray(a[c], np.float64) for a in (w.W1, w.b1, w.W2, w.b2))

    def err(th: list[np.ndarray], rows: np.ndarray) -> float:
        y = sig(sig(x[rows] @ th[0] + th[1]) @ th[2] + th[3])
        return float(np.abs((y - t[rows]) @ EQUITY_WEIGHTS).mean())

    for lam in lams:
        runs = []
        for fit, test in ((~hc, hc), (hc, ~hc)):
            W2s, b2s = _refit(sig(x[fit] @ W10 + b10), t[fit], W20, b20, (0, 1, 2, 3, 4), "output", 3.0)
            base = (err([W10, b10, W20, b20], test), err([W10, b10, W2s, b2s], test))
            _, trace = adam(x[fit], t[fit], [W10, b10, W2s, b2s], lam, epochs, lambda th: err(th, test))
            runs.append((base, trace))
        print(f"{net} lam {lam}: held out {np.mean([r[0][0] for r in runs]):.4f}, output refit "
              f"{np.mean([r[0][1] for r in runs]):.4f}; all layers, by epoch: "
              + " ".join(f"{ep}:{np.mean([r[1][k][1] for r in runs]):.4f}" for k, (ep, _) in enumerate(runs[0][1])),
              flush=True)


def make(out: str, lam_contact: float, ep_contact: int, lam_crashed: float, ep_crashed: int) -> None:
    tg = read_rollouts(FILES)
    w = load_weights("runs/cal16/candidate.npz")
    data = prepare(tg.boards, tg.probs, wide=w.wide)
    layers = [list(a) for a in (w.W1, w.b1, w.W2, w.b2)]
    for c, lam, epochs in ((NET_CONTACT, lam_contact, ep_contact), (NET_CRASHED, lam_crashed, ep_crashed)):
        start = [np.asarray(a[c], np.float64) for a in (w.W1, w.b1, w.W2, w.b2)]
        th, _ = adam(data.x[c].astype(np.float64), data.t[c].astype(np.float64), start, lam, epochs)
        for i in range(4):
            layers[i][c] = th[i].astype(np.float32)
    Weights(*(tuple(a) for a in layers), dict(w.meta, version="cal16-hidden-study")).save(out)
    print(out)


if __name__ == "__main__":
    a = sys.argv[1:]
    if a[0] == "heldout":
        heldout(a[1], [float(v) for v in a[2].split(",")], int(a[3]))
    else:
        make(a[1], float(a[2]), int(a[3]), float(a[4]), int(a[5]))
