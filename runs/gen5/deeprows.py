"""The rows labelled at 2 ply so far: gen2's and gen3's deepened rows (their ``deep`` masks) and
gen5's new 2-ply positions.  Usage: python runs/gen5/deeprows.py OUT.npz [GEN5_SET.npz ...] (default: runs/gen5/sp/data/labelled.npz)"""
import sys

import numpy as np

from bgtools.training.datasets import load_npz, save_npz

boards, targets = [], []
for f in ("runs/gen2/data/deepened.npz", "runs/gen3/data/deepened.npz"):
    d = load_npz(f, "boards", "targets", "deep")
    keep = d["deep"].astype(bool)
    boards.append(d["boards"][keep])
    targets.append(d["targets"][keep])
for f in sys.argv[2:] or ["runs/gen5/sp/data/labelled.npz"]:  # gen5's 2-ply sets
    d = load_npz(f, "boards", "targets")
    boards.append(d["boards"])
    targets.append(d["targets"])
save_npz(sys.argv[1], boards=np.concatenate(boards), targets=np.concatenate(targets))
print(f"{sys.argv[1]}: {sum(len(t) for t in targets)} rows at 2 ply")
