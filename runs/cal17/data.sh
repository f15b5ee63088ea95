#!/bin/sh
# Issue 37: a fourth set of our own rollouts, toward the 20,000 positions a fit of the contact net's last hidden layer
# asks (docs/training.md, "What the next session should run", item 2): 4,000 contact and 1,000 crashed positions of
# generation 13's self-play (seed 1717, none of runs/cal14's, runs/cal15's or runs/cal16's), each rolled out cubeless
# to the end by the shipped rollout net (the process started 2026-12-06 with roll13cal2): 324 trials with variance
# reduction, dice seed 1717.  About an hour per 1,500 positions on two cores; resumable (run it again and it goes on;
# the ids file is made once, in the sample's random order, so a part done is a random part).
# After runs/cal14/data.sh, runs/cal15/data.sh and runs/cal16/data.sh (their ids files).  From the repository root:
#   nice -n 19 sh runs/cal17/data.sh >> runs/cal17/data.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
D=${DATA:-/work/data} PY=${PYTHON:-python}
$PY -m bgtools train selfplay --run $D/gen13 --positions 120000 --seed 14 --weights runs/gen12/candidate.npz
mkdir -p $D/cal17
[ -s $D/cal17/ids.txt ] || $PY runs/cal15/sample.py $D/gen13/data/positions.npz \
    $D/cal14/ids.txt,$D/cal15/ids.txt,$D/cal16/ids.txt $D/cal17/ids.txt 1717 CONTACT=4000 CRASHED=1000
R=$D/cal17/rollouts.jsonl
if [ -s $R ]; then MORE=--resume; else MORE=; fi
$PY -m bgtools rollout -i $D/cal17/ids.txt --trials 324 --vr --jobs ${JOBS:-2} --seed 1717 -o $R $MORE
