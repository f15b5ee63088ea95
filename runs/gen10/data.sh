#!/bin/sh
# Issue 37, next generation (docs/training.md, "What the next session should run", item 2): the accepted
# contact-input net (runs/contact37/fit1000/fit.npz, shipped for analysis as bgtools/data/nn_analysis.npz)
# plays 400,000 positions of its own self-play (seed 11) and labels them at 2 ply itself, replies ranked by the
# shipped pruning net.  Data go to DATA/gen10 (default /work/data; git-ignored, about 80 MB); both stages
# resume where they stopped.  From the repository root:
#   nice -n 19 sh runs/gen10/data.sh >> runs/gen10/data.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
D=${DATA:-/work/data} PY=${PYTHON:-python} J=${JOBS:-1}
W=runs/contact37/fit1000/fit.npz
$PY -m bgtools train selfplay --run $D/gen10 --positions 400000 --seed 11 --weights $W
$PY -m bgtools train label --run $D/gen10 --ply 2 --prune --weights $W --jobs $J
