#!/bin/sh
# Issue 37, the next generation (not run yet): gen11's recipe (runs/gen11/stagefit.sh) one generation on.
# gen11 (runs/gen11/candidate.npz) fitted to runs/gen12's decision rows (data.sh: every play valued at 2 ply,
# --rows candidates) with the within-roll loss beside gen10's, gen9a's and gen8c's labelled rows (regenerate
# them first: runs/gen10/data.sh, runs/contact37/data.sh), 20 epochs at 3e-5, each net at its own best held-out
# epoch by the whole objective.  Then judged (the three judge sets at 0 ply, gnubg's 2-ply values only measure),
# duelled against gen11 (100,000 games on dice of their own: seed 200,000) and matched against pubeval on a new
# seed (900,000; gen11 on the same dice).  One core; from the repository root, after data.sh:
#   sh runs/gen12/fit.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
D=${DATA:-/work/data} PY=${PYTHON:-python} R=runs/gen12 S=${DATA:-/work/data}/g12stage G=runs/gen11/candidate.npz
mkdir -p $S/data $R/stagefit
cp $D/gen12/data/decisions.npz $S/data/decisions.npz
$PY -m bgtools train fit --run $S --data decisions --extra $D/gen10/data/labelled.npz --extra $D/gen9a/data/labelled.npz \
    --extra $D/gen8c/data/labelled.npz --init $G --within-roll 20 --epochs 20 --lr 3e-5 --seed 39 --best-per-net
cp $S/fit.log.csv $S/fit.manifest.json $R/stagefit/
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
  $PY benchmarks/contact_inputs_judge.py $S/fit.npz --set $s
done > $R/stagefit/judge_0ply.txt
$PY -m bgtools train duel --run $D/duel12 --a $S/fit.npz --b $G --games 100000 --seed 200000 > $R/stagefit/duel.txt 2>&1
for w in $S/fit.npz $G; do $PY benchmarks/strength.py --games 40000 --seed 900000 --weights $w; done > $R/stagefit/pubeval.txt
cp $S/fit.npz $R/candidate.npz
