#!/bin/sh
# A trial second generation inside gen1's ignored data folder: gen1's fitted net plays, labels
# (1 ply) and is fitted again.  nice -n 10 sh runs/gen1/gen2_trial.sh > runs/gen1/gen2_trial.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
cp runs/gen1/fit.npz runs/gen1/data/gen1_fit.npz
python -c "
from bgtools.training.pipeline import *
r, w = 'runs/gen1/data/gen2', 'runs/gen1/data/gen1_fit.npz'
run_selfplay(r, SelfplayConfig(positions=400_000, seed=2, weights=w, explore=0.1, margin=0.04, chunk_games=200), echo=print)
run_label(r, LabelConfig(ply=1, weights=w, chunk=10_000), echo=print)
run_fit(r, FitConfig(init=w, epochs=30, batch=256, lr=1e-3, val_frac=0.05, seed=2), echo=print)
run_duel(r, DuelConfig(b=w, games=4000, seed=13, ply=0), echo=print)
"
python benchmarks/judge.py --ply 0 --weights runs/gen1/data/gen2/fit.npz --against runs/gen1/data/gen1_fit.npz
python benchmarks/judge.py --ply 0 --weights runs/gen1/data/gen2/fit.npz --against bgtools/data/nn_weights.npz
