#!/bin/sh
# Issue 37 (twenty-first session): the candidate NAME (fit.sh's splice) beside the shipped crash19e: a duel of 40,000
# games (SEED, default 4,400,000: a seed no duel used, one a look), the five judge sets at 1 ply (paired), XG's analysis at 2 ply.  gnubg's and
# XG's values only measure.  Two cores; from the root:
#   NAME=m sh runs/crash21/measure.sh
#   NAME=p SEED=4500000 sh runs/crash21/measure.sh
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
PY=${PYTHON:-python} NAME=${NAME:?} A=bgtools/data/nn_analysis.npz
R=runs/crash21/$NAME W=runs/crash21/$NAME/splice.npz
( $PY -m bgtools train duel --run ${DATA:-/work/data}/duel_crash21$NAME --a $W --b $A --games 40000 --seed ${SEED:-4400000} > $R/duel.txt 2>&1
  $PY benchmarks/xg_agreement.py --ply 2 --jobs 1 --weights $W > $R/xg_agreement_ply2.txt 2>&1 ) &
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz \
         benchmarks/data/judge_fourth.jsonl.gz benchmarks/data/judge_fifth.jsonl.gz; do
  $PY benchmarks/judge.py --set $s --ply 1 --weights $W --against $A
done > $R/judge_1ply.txt 2>&1
wait
