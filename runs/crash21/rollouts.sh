#!/bin/sh
# Issue 37, item 5 (twenty-first session): the candidates of 5,000 crashed rolls rolled out together on common dice
# (runs/crash21/siblings.py draw: positions from runs/crash19's crashed self-play, seed 2121; a roll's candidates
# are the three best at 0 ply and at 1 ply by the shipped analysis net within 0.2 of the best, that leave a crashed
# position).  Each position rolled out cubeless to the end (or into the two-sided bear-off database) by the shipped
# rollout net, 324 trials with variance reduction, dice seed 2121: every position gets the same dice stream, so a
# roll's candidates are compared on common dice.  15,821 positions, about 190 a CPU minute.  Resumable: run it again
# and it goes on from runs/crash21/rollouts.jsonl (ids.txt and rolls.jsonl are made once and committed; the rollouts
# themselves are committed as rollouts.jsonl.gz, with those of widen.sh and more.sh, and restored from it).  From the
# repository root:
#   nice -n 19 sh runs/crash21/rollouts.sh >> runs/crash21/rollouts.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
PY=${PYTHON:-python} R=runs/crash21
[ -s runs/crash19/data/positions.npz ] || $PY -m bgtools train selfplay --run runs/crash19 --positions 150000 --seed 19 --classes crashed
[ -s $R/ids.txt ] || $PY $R/siblings.py draw runs/crash19/data/positions.npz 5000 2121 $R/ids.txt $R/rolls.jsonl
[ -s $R/rollouts.jsonl ] || [ ! -s $R/rollouts.jsonl.gz ] || gzip -dc $R/rollouts.jsonl.gz > $R/rollouts.jsonl
if [ -s $R/rollouts.jsonl ]; then MORE=--resume; else MORE=; fi
$PY -m bgtools rollout -i $R/ids.txt --trials 324 --vr --jobs ${JOBS:-2} --seed 2121 -o $R/rollouts.jsonl $MORE
echo "# done $(date -u '+%Y-%m-%d %H:%M'): $(wc -l < $R/rollouts.jsonl) records, sha256 $(sha256sum < $R/rollouts.jsonl | cut -c1-16)"
