#!/bin/sh
# Issue 37: what runs/gen11/candidate.npz must still show before it is shipped as the analysis net, each beside
# the shipped gen9w on the same dice and files: pubeval on a seed no run had used (700,000; 40,000 games), the
# 1-ply judge on the three sets, and against XG's analysis (benchmarks/xg_agreement.py --ply 2, the shipped
# pruning net for both); annotate_vs_gnubg.py and cube_vs_gnubg.py value with the shipped file, so they run
# here for gen9w and again after runs/gen11/ship.py (ship.sh).  One core; from the repository root:
#   sh runs/gen11/measure.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
PY=${PYTHON:-python} O=runs/gen11/ship C=runs/gen11/candidate.npz G=runs/contact37/fit1000/fit.npz
mkdir -p $O
for w in $C $G; do $PY benchmarks/strength.py --games 40000 --seed 700000 --weights $w; done > $O/pubeval_seed700000.txt
$PY benchmarks/xg_agreement.py --ply 2 --jobs 1 --weights $C > $O/xg_agreement_ply2_gen11.txt
$PY benchmarks/xg_agreement.py --ply 2 --jobs 1 > $O/xg_agreement_ply2_gen9w.txt
$PY benchmarks/annotate_vs_gnubg.py --ply 2 --quiet > $O/annotate_vs_gnubg_2ply_gen9w.txt
$PY benchmarks/cube_vs_gnubg.py --ply 0 > $O/cube_vs_gnubg_0ply_gen9w.txt
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
  $PY benchmarks/contact_inputs_judge.py $C --ply 1 --set $s
done > $O/judge_1ply.txt
