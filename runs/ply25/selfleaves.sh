#!/bin/sh
# Issue 35 (twenty-fifth session): the leaves of our own 1-ply searches of runs/contact23's rolls, rolled out roll by
# roll (runs/ply25/selfleaves.py: the first 300 rolls, about 52 leaves a roll, 15,973 in all: more than a
# session makes; any prefix holds whole rolls).  324 trials with variance reduction, dice seed 2526.  Resumable; the
# rollouts are committed as self/rollouts.jsonl.gz and restored from it.  From the repository root, after
# runs/contact23/rollouts.sh has made its rolls.jsonl (committed):
#   nice -n 19 sh runs/ply25/selfleaves.sh >> runs/ply25/self/rollouts.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
PY=${PYTHON:-python} R=runs/ply25/self
mkdir -p $R
[ -s $R/ids.txt ] || $PY runs/ply25/selfleaves.py draw runs/contact23/rolls.jsonl 300 $R/ids.txt $R/leaves.jsonl
[ -s $R/rollouts.jsonl ] || [ ! -s $R/rollouts.jsonl.gz ] || gzip -dc $R/rollouts.jsonl.gz > $R/rollouts.jsonl
if [ -s $R/rollouts.jsonl ]; then MORE=--resume; else MORE=; fi
$PY -m bgtools rollout -i $R/ids.txt --trials 324 --vr --jobs ${JOBS:-2} --seed 2526 -o $R/rollouts.jsonl $MORE
