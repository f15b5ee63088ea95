#!/bin/sh
# Generation 7 (issue 12), after runs/gen7/label.sh (or part of it: partial.py takes the parts done).
# Every row labelled at 2 ply by our own nets, one label per position: gen7's share of gen2's 1.2M
# positions (labelled by gen6's candidate `deep`), gen6's 800k (gen3's positions, labelled by gen4)
# and gen5's 200k (sp, sp2).  gen2's and gen3's "deepened" rows are left out: they are the same
# positions as gen7's and gen6's, labelled by older nets.  Two fits at once (one core each), 10
# epochs, rate 1e-4 decayed to 1e-5, seed 7: `fine` from gen6's deep, `fine4` from gen4 (deep's recipe
# on the larger set).  Each judged at 0 ply on judge_dev paired against gen4 and against deep, and on
# benchmarks/data/judge_selfplay.jsonl.gz paired against gen4.
# Run from the repository root:  nice -n 10 sh runs/gen7/fit.sh > runs/gen7/fit.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
R=runs/gen7 G=runs/gen4/fit/fit.npz D=runs/gen6/deep/fit.npz
python runs/gen6/partial.py $R/a/data/part2ply.npz $R/a/data
X="--extra runs/gen6/a/data/labelled.npz --extra runs/gen5/sp/data/labelled.npz --extra runs/gen5/sp2/data/labelled.npz"
for n in fine fine4; do
  mkdir -p $R/$n/data
  ln -sf ../../a/data/part2ply.npz $R/$n/data/labelled.npz
done
python -m bgtools train fit --run $R/fine --init $D --epochs 10 --batch 256 --lr 1e-4 --lr-end 1e-5 --seed 7 $X &
python -m bgtools train fit --run $R/fine4 --init $G --epochs 10 --batch 256 --lr 1e-4 --lr-end 1e-5 --seed 7 $X
wait
S=benchmarks/data/judge_selfplay.jsonl.gz
for n in fine fine4; do
  python benchmarks/judge.py --ply 0 --weights $R/$n/fit.npz --against $G > $R/$n/judge_0ply.txt
  python benchmarks/judge.py --ply 0 --weights $R/$n/fit.npz --against $D > $R/$n/judge_0ply_vs_deep.txt
  python benchmarks/judge.py --ply 0 --weights $R/$n/fit.npz --against $G --set $S > $R/$n/judge_0ply_selfplay.txt
done
