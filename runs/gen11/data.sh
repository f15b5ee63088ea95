#!/bin/sh
# Issue 37, item 4: decision-focused rows.  gen9w plays 120,000 new positions (seed 12, a seed no
# training set used), then one seeded roll of each is judged: every play at 0 ply, the best few
# again at 2 ply (with the shipped pruning net, as the label stage); the parts keep every play
# valued at 2 ply, data/decisions.npz the two picks of each roll where they part (--rows pairs).
# Seeded and resumable: run it again to go on where it stopped (JOBS worker processes, default 2: the same parts).
#   nice -n 19 sh runs/gen11/data.sh >> runs/gen11/stdout.log 2>&1 &
# PYTHON: the interpreter with bgtools installed (default: python).
set -e
cd "$(dirname "$0")/../.."
export NUMBA_NUM_THREADS=1
PY=${PYTHON:-python}
W=runs/contact37/fit1000/fit.npz   # gen9w, pinned (its source file; the shipped analysis net is gen11 since the eighth session)
$PY -m bgtools train selfplay --run runs/gen11 --positions 120000 --seed 12 --weights $W
$PY -m bgtools train decisions --run runs/gen11 --weights $W --seed 12 --chunk 1000 --rows pairs --jobs ${JOBS:-2}
