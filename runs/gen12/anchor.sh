#!/bin/sh
# Issue 37, the ninth session: rows of whole positions to fit beside gen12's decision rows (sweep.sh's looks on
# the decision rows alone lost at 1 ply: the net's values drift where only sibling plays are fitted).
#   DATA/gen12/data/labelled.npz  gen12's 120,000 self-play positions (data.sh) labelled at 2 ply by gen11 with
#                                 the shipped pruning net
#   DATA/gen10/first18.npz        the first 90,000 rows of runs/gen10/data.sh's labels (gen9w's 2 ply; stop that
#                                 script after its label part 18, or let it finish)
# Then: NAME=f... EXTRA="DATA/gen12/data/labelled.npz DATA/gen10/first18.npz" ... sh runs/gen12/sweep.sh
# Two cores; from the repository root, after data.sh.
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
D=${DATA:-/work/data} PY=${PYTHON:-python}
$PY -m bgtools train label --run $D/gen12 --ply 2 --prune --weights runs/gen11/candidate.npz --jobs 2
cp $D/gen12/label.manifest.json runs/gen12/
$PY runs/gen12/first_parts.py $D/gen10 18 $D/gen10/first18.npz
