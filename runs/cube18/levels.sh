#!/bin/sh
# Issue 35: annotate --level on the 7-point sample with the close checker plays valued by the cubeful lookahead (the
# default since the fifteenth session): wall and CPU seconds, the share each tier re-values (docs/analysis.md,
# "Analysis levels"; runs/gen11/levels.sh's first part).  One core; from the repository root:
#   sh runs/cube18/levels.sh      (OUT=FILE: the results there instead)
set -e
OUT=${OUT:-runs/cube18/annotate_levels.txt}
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
PY=${PYTHON:-python}
for L in fast strong deep rollout; do
  echo "== level $L"
  /usr/bin/time -f "# %e s wall, %U user %S sys" $PY -m bgtools annotate samples/selfplay-7pt.mat --level $L \
      --no-cache 2>&1 | grep -E "^# |: level "
done > "$OUT"
