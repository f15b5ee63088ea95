#!/bin/sh
# Issue 37: a third set of our own rollouts, for the crashed net's output layer and the contact net's hidden layer
# (docs/training.md, "The next session's list", items 1, 2 and 8): 3,000 contact and 1,500 crashed positions of
# generation 13's self-play (seed 1616, none of runs/cal14's or runs/cal15's), each rolled out cubeless to the end by
# the shipped rollout net (roll13cal2): 324 trials with variance reduction, dice seed 1616.  About an hour per 1,500
# positions on two cores; resumable (run it again and it goes on; the ids file is made once).
# After runs/cal14/data.sh and runs/cal15/data.sh (their ids files).  From the repository root:
#   nice -n 19 sh runs/cal16/data.sh >> runs/cal16/data.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
D=${DATA:-/work/data} PY=${PYTHON:-python}
$PY -m bgtools train selfplay --run $D/gen13 --positions 120000 --seed 14 --weights runs/gen12/candidate.npz
mkdir -p $D/cal16
[ -s $D/cal16/ids.txt ] || $PY runs/cal15/sample.py $D/gen13/data/positions.npz $D/cal14/ids.txt,$D/cal15/ids.txt \
    $D/cal16/ids.txt 1616 CONTACT=3000 CRASHED=1500
R=$D/cal16/rollouts.jsonl
if [ -s $R ]; then MORE=--resume; else MORE=; fi
$PY -m bgtools rollout -i $D/cal16/ids.txt --trials 324 --vr --jobs ${JOBS:-2} --seed 1616 -o $R $MORE
