#!/bin/sh
# Acceptance measurements of a candidate net against generation 2 (issue 12), from the repository
# root:  sh runs/gen4/accept.sh CANDIDATE.npz OUTDIR
# 0/1/2-ply judge (paired against gen2), head to head against gen2 (10,000 duplicate-dice games,
# seed 44) and 40,000 duplicate-dice games against pubeval (seed 4242, independent of every
# training seed).
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
C=$1 O=$2 P=runs/gen2/fit.npz
mkdir -p $O
python benchmarks/judge.py --ply 1 --weights $C --against $P > $O/judge_1ply.txt &
python benchmarks/strength.py --games 40000 --seed 4242 --weights $C > $O/strength.txt
wait
python -c "
from bgtools.training.pipeline import run_duel, DuelConfig
run_duel('$O', DuelConfig(a='$C', b='$P', games=10_000, seed=44, ply=0), echo=print)
" &
python benchmarks/judge.py --ply 2 --weights $C --against $P > $O/judge_2ply.txt
wait
