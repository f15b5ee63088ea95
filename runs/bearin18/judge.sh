#!/bin/sh
# Issue 37 (bear-ins): the judge sets at 0, 1 and 2 ply with bear-ins valued by the net (before, "off") and by the
# mover's next two rolls ("on").  From the root:  sh runs/bearin18/judge.sh > runs/bearin18/judge.txt
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
PY=${PYTHON:-python} O=${OUT:-/tmp/bearin18}
mkdir -p $O
S="../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz"
for P in 0 1 2; do
  [ $P = 2 ] && S=../shared/oracle/judge_dev.jsonl
  $PY runs/bearin18/judge_picks.py off $P $O/before_$P.json $S 2>/dev/null &
  $PY runs/bearin18/judge_picks.py on $P $O/after_$P.json $S 2>/dev/null
  wait
done
echo "# sh runs/bearin18/judge.sh ($(date -u +%Y-%m-%d), eighteenth session; mean loss in millipoints a position by gnubg's 2-ply values, the shipped analysis net gen12cal3, bear-ins valued by the net (before) and by the mover's next two rolls (after); 2 ply pruned as the analysis searches)"
$PY runs/far20/judge_sum.py $O 0 1 2
