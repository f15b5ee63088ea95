#!/bin/sh
# Issue 37, a second look at gen12's rows alone (after quickfit.sh): a heavier within-roll term and a longer,
# faster fit (lam 50, 40 epochs at 5e-5, seed 40); judged on the three sets at 0 ply and duelled against gen11
# (100,000 games, seed 300,000).  From the repository root, after data.sh:
#   sh runs/gen12/quickfit2.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
D=${DATA:-/work/data} PY=${PYTHON:-python} R=runs/gen12/quick2 S=${DATA:-/work/data}/g12quick2 G=runs/gen11/candidate.npz
mkdir -p $S/data $R
cp $D/gen12/data/decisions.npz $S/data/decisions.npz
$PY -m bgtools train fit --run $S --data decisions --init $G --within-roll 50 --epochs 40 --lr 5e-5 --seed 40 --best-per-net
cp $S/fit.log.csv $S/fit.manifest.json $R/
$PY -m bgtools train duel --run $D/duel12q2 --a $S/fit.npz --b $G --games 100000 --seed 300000 > $R/duel.txt 2>&1 &
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
  $PY benchmarks/contact_inputs_judge.py $S/fit.npz --set $s
done > $R/judge_0ply.txt
wait
