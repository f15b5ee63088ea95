"""Does a within-roll loss teach the contact net its picks?  (issue 37, item 4)

A net picks among the plays of one roll, so what it needs right is the differences between those
plays' values, not their common level.  ``train decisions --rows candidates`` gives the plays of
a roll valued at 2 ply (``roll`` names the roll).  This study fine-tunes a net's contact net
(the others as they are) on two kinds of mini-batch in turn: whole rolls of those rows, and
rows drawn from ordinary labelled data sets.  A roll batch's loss is the usual cross-entropy
plus ``lam`` times the mean squared within-roll equity error (each row's equity error minus
the mean error of its roll's contact rows).  ``--lam 0`` is the control: the same rows, order
and rate without the term.  A tenth of the rolls is held out; printed per epoch: their mean
|within-roll equity error| and mean |equity error|::

    PYTHONPATH=. python benchmarks/within_roll_fit.py DECISIONS.npz LABELLED.npz ... --init NET.npz \
        --lam 0 --lam 20 --save-prefix /tmp/wr

(``P-lam<L>.npz`` nets, which ``contact_inputs_judge.py`` judges.)  NumPy, one core; only our own
nets' values are used.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from bgtools.engine.nets.features import NET_CONTACT, net_classes
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import Weights
from bgtools.training.datasets import load_npz
from bgtools.training.fit import prepare

_W = np.array([2, 1, 1, -1, -1], np.float64)  # equity = outputs @ _W - 1


def _sig(v: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(v, -40.0, 40.0)))


def _forward(x, P):
    h = _sig(x @ P[0] + P[1])
    return h, _sig(h @ P[2] + P[3])


def _centred(e: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """``e`` minus the mean of its group."""
    _, inv = np.unique(groups, return_inverse=True)
    return e - (np.bincount(inv, e) / np.bincount(inv))[inv]


def _grads(x, t, P, groups=None, lam=0.0):
    h, y = _forward(x, P)
    n = x.shape[0]
    d2 = (y - t) / n
    if groups is not None and lam > 0:
        d = _centred((y - t) @ _W, groups)
        d2 = d2 + (2.0 * lam / n) * d[:, None] * _W[None, :] * y * (1 - y)
    dh = (d2 @ P[2].T) * h * (1 - h)
    return [x.T @ dh, dh.sum(0), h.T @ d2, d2.sum(0)]


def _errors(P, x, t, groups) -> tuple[float, float]:
    _, y = _forward(x, P)
    e = (y - t) @ _W
    return float(np.abs(_centred(e, groups)).mean()), float(np.abs(e).mean())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("decisions", help="train decisions --rows candidates output (boards, targets, roll)")
    ap.add_argument("labelled", nargs="+", help="labelled data sets whose contact rows are drawn between roll batches")
    ap.add_argument("--init", default=None, help="the net to fine-tune (default: the shipped analysis net)")
    ap.add_argument("--lam", type=float, action="append", default=None, help="weight of the within-roll term (repeatable)")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--lr", type=float, default=3e-5)
    ap.add_argument("--rolls", type=int, default=64, help="rolls per batch")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--save-prefix", default=None)
    ap.add_argument("--json-out", default=None)
    args = ap.parse_args(argv)
    w0 = load_weights(args.init)
    sets = [load_npz(p, "boards", "targets") for p in args.labelled]
    base = prepare(np.concatenate([d["boards"] for d in sets]), np.concatenate([d["targets"] for d in sets]),
                   wide=w0.wide)
    xb, tb = base.x[NET_CONTACT], base.t[NET_CONTACT].astype(np.float64)
    dd = load_npz(args.decisions, "boards", "targets", "roll")
    contact = net_classes(dd["boards"]) == NET_CONTACT
    fd = prepare(dd["boards"][contact], dd["targets"][contact], wide=w0.wide)
    xd, td, g = fd.x[NET_CONTACT], fd.t[NET_CONTACT].astype(np.float64), dd["roll"][contact]
    _, inv, cnt = np.unique(g, return_inverse=True, return_counts=True)
    two = cnt[inv] >= 2  # rolls with two contact rows or more
    xd, td, g = xd[two], td[two], g[two]
    rolls = np.unique(g)
    rng = np.random.default_rng(args.seed)
    held = np.isin(g, rng.choice(rolls, rolls.size // 10, replace=False))
    train_rolls = np.unique(g[~held])
    order = np.argsort(g, kind="stable")
    starts = np.searchsorted(g[order], train_rolls)
    ends = np.searchsorted(g[order], train_rolls, side="right")
    print(f"{xb.shape[0]} labelled contact rows; {xd.shape[0]} decision rows of {rolls.size} rolls "
          f"({int(held.sum())} rows held out)", flush=True)
    out = {}
    for lam in args.lam or [0.0, 20.0]:
        P = [np.array(a, np.float64) for a in (w0.W1[0], w0.b1[0], w0.W2[0], w0.b2[0])]
        m = [np.zeros_like(p) for p in P]
        v = [np.zeros_like(p) for p in P]
        step = 0
        hist = [_errors(P, xd[held], td[held], g[held])]
        print(f"lam {lam}: epoch 0 held-out within-roll {hist[0][0]:.5f}, |error| {hist[0][1]:.5f}", flush=True)
        t0 = time.perf_counter()
        for ep in range(args.epochs):
            r = np.random.default_rng([args.seed, ep])
            perm = r.permutation(train_rolls.size)
            for lo in range(0, perm.size, args.rolls):
                idx = np.concatenate([order[starts[k]:ends[k]] for k in perm[lo:lo + args.rolls]])
                bi = r.integers(0, xb.shape[0], 256)
                for grads in (_grads(xd[idx], td[idx], P, g[idx], lam), _grads(xb[bi], tb[bi], P)):
                    step += 1
                    for q in range(4):
                        m[q] = 0.9 * m[q] + 0.1 * grads[q]
                        v[q] = 0.999 * v[q] + 0.001 * grads[q] ** 2
                        P[q] -= args.lr * (m[q] / (1 - 0.9 ** step)) / (np.sqrt(v[q] / (1 - 0.999 ** step)) + 1e-8)
            hist.append(_errors(P, xd[held], td[held], g[held]))
        print(f"lam {lam}: epoch {args.epochs} held-out within-roll {hist[-1][0]:.5f}, |error| {hist[-1][1]:.5f} "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)
        out[str(lam)] = {"within_roll": [h[0] for h in hist], "abs": [h[1] for h in hist]}
        if args.save_prefix:
            W1, b1, W2, b2 = (list(a) for a in (w0.W1, w0.b1, w0.W2, w0.b2))
            W1[0], b1[0], W2[0], b2[0] = (np.ascontiguousarray(p, np.float32) for p in P)
            Weights(tuple(W1), tuple(b1), tuple(W2), tuple(b2),
                    dict(w0.meta, version=f"within-roll-lam{lam}")).save(f"{args.save_prefix}-lam{lam:g}.npz")
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as f:
            json.dump({"config": vars(args), "held_out": out}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
