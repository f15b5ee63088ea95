#!/bin/sh
# Generation 5, the 2-ply fine-tunes (issue 12): gen4 fitted on the rows labelled at 2 ply only
# (runs/gen5/deeprows.py: gen2's and gen3's 100k deepened rows, then gen5's 100k (deep, deep0) or
# 200k (deep2) new positions of gen4 labelled at 2 ply by gen5.sh / gen5b.sh), 10 epochs, rate 1e-4
# decayed to 1e-5, seed 6; deep0 with the new inputs held at zero.  Judge 0 ply paired against
# gen4; deep2 and deep0 head to head against gen4 (10,000 games, seed 44).  Needs commit 96f9045's
# code (see gen5.sh); d2 and d3 were deep at rates 3e-4 and 1e-3 (20 epochs), fitd the same from
# gen5/fit.  Run from the repository root after gen5.sh and gen5b.sh.
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
R=runs/gen5 G=runs/gen4/fit/fit.npz
mkdir -p $R/deep/data $R/deep0/data $R/deep2/data
python runs/gen5/deeprows.py $R/deep/data/labelled.npz $R/sp/data/labelled.npz
ln -sf ../../deep/data/labelled.npz $R/deep0/data/labelled.npz
python runs/gen5/deeprows.py $R/deep2/data/labelled.npz $R/sp/data/labelled.npz $R/sp2/data/labelled.npz
for v in "deep" "deep0 --drop shots,bar,shape" "deep2"; do
  set -- $v; n=$1; shift
  python -m bgtools train fit --run $R/$n --init $G --epochs 10 --batch 256 --lr 1e-4 --lr-end 1e-5 --seed 6 "$@"
  python benchmarks/judge.py --ply 0 --weights $R/$n/fit.npz --against $G > $R/$n/judge_0ply.txt
done
for n in deep2 deep0; do
  python -c "
from bgtools.training.pipeline import run_duel, DuelConfig
run_duel('$R/$n/duel', DuelConfig(a='$R/$n/fit.npz', b='$G', games=10_000, seed=44, ply=0))"
done
