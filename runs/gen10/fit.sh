#!/bin/sh
# Issue 37, the next generation (after runs/gen10/data.sh): gen9w (the shipped analysis net) fitted further on
# gen10 (its own 400,000 positions at its own 2 ply) with gen9a and gen8c (runs/contact37/data.sh), contact and
# crashed nets only (the race net stays), each at its own best held-out epoch; then judged and duelled against
# gen9w by the acceptance rule.  One core; from the repository root:
#   sh runs/gen10/fit.sh >> runs/gen10/fit.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
D=${DATA:-/work/data} PY=${PYTHON:-python} R=runs/gen10 E=${EPOCHS:-300}
$PY benchmarks/contact_inputs_fit.py $D/gen10/data/labelled.npz $D/gen9a/data/labelled.npz $D/gen8c/data/labelled.npz \
    --init runs/contact37/fit1000/fit.npz --variants 1 --epochs $E --lr 1e-4 --lr-end 1e-5 --seed 38 \
    --save-prefix $D/gen10fit --json-out $R/fit.json
cp $D/gen10fit-1.npz $R/candidate.npz
