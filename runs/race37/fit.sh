#!/bin/sh
# Issue 37, item 2 (first try): the shipped net's race net fitted to runs/race37's rollout targets
# (after race.sh); the contact and crashed nets have no rows here and stay as shipped.
#   nice -n 19 sh runs/race37/fit.sh >> runs/race37/stdout.log 2>&1   (resumes from data/fit_ckpt.npz)
set -e
cd "$(dirname "$0")/../.."
export NUMBA_NUM_THREADS=1
python -m bgtools train fit --run runs/race37 --epochs 100 --lr 3e-4 --lr-end 1e-5 --batch 256 --seed 37
