#!/bin/sh
# Issue 37 (far races): the judge sets at 0, 1 and 2 ply before (a worktree of the commit before, BEFORE) and after
# (this checkout), each with its own Numba cache.  From the root:
#   git worktree add /tmp/before <commit before> && BEFORE=/tmp/before sh runs/far20/judge.sh > runs/far20/judge.txt
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
PY=${PYTHON:-python} O=${OUT:-/tmp/far20}
mkdir -p $O
S="../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz"
for P in 0 1 2; do
  [ $P = 2 ] && S=../shared/oracle/judge_dev.jsonl
  BGTOOLS_NUMBA_CACHE_DIR=$O/cache_before $PY runs/far20/judge_picks.py $BEFORE $P $O/before_$P.json $S 2>/dev/null &
  $PY runs/far20/judge_picks.py . $P $O/after_$P.json $S 2>/dev/null
  wait
done
$PY runs/far20/judge_sum.py $O 0 1 2
