#!/bin/sh
# Generation 9 (issue 12): gen8's recipe one generation on. gen8 (the shipped net,
# runs/gen8/plain/fit.npz) plays 400,000 positions (seed 10) and labels them at 2 ply, replies
# ranked by the shipped pruning net. Both stages resume where they stopped: rerun the same command.
# Run from the repository root:  nice -n 19 sh runs/gen9/label.sh >> runs/gen9/label.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
R=runs/gen9 G=runs/gen8/plain
python -m bgtools train selfplay --run $R/a --positions 400000 --seed 10 --weights $G/fit.npz
python -m bgtools train label --run $R/a --ply 2 --prune --weights $G/fit.npz --jobs 2
