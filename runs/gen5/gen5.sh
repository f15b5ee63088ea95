#!/bin/sh
# Generation 5 (issue 12): gen4's net plays 100,000 new positions (seed 5, exploring as before) and
# labels them at 2 ply (its best teacher: judge 2.52 against 4.49 at 1 ply); then gen4 is fitted
# on gen4's 2.0M rows plus these (features.sh's settings but seed 6, gen4's own held-out split),
# with generation 5's new inputs (gen5/fit) and without them (gen5/fit0, the control), and judged.
# Run from the repository root:  nice -n 10 sh runs/gen5/gen5.sh > runs/gen5/gen5.log 2>&1
# The fit and judge lines need the code of commit 96f9045 (the eight inputs and `fit --drop`,
# taken out again after this experiment: docs/training.md, Generation 5); the selfplay and
# label lines run with today's code.
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
R=runs/gen5 G=runs/gen4/fit
python -m bgtools train selfplay --run $R/sp --positions 100000 --seed 5 --weights $G/fit.npz
python -m bgtools train label --run $R/sp --ply 2 --weights $G/fit.npz --jobs 2
for n in fit fit0; do
  mkdir -p $R/$n/data
  ln -sf ../../../gen4/fit/data/labelled.npz $R/$n/data/labelled.npz
done
python -m bgtools train fit --run $R/fit --init $G/fit.npz --epochs 20 --batch 256 --lr 3e-4 --lr-end 1e-5 --seed 6 \
    --extra $G/data/extra.npz --extra $R/sp/data/labelled.npz &
python -m bgtools train fit --run $R/fit0 --init $G/fit.npz --epochs 20 --batch 256 --lr 3e-4 --lr-end 1e-5 --seed 6 \
    --extra $G/data/extra.npz --extra $R/sp/data/labelled.npz --drop shots,bar,shape
wait
python benchmarks/judge.py --ply 0 --weights $R/fit/fit.npz --against $G/fit.npz > $R/fit/judge_0ply.txt &
python benchmarks/judge.py --ply 0 --weights $R/fit0/fit.npz --against $G/fit.npz > $R/fit0/judge_0ply.txt
wait
