#!/bin/sh
# Issue 37, item 4: the within-roll loss study on runs/gen11's candidate rows (after data.sh and fit.sh, which
# writes $D/gen11-candidates.npz), fine-tuning gen10's candidate ($D/gen10fit-1.npz, runs/gen10/fit.sh):
# 20 epochs at 3e-5, batches of 64 whole rolls between batches of labelled rows, lam 0 (the control) and 20.
# lam 20 is $D/wrfull-lam20.npz (not kept: runs/gen11/stagefit.sh makes the candidate, runs/gen11/candidate.npz).  Then judged,
# duelled against gen9w (100,000 games, seed 3812) and matched against pubeval (40,000, seed 4242).
# One core; from the repository root:  sh runs/gen11/within_roll.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
D=${DATA:-/work/data} PY=${PYTHON:-python} R=runs/gen11
$PY benchmarks/within_roll_fit.py $D/gen11-candidates.npz $D/gen10/data/labelled.npz $D/gen9a/data/labelled.npz \
    $D/gen8c/data/labelled.npz --init $D/gen10fit-1.npz --lam 0 --lam 20 --epochs 20 --lr 3e-5 \
    --save-prefix $D/wrfull --json-out $R/within_roll.json > $R/within_roll.txt
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
  $PY benchmarks/contact_inputs_judge.py $D/wrfull-lam0.npz $D/wrfull-lam20.npz --set $s
done > $R/within_roll_judge.txt
$PY -m bgtools train duel --run $D/duel11w --a $D/wrfull-lam20.npz --b runs/contact37/fit1000/fit.npz --games 100000 --seed 3812 > $R/duel_within_roll20.txt 2>&1
$PY benchmarks/strength.py --games 40000 --seed 4242 --weights $D/wrfull-lam20.npz > $R/pubeval_within_roll20.txt
