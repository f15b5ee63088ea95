"""A study (not kept, docs/training.md "The output layer refitted to our rollouts"): gen12's contact output layer
refitted to runs/cal14's and runs/cal15's rollouts with a term that holds the within-roll equity differences of
25,000 of generation 13's decision rolls as gen12 had them (``distill``) or as its 2-ply targets had them (``2ply``),
by Adam from a start file (the Newton refit, runs/cal15/candidate.npz).  From the repository root:

    PYTHONPATH=. python runs/cal15/withinroll.py runs/gen12/candidate.npz OUT.npz MU RIDGE distill runs/cal15/candidate.npz

(DATA/cal14, DATA/cal15 and DATA/gen13 as their scripts make them.)
"""
from __future__ import annotations

import os
import sys

import numpy as np

from bgtools.engine.nets.features import NET_CONTACT
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import Weights
from bgtools.training.calibrate import read_rollouts
from bgtools.training.fit import EQUITY_WEIGHTS as EQ
from bgtools.training.fit import logistic as sig
from bgtools.training.fit import prepare, within_roll_deviation

DATA = os.environ.get("DATA", "/work/data")
C = NET_CONTACT


def hidden(w: Weights, x: np.ndarray) -> np.ndarray:
    return sig(x.astype(np.float64) @ w.W1[C].astype(np.float64) + w.b1[C])


def main(init: str, out: str, mu: float, ridge: float, mode: str, start: str | None) -> None:
    w = load_weights(init)
    rol = read_rollouts([f"{DATA}/cal14/rollouts.jsonl", f"{DATA}/cal15/rollouts.jsonl"])
    d = prepare(rol.boards, rol.probs, wide=w.wide)
    h, t = hidden(w, d.x[C]), d.t[C].astype(np.float64)
    z = np.load(f"{DATA}/gen13/data/decisions.npz")
    pick = np.random.default_rng(7).choice(np.unique(z["roll"]), 25000, replace=False)
    m = np.isin(z["roll"], pick)
    dd = prepare(z["boards"][m], z["targets"][m], wide=w.wide, groups=z["roll"][m])
    _, inv = np.unique(dd.groups[C], return_inverse=True)
    keep = np.bincount(inv)[inv] >= 2  # rolls with two contact plays or more
    hd, td = hidden(w, dd.x[C][keep]), dd.t[C][keep].astype(np.float64)
    groups = dd.groups[C][keep]
    w0, b0 = np.asarray(w.W2[C], np.float64), np.asarray(w.b2[C], np.float64)
    eref = sig(hd @ w0 + b0) @ EQ if mode == "distill" else td @ EQ
    print("rollout rows", h.shape[0], "decision rows", hd.shape[0], "rolls", np.unique(groups).size, flush=True)
    st = load_weights(start) if start else w
    W, b = np.asarray(st.W2[C], np.float64).copy(), np.asarray(st.b2[C], np.float64).copy()
    moments = [np.zeros_like(W), np.zeros_like(W), np.zeros_like(b), np.zeros_like(b)]
    lr, beta1, beta2 = 1e-3, 0.9, 0.999
    for it in range(1, 1001):
        y = sig(h @ W + b)
        yd = sig(hd @ W + b)
        r = yd @ EQ - eref
        dv = within_roll_deviation(r, groups)
        gzd = (2 * mu * dv)[:, None] * EQ[None, :] * yd * (1 - yd)
        grads = (h.T @ (y - t) + hd.T @ gzd + ridge * (W - w0), (y - t).sum(0) + gzd.sum(0))
        for p, g, mm, vv in ((W, grads[0], moments[0], moments[1]), (b, grads[1], moments[2], moments[3])):
            mm *= beta1
            mm += (1 - beta1) * g
            vv *= beta2
            vv += (1 - beta2) * g * g
            p -= lr * (mm / (1 - beta1 ** it)) / (np.sqrt(vv / (1 - beta2 ** it)) + 1e-8)
        if it % 250 == 0 or it == 1:
            e = np.abs((sig(h @ W + b) - t) @ EQ).mean()
            print(it, "in-sample |eq err|", round(e, 5), "within-roll rms", round(float(np.sqrt((dv * dv).mean())), 5),
                  flush=True)
    W2s, b2s = list(w.W2), list(w.b2)
    W2s[C], b2s[C] = W.astype(np.float32), b.astype(np.float32)
    Weights(w.W1, w.b1, tuple(W2s), tuple(b2s), dict(w.meta, version="withinroll")).save(out)
    print("saved", out)


if __name__ == "__main__":
    a = sys.argv[1:]
    main(a[0], a[1], float(a[2]), float(a[3]), a[4], a[5] if len(a) > 5 else None)
