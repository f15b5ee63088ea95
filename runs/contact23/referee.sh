#!/bin/sh
# Issue 35 (twenty-fifth session): do our rollouts and gnubg's 2 ply agree on contact plays, as they do on crashed ones
# (runs/crash21/referee.sh: 83 % the same best)?  If they do not, the contact sibling rollouts (rollouts.sh) teach the
# contact net something gnubg's 2 ply would not confirm.  judge_dev's contact records, each record's candidates
# (gnubg's three best at 2 ply, gnubg's 0-ply pick and the shipped net's) rolled out as the siblings are: 324 trials
# with variance reduction, dice seed 2121, common to a record's candidates (runs/crash21/referee.py draw ... --class
# contact).  The rollouts are committed as referee/rollouts.jsonl.gz and restored from it.  Resumable; the report
# counts the records whose candidates are all rolled out, so it may be read before the end.  From the repository root (judge_dev is in ../shared):
#   sh runs/contact23/referee.sh > runs/contact23/referee/report.txt 2>runs/contact23/referee/rollouts.log
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
PY=${PYTHON:-python} R=runs/contact23/referee
mkdir -p $R
[ -s $R/ids.txt ] || $PY runs/crash21/referee.py draw $R/ids.txt $R/groups.jsonl ../shared/oracle/judge_dev.jsonl --class contact
[ -s $R/rollouts.jsonl ] || [ ! -s $R/rollouts.jsonl.gz ] || gzip -dc $R/rollouts.jsonl.gz > $R/rollouts.jsonl
if [ -s $R/rollouts.jsonl ]; then MORE=--resume; else MORE=; fi
$PY -m bgtools rollout -i $R/ids.txt --trials 324 --vr --jobs ${JOBS:-2} --seed 2121 -o $R/rollouts.jsonl $MORE >&2
$PY runs/crash21/referee.py report $R/rollouts.jsonl $R/groups.jsonl
