#!/bin/sh
# Generation 3 of the supervised pipeline (issue 12): gen2's net plays 800,000 positions (seed 3),
# labels them at 1 ply and again at 2 ply the 50,000 where its 1-ply label is furthest from its own
# 0-ply value; fitted from gen2 on those beside gen2's 1.2M (runs/gen2/data/deepened.npz), twice:
# constant lr 1e-3 (this folder) and lr 1e-3 decayed to 1e-5 (data/gen3-decay); the lower held-out
# loss is kept as fit.npz (fit_choice.txt).  Then duel against gen2, judge 0/1/2 ply, and 20,000
# duplicate games against pubeval (seed 4242).
# Run from the repository root:  nice -n 10 sh runs/gen3/gen3.sh > runs/gen3/stdout.log 2>&1
# (needs runs/gen2/data/deepened.npz: run runs/gen2/gen2.sh first; every stage resumes).
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
R=runs/gen3 P=runs/gen2/fit.npz
mkdir -p $R/data/gen3-decay/data
python -c "
from bgtools.training.pipeline import *
r, w = '$R', '$P'
run_selfplay(r, SelfplayConfig(positions=800_000, seed=3, weights=w, explore=0.1, margin=0.04, chunk_games=200), echo=print)
run_label(r, LabelConfig(ply=1, weights=w, chunk=10_000), echo=print)
run_deepen(r, DeepenConfig(ply=2, count=50_000, weights=w, select='disagree', chunk=2_000), echo=print)
"
ln -sf ../../deepened.npz $R/data/gen3-decay/data/deepened.npz
python -c "
import json, shutil
from bgtools.training.pipeline import *
r, w, x = '$R', '$P', ('runs/gen2/data/deepened.npz',)
a = run_fit(r, FitConfig(init=w, epochs=30, batch=256, lr=1e-3, val_frac=0.05, seed=3, data='deepened', extra=x), echo=print)
run_fit('$R/data/gen3-decay', FitConfig(init=w, epochs=30, batch=256, lr=1e-3, lr_end=1e-5, val_frac=0.05, seed=3,
        data='deepened', extra=x), echo=print)
b = json.load(open('$R/data/gen3-decay/fit.manifest.json'))
shutil.copy('$R/data/gen3-decay/fit.manifest.json', '$R/fit_decay.manifest.json')
shutil.copy('$R/data/gen3-decay/fit.log.csv', '$R/fit_decay.log.csv')
pick = 'decay' if b['val_loss'] < a['val_loss'] else 'constant'
if pick == 'decay':
    shutil.copy('$R/fit.npz', '$R/data/fit_constant.npz')
    shutil.copy('$R/data/gen3-decay/fit.npz', '$R/fit.npz')
open('$R/fit_choice.txt', 'w').write(f'held-out loss: constant lr {a[\"val_loss\"]:.6f}, decayed lr {b[\"val_loss\"]:.6f}; kept {pick}\n')
print(open('$R/fit_choice.txt').read())
run_duel(r, DuelConfig(b=w, games=10_000, seed=33, ply=0), echo=print)
"
python benchmarks/judge.py --ply 0 --weights $R/fit.npz --against $P > $R/judge_0ply.txt
python benchmarks/strength.py --games 20000 --seed 4242 --weights $R/fit.npz > $R/strength.txt
python benchmarks/judge.py --ply 1 --weights $R/fit.npz --against $P > $R/judge_1ply.txt
python benchmarks/judge.py --ply 2 --weights $R/fit.npz > $R/judge_2ply.txt
