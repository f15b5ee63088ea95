#!/bin/sh
# Issue 37, items 2 and 4 together: race decision rows labelled by our own rollouts.  runs/gen11's candidate
# plays 30,000 race positions (seed 41); one seeded roll of each, every play valued at 0 ply, and the best few
# (keep 8 within 0.16) rolled out 16 times with variance reduction by the candidate at 0 ply with the bear-off
# databases, the plays of one roll on the same dice (train decisions --trials 16); every rolled-out play is a
# row (--rows candidates).  Two worker processes, niced; from the repository root:
#   nice -n 19 sh runs/race41/data.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
D=${DATA:-/work/data} PY=${PYTHON:-python} W=runs/gen11/candidate.npz R=${DATA:-/work/data}/race41
$PY -m bgtools train selfplay --run $R --positions 30000 --seed 41 --classes race --weights $W
$PY -m bgtools train decisions --run $R --trials 16 --rows candidates --seed 41 --chunk 1000 --weights $W \
    --jobs ${JOBS:-2}
cp $R/selfplay.manifest.json $R/decisions.manifest.json $R/decisions.log.csv runs/race41/
