#!/bin/sh
# Generation 8 (issue 12), after runs/gen8/label.sh (or part of it: runs/gen6/partial.py takes the
# parts done). A fine-tune of gen7's `fine` on its own positions' 2-ply targets only (the rows of
# earlier generations are data sets not kept on this machine; generation 5 showed 200k such rows
# move a net most of the way): 10 epochs, rate 1e-4 decayed to 1e-5, seed 8. Judged at 0 ply on
# both judge sets, paired against gen4 (shipped) and gen7's fine (the candidate it starts from).
# Run from the repository root:  nice -n 10 sh runs/gen8/fit.sh > runs/gen8/fit.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
R=runs/gen8 G=runs/gen4/fit/fit.npz F=runs/gen7/fine/fit.npz S=benchmarks/data/judge_selfplay.jsonl.gz
python runs/gen6/partial.py $R/a/data/part2ply.npz $R/a/data
mkdir -p $R/fine/data
ln -sf ../../a/data/part2ply.npz $R/fine/data/labelled.npz
python -m bgtools train fit --run $R/fine --init $F --epochs 10 --batch 256 --lr 1e-4 --lr-end 1e-5 --seed 8
for against in $G $F; do
  python benchmarks/judge.py --ply 0 --weights $R/fine/fit.npz --against $against
  python benchmarks/judge.py --ply 0 --weights $R/fine/fit.npz --against $against --set $S
done > $R/fine/judge_0ply.txt
