#!/bin/sh
# Issue 37 (twenty-first session): the siblings widened by look m's own choices.  Look m's 0-ply picks on the judge
# sets' crashed records were outside the rolled-out candidates in 23 of 470 and lost far more there (runs/crash21/
# referee): its fit moved plays it never saw rolled out to the top.  siblings.py widen adds to each of the 5,000 rolls
# m's three best crashed plays at 0 ply that were not candidates (1,292 rolls, 1,399 positions), rolled out as the
# others were (same seed: common dice), into the same rollouts.jsonl.  Resumable.  From the root, after rollouts.sh
# and NAME=m ... fit.sh:
#   sh runs/crash21/widen.sh >> runs/crash21/rollouts.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
PY=${PYTHON:-python} R=runs/crash21
[ -s $R/ids_widened.txt ] || $PY $R/siblings.py widen $R/rolls.jsonl $R/m/splice.npz 3 $R/ids_widened.txt $R/rolls_widened.jsonl
$PY -m bgtools rollout -i $R/ids_widened.txt --trials 324 --vr --jobs ${JOBS:-2} --seed 2121 -o $R/rollouts.jsonl --resume
echo "# widened $(date -u '+%Y-%m-%d %H:%M'): $(wc -l < $R/rollouts.jsonl) records, sha256 $(sha256sum < $R/rollouts.jsonl | cut -c1-16)"
