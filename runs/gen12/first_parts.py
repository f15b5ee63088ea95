"""The first N label parts of a run folder as one data set (boards, targets) for ``train fit --extra``.

From the repository root: ``PYTHONPATH=. python runs/gen12/first_parts.py RUN N OUT``: parts 0..N-1 of
``RUN/data/labels/`` with the rows of ``RUN/data/positions.npz`` they labelled (each part's boards hash checked).
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from bgtools.training.label import array_tag


def main(run: str, n: int, out: str) -> None:
    boards = np.load(Path(run) / "data" / "positions.npz")["boards"]
    rows, targets = [], []
    for k in range(n):
        z = np.load(Path(run) / "data" / "labels" / f"part-{k:05d}.npz")
        start, m = int(z["index"][0]), z["targets"].shape[0]
        part = boards[start:start + m]
        if array_tag(part) != str(z["boards_sha256"]):
            raise SystemExit(f"part {k}: its rows are not those of {run}/data/positions.npz")
        rows.append(part)
        targets.append(z["targets"])
    np.savez(out, boards=np.concatenate(rows), targets=np.concatenate(targets))
    print(f"{out}: {sum(r.shape[0] for r in rows)} rows from {n} parts of {run}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
