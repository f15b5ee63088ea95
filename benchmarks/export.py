"""Export speed: rows per second to CSV and Parquet, ``--jobs 1`` against ``--jobs 2``.

    PYTHONPATH=. python benchmarks/export.py [--repeat 10] [FOLDER ...]

The input is every match file of the shared corpora (default: ../shared/realmatches and
../shared/selfplay, else the test copies in tests/data/matches), listed ``--repeat`` times
so that the run is long enough to time.  The baseline, timed in the same run, is reading
and replaying the same files without writing anything (what ``bgtools check`` does);
each export is printed as rows per second, CPU seconds of all its processes, and its
time relative to that baseline.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bgtools.export import export_files  # noqa: E402
from bgtools.formats import expand_paths, read_match  # noqa: E402


def baseline(files: list[str]) -> tuple[int, float]:
    """Read and replay every file; returns (actions, seconds)."""
    t = time.perf_counter()
    actions = 0
    for f in files:
        try:
            m = read_match(Path(f), name=f)
        except ValueError:
            continue
        actions += sum(len(g.actions) for g in m.games)
    return actions, time.perf_counter() - t


def _cpu() -> float:
    """CPU seconds used so far by this process and its finished children (the workers)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def timed_export(files: list[str], out: str, jobs: int) -> tuple[int, float, float, int]:
    """Returns (rows, wall seconds, CPU seconds of all processes, output bytes)."""
    c, t = _cpu(), time.perf_counter()
    rep = export_files(files, out, jobs=jobs)
    dt = time.perf_counter() - t
    return rep.rows, dt, _cpu() - c, os.path.getsize(out)


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*")
    ap.add_argument("--repeat", type=int, default=10, help="list the corpus this many times (default 10)")
    args = ap.parse_args(argv)
    folders = args.folders or [str(p) for p in (ROOT.parent / "shared" / "realmatches",
                                                 ROOT.parent / "shared" / "selfplay") if p.exists()] \
        or [str(ROOT / "tests" / "data" / "matches")]
    files = list(expand_paths(folders))
    big = files * args.repeat
    read_match(big[0])  # warm-up: Numba kernels and grammars
    try:
        import pyarrow  # noqa: F401
        formats = ["csv", "parquet"]
    except ImportError:
        formats = ["csv"]
        print("pyarrow is not installed: Parquet skipped")
    print(f"input: {len(files)} files x {args.repeat} = {len(big)} files ({', '.join(folders)}); "
          f"{os.cpu_count()} CPUs")
    c = _cpu()
    actions, base = baseline(big)
    print(f"baseline, read + replay only:  {actions:8d} actions  {base:7.2f} s  {actions / base:9.0f} actions/s"
          f"  CPU {_cpu() - c:6.1f} s")
    with tempfile.TemporaryDirectory() as tmp:
        times = {}
        for fmt in formats:
            for jobs in (1, 2):
                rows, dt, cpu, size = timed_export(big, os.path.join(tmp, f"out{jobs}.{fmt}"), jobs)
                times[fmt, jobs] = dt
                print(f"export {fmt:7s} --jobs {jobs}:    {rows:8d} rows     {dt:7.2f} s  {rows / dt:9.0f} rows/s"
                      f"  CPU {cpu:6.1f} s  {dt / base:5.2f} x baseline time  {size / 1e6:7.1f} MB")
        for fmt in formats:
            print(f"{fmt}: --jobs 2 is {times[fmt, 1] / times[fmt, 2]:.2f} x as fast as --jobs 1 (wall clock)")
    if os.getloadavg()[0] > (os.cpu_count() or 1):
        print(f"note: load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs: other work shares them, "
              f"so the wall-clock gain of --jobs 2 is understated; compare the CPU seconds")


if __name__ == "__main__":
    main(sys.argv[1:])
