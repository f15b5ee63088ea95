#!/bin/sh
# Issue 35 / issue 37's item 1 for the contact net (twenty-third session): the candidates of contact rolls rolled out
# together on common dice, the sibling rollouts runs/crash21 made for the crashed net (docs/training.md, "Sibling
# rollouts for the crashed net" and "Anchored siblings"), now for the class where the analysis loses most against
# XG and gnubg (docs/analysis.md: 171 of the 204 plays short of 90 % are contact plays).  Positions from the shipped
# net's own contact self-play (seed 23); NROLLS rolls drawn from them (seed 2323), a roll each, its candidates the
# three best at 0 ply and at 1 ply by the shipped analysis net within 0.2 of the best that leave a contact position
# (runs/crash21/siblings.py draw ... contact); each position rolled out cubeless to the end (or into the bear-off
# database) by the shipped rollout net, 324 trials with variance reduction, dice seed 2323: a roll's candidates are
# compared on common dice.  Resumable: run it again and it goes on from runs/contact23/rollouts.jsonl (ids.txt and
# rolls.jsonl are made once and committed; the rollouts are committed as rollouts.jsonl.gz and restored from it).
# From the repository root:
#   nice -n 19 sh runs/contact23/rollouts.sh >> runs/contact23/rollouts.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
PY=${PYTHON:-python} R=runs/contact23
[ -s $R/data/positions.npz ] || $PY -m bgtools train selfplay --run $R --positions 40000 --seed 23 --classes contact
[ -s $R/ids.txt ] || $PY runs/crash21/siblings.py draw $R/data/positions.npz ${NROLLS:-10000} 2323 $R/ids.txt $R/rolls.jsonl contact
[ -s $R/rollouts.jsonl ] || [ ! -s $R/rollouts.jsonl.gz ] || gzip -dc $R/rollouts.jsonl.gz > $R/rollouts.jsonl
if [ -s $R/rollouts.jsonl ]; then MORE=--resume; else MORE=; fi
$PY -m bgtools rollout -i $R/ids.txt --trials 324 --vr --jobs ${JOBS:-2} --seed 2323 -o $R/rollouts.jsonl $MORE
echo "# done $(date -u '+%Y-%m-%d %H:%M'): $(wc -l < $R/rollouts.jsonl) records, sha256 $(sha256sum < $R/rollouts.jsonl | cut -c1-16)"
