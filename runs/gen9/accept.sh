#!/bin/sh
# Acceptance measurements of a generation 9 candidate (issue 12), from the repository root:
#   sh runs/gen9/accept.sh CANDIDATE.npz OUTDIR [--lookahead]
# Head to head against gen8, the shipped net (20,000 duplicate-dice games, seed 60); 40,000
# duplicate-dice games against pubeval (seed 4242, as every earlier figure); with --lookahead
# also the 1- and 2-ply judge paired against gen8.
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
C=$1 O=$2 E=runs/gen8/plain/fit.npz
mkdir -p $O
python -c "
from bgtools.training.pipeline import run_duel, DuelConfig
run_duel('$O/duel_gen8', DuelConfig(a='$C', b='$E', games=20_000, seed=60, ply=0), echo=print)
" > $O/duel.log &
python benchmarks/strength.py --games 40000 --seed 4242 --weights $C > $O/strength.txt
wait
if [ "$3" = "--lookahead" ]; then
  python benchmarks/judge.py --ply 1 --weights $C --against $E > $O/judge_1ply.txt &
  python benchmarks/judge.py --ply 2 --weights $C --against $E > $O/judge_2ply.txt
  wait
fi
