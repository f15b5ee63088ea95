"""Peak memory against file size: ``export``, ``check`` and ``annotate --ply 0`` of one big .mat.

    PYTHONPATH=. python benchmarks/memory.py [--sizes 1,5,20] [--annotate-size 1,5,20] [--keep FOLDER]

For each size (MB) a money session is written by repeating the games of a real session
(``samples/selfplay-money-beavers.mat``, renumbered; about 1.3 kB a game, as in the 5 MB,
4,166-game file of issue 38), then each command runs in its own process
(``python -m bgtools ...``) and its peak resident memory (``ru_maxrss`` of that child,
from ``os.wait4``) is printed beside the file size.  ``annotate --ply 0`` (the summary
printed) runs only on the ``--annotate-size`` sizes (comma-separated: it is the slow one, about
a minute a MB), and ``annotate --ply 0 --json`` on those of ``--annotate-json-size``.  A first small
run loads the compiled kernels, so that compiling is not what is measured; the table's first
rows are the peaks of ``check`` and ``annotate`` of that 10 kB file (what the imports take).
Goal (issue 38): under 300 MB at any size.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "samples" / "selfplay-money-beavers.mat"


def game_blocks(text: str) -> tuple[str, list[str]]:
    """(header text before the first game, the text of each game from its ``Game`` line)."""
    parts = re.split(r"(?m)^(?= Game \d+\s*$)", text)
    return parts[0], parts[1:]


def write_session(path: Path, megabytes: float) -> int:
    """A money session of about ``megabytes`` MB repeating SOURCE's games; returns the game count."""
    head, games = game_blocks(SOURCE.read_text(encoding="utf-8"))
    bodies = [g.split("\n", 1)[1] for g in games]
    target = int(megabytes * 1_000_000)
    n = 0
    size = len(head)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(head)
        while size < target:
            block = f" Game {n + 1}\n" + bodies[n % len(bodies)]
            fh.write(block)
            size += len(block)
            n += 1
    return n


def peak_mb(args: list[str]) -> tuple[float, float, int]:
    """(peak RSS in MB, wall seconds, exit status) of ``python -m bgtools ARGS`` in its own process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "bgtools", *args], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss / 1024, time.perf_counter() - t, p.returncode


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1,5,20", help="file sizes in MB, comma-separated (default 1,5,20)")
    ap.add_argument("--annotate-size", default="5", help="annotate --ply 0 only these sizes in MB, comma-separated "
                    "(0: none)")
    ap.add_argument("--annotate-json-size", default="", help="annotate --ply 0 --json only these sizes in MB")
    ap.add_argument("--keep", metavar="FOLDER", help="write the files here (and keep them)")
    a = ap.parse_args(argv)
    annotated = [float(s) for s in a.annotate_size.split(",") if s.strip()]
    as_json = [float(s) for s in a.annotate_json_size.split(",") if s.strip()]
    sizes = sorted(({float(s) for s in a.sizes.split(",") if s.strip()} | set(annotated) | set(as_json)) - {0.0})
    plain = {float(s) for s in a.sizes.split(",") if s.strip()}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(a.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        small = folder / "warm.mat"
        write_session(small, 0.01)
        for cmd in (["check", str(small)], ["annotate", "--ply", "0", "--no-cache", str(small)]):
            peak_mb(cmd)  # compile or load the kernels once
        base, _, _ = peak_mb(["check", str(small)])
        print(f"{'command':<22}{'file MB':>9}{'games':>8}{'peak MB':>9}{'seconds':>9}{'exit':>6}")
        print(f"{'check (10 kB file)':<22}{0.01:>9.2f}{'':>8}{base:>9.0f}")
        if annotated or as_json:
            base, _, _ = peak_mb(["annotate", "--ply", "0", "--no-cache", str(small)])
            print(f"{'annotate (10 kB file)':<22}{0.01:>9.2f}{'':>8}{base:>9.0f}", flush=True)
        for mb in sizes:
            path = folder / f"session-{mb:g}MB.mat"
            games = write_session(path, mb)
            real = path.stat().st_size / 1e6
            runs = [("export", ["export", str(path), "-o", str(folder / "out.csv")]),
                    ("check", ["check", str(path)])] if mb in plain else []
            if mb in annotated:
                runs.append(("annotate --ply 0", ["annotate", "--ply", "0", "--no-cache", str(path)]))
            if mb in as_json:
                runs.append(("annotate --ply 0 --json", ["annotate", "--ply", "0", "--no-cache", "--json", str(path)]))
            for label, cmd in runs:
                peak, secs, rc = peak_mb(cmd)
                print(f"{label:<22}{real:>9.2f}{games:>8}{peak:>9.0f}{secs:>9.1f}{rc:>6}", flush=True)


if __name__ == "__main__":
    main()
