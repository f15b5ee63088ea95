#!/bin/sh
# Issue 37: the analysis net's output layers refitted to all four sets of our rollouts (runs/cal14-17: 15,000 contact
# and crashed positions with runs/cal17's 5,000), from gen12 (runs/gen12/candidate.npz) by the recipe that made the
# shipped gen12cal3 from three (runs/cal16/fit.sh's contact_crashed_r3: contact and crashed nets, ridge 3).  Judged at
# 0 and 1 ply on the three judge sets paired against gen12cal3 (runs/cal16/candidate.npz), and judge_dev at 2 ply,
# pruned as the analysis searches (gnubg's values only measure).  After the four data.sh; the net in
# DATA/cal18_contact_crashed_r3/calibrated.npz, copied to runs/cal18/candidate.npz.  Two cores, from the repository root:
#   sh runs/cal18/fit.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
D=${DATA:-/work/data} PY=${PYTHON:-python} NAME=contact_crashed_r3 S=runs/cal16/candidate.npz
R="--rollouts $D/cal14/rollouts.jsonl --rollouts $D/cal15/rollouts.jsonl --rollouts $D/cal16/rollouts.jsonl"
R="$R --rollouts $D/cal17/rollouts.jsonl"
$PY -m bgtools train calibrate --run $D/cal18_$NAME $R --init runs/gen12/candidate.npz --outputs all \
    --nets contact,crashed --layer output --ridge 3
mkdir -p runs/cal18/$NAME
cp $D/cal18_$NAME/calibrate.log.csv $D/cal18_$NAME/calibrate.manifest.json runs/cal18/$NAME/
cp $D/cal18_$NAME/calibrated.npz runs/cal18/candidate.npz
for P in 0 1; do
  for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
    $PY benchmarks/contact_inputs_judge.py $S runs/cal18/candidate.npz --ply $P --set $s
  done > runs/cal18/$NAME/judge_${P}ply.txt
done
$PY benchmarks/judge.py --ply 2 --weights runs/cal18/candidate.npz --against $S --prune shipped \
    > runs/cal18/$NAME/judge_dev_2ply.txt
