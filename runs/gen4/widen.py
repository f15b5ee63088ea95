"""Widen a net: keep its hidden units and add new ones (small random input weights, zero
output weights), so the widened net starts with exactly the old net's outputs.
Usage: python runs/gen4/widen.py IN.npz OUT.npz 256,128,64 SEED"""
import sys

import numpy as np

from bgtools.engine.networks import load_weights
from bgtools.engine.nn import Weights

src, dst, hid, seed = sys.argv[1], sys.argv[2], [int(x) for x in sys.argv[3].split(",")], int(sys.argv[4])
w = load_weights(src)
rng = np.random.default_rng(seed)
W1, b1, W2 = [], [], []
for c in range(3):
    nin, old = w.W1[c].shape
    add = hid[c] - old
    assert add >= 0, "can only widen"
    W1.append(np.concatenate([w.W1[c], rng.normal(0, 0.5 / np.sqrt(nin), (nin, add)).astype(np.float32)], 1))
    b1.append(np.concatenate([w.b1[c], np.zeros(add, np.float32)]))
    W2.append(np.concatenate([w.W2[c], np.zeros((add, 5), np.float32)], 0))
meta = dict(w.meta, hidden=hid, widened_from=src)
Weights(tuple(W1), tuple(b1), tuple(W2), tuple(w.b2), meta).save(dst)
