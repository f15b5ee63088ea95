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
# (GEN, SEED and W name another generation, its seed and its player: runs/gen13/data.sh sets them)
GEN=${GEN:-gen12} SEED=${SEED:-13} W=${W:-runs/gen11/candidate.npz}
D=${DATA:-/work/data} PY=${PYTHON:-python}
$PY -m bgtools train selfplay --run $D/$GEN --positions 120000 --seed $SEED --weights $W
$PY -m bgtools train decisions --run $D/$GEN --weights $W --seed $SEED --chunk 1000 --rows candidates --jobs ${JOBS:-2}
cp $D/$GEN/selfplay.manifest.json $D/$GEN/decisions.manifest.json $D/$GEN/decisions.log.csv runs/$GEN/
