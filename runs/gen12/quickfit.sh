#!/bin/sh
# Issue 37, a first look at gen12's rows (the eighth session, before the extras of fit.sh were regenerated):
# gen11 fitted to runs/gen12's decision rows alone (no gen10/gen9a/gen8c rows beside them) with the within-roll
# loss, judged on the three sets at 0 ply and duelled against gen11 (100,000 games).  Two looks were run:
#   sh runs/gen12/quickfit.sh                 lam 20, 20 epochs at 3e-5, seed 39, duel seed 200,000 (fit.sh's
#                                             settings); also pubeval (seed 900,000, gen11 on the same dice) and
#                                             the fit's contact and crashed nets with gen11's race net spliced back
#   NAME=quick2 LAM=50 EPOCHS=40 LR=5e-5 SEED=40 DUEL_SEED=300000 FULL=0 sh runs/gen12/quickfit.sh
# From the repository root, after data.sh; outputs in runs/gen12/$NAME/.
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
NAME=${NAME:-quick} LAM=${LAM:-20} EPOCHS=${EPOCHS:-20} LR=${LR:-3e-5} SEED=${SEED:-39} DUEL_SEED=${DUEL_SEED:-200000}
D=${DATA:-/work/data} PY=${PYTHON:-python} R=runs/gen12/$NAME S=${DATA:-/work/data}/g12$NAME G=runs/gen11/candidate.npz
mkdir -p $S/data $R
cp $D/gen12/data/decisions.npz $S/data/decisions.npz
$PY -m bgtools train fit --run $S --data decisions --init $G --within-roll $LAM --epochs $EPOCHS --lr $LR --seed $SEED \
    --best-per-net
cp $S/fit.log.csv $S/fit.manifest.json $R/
$PY -m bgtools train duel --run $D/duel12$NAME --a $S/fit.npz --b $G --games 100000 --seed $DUEL_SEED > $R/duel.txt 2>&1 &
judge() {  # judge NET OUT: the three judge sets at 0 ply
  for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
    $PY benchmarks/contact_inputs_judge.py $1 --set $s
  done > $2
}
judge $S/fit.npz $R/judge_0ply.txt
if [ "${FULL:-1}" = 1 ]; then
  for w in $S/fit.npz $G; do $PY benchmarks/strength.py --games 40000 --seed 900000 --weights $w; done > $R/pubeval.txt
  $PY runs/gen12/splice.py $S/fit.npz $G $S/splice.npz g12quick-gen11race
  judge $S/splice.npz $R/judge_0ply_splice.txt
fi
wait
