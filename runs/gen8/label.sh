#!/bin/sh
# Generation 8 (issue 12): new positions from the best candidate's own play, and its 2-ply targets.
# gen7's `fine` (runs/gen7/fine/fit.npz) plays 400,000 positions (seed 8, exploring as every
# generation does), then labels them at 2 ply, replies ranked by the shipped pruning net
# (`--prune`). Both stages resume where they stopped: rerun the same command to go on.
# Run from the repository root:  nice -n 19 sh runs/gen8/label.sh >> runs/gen8/label.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
R=runs/gen8 G=runs/gen7/fine
python -m bgtools train selfplay --run $R/a --positions 400000 --seed 8 --weights $G/fit.npz
python -m bgtools train label --run $R/a --ply 2 --prune --weights $G/fit.npz --jobs 2
