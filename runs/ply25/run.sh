#!/bin/sh
# Issue 35 (twenty-fifth session): why our 1 ply turns clear plays round against XG (runs/ply25/leaves.py).  The
# plays of the shared .xg files where XG's best leads by 0.05 or more and gnubg's 1-ply pick is XG's, ours is not
# (17), each with XG's play and ours, the 21 leaves of our 1 ply of each rolled out (324 trials with variance
# reduction, dice seed 2525); and a control: 17 plays of the same kind where both 1-ply picks are XG's (drawn with
# seed 2525), XG's play against the best other by our 0 ply.  About 25 minutes on two cores; gnubg only measures
# (its 1-ply picks choose the plays).  The rollouts are committed as rollouts.jsonl.gz and restored from them.
# From the repository root (the .xg files are in ../shared):
#   sh runs/ply25/run.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
PY=${PYTHON:-python} R=runs/ply25
mkdir -p $R/data $R/control
[ -s $R/data/ours1.jsonl ] || $PY benchmarks/xg_agreement.py --ply 1 --json $R/data/ours1.jsonl > /dev/null
[ -s $R/data/gnubg1.jsonl ] || $PY benchmarks/xg_checker_gnubg.py --ply 1 --json $R/data/gnubg1.jsonl > /dev/null
[ -s $R/ids.txt ] || $PY $R/leaves.py draw $R/data/ours1.jsonl $R/data/gnubg1.jsonl $R/ids.txt $R/plays.jsonl
[ -s $R/control/ids.txt ] || $PY $R/leaves.py control $R/data/ours1.jsonl $R/data/gnubg1.jsonl $R/control/ids.txt \
    $R/control/plays.jsonl 17 2525
for d in $R $R/control; do
  [ -s $d/rollouts.jsonl ] || [ ! -s $d/rollouts.jsonl.gz ] || gzip -dc $d/rollouts.jsonl.gz > $d/rollouts.jsonl
  if [ -s $d/rollouts.jsonl ]; then MORE=--resume; else MORE=; fi
  $PY -m bgtools rollout -i $d/ids.txt --trials 324 --vr --jobs ${JOBS:-2} --seed 2525 -o $d/rollouts.jsonl $MORE
  $PY $R/leaves.py report $d/plays.jsonl $d/rollouts.jsonl > $d/report.txt
done
