"""The match library's speed: ``library add`` of 1,000 files and its no-op re-run, ``stats`` over
200,000 decisions, beside the time ``annotate`` takes for the same files.

The 1,000 files are real small matches (the gnubg self-play .mat files of tests/data), each
copy given its own player names so that every file is a distinct match that must be read,
replayed and hashed.  Every figure is a whole ``bgtools`` process as a user runs it
(start-up included), on one core unless ``--jobs`` says otherwise:

* ``library add DIR`` into a new SQLite library (1,000 new), then again (nothing new: the
  goal is under 3 s);
* ``stats`` on a library of 200,000 synthetic decisions over 1,000 matches (goal: under 2 s),
  with and without ``--by month``;
* ``annotate --ply 0 --no-cache`` on a sample of the files, scaled to 1,000, and
  ``library analyse --ply 0 --no-cache`` of the same sample, for comparison.

    python benchmarks/library.py [--files 1000] [--decisions 200000] [--sample 20] [--jobs 1]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SOURCES = sorted((ROOT / "tests" / "data" / "matches" / "selfplay").glob("*.mat"))
PLAYER_LINE = re.compile(r"^(\s*)(\S.*?) : (\d+)(\s+)(\S.*?) : (\d+)\s*$", re.M)


def make_files(folder: Path, n: int) -> list[Path]:
    """``n`` distinct match files: the sources in turn, players renamed ``<name>-<i>``."""
    out = []
    for i in range(n):
        src = SOURCES[i % len(SOURCES)]
        text = PLAYER_LINE.sub(lambda m: f"{m[1]}{m[2]}-{i} : {m[3]}{m[4]}{m[5]}-{i} : {m[6]}",
                               src.read_text(encoding="utf-8"))
        p = folder / f"{i // 100:02d}" / f"m{i:04d}-{src.name}"
        p.parent.mkdir(exist_ok=True)
        p.write_text(text, encoding="utf-8")
        out.append(p)
    return out


#: CPU seconds (user + system) of the last command, children included
CPU: list[float] = [0.0]


def bg(*args: str) -> tuple[float, str]:
    """(wall seconds, stdout) of one whole ``bgtools`` process; its CPU time in CPU[0]."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "bgtools", *args], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    dt = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU[0] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if r.returncode != 0:
        raise SystemExit(f"bgtools {' '.join(args)}: exit {r.returncode}\n{r.stderr[-2000:]}")
    return dt, r.stdout.strip()


def synthetic_library(db: str, n_decisions: int, n_matches: int = 1000, seed: int = 0) -> None:
    """A library of ``n_matches`` matches over two years and ``n_decisions`` decisions whose
    losses are drawn like a real player's (most near 0, a few blunders)."""
    import numpy as np

    from bgtools.library.store import META_KEYS, Store, analyses, decisions, matches

    rng = np.random.default_rng(seed)
    s = Store(db)
    per = n_decisions // n_matches
    with s.engine.begin() as conn:
        for m in range(n_matches):
            key = f"{m:064x}"
            day = 730 * m // n_matches
            date = time.strftime("%Y-%m-%d", time.gmtime(1_672_531_200 + day * 86400))
            conn.execute(matches.insert().values(
                match_key=key, player0="me", player1=f"opp{m % 37}", length=7, crawford=True, jacoby=False,
                beavers=False, format="mat", **{k: "" for k in META_KEYS if k != "date"}, date=date,
                raw_tags="{}", winner=int(rng.integers(2)), score0=7, score1=int(rng.integers(7)), games=5,
                problems=0, added=float(m)))
            conn.execute(analyses.insert().values(match_key=key, ply=0, evaluator="synthetic", settings="{}",
                                                  decisions=per, skipped_games="[]", analysed=0.0))
            cube = rng.random(per) < 0.1
            loss = np.where(rng.random(per) < 0.8, 0.0, rng.exponential(0.05, per))
            rows = [{"match_key": key, "ply": 0, "seq": i, "game": 1 + i // 40, "move_number": 1 + (i % 40) // 2,
                     "action_index": i % 40, "side": i % 2, "kind": "cube" if cube[i] else "checker",
                     "phase": "contact", "forced": False, "counted": True, "dice": "" if cube[i] else "31",
                     "position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA", "played": "x", "best": "y",
                     "equity_loss": float(loss[i]), "mwc_loss": float(loss[i]) / 10, "error": "none",
                     "luck": None if cube[i] else float(rng.normal(0, 0.2)),
                     "cube_nd": 0.1 if cube[i] else None, "cube_dt": 0.2 if cube[i] else None,
                     "cube_dp": 1.0 if cube[i] else None, "cube_action": "no double" if cube[i] else "",
                     "cube_response": "take" if cube[i] else "", "tags": "race"} for i in range(per)]
            conn.execute(decisions.insert(), rows)
    s.set_meta("me", ["me"])
    s.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--decisions", type=int, default=200_000)
    ap.add_argument("--sample", type=int, default=20, help="files annotated (the time is scaled to --files)")
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    random.seed(0)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "matches"
        folder.mkdir()
        files = make_files(folder, a.files)
        db = str(Path(tmp) / "lib.sqlite")
        bg("--version")  # warm the file cache, untimed
        t_add, out_add = bg("library", "add", str(folder), "--db", db, "--jobs", str(a.jobs))
        c_add = CPU[0]
        t_noop, out_noop = bg("library", "add", str(folder), "--db", db, "--jobs", str(a.jobs))
        c_noop = CPU[0]
        sample = [str(p) for p in random.sample(files, min(a.sample, len(files)))]
        bg("annotate", "--ply", "0", "--no-cache", sample[0])  # load the kernels once, untimed
        t_ann, _ = bg("annotate", "--ply", "0", "--no-cache", "--jobs", str(a.jobs), *sample)
        c_ann = CPU[0]
        sdb = str(Path(tmp) / "sample.sqlite")
        bg("library", "add", *sample, "--db", sdb)
        t_lan, _ = bg("library", "analyse", "--ply", "0", "--no-cache", "--db", sdb, "--jobs", str(a.jobs))
        c_lan = CPU[0]
        big = str(Path(tmp) / "big.sqlite")
        t = time.perf_counter()
        synthetic_library(big, a.decisions)
        t_make = time.perf_counter() - t
        t_stats, _ = bg("stats", "--db", big)
        c_stats = CPU[0]
        t_month, _ = bg("stats", "--db", big, "--by", "month", "--csv")
        c_month = CPU[0]
    scale = a.files / len(sample)
    print(f"files: {a.files} distinct matches (gnubg self-play .mat, renamed players); jobs {a.jobs}; "
          "each time is a whole bgtools process")
    print(f"{'':34}{'wall s':>9}{'CPU s':>9}")
    print(f"{'library add, new library':34}{t_add:9.2f}{c_add:9.2f}   ({out_add})")
    print(f"{'library add, nothing new':34}{t_noop:9.2f}{c_noop:9.2f}   ({out_noop}); goal < 3 s")
    print(f"{'annotate --ply 0, same files':34}{t_ann * scale:9.2f}{c_ann * scale:9.2f}   "
          f"(measured on {len(sample)} files: {t_ann:.2f} s, scaled x{scale:g})")
    print(f"{'library analyse --ply 0, same':34}{t_lan * scale:9.2f}{c_lan * scale:9.2f}   "
          f"(measured on {len(sample)} files: {t_lan:.2f} s, scaled x{scale:g})")
    print(f"{f'stats, {a.decisions:,} decisions':34}{t_stats:9.2f}{c_stats:9.2f}   goal < 2 s "
          f"(synthetic library written in {t_make:.1f} s)")
    print(f"{'stats --by month --csv, same':34}{t_month:9.2f}{c_month:9.2f}")
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
