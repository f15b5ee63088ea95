#!/bin/sh
# Generation 1 of the supervised pipeline (issue 12): shipped 660k TD net -> self-play ->
# 1-ply labels of the same net -> fit starting from it -> duel and judge against it.
# Run from the repository root:  nice -n 10 sh runs/gen1/gen1.sh > runs/gen1/stdout.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
python -c "
from bgtools.training.pipeline import *
r = 'runs/gen1'
run_selfplay(r, SelfplayConfig(positions=400_000, seed=1, explore=0.1, margin=0.04, chunk_games=200), echo=print)
run_label(r, LabelConfig(ply=1, chunk=10_000), echo=print)
run_fit(r, FitConfig(epochs=30, batch=256, lr=1e-3, val_frac=0.05, seed=1), echo=print)
run_duel(r, DuelConfig(games=4000, seed=12, ply=0), echo=print)
"
python benchmarks/judge.py --ply 0 --weights runs/gen1/fit.npz --against bgtools/data/nn_weights.npz > runs/gen1/judge_0ply.txt
python benchmarks/judge.py --ply 1 --weights runs/gen1/fit.npz > runs/gen1/judge_1ply.txt
