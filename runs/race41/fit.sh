#!/bin/sh
# Issue 37, items 2 and 4: the shipped net's race net (gen11's) fitted to runs/race41's rollout decision rows
# (data.sh) with the within-roll loss, beside runs/race37vr's 300,000 VR-rolled positions (rebuilt by its
# race.sh; here from $D/race37vr); the contact and crashed nets have no rows and stay as they are.  Three
# variants: with race37vr's rows (a), with the race inputs too (b), the decision rows alone (c).  Then the
# judge sets' race positions (gnubg's 2-ply values only measure) and our own rollout referee.  One core:
#   sh runs/race41/fit.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
D=${DATA:-/work/data} PY=${PYTHON:-python} O=runs/race41 W=runs/gen11/candidate.npz
fit() {  # fit NAME ARGS...
  n=$1; shift
  mkdir -p $D/race41$n/data
  ln -sf $D/race41/data/decisions.npz $D/race41$n/data/decisions.npz
  $PY -m bgtools train fit --run $D/race41$n --data decisions --init $W --within-roll 20 --epochs 100 --lr 1e-4 \
      --lr-end 1e-5 --seed 41 --best-per-net "$@"
  cp $D/race41$n/fit.log.csv $O/fit-$n.log.csv; cp $D/race41$n/fit.manifest.json $O/fit-$n.manifest.json
}
fit a --extra $D/race37vr/data/labelled.npz
fit b --extra $D/race37vr/data/labelled.npz --race-inputs
fit c
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz; do
  $PY benchmarks/contact_inputs_judge.py $D/race41a/fit.npz $D/race41b/fit.npz $D/race41c/fit.npz --set $s
done > $O/judge_0ply.txt
$PY benchmarks/race_rollout_judge.py --rolls 1000 --trials 36 shipped $D/race41a/fit.npz $D/race41b/fit.npz \
    $D/race41c/fit.npz > $O/race_rollout_judge.txt
