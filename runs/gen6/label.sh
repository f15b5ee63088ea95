#!/bin/sh
# Generation 6 (issue 12), lever (1): 2-ply targets for most of the data. gen4 labels gen3's 800,000
# self-play positions (runs/gen4/a/data/positions.npz, from runs/gen3/gen3.sh's seed) at 2 ply, its
# replies ranked by the shipped pruning net (`--prune`, about half the cost). Resumable by parts.
# Run from the repository root:  nice -n 19 sh runs/gen6/label.sh >> runs/gen6/label.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
R=runs/gen6 G=runs/gen4/fit
mkdir -p $R/a/data
[ -e $R/a/data/positions.npz ] || ln -s ../../../gen4/a/data/positions.npz $R/a/data/positions.npz
python -m bgtools train label --run $R/a --ply 2 --prune --weights $G/fit.npz --jobs 2
