#!/bin/sh
# Issue 38 item 5 / issue 37 item 7, a study: a rollout net with gnubg's contact width (128 hidden units, not 256).
# gen8's contact net narrowed to the 128 hidden units with the largest output weights, then all three plain nets'
# contact and crashed layers fitted 300 epochs to the same 520,000 2-ply rows gen9w was fitted to
# (runs/contact37/data.sh), each at its own best held-out epoch.  One core; from the repository root:
#   sh runs/narrow38/fit.sh > runs/narrow38/fit.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
D=${DATA:-/work/data} PY=${PYTHON:-python} R=runs/narrow38
$PY - "$D/narrow-init.npz" <<'PYEOF'
import sys
import numpy as np
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import Weights
w = load_weights(None, "rollout")
W1, b1, W2 = list(w.W1), list(w.b1), list(w.W2)
keep = np.sort(np.argsort(-np.linalg.norm(W2[0], axis=1))[:128])  # contact: the 128 units with the largest outputs
W1[0], b1[0], W2[0] = np.ascontiguousarray(W1[0][:, keep]), b1[0][keep].copy(), np.ascontiguousarray(W2[0][keep])
Weights(tuple(W1), tuple(b1), tuple(W2), tuple(w.b2), dict(w.meta, hidden=[128, 128, 64], narrowed_from=w.meta["version"])).save(sys.argv[1])
print("narrowed", [a.shape for a in W1])
PYEOF
$PY benchmarks/contact_inputs_fit.py $D/gen9a/data/labelled.npz $D/gen8c/data/labelled.npz --init $D/narrow-init.npz \
    --variants 0 --epochs ${EPOCHS:-300} --lr 3e-4 --lr-end 1e-5 --seed 39 --save-prefix $D/narrow --json-out $R/fit.json
cp $D/narrow-0.npz $R/candidate.npz
