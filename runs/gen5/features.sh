#!/bin/sh
# Generation 5, step 1 (issue 12, build item 2): what the eight new inputs are worth.  The gen4 net
# (read with zero weights for the new inputs) is fitted again on gen4's labels (2.0M positions: gen3's
# and gen2's positions at 1 ply of the 256-unit net, the 2-ply rows kept), 20 epochs, rate 3e-4
# decayed to 1e-5, seed 7: once with every new group held at zero (the control: what more fitting
# alone gives), once with all, then with each group left out.  Judge: 0-ply, paired against gen4.
# Run from the repository root:  nice -n 10 sh runs/gen5/features.sh NAME [DROP] > runs/gen5/NAME.log 2>&1
# The fit and judge lines need the code of commit 96f9045 (the eight inputs and `fit --drop`,
# taken out again after this experiment: docs/training.md, Generation 5); the selfplay and
# label lines run with today's code.
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
N=$1 D=$2 R=runs/gen5/$1 G=runs/gen4/fit
mkdir -p $R/data
ln -sf ../../../gen4/fit/data/labelled.npz $R/data/labelled.npz
python -m bgtools train fit --run $R --init $G/fit.npz --epochs 20 --batch 256 --lr 3e-4 --lr-end 1e-5 --seed 7 \
    --extra $G/data/extra.npz ${D:+--drop $D}
python benchmarks/judge.py --ply 0 --weights $R/fit.npz --against $G/fit.npz > $R/judge_0ply.txt
