#!/bin/sh
# Issue 37, generation 13: gen12 (runs/gen12/candidate.npz) fitted the way of look f20c (runs/gen12/sweep.sh) to gen13's
# decision rows (runs/gen13/data.sh: gen12's own play, every kept play of a roll valued at 2 ply), the within-roll loss
# at LAM (default 20), whole positions' rows beside (EXTRA: npz files of boards and targets; default runs/gen12/anchor.sh's
# rows), each net at its own best held-out epoch, gen12's race net spliced back; judged at 0 and 1 ply on the three
# judge sets (gnubg's 2-ply values only measure) and, with DUEL_SEED, duelled against gen12 (100,000 games).
#   NAME=f20 SEED=61 DUEL_SEED=2600000 sh runs/gen13/fit.sh
#   NAME=f50 LAM=50 SEED=62 sh runs/gen13/fit.sh
#   NAME=f20d LR=3e-5 SEED=63 sh runs/gen13/fit.sh
# (the tenth session ran these three: docs/training.md, "Generation 13"; none accepted)
# From the repository root, after runs/gen13/data.sh; outputs in runs/gen13/NAME/, the nets in DATA/g13NAME/.
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
NAME=${NAME:?} LAM=${LAM:-20} EPOCHS=${EPOCHS:-60} LR=${LR:-1e-4} LR_END=${LR_END:-1e-5} SEED=${SEED:?}
D=${DATA:-/work/data} PY=${PYTHON:-python} R=runs/gen13/$NAME S=${DATA:-/work/data}/g13$NAME G=runs/gen12/candidate.npz
EXTRA=${EXTRA:-"$D/gen12/data/labelled.npz $D/gen10/first18.npz"}
mkdir -p $S/data $R
cp $D/gen13/data/decisions.npz $S/data/decisions.npz
$PY -m bgtools train fit --run $S --data decisions --init $G --within-roll $LAM --epochs $EPOCHS --lr $LR \
    --lr-end $LR_END --seed $SEED --best-per-net $(for e in $EXTRA; do printf -- '--extra %s ' $e; done)
cp $S/fit.log.csv $S/fit.manifest.json $R/
$PY runs/gen12/splice.py $S/fit.npz $G $S/splice.npz g13$NAME-gen12race
for P in 0 1; do
  for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
    $PY benchmarks/contact_inputs_judge.py $S/splice.npz --ply $P --set $s
  done > $R/judge_${P}ply.txt
done
if [ -n "${DUEL_SEED:-}" ]; then
  $PY -m bgtools train duel --run $D/duel13$NAME --a $S/splice.npz --b $G --games 100000 --seed $DUEL_SEED > $R/duel.txt 2>&1
fi
