#!/bin/sh
# Issue 37 item 3: do the contact inputs pay?  After runs/contact37/data.sh, the shipped contact
# and crashed nets fitted twice to the same 520,000 2-ply rows, 100 epochs, rate 3e-4 decayed to
# 1e-5, seed 37, each net kept at its own best held-out epoch: 0 = their own inputs (the control:
# what the long fit alone brings), 1 = contactinputs' 36 inputs added at zero weights.  One core
# each.  Then both judged at 0 ply on the three judge sets (gnubg's 2-ply values only measure).
# From the repository root:  sh runs/contact37/fit.sh > runs/contact37/fit.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
D=${DATA:-/work/data} PY=${PYTHON:-python} R=runs/contact37
A="$D/gen9a/data/labelled.npz $D/gen8c/data/labelled.npz --epochs ${EPOCHS:-100} --lr 3e-4 --lr-end 1e-5 --seed 37"
$PY benchmarks/contact_inputs_fit.py $A --variants 0 --save-prefix $D/CI --json-out $R/fit-0.json > $R/fit-0.log 2>&1 &
$PY benchmarks/contact_inputs_fit.py $A --variants 1 --save-prefix $D/CI --json-out $R/fit-1.json > $R/fit-1.log 2>&1
wait
J="$PY benchmarks/contact_inputs_judge.py $D/CI-0.npz $D/CI-1.npz"
$J --set benchmarks/data/judge_selfplay.jsonl.gz > $R/judge_selfplay.txt &
$J --set benchmarks/data/judge_third.jsonl.gz > $R/judge_third.txt
wait
$J > $R/judge_dev.txt   # judge_dev (../shared)
