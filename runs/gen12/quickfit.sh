#!/bin/sh
# Issue 37, a first look at gen12's rows (the eighth session, before the extras of fit.sh were regenerated):
# gen11 fitted to runs/gen12's decision rows alone (no gen10/gen9a/gen8c rows beside them), with fit.sh's
# other settings; judged on the three sets at 0 ply, duelled against gen11 (100,000 games, seed 200,000) and
# matched against pubeval (seed 900,000, gen11 on the same dice).  From the repository root, after data.sh:
#   sh runs/gen12/quickfit.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
D=${DATA:-/work/data} PY=${PYTHON:-python} R=runs/gen12/quick S=${DATA:-/work/data}/g12quick G=runs/gen11/candidate.npz
mkdir -p $S/data $R
cp $D/gen12/data/decisions.npz $S/data/decisions.npz
$PY -m bgtools train fit --run $S --data decisions --init $G --within-roll 20 --epochs 20 --lr 3e-5 --seed 39 --best-per-net
cp $S/fit.log.csv $S/fit.manifest.json $R/
$PY -m bgtools train duel --run $D/duel12q --a $S/fit.npz --b $G --games 100000 --seed 200000 > $R/duel.txt 2>&1 &
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
  $PY benchmarks/contact_inputs_judge.py $S/fit.npz --set $s
done > $R/judge_0ply.txt
for w in $S/fit.npz $G; do $PY benchmarks/strength.py --games 40000 --seed 900000 --weights $w; done > $R/pubeval.txt
wait
# the same contact and crashed nets with gen11's race net spliced back (judge_0ply_splice.txt)
$PY - $S/fit.npz $G $S/splice.npz <<'PYEOF'
import sys
from bgtools.engine.nets.nn import NET_RACE, Weights
q, g = Weights.load(sys.argv[1]), Weights.load(sys.argv[2])
layers = [list(t) for t in q.arrays()]
for mine, theirs in zip(layers, g.arrays()):
    mine[NET_RACE] = theirs[NET_RACE]
Weights(*(tuple(t) for t in layers), dict(q.meta, version="g12quick-gen11race")).save(sys.argv[3])
PYEOF
for s in ../shared/oracle/judge_dev.jsonl benchmarks/data/judge_selfplay.jsonl.gz benchmarks/data/judge_third.jsonl.gz; do
  $PY benchmarks/contact_inputs_judge.py $S/splice.npz --set $s
done > $R/judge_0ply_splice.txt
