#!/bin/sh
# The second half of runs/crash19's rows: 150,000 more crashed positions of the same net's play (seed 20), labelled
# the same way (data.sh).  From the repository root:  nice -n 19 sh runs/crash19/data2.sh >> runs/crash19/data2.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
R=runs/crash19/second
python -m bgtools train selfplay --run $R --positions 150000 --seed 20 --classes crashed
python -m bgtools train label --run $R --ply 2 --prune --jobs 2
