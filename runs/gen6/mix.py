"""gen4's labelled rows with the 2-ply labels of runs/gen6 in place of its 1-ply ones, where there are some.
Usage: python runs/gen6/mix.py LABELLED.npz PART2PLY.npz OUT.npz  (PART2PLY's rows are LABELLED's first rows)"""
import sys

import numpy as np

from bgtools.training.datasets import load_npz, save_npz

base, part, out = sys.argv[1:4]
a = load_npz(base, "boards", "targets")
b = load_npz(part, "boards", "targets")
n = len(b["targets"])
if not np.array_equal(a["boards"][:n], b["boards"]):
    sys.exit(f"{part} does not hold the first {n} positions of {base}")
targets = a["targets"].copy()
targets[:n] = b["targets"]
save_npz(out, boards=a["boards"], targets=targets)
print(f"{out}: {len(targets)} rows, the first {n} at 2 ply")
