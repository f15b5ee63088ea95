#!/bin/sh
# Issue 37, the ninth session: gen11 fitted to runs/gen12's decision rows alone with a strong within-roll loss
# (LAM 100-1000, against 20-50 in quickfit.sh), a decaying rate (LR -> LR_END) and each net at its own best
# held-out epoch; gen11's race net is then spliced back (the fits' race nets judged worse on both judge sets),
# the spliced net judged on the three sets at 0 ply (gnubg's 2-ply values only measure) and, for the looks that
# judged best, duelled against gen11 (100,000 games); PLY1=1 judges at 1 ply too.  One look per call; those run
# (docs/training.md, "Generation 12"; b100's 1-ply judge is runs/gen12/measure/b100/judge_1ply.txt, a100's and
# a300's sweep/a100_a300_judge_1ply.txt):
#   NAME=a100  LAM=100  EPOCHS=60  LR=1e-4 SEED=41 sh runs/gen12/sweep.sh
#   NAME=a300  LAM=300  EPOCHS=60  LR=1e-4 SEED=41 DUEL_SEED=400000 sh runs/gen12/sweep.sh
#   NAME=a1000 LAM=1000 EPOCHS=60  LR=1e-4 SEED=41 sh runs/gen12/sweep.sh
#   NAME=b100  LAM=100  EPOCHS=60  LR=3e-4 SEED=41 DUEL_SEED=500000 sh runs/gen12/sweep.sh
#   NAME=c300  LAM=300  EPOCHS=100 LR=3e-4 SEED=42 DUEL_SEED=600000 sh runs/gen12/sweep.sh
#   NAME=d300  LAM=300  EPOCHS=150 LR=1e-4 LR_END=5e-6 SEED=43 sh runs/gen12/sweep.sh
#   NAME=e0    LAM=0    EPOCHS=60  LR=3e-4 SEED=44 PLY1=1 sh runs/gen12/sweep.sh       (and e20 LAM=20, e50 LAM=50)
# Those lost at 1 ply (the values drift where only a roll's plays are fitted), so the next looks fit whole
# positions' 2-ply rows beside them (EXTRA: npz files of boards and targets; runs/gen12/anchor.sh makes them):
#   X="$DATA/gen12/data/labelled.npz $DATA/gen10/first18.npz"
#   NAME=f50a LAM=50 EPOCHS=60 LR=3e-4 SEED=45 PLY1=1 EXTRA=$DATA/gen10/first18.npz sh runs/gen12/sweep.sh
#   NAME=f50b LAM=50 EPOCHS=60 LR=3e-4 SEED=45 PLY1=1 EXTRA="$X" sh runs/gen12/sweep.sh
#   NAME=f50c LAM=50 EPOCHS=60 LR=1e-4 SEED=45 PLY1=1 EXTRA="$X" sh runs/gen12/sweep.sh
#   NAME=f20c LAM=20 EPOCHS=60 LR=1e-4 SEED=46 PLY1=1 EXTRA="$X" DUEL_SEED=1000000 sh runs/gen12/sweep.sh
#   NAME=f20d LAM=20 EPOCHS=60 LR=3e-5 SEED=46 PLY1=1 EXTRA="$X" DUEL_SEED=1000000 sh runs/gen12/sweep.sh
# (The ninth session ran these looks with the same commands into DATA/x_NAME; their manifests name those paths.)
# (a300 was duelled without the splice: its race net was already gen11's, kept at epoch 0.)
# From the repository root, after data.sh; outputs in runs/gen12/sweep/$NAME/, the nets in DATA/g12$NAME/.
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
NAME=${NAME:?} LAM=${LAM:?} EPOCHS=${EPOCHS:?} LR=${LR:?} LR_END=${LR_END:-1e-5} SEED=${SEED:?}
# (GEN, START, OUT, TAG and RACE name another generation's data, start net, output folder, net prefix and splice
# label: runs/gen13/fit.sh sets them; the defaults are generation 12's)
GEN=${GEN:-gen12} TAG=${TAG:-g12} RACE=${RACE:-gen11race} OUT=${OUT:-runs/gen12/sweep}
D=${DATA:-/work/data} PY=${PYTHON:-python} R=$OUT/$NAME S=${DATA:-/work/data}/$TAG$NAME G=${START:-runs/gen11/candidate.npz}
mkdir -p $S/data $R
cp $D/$GEN/data/decisions.npz $S/data/decisions.npz
$PY -m bgtools train fit --run $S --data decisions --init $G --within-roll $LAM --epochs $EPOCHS --lr $LR \
    --lr-end $LR_END --seed $SEED --best-per-net $(for e in ${EXTRA:-}; do printf -- '--extra %s ' $e; done)
cp $S/fit.log.csv $S/fit.manifest.json $R/
$PY runs/gen12/splice.py $S/fit.npz $G $S/splice.npz $TAG$NAME-$RACE
for P in 0 ${PLY1:+1}; do
  for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
    $PY benchmarks/contact_inputs_judge.py $S/splice.npz --ply $P --set $s
  done > $R/judge_${P}ply.txt
done
if [ -n "${DUEL_SEED:-}" ]; then
  $PY -m bgtools train duel --run $D/duel${TAG#g}$NAME --a $S/splice.npz --b $G --games 100000 --seed $DUEL_SEED > $R/duel.txt 2>&1
fi
