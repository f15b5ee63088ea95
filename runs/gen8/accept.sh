#!/bin/sh
# Acceptance measurements of a generation 8 candidate (issue 12), from the repository root:
#   sh runs/gen8/accept.sh CANDIDATE.npz OUTDIR
# Head to head against gen4, the shipped net (20,000 duplicate-dice games, seed 58) and against
# gen7's fine, the candidate it was fitted from (20,000, seed 59); 40,000 duplicate-dice games
# against pubeval (seed 4242, independent of every training seed, as every earlier figure);
# the 1- and 2-ply judge paired against gen4.
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
C=$1 O=$2 G=runs/gen4/fit/fit.npz F=runs/gen7/fine/fit.npz
mkdir -p $O
python -c "
from bgtools.training.pipeline import run_duel, DuelConfig
run_duel('$O/duel_gen4', DuelConfig(a='$C', b='$G', games=20_000, seed=58, ply=0), echo=print)
run_duel('$O/duel_gen7', DuelConfig(a='$C', b='$F', games=20_000, seed=59, ply=0), echo=print)
" > $O/duel.log &
python benchmarks/strength.py --games 40000 --seed 4242 --weights $C > $O/strength.txt
wait
python benchmarks/judge.py --ply 1 --weights $C --against $G > $O/judge_1ply.txt &
python benchmarks/judge.py --ply 2 --weights $C --against $G > $O/judge_2ply.txt
wait
