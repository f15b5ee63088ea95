#!/bin/sh
# Issue 35 (twenty-fifth session): a first look at the contact net fitted to the sibling rollouts made so far, before
# the ten thousand rolls are done: runs/crash21/fit.sh's steps for the contact class, on a base that needs no data made
# again.  The first RECORDS records of runs/contact23/rollouts.jsonl (default 5,947: the rolls complete in them make
# the rows, the last tenth held out); the base rows are the 41,977 contact positions of runs/contact23/data (its
# self-play, seed 23) valued by the parent at 0 ply, so that away from the rolled-out rolls the fit holds the net where
# it is (the recipe planned for the whole set fits beside gen12's decision rows instead, made again from their seed in
# about 70 minutes); the rows of a roll hold its candidates' rollouts shifted to the parent's level over the roll and
# its ANCHOR best contact plays by the parent at 0 ply that were not rolled out (siblings.py rows ... LEVEL ANCHOR);
# the within-roll loss of weight LAM; only the contact net kept (runs/contact23/splice.py).  Then the held-out rolls'
# 0-ply pick loss by the rollouts and the 0-ply judge on the six committed sets, paired against the parent.
# From the repository root, after runs/contact23/rollouts.sh has made RECORDS records:
#   NAME=a LAM=100 REPEAT=3 ANCHOR=12 SEED=2501 sh runs/contact23/pilot.sh > runs/contact23/a.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
NAME=${NAME:?} LAM=${LAM:?} REPEAT=${REPEAT:?} ANCHOR=${ANCHOR:?} SEED=${SEED:?} EPOCHS=${EPOCHS:-30} LR=${LR:-1e-4}
LR_END=${LR_END:-1e-5} RECORDS=${RECORDS:-5947}
PY=${PYTHON:-python} C=runs/contact23 R=runs/contact23/$NAME A=${PARENT:-bgtools/data/nn_analysis.npz}
mkdir -p $R/data
head -n $RECORDS $C/rollouts.jsonl > $R/data/rollouts.jsonl
[ "$(wc -l < $R/data/rollouts.jsonl)" -eq "$RECORDS" ] || { echo "only $(wc -l < $R/data/rollouts.jsonl) records"; exit 1; }
echo "rollouts: the first $RECORDS records, sha256 $(sha256sum < $R/data/rollouts.jsonl | cut -c1-16)"
$PY runs/crash21/siblings.py rows $R/data/rollouts.jsonl $C/rolls.jsonl $REPEAT $R/data/sibling_rows.npz $R/data/heldout.npz \
    $A $ANCHOR
cp $C/data/positions.npz $R/data/
$PY -m bgtools train label --run $R --ply 0 --weights $A
$PY -m bgtools train fit --run $R --init $A --epochs $EPOCHS --lr $LR --lr-end $LR_END --seed $SEED --best-per-net \
    --within-roll $LAM --extra $R/data/sibling_rows.npz
$PY $C/splice.py $R/fit.npz $A $R/splice.npz contact25$NAME
$PY runs/crash21/siblings.py heldout $R/data/heldout.npz $A $R/splice.npz > $R/heldout.txt
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz \
         benchmarks/data/judge_fourth.jsonl.gz benchmarks/data/judge_fifth.jsonl.gz benchmarks/data/judge_sixth.jsonl.gz; do
  $PY benchmarks/judge.py --set $s --ply 0 --weights $R/splice.npz --against $A
done > $R/judge_0ply.txt 2>&1
echo DONE
