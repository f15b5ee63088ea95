#!/bin/sh
# Issues 37 (item 7) and 38 (item 5), the tenth session: a rollout net fitted for what rollouts do (pick plays at 0 ply).
# The rollout net's shape (gen8: contact 224-256-5, no contact inputs, crashed 224-128-5), or with WIDTH=128 gen8's
# contact net narrowed to the 128 units with the largest output weights (gnubg's width: a cheaper contact sibling),
# fitted to runs/gen12's decision rows with a within-roll loss of LAM (docs/training.md, "Generation 12": a heavy term
# buys 0-ply picks) and, with EXTRA, whole positions' 2-ply rows beside; each net at its own best held-out epoch; the
# race net then spliced from the shipped analysis net (gen12's = gen11's, 0.64 / 0.57 on the judge sets against
# gen8's 0.74 / 0.72).  Judged at 0 ply on the three judge sets (gnubg's 2-ply values only measure) and, with
# DUEL_SEED, duelled against gen8 (100,000 games).  The looks run (docs/training.md, "A rollout net fitted for the
# rollouts"), with X="$DATA/gen12/data/labelled.npz $DATA/gen10/first18.npz" (runs/gen12/anchor.sh's rows):
#   NAME=w100  LAM=100 EPOCHS=60  LR=3e-4 SEED=51 DUEL_SEED=2000000 sh runs/roll13/fit.sh
#   NAME=w300  LAM=300 EPOCHS=100 LR=3e-4 SEED=53 sh runs/roll13/fit.sh
#   NAME=wx100 LAM=100 EPOCHS=60  LR=3e-4 SEED=54 EXTRA="$X" sh runs/roll13/fit.sh      (shipped: roll13)
#   NAME=n128  WIDTH=128 LAM=100 EPOCHS=100 LR=3e-4 SEED=55 EXTRA="$X" sh runs/roll13/fit.sh
# wx100's duels were run by hand after its fit (train duel --games 100000): against gen8, seed 2,200,000
# (wx100/duel.txt), against w100, seed 2,100,000 (wx100/duel_vs_w100.txt); then
#   PYTHONPATH=. python benchmarks/strength.py --games 40000 --seed 2400000 --weights W   (wx100/pubeval_seed2400000.txt)
#   PYTHONPATH=. python benchmarks/rollout_vs_gnubg.py --weights W --jobs 2              (wx100/rollout_vs_gnubg.txt)
#   PYTHONPATH=.:benchmarks python benchmarks/xg_agreement.py --level rollout --rollout-weights W --jobs 2
#   cp DATA/r13wx100/splice.npz runs/roll13/candidate.npz; PYTHONPATH=. python runs/roll13/ship.py 0.622
# From the repository root, after runs/gen12/data.sh; outputs in runs/roll13/NAME/, the nets in DATA/r13NAME/.
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
NAME=${NAME:?} LAM=${LAM:?} EPOCHS=${EPOCHS:?} LR=${LR:?} LR_END=${LR_END:-1e-5} SEED=${SEED:?}
D=${DATA:-/work/data} PY=${PYTHON:-python} R=runs/roll13/$NAME S=${DATA:-/work/data}/r13$NAME
G8=bgtools/data/nn_weights.npz RACE=bgtools/data/nn_analysis.npz INIT=runs/gen8/plain/fit.npz
mkdir -p $S/data $R
cp $D/gen12/data/decisions.npz $S/data/decisions.npz
if [ -n "${WIDTH:-}" ]; then
  $PY runs/roll13/narrow.py $G8 $WIDTH $S/init.npz
  INIT=$S/init.npz
fi
$PY -m bgtools train fit --run $S --data decisions --init $INIT --within-roll $LAM --epochs $EPOCHS --lr $LR \
    --lr-end $LR_END --seed $SEED --best-per-net $(for e in ${EXTRA:-}; do printf -- '--extra %s ' $e; done)
cp $S/fit.log.csv $S/fit.manifest.json $R/
$PY runs/gen12/splice.py $S/fit.npz $RACE $S/splice.npz r13$NAME-gen12race
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
  $PY benchmarks/judge.py --weights $S/splice.npz --against $G8 --prune none --set $s
done > $R/judge_0ply.txt
if [ -n "${DUEL_SEED:-}" ]; then
  $PY -m bgtools train duel --run $D/duel13$NAME --a $S/splice.npz --b $G8 --games 100000 --seed $DUEL_SEED > $R/duel.txt 2>&1
fi
