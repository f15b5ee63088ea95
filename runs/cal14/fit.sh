#!/bin/sh
# Issue 35 / 37: gen12 calibrated to our own rollouts (docs/training.md, "Calibrated to our rollouts"), after
# runs/cal14/data.sh.  The contact net's five output biases fitted to the 3,000 contact positions' rollouts (the
# crashed net's were tried too and left out: its held-out equity error rose), written to runs/cal14/candidate.npz; the
# held-out check and the shifts in runs/cal14/calibrate.log.csv and calibrate.manifest.json.  From the repository root:
#   sh runs/cal14/fit.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.
D=${DATA:-/work/data} PY=${PYTHON:-python}
$PY -m bgtools train calibrate --run $D/cal14/fit --rollouts $D/cal14/rollouts.jsonl --init runs/gen12/candidate.npz \
    --outputs all --nets contact
cp $D/cal14/fit/calibrated.npz runs/cal14/candidate.npz
cp $D/cal14/fit/calibrate.log.csv $D/cal14/fit/calibrate.manifest.json runs/cal14/
