#!/bin/sh
# Issue 37, item 4 (after runs/gen11/data.sh): gen10's recipe (runs/gen10/fit.sh: gen9w fitted on gen10 + gen9a
# + gen8c, contact and crashed nets, each at its own best held-out epoch, the race net as shipped) with
# runs/gen11's decision rows beside them, one fit per variant, each on one core, at once:
#   candidates: every play valued at 2 ply (about 3.7 rows a position);
#   pairs: both picks of each roll where they part (about 1 roll in 9).
# The control is gen10's candidate (runs/gen10/fit.sh: the same rows without these, the same settings).
# From the repository root:
#   sh runs/gen11/fit.sh >> runs/gen11/fit.log 2>&1
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
D=${DATA:-/work/data} PY=${PYTHON:-python} R=runs/gen11 E=${EPOCHS:-300} VARIANTS=${VARIANTS:-candidates pairs}
W=runs/contact37/fit1000/fit.npz  # gen9w (the shipped analysis net until gen11)
for V in $VARIANTS; do  # each variant's data set from the stage's parts (they hold every row; --rows picks)
  $PY -m bgtools train decisions --run $R --weights $W --seed 12 --chunk 1000 --rows $V
  cp $R/data/decisions.npz $D/gen11-$V.npz
  cp $R/decisions.manifest.json $R/decisions-$V.manifest.json
done
for V in $VARIANTS; do
  $PY benchmarks/contact_inputs_fit.py $D/gen10/data/labelled.npz $D/gen9a/data/labelled.npz \
      $D/gen8c/data/labelled.npz $D/gen11-$V.npz --init $W --variants 1 --epochs $E --lr 1e-4 --lr-end 1e-5 \
      --seed 38 --save-prefix $D/gen11fit-$V --json-out $R/fit-$V.json > $R/fit-$V.log 2>&1 &
done
wait  # the candidates: $D/gen11fit-candidates-1.npz and $D/gen11fit-pairs-1.npz (not kept in the repository)
