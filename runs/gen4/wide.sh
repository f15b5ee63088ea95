#!/bin/sh
# Issue 12, lever "a wider contact net": gen2's net widened to 256/128/64 hidden units
# (runs/gen4/widen.py: the old units kept, new ones start with zero output weights, so the start
# net plays exactly as gen2), fitted on gen3's and gen2's data sets (2.0M positions: 1-ply labels of
# gen2's and gen1's nets, 100k of them again at 2 ply), 30 epochs; then the 0-ply judge.
# Run from the repository root (needs runs/gen2/data and runs/gen3/data: gen2.sh, gen3.sh):
#   nice -n 10 sh runs/gen4/wide.sh > runs/gen4/wide.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
R=runs/gen4/wide
mkdir -p $R/data
python runs/gen4/widen.py runs/gen2/fit.npz $R/data/wide_init.npz 256,128,64 7
ln -sf ../../../gen3/data/deepened.npz $R/data/deepened.npz
python benchmarks/judge.py --ply 0 --weights $R/data/wide_init.npz > $R/judge_init_0ply.txt
python -c "
from bgtools.training.pipeline import *
run_fit('$R', FitConfig(init='$R/data/wide_init.npz', epochs=30, batch=256, lr=1e-3, val_frac=0.05, seed=4,
        data='deepened', extra=('runs/gen2/data/deepened.npz',)), echo=print)
"
python benchmarks/judge.py --ply 0 --weights $R/fit.npz --against runs/gen2/fit.npz > $R/judge_0ply.txt
