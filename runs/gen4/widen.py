"""Widen a net (the run record of wide.sh; `bgtools train fit --hidden` does the same, seeded by
the fit's seed): bgtools.engine.nets.nn.widen_weights with its own seed, the source named in meta.
Usage: python runs/gen4/widen.py IN.npz OUT.npz 256,128,64 SEED"""
import sys

from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import Weights, widen_weights

src, dst, hid, seed = sys.argv[1], sys.argv[2], tuple(int(x) for x in sys.argv[3].split(",")), int(sys.argv[4])
w = widen_weights(load_weights(src), hid, seed)
Weights(w.W1, w.b1, w.W2, w.b2, dict(w.meta, hidden=list(hid), widened_from=src)).save(dst)
