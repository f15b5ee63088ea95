#!/bin/sh
# Issue 37, the next generation (docs/training.md, "What the next session should run", item 1): runs/gen12/data.sh
# one generation on.  gen12 (runs/gen12/candidate.npz, the shipped analysis net's source) plays 120,000 new positions
# (seed 14, a seed no training set used); one seeded roll of each: every play at 0 ply, the best few again at 2 ply
# (the shipped pruning net); every play valued at 2 ply is a row (--rows candidates).  Data go to DATA/gen13 (default
# /work/data; about 40 MB of parts); seeded and resumable: run it again to go on where it stopped (JOBS worker
# processes, default 2: the same parts).  From the repository root:
#   nice -n 19 sh runs/gen13/data.sh >> runs/gen13/data.log 2>&1 &
GEN=gen13 SEED=14 W=runs/gen12/candidate.npz exec sh runs/gen12/data.sh
