#!/bin/sh
# Issues 35 / 37: the refitted rollout net beside the shipped roll13cal (runs/cal14/rollout_candidate.npz): a duel of
# 100,000 games (new seed 3,500,000), full rollouts against gnubg's, and the analysis's rollout tier against XG (its
# truncated rollouts value their leaves with the rollout net; the screen is ANALYSIS, default the shipped net).
# Two cores; from the repository root:
#   R=runs/cal15/rollout_candidate.npz NAME=roll13lcal sh runs/cal15/measure_rollout.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
PY=${PYTHON:-python} O=runs/cal15/${NAME:?} R=${R:?} G=runs/cal14/rollout_candidate.npz D=${DATA:-/work/data}
A=${ANALYSIS:+--weights $ANALYSIS}
mkdir -p $O
$PY -m bgtools train duel --run $D/duel_cal15_$NAME --a $R --b $G --games 100000 --seed 3500000 > $O/duel.txt 2>&1
$PY benchmarks/rollout_vs_gnubg.py --weights $R --jobs 2 > $O/rollout_vs_gnubg.txt
$PY benchmarks/xg_agreement.py --level rollout --jobs 2 $A --rollout-weights $R > $O/xg_agreement_level_rollout.txt
