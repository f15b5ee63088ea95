#!/bin/sh
# Generation 9 (issue 12), after runs/gen9/label.sh: gen8 (shipped) fine-tuned on its own 400k
# positions' 2-ply targets, gen8's recipe (10 epochs, rate 1e-4 decayed to 1e-5, seed 9), twice:
#   joint:   the epoch with the lowest held-out loss of all rows (as every earlier generation)
#   pernet:  --best-per-net, each net from its own best epoch (the same training, another choice)
# Each judged at 0 ply on the three judge sets, paired against gen8 (shipped) and gen4.
# Run from the repository root:  nice -n 10 sh runs/gen9/fit.sh > runs/gen9/fit.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
R=runs/gen9 E=runs/gen8/plain/fit.npz G=runs/gen4/fit/fit.npz
for n in joint pernet; do
  mkdir -p $R/$n/data
  ln -sf ../../a/data/labelled.npz $R/$n/data/labelled.npz
done
A="--epochs 10 --batch 256 --lr 1e-4 --lr-end 1e-5 --seed 9 --init $E"
python -m bgtools train fit --run $R/joint $A &
python -m bgtools train fit --run $R/pernet $A --best-per-net
wait
for n in joint pernet; do
  for against in $E $G; do
    python benchmarks/judge.py --ply 0 --weights $R/$n/fit.npz --against $against   # judge_dev (../shared)
    for set in benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
      python benchmarks/judge.py --ply 0 --weights $R/$n/fit.npz --against $against --set $set
    done
  done > $R/$n/judge_0ply.txt
done
