#!/bin/sh
# Issue 37 item 3: the 2-ply data sets the contact-input fits use, regenerated from their seeds
# into DATA (default /work/data; git-ignored sizes: about 0.6 GB):
#   DATA/gen9a: runs/gen9/label.sh's recipe (gen8, the shipped net, plays 400,000 positions with
#               seed 10 and labels them at 2 ply, replies ranked by the shipped pruning net)
#   DATA/gen8c: runs/gen8/crashed.sh's recipe (gen7's fine plays until 120,000 crashed positions,
#               seed 9, labelled at 2 ply by gen7's fine)
# Both stages resume where they stopped.  From the repository root:
#   nice -n 19 sh runs/contact37/data.sh >> runs/contact37/data.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
D=${DATA:-/work/data} PY=${PYTHON:-python}
$PY -m bgtools train selfplay --run $D/gen9a --positions 400000 --seed 10 --weights runs/gen8/plain/fit.npz
$PY -m bgtools train label --run $D/gen9a --ply 2 --prune --weights runs/gen8/plain/fit.npz --jobs 2
$PY -m bgtools train selfplay --run $D/gen8c --positions 120000 --seed 9 --weights runs/gen7/fine/fit.npz --classes crashed
$PY -m bgtools train label --run $D/gen8c --ply 2 --prune --weights runs/gen7/fine/fit.npz --jobs 2
