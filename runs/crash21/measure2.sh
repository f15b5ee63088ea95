#!/bin/sh
# Issue 37 (twenty-second session): the anchored look NAME (fit.sh's splice, default r) beside the shipped crash19e
# before shipping it: a duel of 40,000 games at 0 ply (seed 4,600,000, not used before), 40,000 games against pubeval
# (seed 4,800,000, not used before; crash19e on the same dice; a first run of 10,000 games at 4,700,000 forgot --games), the six judge sets at 1 ply (paired), judge_dev at
# 2 ply as the analysis searches (pruned, paired), XG's analysis at 2 ply, the cube against gnubg's (0 ply, and 2 ply
# every 10th record; crash19e beside it).  gnubg's and XG's values only measure.  Two cores; from the root:
#   NAME=r sh runs/crash21/measure2.sh
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
PY=${PYTHON:-python} NAME=${NAME:-r}
R=runs/crash21/$NAME W=runs/crash21/$NAME/splice.npz
git show d7a8de4:bgtools/data/nn_analysis.npz > $R/crash19e.npz  # crash19e, shipped when r was measured (r is shipped since)
( $PY -m bgtools train duel --run ${DATA:-/work/data}/duel_crash21$NAME --a $W --b $R/crash19e.npz --games 40000 --seed 4600000 > $R/duel.txt 2>&1
  for w in $W $R/crash19e.npz; do $PY benchmarks/strength.py --games 40000 --seed 4800000 --weights $w; done > $R/pubeval_seed4800000.txt 2>&1
  $PY benchmarks/xg_agreement.py --ply 2 --jobs 1 --weights $W > $R/xg_agreement_ply2.txt 2>&1
  $PY benchmarks/judge.py --ply 2 --prune shipped --weights $W --against $R/crash19e.npz > $R/judge_dev_2ply.txt 2>&1 ) &
( for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz \
           benchmarks/data/judge_fourth.jsonl.gz benchmarks/data/judge_fifth.jsonl.gz benchmarks/data/judge_sixth.jsonl.gz; do
    $PY benchmarks/judge.py --set $s --ply 1 --weights $W --against $R/crash19e.npz
  done > $R/judge_1ply.txt 2>&1
  for w in $W $R/crash19e.npz; do
    n=$(basename $w .npz)
    ( $PY benchmarks/cube_vs_gnubg.py --ply 0 --weights $w
      $PY benchmarks/cube_vs_gnubg.py --ply 2 --every 10 --weights $w ) > $R/cube_vs_gnubg_$n.txt 2>&1
  done ) &
wait
rm -f $R/crash19e.npz
