#!/bin/sh
# Issue 37: what the four-set refit (runs/cal18/fit.sh, runs/cal18/candidate.npz) shows beside the shipped
# gen12cal3 (runs/cal16/candidate.npz) on the same dice and files, as runs/cal16/measure.sh measured gen12cal3:
# XG's analysis at 2 ply, the cube decisions against gnubg's at 0 ply and at 2 ply (every 10th record), pubeval on
# a new seed (4,100,000; 40,000 games), a duel of 100,000 games (new seed 4,000,000).  Two cores, from the root:
#   sh runs/cal18/measure.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
PY=${PYTHON:-python} O=runs/cal18/contact_crashed_r3 C=runs/cal18/candidate.npz G=runs/cal16/candidate.npz
D=${DATA:-/work/data}
mkdir -p $O
$PY benchmarks/xg_agreement.py --ply 2 --jobs 1 --weights $C > $O/xg_agreement_ply2.txt
for w in $G $C; do $PY benchmarks/strength.py --games 40000 --seed 4100000 --weights $w; done > $O/pubeval_seed4100000.txt
for w in $C $G; do
  ( $PY benchmarks/cube_vs_gnubg.py --ply 0 --weights $w
    $PY benchmarks/cube_vs_gnubg.py --ply 2 --every 10 --weights $w ) > $O/cube_vs_gnubg_$(basename $(dirname $w)).txt
done
$PY -m bgtools train duel --run $D/duel_cal18_r3 --a $C --b $G --games 100000 --seed 4000000 > $O/duel.txt 2>&1
