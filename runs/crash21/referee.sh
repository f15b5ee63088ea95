#!/bin/sh
# Issue 37 (twenty-first session): our rollouts beside gnubg's 2 ply as referees of the judge sets' crashed plays
# (runs/crash21/referee.py: each crashed record's candidates rolled out as runs/crash21's siblings were: 324 trials
# with variance reduction, dice seed 2121).  About 1,700 positions, ten minutes on two cores; resumable.  From the
# repository root (judge_dev is in ../shared):
#   sh runs/crash21/referee.sh > runs/crash21/referee/report.txt 2>runs/crash21/referee/rollouts.log
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
PY=${PYTHON:-python} R=runs/crash21/referee
mkdir -p $R
[ -s $R/ids.txt ] || $PY runs/crash21/referee.py draw $R/ids.txt $R/groups.jsonl ../shared/oracle/judge_dev.jsonl \
    benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_fourth.jsonl.gz benchmarks/data/judge_fifth.jsonl.gz
if [ -s $R/rollouts.jsonl ]; then MORE=--resume; else MORE=; fi
$PY -m bgtools rollout -i $R/ids.txt --trials 324 --vr --jobs ${JOBS:-2} --seed 2121 -o $R/rollouts.jsonl $MORE >&2
$PY runs/crash21/referee.py report $R/rollouts.jsonl $R/groups.jsonl
