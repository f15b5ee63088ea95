"""Rows of runs/crash20's rollouts for ``train fit --extra``, and a held-out check of nets against them.

From the repository root (``PYTHONPATH=.``):

* ``python runs/crash20/rows.py rows ROLLOUTS N REPEAT TRAIN.npz HELD.npz``: the first N records of ROLLOUTS (the ids
  are in random order, so the first N are a random part), the last tenth of them held out; TRAIN holds the rest,
  each row REPEAT times (boards ``[1]`` on roll, the rollouts' five probabilities as targets), HELD the held-out rows;
* ``python runs/crash20/rows.py heldout HELD.npz NET.npz [NET.npz ...]``: each net's mean |cubeless equity - the
  rollout's| on the held-out rows at 0 ply (the net alone), and the mean paired difference against the first net.
"""
from __future__ import annotations

import sys

import numpy as np

from bgtools.engine.evaluation import equity, evaluate_boards
from bgtools.engine.nets.nn import NeuralEvaluator
from bgtools.engine.nets.networks import load_weights
from bgtools.training.calibrate import read_rollouts


def rows(rollouts: str, n: int, repeat: int, train: str, held: str) -> None:
    t = read_rollouts(rollouts)
    if len(t.ids) < n:
        raise SystemExit(f"{rollouts}: {len(t.ids)} records, fewer than {n}")
    cut = n - n // 10
    b, p = t.boards[:n], t.probs[:n].astype(np.float32)
    np.savez_compressed(train, boards=np.repeat(b[:cut], repeat, axis=0), targets=np.repeat(p[:cut], repeat, axis=0))
    np.savez_compressed(held, boards=b[cut:], targets=p[cut:])
    print(f"{train}: {cut} rows x {repeat}; {held}: {n - cut} rows held out")


def heldout(held: str, nets: list[str]) -> None:
    z = np.load(held)
    truth = equity(z["targets"].astype(np.float64))
    errs = []
    for path in nets:
        got = equity(evaluate_boards(z["boards"], 0, NeuralEvaluator(load_weights(path))))
        errs.append(np.abs(got - truth))
        d = errs[-1] - errs[0]
        print(f"{path}: mean |equity error| {errs[-1].mean():.4f} over {len(truth)} held-out rows; "
              f"paired vs {nets[0]} {d.mean():+.4f} ± {d.std(ddof=1) / np.sqrt(len(d)):.4f}")


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "rows":
        rows(args[0], int(args[1]), int(args[2]), args[3], args[4])
    elif cmd == "heldout":
        heldout(args[0], args[1:])
    else:
        raise SystemExit(__doc__)
