"""Our own rollouts as whole positions' training rows (``train fit --extra``): the boards and the five cubeless
probabilities of ``bgtools rollout -o`` records (runs/cal14, runs/cal15, runs/cal16), each row repeated ``--repeat``
times so that a few thousand rollouts weigh beside a fit's hundreds of thousands of search rows.

    python runs/gen13/rollrows.py OUT.npz ROLLOUTS.jsonl [MORE.jsonl ...] [--repeat 10]
"""
from __future__ import annotations

import argparse

import numpy as np

from bgtools.training.calibrate import read_rollouts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("rollouts", nargs="+")
    ap.add_argument("--repeat", type=int, default=10)
    a = ap.parse_args()
    t = read_rollouts(a.rollouts)
    boards = np.repeat(t.boards, a.repeat, axis=0)
    targets = np.repeat(t.probs, a.repeat, axis=0).astype(np.float32)
    np.savez(a.out, boards=boards, targets=targets)
    print(f"{a.out}: {t.boards.shape[0]} positions x {a.repeat} = {boards.shape[0]} rows")


if __name__ == "__main__":
    main()
