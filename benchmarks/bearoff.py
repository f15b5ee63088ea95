"""Bear-off database build times (one-sided 54,264 positions, two-sided 924 x 924).

Builds both databases from scratch in a throw-away cache folder (the first round also
compiles the Numba kernels, reported separately), and, as a baseline timed in the same
run, the move generation alone that the one-sided build needs (every position x 21
rolls), printing the ratio.

    python benchmarks/bearoff.py [--repeat 2]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from bgtools.engine import bearoff as B  # noqa: E402
from bgtools.core.movegen import ROLLS, count_plays_batch  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    os.environ["BGTOOLS_CACHE_DIR"] = tempfile.mkdtemp(prefix="bgtools-bench-")

    t0 = time.perf_counter()
    db = B.build_databases()
    first = time.perf_counter() - t0
    best = {"one_sided": float("inf"), "two_sided": float("inf")}
    for _ in range(args.repeat):
        db = B.build_databases()
        for k in best:
            best[k] = min(best[k], db.build_seconds[k])
    t0 = time.perf_counter()
    path = B.save_databases(db)
    save_s = time.perf_counter() - t0
    B._DB = None
    t0 = time.perf_counter()
    B.load_databases()
    load_s = time.perf_counter() - t0

    sides = B._sides_table()
    boards = np.zeros((len(sides), 2, 25), np.int8)
    boards[:, 1, :6] = sides
    rolls = np.array(ROLLS, np.int64)
    count_plays_batch(boards[:2], rolls)
    t0 = time.perf_counter()
    nplays = count_plays_batch(boards, rolls)
    gen_s = time.perf_counter() - t0

    print(f"first build incl. Numba compile/cache load: {first:.2f} s")
    print(f"one-sided build (54,264 positions x 21 rolls, {nplays:,} plays): {best['one_sided']:.2f} s")
    print(f"two-sided build (924 x 924 = 853,776 positions, 4 values): {best['two_sided']:.2f} s")
    print(f"baseline, move generation alone for the one-sided build: {gen_s:.2f} s "
          f"(one-sided build = {best['one_sided'] / gen_s:.1f}x the baseline)")
    print(f"cache file {path.stat().st_size / 1e6:.1f} MB: save {save_s:.2f} s, load {load_s:.2f} s")


if __name__ == "__main__":
    main()
