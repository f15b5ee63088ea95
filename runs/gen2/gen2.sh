#!/bin/sh
# Generation 2 of the supervised pipeline (issue 12): gen1's net plays 1.2M positions (seed 2),
# labels them at 1 ply, labels again at 2 ply the 50,000 where its 1-ply label is furthest from its
# own 0-ply value (deepen --select disagree), and is fitted on that starting from gen1; then duel
# against gen1, judge at 0/1/2 ply, and 20,000 duplicate games against pubeval (seed 4242).
# Run from the repository root:  nice -n 10 sh runs/gen2/gen2.sh > runs/gen2/stdout.log 2>&1
# (every stage resumes from its last part: run it again after a stop).
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
R=runs/gen2 P=runs/gen1/fit.npz
python -c "
from bgtools.training.pipeline import *
r, w = '$R', '$P'
run_selfplay(r, SelfplayConfig(positions=1_200_000, seed=2, weights=w, explore=0.1, margin=0.04, chunk_games=200), echo=print)
run_label(r, LabelConfig(ply=1, weights=w, chunk=10_000), echo=print)
run_deepen(r, DeepenConfig(ply=2, count=50_000, weights=w, select='disagree', chunk=2_000), echo=print)
run_fit(r, FitConfig(init=w, epochs=30, batch=256, lr=1e-3, val_frac=0.05, seed=2, data='deepened'), echo=print)
run_duel(r, DuelConfig(b=w, games=10_000, seed=22, ply=0), echo=print)
"
python benchmarks/judge.py --ply 0 --weights $R/fit.npz --against $P > $R/judge_0ply.txt
python benchmarks/strength.py --games 20000 --seed 4242 --weights $R/fit.npz > $R/strength.txt
python benchmarks/judge.py --ply 1 --weights $R/fit.npz --against $P > $R/judge_1ply.txt
python benchmarks/judge.py --ply 2 --weights $R/fit.npz > $R/judge_2ply.txt
