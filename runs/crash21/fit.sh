#!/bin/sh
# Issue 37, item 5 (twenty-first session): the shipped analysis net's crashed net fitted from crash19e to runs/crash19's
# 300,000 crashed rows at its own 2 ply beside runs/crash21's sibling rollouts (siblings.py rows: the rolls whose
# candidates are all rolled out, the last tenth held out, each training row REPEAT times, every row naming its roll)
# with the within-roll loss of weight LAM on the siblings; only the crashed net kept (runs/crash19/splice.py); then
# the held-out rolls' 0-ply pick loss by the rollouts for crash19e, the look (its best epoch by the fit's held-out
# rows) and its last epoch, and the 0-ply judge of the look (JUDGE=last_splice: of its last epoch) on the five sets.
# From the root, after runs/crash19/data.sh, data2.sh and runs/crash21/rollouts.sh:
#   NAME=i LAM=20 REPEAT=10 EPOCHS=30 LR=1e-4 SEED=2101 sh runs/crash21/fit.sh
# LEVEL=1: the siblings' targets at the parent's level over each roll (siblings.py rows ... LEVEL.npz);
# ROLLS=runs/crash21/rolls_widened.jsonl: the rolls widened by look m's own picks (widen.sh).
# ANCHOR=N (with LEVEL=1; twenty-second session): each training roll also holds the N best crashed plays by the parent
# at 0 ply that were not rolled out, the parent's values their targets (siblings.py rows ... LEVEL ANCHOR).
# PARENT: the net fitted from (default the shipped analysis net; since crash21r was shipped the looks of this folder
# are made again from crash19e: PARENT=FILE after git show d7a8de4:bgtools/data/nn_analysis.npz > FILE).
# JUDGE_SETS: the judge sets (default the five committed before the twenty-second session).
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
NAME=${NAME:?} LAM=${LAM:?} REPEAT=${REPEAT:?} EPOCHS=${EPOCHS:?} LR=${LR:?} LR_END=${LR_END:-1e-5} SEED=${SEED:?}
PY=${PYTHON:-python} R=runs/crash21/$NAME A=${PARENT:-bgtools/data/nn_analysis.npz}
mkdir -p $R/data
$PY runs/crash21/siblings.py rows ${ROLLOUTS:-runs/crash21/rollouts.jsonl} ${ROLLS:-runs/crash21/rolls.jsonl} $REPEAT $R/data/sibling_rows.npz \
    $R/data/heldout.npz ${LEVEL:+$A} ${LEVEL:+${ANCHOR:-}}
[ -f $R/data/labelled.npz ] || cp runs/crash19/data/labelled.npz $R/data/
$PY -m bgtools train fit --run $R --init $A --epochs $EPOCHS --lr $LR --lr-end $LR_END --seed $SEED --best-per-net \
    --within-roll $LAM --extra runs/crash19/second/data/labelled.npz --extra $R/data/sibling_rows.npz
$PY runs/crash19/splice.py $R/fit.npz $A $R/splice.npz crash21$NAME
$PY runs/crash21/siblings.py last $R/data/fit_ckpt.npz $R/fit.npz $R/last.npz
$PY runs/crash19/splice.py $R/last.npz $A $R/last_splice.npz crash21${NAME}last
$PY runs/crash21/siblings.py heldout $R/data/heldout.npz $A $R/splice.npz $R/last_splice.npz > $R/heldout.txt
for s in ${JUDGE_SETS:-../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz \
         benchmarks/data/judge_fourth.jsonl.gz benchmarks/data/judge_fifth.jsonl.gz}; do
  $PY benchmarks/judge.py --set $s --ply 0 --weights $R/${JUDGE:-splice}.npz --against $A
done > $R/judge_0ply.txt 2>&1
