#!/bin/sh
# Issue 37: runs/gen10/candidate.npz judged against the shipped analysis net gen9w (the acceptance rule in
# docs/training.md: the judge sets, then a head-to-head duel of 100,000 duplicate games, then pubeval).
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
D=${DATA:-/work/data} PY=${PYTHON:-python} R=runs/gen10 C=runs/gen10/candidate.npz
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
  $PY benchmarks/contact_inputs_judge.py $C --set $s
done > $R/judge_0ply.txt
$PY -m bgtools train duel --run $D/duel10 --a $C --b runs/contact37/fit1000/fit.npz --games 100000 --seed 3810 > $R/duel.txt 2>&1
cp $D/duel10/duel.manifest.json $R/duel.manifest.json 2>/dev/null || true
$PY benchmarks/strength.py --games 40000 --seed 4242 --weights $C > $R/pubeval.txt
