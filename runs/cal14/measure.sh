#!/bin/sh
# Issue 35 / 37: what a calibrated analysis net must show before it is shipped, beside the shipped gen12 on the same
# dice and files (docs/training.md, "Calibrated to our rollouts"): the judge sets at 0 and 1 ply (both nets paired),
# judge_dev at 2 ply pruned as the analysis searches, pubeval on a new seed (2,800,000; 40,000 games), a duel of
# 100,000 games (seed 3,000,000) and XG's analysis (benchmarks/xg_agreement.py --ply 2).  C: the candidate, NAME: its
# folder under runs/cal14/.  Two cores; from the repository root:
#   C=runs/cal14/candidate.npz NAME=gen12cal sh runs/cal14/measure.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
PY=${PYTHON:-python} O=runs/cal14/${NAME:?} C=${C:?} G=runs/gen12/candidate.npz D=${DATA:-/work/data}
mkdir -p $O
$PY benchmarks/judge.py --ply 2 --weights $C --against $G --prune shipped > $O/judge_dev_2ply.txt &
for P in 0 1; do
  for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
    $PY benchmarks/contact_inputs_judge.py $C --ply $P --set $s
  done > $O/judge_${P}ply.txt
done
for w in $C $G; do $PY benchmarks/strength.py --games 40000 --seed 2800000 --weights $w; done > $O/pubeval_seed2800000.txt
wait
$PY -m bgtools train duel --run $D/duel_cal14_$NAME --a $C --b $G --games 100000 --seed 3000000 > $O/duel.txt 2>&1 &
$PY benchmarks/xg_agreement.py --ply 2 --jobs 1 --weights $C > $O/xg_agreement_ply2.txt
wait
