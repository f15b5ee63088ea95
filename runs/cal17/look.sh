#!/bin/sh
# Issue 37: a first look at the fourth set while it is made (docs/training.md, "gen12cal3 shipped"): gen12's output
# layers refitted (as runs/cal16/fit.sh's contact_crashed_r3, ridge 3 and 1) to the three sets and the first N records
# of runs/cal17's rollouts, judged at 0 and 1 ply against the shipped gen12cal3.  The fourteenth session ran it with
# N=2960.  From the repository root:
#   N=2960 sh runs/cal17/look.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
D=${DATA:-/work/data} PY=${PYTHON:-python}
head -n ${N:?} $D/cal17/rollouts.jsonl > $D/cal17/part.jsonl
R="--rollouts $D/cal14/rollouts.jsonl --rollouts $D/cal15/rollouts.jsonl --rollouts $D/cal16/rollouts.jsonl"
for r in 3 1; do
  $PY -m bgtools train calibrate --run $D/cal17_look_r$r $R --rollouts $D/cal17/part.jsonl --init runs/gen12/candidate.npz \
      --outputs all --nets contact,crashed --layer output --ridge $r
done
mkdir -p runs/cal17/look_partial
cp $D/cal17_look_r3/calibrate.log.csv runs/cal17/look_partial/calibrate_r3.log.csv
cp $D/cal17_look_r1/calibrate.log.csv runs/cal17/look_partial/calibrate_r1.log.csv
for P in 0 1; do
  for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
    $PY benchmarks/contact_inputs_judge.py $D/cal17_look_r3/calibrated.npz $D/cal17_look_r1/calibrated.npz --ply $P --set $s
  done > runs/cal17/look_partial/judge_${P}ply.txt
done
