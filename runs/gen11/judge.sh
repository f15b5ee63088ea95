#!/bin/sh
# Issue 37, item 4: runs/gen11's two candidates (fit.sh) judged against gen10's candidate (the same fit without
# the decision rows: runs/gen10/fit.sh writes $D/gen10fit-1.npz) and against the shipped gen9w: the three judge
# sets at 0 ply (gnubg's 2-ply values only measure), then the self-judge on 1,500 held-out rolls with gen9w's
# 2-ply as the fixed referee.  The duel and pubeval follow for a candidate the judge sets favour (the
# acceptance rule in docs/training.md).  One core; from the repository root:
#   sh runs/gen11/judge.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
D=${DATA:-/work/data} PY=${PYTHON:-python} R=runs/gen11 W=runs/contact37/fit1000/fit.npz
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
  $PY benchmarks/contact_inputs_judge.py $D/gen10fit-1.npz $D/gen11fit-candidates-1.npz $D/gen11fit-pairs-1.npz --set $s
done > $R/judge_0ply.txt
for V in candidates pairs; do
  $PY benchmarks/self_judge.py --weights $D/gen11fit-$V-1.npz --referee $W --against $D/gen10fit-1.npz \
      --positions 1500 --prune > $R/self_judge_$V.txt
done
