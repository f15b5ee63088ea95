#!/bin/sh
# Issue 37, the crashed net (nineteenth session): the shipped analysis net fitted to runs/crash19's 150,000 crashed
# rows (data.sh), each class net at its own best held-out epoch; only the crashed net is kept (splice.py: the shipped
# contact and race nets), then judged at 0 and 1 ply on the three judge sets (gnubg's 2-ply values only measure).
#   NAME=a EPOCHS=30 LR=1e-4 SEED=1901 sh runs/crash19/fit.sh
#   NAME=b EPOCHS=60 LR=3e-4 SEED=1902 sh runs/crash19/fit.sh
# (PLIES="0" judges at 0 ply only; EXTRA names more rows, e.g. runs/crash19/second/data/labelled.npz from data2.sh)
# From the repository root, after data.sh (which leaves runs/crash19/data/labelled.npz).
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
NAME=${NAME:?} EPOCHS=${EPOCHS:?} LR=${LR:?} LR_END=${LR_END:-1e-5} SEED=${SEED:?}
PY=${PYTHON:-python} R=runs/crash19/$NAME
mkdir -p $R/data
[ -f $R/data/labelled.npz ] || cp runs/crash19/data/labelled.npz $R/data/
$PY -m bgtools train fit --run $R --epochs $EPOCHS --lr $LR --lr-end $LR_END --seed $SEED --best-per-net \
    $(for e in ${EXTRA:-}; do printf -- '--extra %s ' $e; done)
$PY runs/crash19/splice.py $R/fit.npz bgtools/data/nn_analysis.npz $R/splice.npz crash19$NAME
for P in ${PLIES:-0 1}; do
  for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
    $PY benchmarks/contact_inputs_judge.py $R/splice.npz --ply $P --set $s
  done > $R/judge_${P}ply.txt 2>&1
done
