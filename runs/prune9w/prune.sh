#!/bin/sh
# A pruning net that ranks like the shipped analysis net gen9w (runs/prune/prune.sh's recipe, gen9w playing and
# valuing): gen9w's own 150,000 positions (seed 11), 3 rolls each, every play valued by gen9w at 0 ply.
# From the repository root: sh runs/prune9w/prune.sh > runs/prune9w/prune.log 2>&1
set -e
D=${DATA:-/work/data}/prune9w W=runs/contact37/fit1000/fit.npz  # gen9w
python -m bgtools train selfplay --run $D --positions 150000 --seed 11 --weights $W
python -m bgtools train prune --run $D --weights $W --hidden 64 --epochs 8 --rolls 3 --keep 6 --seed 1
cp $D/prune.npz runs/prune9w/prune.npz
