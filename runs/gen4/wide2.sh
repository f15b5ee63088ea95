#!/bin/sh
# Issue 12, lever "a wider net" (second step): the 256/128/64 net of wide.sh widened again to
# 512/256/128 (fit --hidden: new units start silent), fitted on the same 2.0M positions (gen3's and
# gen2's data sets), 30 epochs, the rate decayed from 1e-3 to 1e-5; then the 0-ply judge.
# Run from the repository root after wide.sh:  nice -n 10 sh runs/gen4/wide2.sh > runs/gen4/wide2.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
R=runs/gen4/wide2
mkdir -p $R/data
ln -sf ../../../gen3/data/deepened.npz $R/data/deepened.npz
python -m bgtools train fit --run $R --init runs/gen4/wide/fit.npz --hidden 512,256,128 --epochs 30 --batch 256 \
    --lr 1e-3 --lr-end 1e-5 --seed 5 --data deepened --extra runs/gen2/data/deepened.npz
python benchmarks/judge.py --ply 0 --weights $R/fit.npz --against runs/gen4/wide/fit.npz > $R/judge_0ply.txt
