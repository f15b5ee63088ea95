#!/bin/sh
# Issues 35 / 37: what the analysis net refitted to all three sets (runs/cal16/fit.sh's contact_crashed_r3, committed
# as runs/cal16/candidate.npz) showed before it was shipped, beside gen12cal2 (runs/cal15/candidate.npz) on the same
# dice and files (docs/training.md, "A third set of rollouts"): XG's analysis at 2 ply, the cube decisions against
# gnubg's at 0 ply and at 2 ply (every 10th record), pubeval on a new seed (3,700,000; 40,000 games), a duel of
# 100,000 games (new seed 3,600,000).  The judge sets at 0, 1 and 2 ply are fit.sh's.  Then the analysis at
# --level deep, and the refitted rollout net (runs/cal16/rollout_candidate.npz, fit.sh's last part) beside roll13cal2
# (runs/cal15/rollout_candidate.npz): a duel of 100,000 games (new seed 3,800,000), full rollouts against gnubg's, the
# rollout tier against XG with both new nets; last, with gen12cal3 shipped (runs/cal16/ship.py), the shipped pair's
# rollout tier.  Two cores; from the repository root, with gen12cal2 shipped:
#   sh runs/cal16/measure.sh
set -e
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
PY=${PYTHON:-python} O=runs/cal16/contact_crashed_r3 C=runs/cal16/candidate.npz G=runs/cal15/candidate.npz
D=${DATA:-/work/data}
mkdir -p $O
$PY benchmarks/xg_agreement.py --ply 2 --jobs 1 --weights $C > $O/xg_agreement_ply2.txt &
for w in $G $C; do $PY benchmarks/strength.py --games 40000 --seed 3700000 --weights $w; done > $O/pubeval_seed3700000.txt
wait
for w in $C $G; do
  ( $PY benchmarks/cube_vs_gnubg.py --ply 0 --weights $w
    $PY benchmarks/cube_vs_gnubg.py --ply 2 --every 10 --weights $w ) > $O/cube_vs_gnubg_$(basename $(dirname $w)).txt &
done
wait
$PY -m bgtools train duel --run $D/duel_cal16_r3 --a $C --b $G --games 100000 --seed 3600000 > $O/duel.txt 2>&1
$PY benchmarks/xg_agreement.py --level deep --jobs 1 --weights $C > $O/xg_agreement_level_deep.txt &
R=runs/cal16/rollout_candidate.npz OR=runs/cal16/roll_contact_crashed_r3
mkdir -p $OR
$PY benchmarks/xg_agreement.py --level rollout --jobs 1 --weights $C --rollout-weights $R > $OR/xg_agreement_level_rollout.txt &
$PY -m bgtools train duel --run $D/duel_cal16_roll_r3 --a $R --b runs/cal15/rollout_candidate.npz --games 100000 \
    --seed 3800000 > $OR/duel.txt 2>&1
$PY benchmarks/rollout_vs_gnubg.py --weights $R --jobs 1 > $OR/rollout_vs_gnubg.txt
wait
$PY runs/cal16/ship.py
$PY benchmarks/xg_agreement.py --level rollout --jobs 2 > $O/xg_agreement_level_rollout.txt
