#!/bin/sh
# Control for the deepen selection (issue 12, lever a): the same gen3 data and fit, but the 50,000
# rows labelled again at 2 ply drawn at random (deepen --select random, seed 1) instead of where
# gen2's 0 ply and 1 ply disagree most.  Fit with gen3's kept settings (fit_choice.txt), then the
# two nets head to head (10,000 games, seed 44).  Folder: runs/gen3/data/control (ignored);
# its manifests and logs are copied to runs/gen3/control_*.
# Run from the repository root after gen3.sh:  nice -n 10 sh runs/gen3/control.sh > runs/gen3/control.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
R=runs/gen3 C=runs/gen3/data/control P=runs/gen2/fit.npz
mkdir -p $C/data
ln -sf ../../labelled.npz $C/data/labelled.npz
python -c "
import shutil
from bgtools.training.pipeline import *
c, w = '$C', '$P'
run_deepen(c, DeepenConfig(ply=2, count=50_000, weights=w, select='random', seed=1, chunk=2_000), echo=print)
decay = 'kept decay' in open('$R/fit_choice.txt').read()
run_fit(c, FitConfig(init=w, epochs=30, batch=256, lr=1e-3, lr_end=1e-5 if decay else None, val_frac=0.05, seed=3,
        data='deepened', extra=('runs/gen2/data/deepened.npz',)), echo=print)
run_duel(c, DuelConfig(a='$R/fit.npz', b='$C/fit.npz', games=10_000, seed=44, ply=0), echo=print)
for s in ('deepen', 'fit', 'duel'):
    shutil.copy(f'$C/{s}.manifest.json', f'$R/control_{s}.manifest.json')
    shutil.copy(f'$C/{s}.log.csv', f'$R/control_{s}.log.csv')
"
