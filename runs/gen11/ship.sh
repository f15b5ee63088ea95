#!/bin/sh
# Issue 37: ship runs/$GEN/candidate.npz (GEN: gen11 by default; gen12 the ninth session) as the analysis net
# (after measure.sh: PUBEVAL is its figure there) by runs/$GEN/ship.py, then measure what values with the
# shipped file again; outputs in runs/$GEN/ship/.  One core; from the repository root:
#   PUBEVAL=0.618 sh runs/gen11/ship.sh
#   GEN=gen12 PUBEVAL=0.638 sh runs/gen11/ship.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
GEN=${GEN:-gen11} PY=${PYTHON:-python}
O=runs/$GEN/ship
mkdir -p $O
$PY runs/$GEN/ship.py bgtools/data/nn_analysis.npz ${PUBEVAL:?the pubeval figure of measure.sh}
$PY benchmarks/annotate_vs_gnubg.py --ply 2 --quiet > $O/annotate_vs_gnubg_2ply_$GEN.txt
$PY benchmarks/cube_vs_gnubg.py --ply 0 > $O/cube_vs_gnubg_0ply_$GEN.txt
$PY benchmarks/cube_vs_gnubg.py --ply 2 --every 10 > $O/cube_vs_gnubg_2ply_every10_$GEN.txt
