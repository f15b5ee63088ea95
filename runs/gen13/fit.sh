#!/bin/sh
# Issue 37, generation 13: gen12 (runs/gen12/candidate.npz) fitted the way of look f20c (runs/gen12/sweep.sh) to gen13's
# decision rows (runs/gen13/data.sh: gen12's own play, every kept play of a roll valued at 2 ply), the within-roll loss
# at LAM (default 20), whole positions' rows beside (EXTRA: npz files of boards and targets; default runs/gen12/anchor.sh's
# rows), each net at its own best held-out epoch, gen12's race net spliced back; judged at 0 and 1 ply on the three
# judge sets (gnubg's 2-ply values only measure) and, with DUEL_SEED, duelled against gen12 (100,000 games).
#   NAME=f20 SEED=61 DUEL_SEED=2600000 sh runs/gen13/fit.sh
#   NAME=f50 LAM=50 SEED=62 sh runs/gen13/fit.sh
#   NAME=f20d LR=3e-5 SEED=63 sh runs/gen13/fit.sh
# (the tenth session ran these three: docs/training.md, "Generation 13"; none accepted)
# From the repository root, after runs/gen13/data.sh; outputs in runs/gen13/NAME/, the nets in DATA/g13NAME/.
D=${DATA:-/work/data}
# runs/gen12/sweep.sh with gen13's data, gen12 as the start net and f20c's settings as defaults, 1 ply judged too
GEN=gen13 TAG=g13 RACE=gen12race OUT=runs/gen13 START=runs/gen12/candidate.npz PLY1=1 \
  LAM=${LAM:-20} EPOCHS=${EPOCHS:-60} LR=${LR:-1e-4} EXTRA=${EXTRA:-"$D/gen12/data/labelled.npz $D/gen10/first18.npz"} \
  exec sh runs/gen12/sweep.sh
