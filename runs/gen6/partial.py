"""The rows labelled so far by runs/gen6/label.sh (its parts 0..K-1, in order) as one labelled set.
Usage: python runs/gen6/partial.py OUT.npz [RUN/data]   (the label stage keeps the order of
positions.npz; RUN/data defaults to runs/gen6/a/data, generation 7 passes runs/gen7/a/data)"""
import sys
from pathlib import Path

import numpy as np

from bgtools.training.datasets import load_npz, part_path, save_npz
from bgtools.training.label import array_tag

run = Path(sys.argv[2] if len(sys.argv) > 2 else "runs/gen6/a/data")
pos = load_npz(run / "positions.npz", "boards")["boards"]
targets = []
k = n = 0
while part_path(run / "labels", k).exists():
    z = np.load(part_path(run / "labels", k))
    lo, t = int(z["index"][0]), z["targets"]
    if lo != n or str(z["boards_sha256"]) != array_tag(pos[lo:lo + len(t)]):
        sys.exit(f"part {k} is not rows {n}.. of {run / 'positions.npz'}")
    targets.append(t)
    n += len(t)
    k += 1
t = np.concatenate(targets)
save_npz(sys.argv[1], boards=pos[:len(t)], targets=t)
print(f"{sys.argv[1]}: {len(t)} rows at 2 ply (parts 0..{k - 1})")
