#!/bin/sh
# Issues 35 / 37: a second set of our own rollouts, 4,000 contact positions of generation 13's self-play (seed 1515,
# none of runs/cal14's), each rolled out cubeless to the end by the shipped rollout net (roll13cal): 324 trials with
# variance reduction, dice seed 1515.  About 50 minutes on two cores; resumable (run it again and it goes on).
# After runs/cal14/data.sh (it makes DATA/gen13 and DATA/cal14/ids.txt).  From the repository root:
#   nice -n 19 sh runs/cal15/data.sh >> runs/cal15/data.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
D=${DATA:-/work/data} PY=${PYTHON:-python}
$PY -m bgtools train selfplay --run $D/gen13 --positions 120000 --seed 14 --weights runs/gen12/candidate.npz
mkdir -p $D/cal15
[ -s $D/cal15/ids.txt ] || $PY runs/cal15/sample.py $D/gen13/data/positions.npz $D/cal14/ids.txt $D/cal15/ids.txt
R=$D/cal15/rollouts.jsonl
if [ -s $R ]; then MORE=--resume; else MORE=; fi
$PY -m bgtools rollout -i $D/cal15/ids.txt --trials 324 --vr --jobs ${JOBS:-2} --seed 1515 -o $R $MORE
