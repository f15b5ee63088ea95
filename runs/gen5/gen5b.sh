#!/bin/sh
# Generation 5, second batch of 2-ply positions (issue 12): gen4's net plays 100,000 more positions
# (seed 6) and labels them at 2 ply, as gen5.sh did for seed 5.
# Run from the repository root:  nice -n 10 sh runs/gen5/gen5b.sh > runs/gen5/gen5b.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
R=runs/gen5 G=runs/gen4/fit
python -m bgtools train selfplay --run $R/sp2 --positions 100000 --seed 6 --weights $G/fit.npz
python -m bgtools train label --run $R/sp2 --ply 2 --weights $G/fit.npz --jobs 2
