#!/bin/sh
# Generation 4 of the supervised pipeline (issue 12): the wider net of wide.sh (256/128/64 hidden,
# judge 6.07) labels at 1 ply the positions of gen3 (800k, folder a) and of gen2 (1.2M, folder b),
# the two folders in parallel, one core each; the rows gen2 and gen3 had labelled again at 2 ply keep
# those labels (runs/gen4/merge.py); the wider net is fitted on both from where it is, 30 epochs,
# the rate decayed from 1e-3 to 1e-5.  Then the 0-ply judge against the wider net and gen2.
# Run from the repository root after wide.sh:  nice -n 10 sh runs/gen4/gen4.sh > runs/gen4/gen4.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
R=runs/gen4 W=runs/gen4/wide/fit.npz
mkdir -p $R/a/data $R/b/data $R/fit/data
ln -sf ../../../gen3/data/positions.npz $R/a/data/positions.npz
ln -sf ../../../gen2/data/positions.npz $R/b/data/positions.npz
python -m bgtools train label --run $R/a --ply 1 --weights $W &
python -m bgtools train label --run $R/b --ply 1 --weights $W
wait
python runs/gen4/merge.py $R/a/data/labelled.npz runs/gen3/data/deepened.npz $R/fit/data/labelled.npz
python runs/gen4/merge.py $R/b/data/labelled.npz runs/gen2/data/deepened.npz $R/fit/data/extra.npz
python -m bgtools train fit --run $R/fit --init $W --epochs 30 --batch 256 --lr 1e-3 --lr-end 1e-5 --seed 6 \
    --data labelled --extra $R/fit/data/extra.npz
python benchmarks/judge.py --ply 0 --weights $R/fit/fit.npz --against $W > $R/fit/judge_0ply.txt
python benchmarks/judge.py --ply 0 --weights $R/fit/fit.npz --against runs/gen2/fit.npz > $R/fit/judge_0ply_vs_gen2.txt
# How it was run (2026-12-01): folder a finished as above; folder b was stopped at part 170 of 240 and
# resumed with two workers (the same part files: labelling is per part and seeded by nothing):
#   python -m bgtools train label --run runs/gen4/b --ply 1 --weights runs/gen4/wide/fit.npz --jobs 2
# then the merge, fit and judge lines above were run one by one (runs/gen4/gen4b.log).
