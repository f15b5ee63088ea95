#!/bin/sh
# Issue 37, deeper targets: look f20 of runs/gen13/fit.sh again (gen12 fitted the f20c way: within-roll loss 20, 60
# epochs, rate 1e-4 -> 1e-5, seed 61, whole positions' rows beside, each net at its own best held-out epoch, gen12's
# race net spliced back, judged at 0 and 1 ply), with the rows of runs/gen13/relabel3.py's parts (the two picks of each
# roll where gen12's 0-ply and 2-ply picks part) valued at 3 ply instead of 2: the one difference from f20 is those
# rows' targets.  ONLY=1: those rows alone as the decision rows (gnubg's pairs; the whole positions' rows beside as
# before).  After runs/gen13/data.sh and relabel3.py label; outputs in runs/gen13/r3/NAME/, the nets in
# DATA/g13r3NAME/ (ONLY=1: runs/gen13/p3/NAME/, DATA/g13p3NAME/).  From the repository root:
#   sh runs/gen13/fit3.sh
#   ONLY=1 sh runs/gen13/fit3.sh
set -e
export PYTHONPATH=.
D=${DATA:-/work/data} PY=${PYTHON:-python}
if [ -n "${ONLY:-}" ]; then K=p3 FLAG=--only; else K=r3 FLAG=; fi
mkdir -p $D/gen13$K/data
$PY runs/gen13/relabel3.py merge $D/gen13$K/data/decisions.npz $FLAG
GEN=gen13$K TAG=g13$K RACE=gen12race OUT=runs/gen13/$K START=runs/gen12/candidate.npz PLY1=1 \
  NAME=${NAME:-f20} LAM=${LAM:-20} EPOCHS=${EPOCHS:-60} LR=${LR:-1e-4} SEED=${SEED:-61} \
  EXTRA=${EXTRA:-"$D/gen12/data/labelled.npz $D/gen10/first18.npz"} exec sh runs/gen12/sweep.sh
