#!/bin/sh
# Issue 37: ship runs/gen11/candidate.npz as the analysis net (after measure.sh: PUBEVAL is its figure there),
# then measure what values with the shipped file again.  One core; from the repository root:
#   PUBEVAL=0.63 sh runs/gen11/ship.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
PY=${PYTHON:-python} O=runs/gen11/ship
$PY runs/gen11/ship.py bgtools/data/nn_analysis.npz ${PUBEVAL:?the pubeval figure of measure.sh}
$PY benchmarks/annotate_vs_gnubg.py --ply 2 --quiet > $O/annotate_vs_gnubg_2ply_gen11.txt
$PY benchmarks/cube_vs_gnubg.py --ply 0 > $O/cube_vs_gnubg_0ply_gen11.txt
$PY benchmarks/cube_vs_gnubg.py --ply 2 --every 10 > $O/cube_vs_gnubg_2ply_every10_gen11.txt
