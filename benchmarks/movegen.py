"""Legal-move generation speed: resulting positions per second on one core.

Runs the Numba kernel over every oracle position x 21 rolls (tests/data), and a plain
pure-Python generator (tests/reference_movegen.py) on a sample of the same work, in the
same run, and prints both rates and their ratio.  The kernel is timed twice: counting
only (``count_plays_batch``: every distinct play is found, no board or steps written)
and through ``generate``, which writes each play's board and steps as rollouts, replays
and the chooser use them (``write_plays_batch``).  Both count distinct resulting
positions.

    python benchmarks/movegen.py [--repeat 10] [--python-positions 60]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

from bgtools.core.movegen import ROLLS, count_plays_batch, write_plays_batch  # noqa: E402
from reference_movegen import reference_plays  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--python-positions", type=int, default=60)
    args = ap.parse_args()
    with gzip.open(ROOT / "tests/data/oracle_positions.jsonl.gz", "rt") as fh:
        recs = [json.loads(line) for line in fh]
    boards = np.array([r["board"] for r in recs], dtype=np.int8)
    rolls = np.array(ROLLS, dtype=np.int64)

    t0 = time.perf_counter()
    count_plays_batch(boards[:1], rolls)
    write_plays_batch(boards[:1], rolls)
    compile_s = time.perf_counter() - t0
    best = float("inf")
    best_w = float("inf")
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        total = count_plays_batch(boards, rolls)
        best = min(best, time.perf_counter() - t0)
        t0 = time.perf_counter()
        total_w = write_plays_batch(boards, rolls)
        best_w = min(best_w, time.perf_counter() - t0)
    if total_w != total:
        raise SystemExit(f"the two kernels disagree: {total} and {total_w} plays")
    numba_rate = total / best
    write_rate = total / best_w

    sample = boards[: args.python_positions]
    t0 = time.perf_counter()
    py_total = 0
    for b in sample:
        bl = b.tolist()
        for d1, d2 in ROLLS:
            py_total += len(reference_plays(bl, d1, d2))
    py_s = time.perf_counter() - t0
    py_rate = py_total / py_s

    print(f"positions x rolls     : {len(boards)} x {len(rolls)} = {len(boards) * len(rolls)} rolls")
    print(f"resulting positions   : {total}")
    print(f"numba (first call incl. compile or cache load): {compile_s:.2f} s")
    print(f"numba, count only     : {best * 1e3:.1f} ms  -> {numba_rate / 1e6:.2f} M positions/s (best of {args.repeat})")
    print(f"numba, writing boards : {best_w * 1e3:.1f} ms  -> {write_rate / 1e6:.2f} M positions/s (generate: "
          f"boards and steps of every play, what rollouts use)")
    print(f"plain Python baseline : {py_total} positions in {py_s:.2f} s -> {py_rate / 1e6:.3f} M positions/s")
    print(f"ratio numba / python  : {numba_rate / py_rate:.0f}x counting, {write_rate / py_rate:.0f}x writing boards")


if __name__ == "__main__":
    main()
