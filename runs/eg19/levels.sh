#!/bin/sh
# Issue 35: annotate --level on the 7-point sample with the short late-game plays settled by rollouts (the default
# since the sixteenth session) and the close plays valued cubefully: wall and CPU seconds, the share each tier
# re-values (docs/analysis.md, "Analysis levels"; runs/cube18/levels.sh before).  One core; from the repository root:
#   sh runs/eg19/levels.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
PY=${PYTHON:-python}
for L in fast strong deep rollout; do
  echo "== level $L"
  /usr/bin/time -f "# %e s wall, %U user %S sys" $PY -m bgtools annotate samples/selfplay-7pt.mat --level $L \
      --no-cache 2>&1 | grep -E "^# |: level "
done > runs/eg19/annotate_levels.txt
