#!/bin/sh
# Issue 37 (twentieth session): look e beside the shipped net before shipping it, on the same files: the cube
# decisions against gnubg's (cube_vs_gnubg.py at 0 ply, and at 2 ply every 10th record), then XG's analysis at
# --level deep.  gnubg's and XG's values only measure.  Two cores; from the root, with gen12cal3 shipped:
#   sh runs/crash19/measure2.sh
export NUMBA_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 PYTHONPATH=.:benchmarks
PY=${PYTHON:-python} E=runs/crash19/e/splice.npz A=bgtools/data/nn_analysis.npz O=runs/crash19/e
cp $A $O/gen12cal3.npz  # the shipped net as it was (not committed), so both runs read a fixed file
for w in $E $O/gen12cal3.npz; do
  n=$(basename $w .npz)
  ( $PY benchmarks/cube_vs_gnubg.py --ply 0 --weights $w
    $PY benchmarks/cube_vs_gnubg.py --ply 2 --every 10 --weights $w ) > $O/cube_vs_gnubg_$n.txt 2>&1 &
done
wait
for w in $E $O/gen12cal3.npz; do
  n=$(basename $w .npz)
  $PY benchmarks/xg_agreement.py --level deep --jobs 1 --weights $w > $O/xg_agreement_level_deep_$n.txt 2>&1 &
done
wait
rm -f $O/gen12cal3.npz
