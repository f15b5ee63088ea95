#!/bin/sh
# Issue 37: what a gen12 candidate must show before it is shipped as the analysis net, beside the shipped gen11
# on the same dice and files: pubeval on a seed no run had used (1,100,000; 40,000 games), the 1-ply judge on the
# three sets, the 2-ply judge on judge_dev pruned as the analysis searches (with gen11 paired), and XG's analysis
# (benchmarks/xg_agreement.py --ply 2; gen11's figure is runs/gen11/ship/xg_agreement_ply2_gen11.txt, the code
# it measured unchanged since).  C: the candidate's weights, NAME: its folder under runs/gen12/measure/.  Run:
#   C=DATA/g12b100/splice.npz NAME=b100 sh runs/gen12/measure.sh      (sweep.sh's looks; neither shipped)
#   C=DATA/g12f20c/splice.npz NAME=f20c sh runs/gen12/measure.sh
# Two cores; from the repository root.
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
PY=${PYTHON:-python} O=runs/gen12/measure/${NAME:?} C=${C:?} G=runs/gen11/candidate.npz
mkdir -p $O
$PY benchmarks/judge.py --ply 2 --weights $C --against $G --prune shipped > $O/judge_dev_2ply.txt &
for w in $C $G; do $PY benchmarks/strength.py --games 40000 --seed 1100000 --weights $w; done > $O/pubeval_seed1100000.txt
$PY benchmarks/xg_agreement.py --ply 2 --jobs 1 --weights $C > $O/xg_agreement_ply2.txt
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
  $PY benchmarks/contact_inputs_judge.py $C --ply 1 --set $s
done > $O/judge_1ply.txt
wait
