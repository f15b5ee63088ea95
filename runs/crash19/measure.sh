#!/bin/sh
# Issue 37, the crashed net (nineteenth session): the candidate NAME (fit.sh's splice, default e) beside the shipped
# net: the judge sets at 1 ply, judge_dev at 2 ply as the analysis searches (pruned), a duel of 40,000 games (seed
# 3,900,000, not used before), XG's analysis at 2 ply.  gnubg's and XG's values only measure.  From the root:
#   NAME=e sh runs/crash19/measure.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
PY=${PYTHON:-python} NAME=${NAME:-e}
R=runs/crash19/$NAME W=runs/crash19/$NAME/splice.npz
$PY -m bgtools train duel --run ${DATA:-/work/data}/duel_crash19$NAME --a $W --games 40000 --seed 3900000 > $R/duel.txt 2>&1 &
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
  $PY benchmarks/contact_inputs_judge.py $W --ply 1 --set $s
done > $R/judge_1ply.txt 2>&1
$PY benchmarks/judge.py --ply 2 --prune shipped --weights $W --against bgtools/data/nn_analysis.npz > $R/judge_dev_2ply.txt 2>&1
$PY benchmarks/xg_agreement.py --ply 2 --jobs 1 --weights $W > $R/xg_agreement_ply2.txt 2>&1
wait
