#!/bin/sh
# Generation 6 (issue 12), after runs/gen6/label.sh (or part of it: partial.py takes the parts done):
# gen4 fitted on the rows labelled at 2 ply (gen2's and gen3's 100k deepened rows, gen5's 200k new
# positions, and gen6's share of gen3's 800k positions labelled by gen4 with pruning), as gen5's
# deep0 was (10 epochs, rate 1e-4 decayed to 1e-5, seed 6): runs/gen6/deep.  Then (runs/gen6/mix)
# gen4 fitted on its own 2.0M rows with gen6's 2-ply labels in place of the 1-ply ones where there
# are some (runs/gen6/mix.py) and gen5's 2-ply sets, 10 epochs from rate 3e-4 (the two fits at once, one
# core each).  Each judged at 0 ply paired against gen4.
# Run from the repository root:  nice -n 10 sh runs/gen6/fit.sh > runs/gen6/fit.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
R=runs/gen6 G=runs/gen4/fit/fit.npz
python runs/gen6/partial.py $R/a/data/part2ply.npz
mkdir -p $R/deep/data $R/mix/data
python runs/gen5/deeprows.py $R/deep/data/labelled.npz runs/gen5/sp/data/labelled.npz runs/gen5/sp2/data/labelled.npz \
    $R/a/data/part2ply.npz
python runs/gen6/mix.py runs/gen4/fit/data/labelled.npz $R/a/data/part2ply.npz $R/mix/data/labelled.npz
python -m bgtools train fit --run $R/deep --init $G --epochs 10 --batch 256 --lr 1e-4 --lr-end 1e-5 --seed 6 &
python -m bgtools train fit --run $R/mix --init $G --epochs 10 --batch 256 --lr 3e-4 --lr-end 1e-5 --seed 6 \
    --extra runs/gen4/fit/data/extra.npz --extra runs/gen5/sp/data/labelled.npz --extra runs/gen5/sp2/data/labelled.npz
wait
for n in deep mix; do
  python benchmarks/judge.py --ply 0 --weights $R/$n/fit.npz --against $G > $R/$n/judge_0ply.txt
done
# head to head against gen4 (deep and mix: 10,000 games, seed 44; deep again: 20,000 games, seed 47),
# and deep against pubeval (40,000 duplicate games, seed 4242, as gen4's acceptance)
for v in "deep duel 10000 44" "mix duel 10000 44" "deep duel47 20000 47"; do
  set -- $v
  python -c "
from bgtools.training.pipeline import run_duel, DuelConfig
run_duel('$R/$1/$2', DuelConfig(a='$R/$1/fit.npz', b='$G', games=$3, seed=$4, ply=0))"
done
python benchmarks/strength.py --games 40000 --seed 4242 --weights $R/deep/fit.npz > $R/deep/strength.txt
# deep with lookahead, paired against gen4 (no pruning)
python benchmarks/judge.py --ply 1 --weights $R/deep/fit.npz --against $G > $R/deep/judge_1ply.txt
python benchmarks/judge.py --ply 2 --weights $R/deep/fit.npz --against $G > $R/deep/judge_2ply.txt
