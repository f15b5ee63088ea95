"""Match-file parsing + replay speed over the shared corpora, against gnubg's `import mat`.

    PYTHONPATH=. python benchmarks/parse.py [FOLDER ...]

Reads every .mat/.txt file (default: ../shared/realmatches and ../shared/selfplay, else
tests/data/matches), parses and replays it with bgtools (legal-move check of every play),
and, when gnubg is installed, times gnubg 1.07 importing the same files in one process
(its own clock around the import loop) and as a whole process.  Prints moves per second
and the ratio.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bgtools.formats import read_match

from bgtools.model import Roll  # noqa: E402


def files_in(folders) -> list[Path]:
    out = []
    for f in folders:
        out += sorted(p for p in Path(f).rglob("*") if p.suffix in (".mat", ".txt"))
    return out


def bench_bgtools(files, repeat=3):
    # warm-up: numba kernel load and the grammar's regexes
    read_match(files[0])
    best = None
    for _ in range(repeat):
        t = time.perf_counter()
        moves = 0
        for f in files:
            m = read_match(f)
            moves += sum(1 for g in m.games for a in g.actions if isinstance(a, Roll))
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    return moves, best


GNUBG_SCRIPT = """
import gnubg, json, time
files = json.load(open(%r))
t = time.perf_counter()
for f in files:
    gnubg.command('import mat "%%s"' %% f)
json.dump({"seconds": time.perf_counter() - t}, open(%r, "w"))
"""


def bench_gnubg(files):
    exe = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")
    if not exe:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        spec, res, script = Path(tmp, "f.json"), Path(tmp, "r.json"), Path(tmp, "s.py")
        spec.write_text(json.dumps([str(f) for f in files]))
        script.write_text(GNUBG_SCRIPT % (str(spec), str(res)))
        t = time.perf_counter()
        subprocess.run([exe, "-t", "-q", "-p", str(script)], capture_output=True, timeout=600,
                       env=dict(os.environ, HOME=tmp))
        wall = time.perf_counter() - t
        return json.loads(res.read_text())["seconds"], wall


def main(argv):
    folders = argv or [p for p in (ROOT.parent / "shared" / "realmatches", ROOT.parent / "shared" / "selfplay")
                       if p.exists()] or [ROOT / "tests" / "data" / "matches"]
    files = files_in(folders)
    moves, dt = bench_bgtools(files)
    print(f"files: {len(files)}, rolls parsed and replayed: {moves}")
    print(f"bgtools: {dt:.3f} s  ->  {moves / dt:,.0f} moves/s  ({len(files) / dt:,.1f} files/s)")
    g = bench_gnubg(files)
    if g is None:
        print("gnubg: not installed, no comparison")
        return
    inproc, wall = g
    print(f"gnubg import mat, in-process: {inproc:.3f} s -> {moves / inproc:,.0f} moves/s; "
          f"whole gnubg process: {wall:.3f} s -> {moves / wall:,.0f} moves/s")
    print(f"ratio bgtools/gnubg speed: {inproc / dt:.2f}x in-process, {wall / dt:.2f}x against the whole process")


if __name__ == "__main__":
    main(sys.argv[1:])
