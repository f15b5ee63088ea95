#!/bin/sh
# gen2 step A (self-play 1.2M positions with gen1's net, 1-ply labels of gen1's net); part of gen2.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
python -c "
from bgtools.training.pipeline import *
r, w = 'runs/gen2', 'runs/gen1/fit.npz'
run_selfplay(r, SelfplayConfig(positions=1_200_000, seed=2, weights=w, explore=0.1, margin=0.04, chunk_games=200), echo=print)
run_label(r, LabelConfig(ply=1, weights=w, chunk=10_000), echo=print)
"
