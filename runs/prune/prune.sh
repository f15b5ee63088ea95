#!/bin/sh
# The shipped pruning net (bgtools/data/prune_weights.npz): gen4's own self-play positions
# (seed 11), every play of 3 seeded rolls of each valued by gen4 at 0 ply, a 202-64-1 net
# fitted to rank them (docs/training.md, "The pruning net").  About 10 minutes on one core.
set -e
R=runs/prune
python -m bgtools train selfplay --run $R/sp --positions 150000 --seed 11
python -m bgtools train prune --run $R/sp --hidden 64 --epochs 8 --rolls 3 --keep 6 --seed 1
