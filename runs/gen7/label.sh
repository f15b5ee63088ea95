#!/bin/sh
# Generation 7 (issue 12): 2-ply targets for gen2's 1.2M self-play positions
# (runs/gen4/b/data/positions.npz -> runs/gen2/data/positions.npz, from runs/gen2's seed), labelled by
# generation 6's candidate `deep` (its 2-ply judge 2.24 against gen4's 2.52), replies ranked by the
# shipped pruning net (`--prune`). Resumable by parts of 5,000: rerun the same command to go on.
# Run from the repository root:  nice -n 19 sh runs/gen7/label.sh >> runs/gen7/label.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
R=runs/gen7 G=runs/gen6/deep
mkdir -p $R/a/data
[ -e $R/a/data/positions.npz ] || ln -s ../../../gen2/data/positions.npz $R/a/data/positions.npz
python -m bgtools train label --run $R/a --ply 2 --prune --weights $G/fit.npz --jobs 2
