#!/bin/sh
# Generation 8 (issue 12), the crashed net's own data: on judge_dev, crashed positions are 88 of
# 1,035 but a sixth of gen7 fine's 0-ply loss (11.4 millipoints each against gnubg 0-ply's 2.0),
# and only 7 % of self-play positions are crashed. gen7's `fine` plays games (seed 9) until
# 120,000 crashed positions are recorded (`--classes crashed`, about 1.7M positions of play),
# then labels them at 2 ply as runs/gen8/label.sh does. Resumable: rerun the same command.
# Run from the repository root:  nice -n 19 sh runs/gen8/crashed.sh >> runs/gen8/crashed.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
R=runs/gen8 G=runs/gen7/fine
python -m bgtools train selfplay --run $R/c --positions 120000 --seed 9 --weights $G/fit.npz --classes crashed
python -m bgtools train label --run $R/c --ply 2 --prune --weights $G/fit.npz --jobs 2
