"""New 1-ply labels with the rows an earlier generation labelled at 2 ply kept.
Usage: python runs/gen4/merge.py NEW_LABELLED.npz OLD_DEEPENED.npz OUT.npz
(the same positions in the same order in both: the label stage keeps the order of positions.npz)"""
import sys

import numpy as np

from bgtools.training.datasets import load_npz, save_npz

new, old, out = sys.argv[1:4]
a = load_npz(new, "boards", "targets")
b = load_npz(old, "boards", "targets", "deep")
if not np.array_equal(a["boards"], b["boards"]):
    sys.exit(f"{new} and {old} do not hold the same positions")
deep = b["deep"].astype(bool)
targets = np.where(deep[:, None], b["targets"], a["targets"]).astype(a["targets"].dtype)
save_npz(out, boards=a["boards"], targets=targets)
print(f"{out}: {len(targets)} rows, {int(deep.sum())} kept from the 2-ply labels of {old}")
