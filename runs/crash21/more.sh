#!/bin/sh
# Issue 37, item 5 (begun in the twenty-first session, to be continued): the crashed siblings extended from 5,000 to
# 10,000 rolls.  siblings.py draw with the same seed (2121) and more rolls gives the same first 5,000 rolls and
# positions (checked: rolls10k.jsonl's first 5,000 lines are rolls.jsonl), so the rollouts go on in the same
# runs/crash21/rollouts.jsonl (same settings as rollouts.sh: 324 VR trials, dice seed 2121, common to all).  About
# 32,000 positions in all, some 50 minutes of two cores a 5,000 rolls.  Resumable: run it again.  The rollouts
# are committed as runs/crash21/rollouts.jsonl.gz when a session stops (restored from it on a new machine).  From the
# repository root:
#   nice -n 19 sh runs/crash21/more.sh >> runs/crash21/rollouts.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
PY=${PYTHON:-python} R=runs/crash21
[ -s runs/crash19/data/positions.npz ] || $PY -m bgtools train selfplay --run runs/crash19 --positions 150000 --seed 19 --classes crashed
[ -s $R/rollouts.jsonl ] || [ ! -s $R/rollouts.jsonl.gz ] || gzip -dc $R/rollouts.jsonl.gz > $R/rollouts.jsonl
[ -s $R/ids10k.txt ] || $PY $R/siblings.py draw runs/crash19/data/positions.npz 10000 2121 $R/ids10k.txt $R/rolls10k.jsonl
head -5000 $R/rolls10k.jsonl | cmp -s - $R/rolls.jsonl || { echo "rolls10k.jsonl does not begin with rolls.jsonl"; exit 1; }
if [ -s $R/rollouts.jsonl ]; then MORE=--resume; else MORE=; fi
$PY -m bgtools rollout -i $R/ids10k.txt --trials 324 --vr --jobs ${JOBS:-2} --seed 2121 -o $R/rollouts.jsonl $MORE
echo "# 10k done $(date -u '+%Y-%m-%d %H:%M'): $(wc -l < $R/rollouts.jsonl) records, sha256 $(sha256sum < $R/rollouts.jsonl | cut -c1-16)"
