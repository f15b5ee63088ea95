#!/bin/sh
# Issue 37 (twentieth session): the crashed looks e and f beside the shipped net on judge_fourth, a set no look was
# compared on (fresh gnubg self-play, benchmarks/gnubg_selfplay.py seeds 6001-6060; make_judge_set.py --seed 4
# --scale 2): 0, 1 and 2 ply (pruned, as the analysis searches), both looks at once.  From the root:
#   sh runs/crash19/fourth.sh
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
PY=${PYTHON:-python} S=benchmarks/data/judge_fourth.jsonl.gz A=bgtools/data/nn_analysis.npz
for n in e f; do
  ( R=runs/crash19/$n W=runs/crash19/$n/splice.npz
    $PY benchmarks/judge.py --set $S --ply 0 --weights $W --against $A > $R/judge_fourth_0ply.txt 2>&1
    $PY benchmarks/judge.py --set $S --ply 1 --weights $W --against $A > $R/judge_fourth_1ply.txt 2>&1
    $PY benchmarks/judge.py --set $S --ply 2 --prune shipped --weights $W --against $A > $R/judge_fourth_2ply.txt 2>&1 ) &
done
wait
# judge_dev at 2 ply again with the judge's --against searched as ours (pruned; before 2026-12-07 09:20 the other net
# was searched unpruned, which put the pruning's own cost, +0.11 on judge_fourth, into the paired difference)
for n in e f; do
  $PY benchmarks/judge.py --ply 2 --prune shipped --weights runs/crash19/$n/splice.npz --against $A > runs/crash19/$n/judge_dev_2ply.txt 2>&1 &
done
wait
