#!/bin/sh
# Issue 37: the analysis net's output layers refitted to all three sets of our rollouts (runs/cal14, runs/cal15,
# runs/cal16: 10,000 contact and 2,100 crashed positions), from gen12 (runs/gen12/candidate.npz) as runs/cal15/fit.sh
# made the shipped gen12cal2 from 7,000; three looks (docs/training.md, "A third set of rollouts"), none shipped yet:
#   contact_r10:          the contact net, ridge 10 (cal15's recipe with the new rollouts)
#   contact_crashed_r10:  the crashed net too
#   contact_crashed_r3:   both, ridge 3
# Each judged at 0 and 1 ply on the three judge sets (gnubg's 2-ply values only measure; "shipped" there is gen12cal2).
# After runs/cal14/data.sh, runs/cal15/data.sh and runs/cal16/data.sh; nets in DATA/cal16_LOOK/calibrated.npz.
# contact_crashed_r3 is committed as runs/cal16/candidate.npz (the analysis net shipped from it: ship.py).  Last, the
# rollout net (roll13, runs/roll13/candidate.npz) refitted the same way (contact_crashed_r3's recipe), copied to
# runs/cal16/rollout_candidate.npz (not committed: it played level with roll13cal2 and was not accepted) and judged at
# 0 ply beside roll13cal2 (runs/cal15/rollout_candidate.npz).
#   sh runs/cal16/fit.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
D=${DATA:-/work/data} PY=${PYTHON:-python}
R="--rollouts $D/cal14/rollouts.jsonl --rollouts $D/cal15/rollouts.jsonl --rollouts $D/cal16/rollouts.jsonl"
for look in contact:10:contact_r10 contact,crashed:10:contact_crashed_r10 contact,crashed:3:contact_crashed_r3; do
  NETS=${look%%:*} REST=${look#*:} RIDGE=${REST%%:*} NAME=${REST#*:}
  $PY -m bgtools train calibrate --run $D/cal16_$NAME $R --init runs/gen12/candidate.npz --outputs all \
      --nets $NETS --layer output --ridge $RIDGE
  mkdir -p runs/cal16/$NAME
  cp $D/cal16_$NAME/calibrate.log.csv $D/cal16_$NAME/calibrate.manifest.json runs/cal16/$NAME/
  for P in 0 1; do
    for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
      $PY benchmarks/contact_inputs_judge.py $D/cal16_$NAME/calibrated.npz --ply $P --set $s
    done > runs/cal16/$NAME/judge_${P}ply.txt
  done
done
# judge_dev at 2 ply, pruned as the analysis searches, paired against gen12cal2 (runs/cal15/candidate.npz)
for NAME in contact_r10 contact_crashed_r3; do
  $PY benchmarks/judge.py --ply 2 --weights $D/cal16_$NAME/calibrated.npz --against runs/cal15/candidate.npz \
      --prune shipped > runs/cal16/$NAME/judge_dev_2ply.txt
done
cp $D/cal16_contact_crashed_r3/calibrated.npz runs/cal16/candidate.npz
# the rollout net
$PY -m bgtools train calibrate --run $D/cal16_roll_contact_crashed_r3 $R --init runs/roll13/candidate.npz --outputs all \
    --nets contact,crashed --layer output --ridge 3
cp $D/cal16_roll_contact_crashed_r3/calibrated.npz runs/cal16/rollout_candidate.npz
mkdir -p runs/cal16/roll_contact_crashed_r3
cp $D/cal16_roll_contact_crashed_r3/calibrate.log.csv runs/cal16/roll_contact_crashed_r3/
cp $D/cal16_roll_contact_crashed_r3/calibrate.manifest.json runs/cal16/roll_contact_crashed_r3/
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
  $PY benchmarks/contact_inputs_judge.py runs/cal15/rollout_candidate.npz runs/cal16/rollout_candidate.npz --ply 0 --set $s
done > runs/cal16/roll_contact_crashed_r3/judge_0ply.txt
