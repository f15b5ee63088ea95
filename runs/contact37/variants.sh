#!/bin/sh
# Issue 37 item 3, after runs/contact37/data.sh and fit.sh: the variants of the study (each one
# core; the nets go to DATA, not kept).  From the repository root:
#   sh runs/contact37/variants.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
D=${DATA:-/work/data} PY=${PYTHON:-python} R=runs/contact37
A="$D/gen9a/data/labelled.npz $D/gen8c/data/labelled.npz --seed 37 --lr-end 1e-5"
F="$PY benchmarks/contact_inputs_fit.py $A"
$F --variants 1 --epochs 100 --lr 1e-3 --save-prefix $D/CIfast --json-out $R/fitfast-1.json > $R/fitfast-1.log
$F --variants 1 --epochs 100 --lr 3e-4 --drop hit,hit_twice,pips_lost --save-prefix $D/CInohit \
   --json-out $R/fitnohit-1.json > $R/fitnohit-1.log
$F --variants 1 --epochs 300 --lr 3e-4 --save-prefix $D/CI300 --json-out $R/fit300-1.json > $R/fit300-1.log
$F --variants 0 --epochs 300 --lr 3e-4 --save-prefix $D/CI300 --json-out $R/fit300-0.json > $R/fit300-0.log
$F --variants 1 --epochs 1000 --lr 3e-4 --save-prefix $D/CI1000 --json-out $R/fit1000-1.json > $R/fit1000-1.log
J="$PY benchmarks/contact_inputs_judge.py"
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
  $J $D/CI-1.npz $D/CInohit-1.npz $D/CIfast-1.npz --set $s
done > $R/judge_variants.txt
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
  $J $D/CI300-0.npz $D/CI300-1.npz --set $s
done > $R/judge_300_control.txt
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
  $J $D/CI300-1.npz $D/CI1000-1.npz --set $s
done > $R/judge_1000.txt
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
  $J $D/CI300-1.npz --ply 1 --set $s
done > $R/judge_300_1ply.txt
$J $D/CI-0.npz $D/CI-1.npz $D/CI300-1.npz --self-judge 1000 > $R/self_judge.txt
# acceptance figures: duels against the shipped net, pubeval, and the 2-ply judge through the kernels
$PY -m bgtools train duel --run $D/duel37 --a $D/CI300-1.npz --games 20000 --seed 3737
$PY -m bgtools train duel --run $D/duel37b --a $D/CI1000-1.npz --games 20000 --seed 3738
$PY benchmarks/strength.py --games 40000 --seed 4242 --weights $D/CI300-1.npz
$PY benchmarks/strength.py --games 40000 --seed 4242 --weights $D/CI1000-1.npz
$PY benchmarks/judge.py --ply 2 --weights $D/CI300-1.npz --against bgtools/data/nn_weights.npz > $R/judge_300_2ply.txt
$PY benchmarks/judge.py --ply 2 --weights $D/CI1000-1.npz > $R/judge_1000_2ply.txt
