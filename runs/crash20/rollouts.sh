#!/bin/sh
# Issue 37, item 5 (twentieth session, to be continued): rollout targets for the crashed net.  20,000 crashed positions
# drawn (seed 2020) from runs/crash19's 150,000 (gen12cal3's crashed self-play, seed 19: `sh runs/crash19/data.sh`
# makes them again), each rolled out cubeless to the end (or into the two-sided bear-off database, exact) by the shipped rollout net, 324 trials with variance
# reduction, dice seed 2020 (cal17's settings).  About 190 crashed positions a CPU minute (bear-off truncation on):
# all 20,000 took about 50 minutes on two cores (2026-12-07; rollouts.log has the file's sha256).  Resumable: run it
# again and it goes on from runs/crash20/rollouts.jsonl (the ids file is made once, in the draw's random order, so a
# part done is a random part; ids.txt is committed).  From the repository root:
#   nice -n 19 sh runs/crash20/rollouts.sh >> runs/crash20/rollouts.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
PY=${PYTHON:-python} R=runs/crash20
[ -s runs/crash19/data/positions.npz ] || $PY -m bgtools train selfplay --run runs/crash19 --positions 150000 --seed 19 --classes crashed
: > $R/none.txt
[ -s $R/ids.txt ] || $PY runs/cal15/sample.py runs/crash19/data/positions.npz $R/none.txt $R/ids.txt 2020 CRASHED=20000
rm -f $R/none.txt
if [ -s $R/rollouts.jsonl ]; then MORE=--resume; else MORE=; fi
$PY -m bgtools rollout -i $R/ids.txt --trials 324 --vr --jobs ${JOBS:-2} --seed 2020 -o $R/rollouts.jsonl $MORE
echo "# done $(date -u '+%Y-%m-%d %H:%M'): $(wc -l < $R/rollouts.jsonl) records"
