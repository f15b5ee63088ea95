#!/bin/sh
# Issue 37 (twenty-second session): the looks of runs/crash21 judged at 0 ply on the sixth judge set, which none of
# them was chosen on (benchmarks/data/judge_sixth.jsonl.gz: gnubg self-play seeds 8001-8060), each paired against the
# shipped crash19e; with PLY=1 at 1 ply.  From the root:
#   sh runs/crash21/sixth.sh m p q r > runs/crash21/sixth_0ply.txt 2>&1
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
PY=${PYTHON:-python} A=/tmp/crash21_sixth_crash19e.npz
git show d7a8de4:bgtools/data/nn_analysis.npz > $A  # crash19e, shipped when these were judged (crash21r is since)
for NAME in "$@"; do
  $PY benchmarks/judge.py --set benchmarks/data/judge_sixth.jsonl.gz --ply ${PLY:-0} --weights runs/crash21/$NAME/splice.npz --against $A
done
