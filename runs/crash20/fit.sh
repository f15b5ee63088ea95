#!/bin/sh
# Issue 37, item 5 (twentieth session, a first look): the shipped analysis net's crashed net fitted from crash19e to
# runs/crash19's 300,000 crashed rows at its own 2 ply beside the first N of runs/crash20's rollouts (the last tenth
# of them held out), each rollout row REPEAT times; only the crashed net kept (runs/crash19/splice.py); then the
# held-out rollouts' equity error of crash19e and the look, and the 0-ply judge on the four sets.  From the root,
# after runs/crash19/data.sh, data2.sh and N records of runs/crash20/rollouts.sh:
#   NAME=g N=6000 REPEAT=10 EPOCHS=60 LR=3e-4 SEED=2001 sh runs/crash20/fit.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
NAME=${NAME:?} N=${N:?} REPEAT=${REPEAT:?} EPOCHS=${EPOCHS:?} LR=${LR:?} LR_END=${LR_END:-1e-5} SEED=${SEED:?}
PY=${PYTHON:-python} R=runs/crash20/$NAME A=bgtools/data/nn_analysis.npz
mkdir -p $R/data
$PY runs/crash20/rows.py rows runs/crash20/rollouts.jsonl $N $REPEAT $R/data/rollout_rows.npz $R/heldout.npz
[ -f $R/data/labelled.npz ] || cp runs/crash19/data/labelled.npz $R/data/
$PY -m bgtools train fit --run $R --init $A --epochs $EPOCHS --lr $LR --lr-end $LR_END --seed $SEED --best-per-net \
    --extra runs/crash19/second/data/labelled.npz --extra $R/data/rollout_rows.npz
$PY runs/crash19/splice.py $R/fit.npz $A $R/splice.npz crash20$NAME
$PY runs/crash20/rows.py heldout $R/heldout.npz $A $R/splice.npz > $R/heldout.txt
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz \
         benchmarks/data/judge_fourth.jsonl.gz; do
  $PY benchmarks/judge.py --set $s --ply 0 --weights $R/splice.npz --against $A
done > $R/judge_0ply.txt 2>&1
