#!/bin/sh
# Issue 35 / 37: our own rollouts of 3,600 self-play positions (docs/training.md, "Calibrated to our rollouts").
# Generation 13's self-play positions (gen12 plays, seed 14; a no-op where DATA/gen13 has them), 3,000 contact and
# 600 crashed of them drawn with seed 1414 (runs/cal14/sample.py), each rolled out cubeless to the end by the shipped
# rollout net: 324 trials with variance reduction, dice seed 1414, two processes (about 40 minutes on two cores).
# Resumable: run it again and it goes on where it stopped.  From the repository root:
#   nice -n 19 sh runs/cal14/data.sh >> runs/cal14/data.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
D=${DATA:-/work/data} PY=${PYTHON:-python}
$PY -m bgtools train selfplay --run $D/gen13 --positions 120000 --seed 14 --weights runs/gen12/candidate.npz
mkdir -p $D/cal14
$PY runs/cal14/sample.py $D/gen13/data/positions.npz $D/cal14/ids.txt
R=$D/cal14/rollouts.jsonl
if [ -s $R ]; then MORE=--resume; else MORE=; fi
$PY -m bgtools rollout -i $D/cal14/ids.txt --trials 324 --vr --jobs ${JOBS:-2} --seed 1414 -o $R $MORE
