#!/bin/sh
# Issue 37, item 4, through the stages: runs/gen11's decision rows (every play valued at 2 ply, --rows candidates)
# fitted with the within-roll loss (train fit --within-roll 20) beside gen10's, gen9a's and gen8c's labelled rows,
# from gen10's candidate ($D/gen10fit-1.npz, runs/gen10/fit.sh), 20 epochs at 3e-5, each net at its own best
# held-out epoch by the whole objective.  The result is runs/gen11/candidate.npz.  Then judged, duelled against
# gen9w (100,000 games, seed 3813) and matched against pubeval (seed 4242).  One core; from the repository root,
# after data.sh and fit.sh:
#   sh runs/gen11/stagefit.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
D=${DATA:-/work/data} PY=${PYTHON:-python} R=runs/gen11 S=${DATA:-/work/data}/g11stage
mkdir -p $S/data
cp $D/gen11-candidates.npz $S/data/decisions.npz   # (fit.sh writes it: train decisions --rows candidates)
$PY -m bgtools train fit --run $S --data decisions --extra $D/gen10/data/labelled.npz --extra $D/gen9a/data/labelled.npz \
    --extra $D/gen8c/data/labelled.npz --init $D/gen10fit-1.npz --within-roll 20 --epochs 20 --lr 3e-5 --seed 38 \
    --best-per-net
mkdir -p $R/stagefit
cp $S/fit.log.csv $S/fit.manifest.json $R/stagefit/
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
  $PY benchmarks/contact_inputs_judge.py $S/fit.npz $D/wrfull-lam20.npz $D/gen10fit-1.npz --set $s
done > $R/stagefit/judge_0ply.txt
$PY -m bgtools train duel --run $D/duel11s --a $S/fit.npz --b runs/contact37/fit1000/fit.npz --games 100000 --seed 3813 > $R/stagefit/duel.txt 2>&1
$PY benchmarks/strength.py --games 40000 --seed 4242 --weights $S/fit.npz > $R/stagefit/pubeval.txt
cp $S/fit.npz $R/candidate.npz
