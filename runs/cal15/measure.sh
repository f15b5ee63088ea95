#!/bin/sh
# Issues 35 / 37: what the refitted analysis net must show before it is shipped, beside the shipped gen12cal
# (runs/cal14/candidate.npz) on the same dice and files (docs/training.md, "The output layer refitted to our
# rollouts"): the judge sets at 0 and 1 ply (paired against the shipped net), judge_dev at 2 ply pruned as the analysis
# searches, pubeval on a new seed (3,300,000; 40,000 games), a duel of 100,000 games (new seed 3,400,000), XG's
# analysis at 2 ply and the cube decisions against gnubg's.  C: the candidate, NAME: its folder under runs/cal15/.
# Two cores; from the repository root, with gen12cal shipped:
#   C=runs/cal15/candidate.npz NAME=gen12lcal sh runs/cal15/measure.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
PY=${PYTHON:-python} O=runs/cal15/${NAME:?} C=${C:?} G=runs/cal14/candidate.npz D=${DATA:-/work/data}
mkdir -p $O
for P in 0 1; do
  for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
    $PY benchmarks/contact_inputs_judge.py $C --ply $P --set $s
  done > $O/judge_${P}ply.txt
done
$PY benchmarks/xg_agreement.py --ply 2 --jobs 1 --weights $C > $O/xg_agreement_ply2.txt &
for w in $C $G; do
  $PY benchmarks/cube_vs_gnubg.py --ply 0 --weights $w
  $PY benchmarks/cube_vs_gnubg.py --ply 2 --every 10 --weights $w
done > $O/cube_vs_gnubg.txt
wait
$PY benchmarks/judge.py --ply 2 --weights $C --against $G --prune shipped > $O/judge_dev_2ply.txt &
for w in $C $G; do $PY benchmarks/strength.py --games 40000 --seed 3300000 --weights $w; done > $O/pubeval_seed3300000.txt
wait
$PY -m bgtools train duel --run $D/duel_cal15_$NAME --a $C --b $G --games 100000 --seed 3400000 > $O/duel.txt 2>&1
