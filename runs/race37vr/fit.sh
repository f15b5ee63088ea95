#!/bin/sh
# Issue 37, item 2: the shipped net's race net fitted to runs/race37vr's rollout targets (16 trials with
# variance reduction, after race.sh); the contact and crashed nets have no rows here and stay as
# shipped; the race net is kept from the epoch of its own lowest held-out loss.
#   nice -n 19 sh runs/race37vr/fit.sh >> runs/race37vr/stdout.log 2>&1   (resumes from data/fit_ckpt.npz)
set -e
cd "$(dirname "$0")/../.."
export NUMBA_NUM_THREADS=1
python -m bgtools train fit --run runs/race37vr --epochs 100 --lr 3e-4 --lr-end 1e-5 --batch 256 --seed 37 --best-per-net
