#!/bin/sh
# The analysis levels with the shipped net (after ship.sh; GEN names it, gen11 by default): annotate --level on
# the 7-point sample (wall and CPU seconds, the share each tier re-values) and the agreement with XG's analysis
# at --level deep and rollout; outputs in runs/$GEN/ship/.  One core each; from the repository root:
#   sh runs/gen11/levels.sh
#   GEN=gen12 sh runs/gen11/levels.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
GEN=${GEN:-gen11} PY=${PYTHON:-python}
O=runs/$GEN/ship
mkdir -p $O
for L in fast strong deep rollout; do
  echo "== level $L"
  /usr/bin/time -f "# %e s wall, %U user %S sys" $PY -m bgtools annotate samples/selfplay-7pt.mat --level $L \
      --no-cache 2>&1 | grep -E "^# |: level "
done > $O/annotate_levels_$GEN.txt
for L in deep rollout; do
  $PY benchmarks/xg_agreement.py --level $L --jobs 1 > $O/xg_agreement_level_${L}_$GEN.txt
done
