#!/bin/sh
# Issue 37, the next generation (docs/training.md, "What the next session should run", item 1): gen11's own
# decision rows, gen11's recipe (runs/gen11/data.sh) one generation on.  gen11 (its source file,
# runs/gen11/candidate.npz) plays 120,000 new positions (seed 13, a seed no training set used); one seeded roll
# of each: every play at 0 ply, the best few again at 2 ply (the shipped pruning net); every play valued at
# 2 ply is a row (--rows candidates, as runs/gen11/stagefit.sh fitted).  Data go to DATA/gen12 (default
# /work/data; about 40 MB of parts); seeded and resumable: run it again to go on where it stopped (JOBS worker
# processes, default 2: the same parts).  From the repository root:
#   nice -n 19 sh runs/gen12/data.sh >> runs/gen12/data.log 2>&1 &
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
D=${DATA:-/work/data} PY=${PYTHON:-python} W=runs/gen11/candidate.npz
$PY -m bgtools train selfplay --run $D/gen12 --positions 120000 --seed 13 --weights $W
$PY -m bgtools train decisions --run $D/gen12 --weights $W --seed 13 --chunk 1000 --rows candidates --jobs ${JOBS:-2}
cp $D/gen12/selfplay.manifest.json $D/gen12/decisions.manifest.json $D/gen12/decisions.log.csv runs/gen12/
