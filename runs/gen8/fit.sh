#!/bin/sh
# Generation 8 (issue 12), after runs/gen8/label.sh and runs/gen8/crashed.sh. Fine-tunes of gen7's
# `fine` on its own positions' 2-ply targets only (the rows of earlier generations are data sets
# not kept on this machine; generation 5 showed 200k such rows move a net most of the way), 10
# epochs, rate 1e-4 decayed to 1e-5, seed 8, two at once (one core each):
#   fine:  the 400k positions of its play (runs/gen8/a) and the 120k crashed ones (runs/gen8/c)
#   plain: the 400k only (what the crashed set adds)
# Each judged at 0 ply on both judge sets, paired against gen4 (shipped) and gen7's fine.
# Run from the repository root:  nice -n 10 sh runs/gen8/fit.sh > runs/gen8/fit.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
R=runs/gen8 G=runs/gen4/fit/fit.npz F=runs/gen7/fine/fit.npz S=benchmarks/data/judge_selfplay.jsonl.gz
for n in fine plain; do
  mkdir -p $R/$n/data
  ln -sf ../../a/data/labelled.npz $R/$n/data/labelled.npz
done
A="--epochs 10 --batch 256 --lr 1e-4 --lr-end 1e-5 --seed 8 --init $F"
python -m bgtools train fit --run $R/fine $A --extra $R/c/data/labelled.npz &
python -m bgtools train fit --run $R/plain $A
wait
for n in fine plain; do
  for against in $G $F; do
    python benchmarks/judge.py --ply 0 --weights $R/$n/fit.npz --against $against
    python benchmarks/judge.py --ply 0 --weights $R/$n/fit.npz --against $against --set $S
  done > $R/$n/judge_0ply.txt
done
