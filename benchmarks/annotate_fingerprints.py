"""Fingerprints of ``annotate``'s and ``report``'s outputs, to show a refactoring changed none of them.

    PYTHONPATH=. python benchmarks/annotate_fingerprints.py [--out FILE] [--compare FILE]

Each case runs ``python -m bgtools ...`` in its own process from the repository root (relative
paths, no evaluation cache) on the sample matches and a few files of ``tests/data`` (an ``.xg``
with XG's own analysis, an SGF with errors, a file that cannot be read) at ``--ply 0`` and
``--ply 1``: the summary printed, ``--json`` and ``--json --all`` lines, ``--pr xg``, every
``--out-dir`` format but Parquet (with and without those that read the file whole) (its bytes name the writing library's version), ``report``
and ``--level fast``.  A first run compiles the kernels where the cache lacks them (it says so
on stderr, which is not part of any case).  A case's fingerprint is the SHA-256 of its exit status, stdout, stderr
(the temporary folder's name replaced) and each file it wrote (a level's CPU seconds left out).  ``--compare`` says which cases
differ from an earlier run's file.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEVEN = "samples/selfplay-7pt.mat"
MONEY = "samples/selfplay-money-beavers.mat"
GIBBON = "tests/data/matches/realmatches/gnu-gibbon/7point.mat"
XG = "tests/data/matches/realmatches/xg-kevung-gbf/test.xg"
EDITED = "tests/data/matches/realmatches/gnu-gibbon/edited.sgf.gz"
LEVELS = "tests/data/levels/game1-7pt.mat"
FORMATS = "json,jsonl,csv,sgf,html"


def cases(tmp: str) -> list[tuple[str, list[str]]]:
    """(name, bgtools arguments); ``{out}`` in an argument is a fresh folder of the case."""
    bad = os.path.join(tmp, "bad.mat")
    out: list[tuple[str, list[str]]] = []
    for ply in ("0", "1"):
        files = [SEVEN, MONEY, GIBBON, XG, EDITED, LEVELS] if ply == "0" else [SEVEN, MONEY, XG]
        out.append((f"summary-ply{ply}", ["annotate", "--ply", ply, "--no-cache", *files]))
        out.append((f"json-ply{ply}", ["annotate", "--ply", ply, "--no-cache", "--json", *files]))
        out.append((f"json-all-ply{ply}", ["annotate", "--ply", ply, "--no-cache", "--json", "--all", *files]))
        out.append((f"pr-xg-ply{ply}", ["annotate", "--ply", ply, "--no-cache", "--pr", "xg", *files]))
        out.append((f"json-xg-ply{ply}", ["annotate", "--ply", ply, "--no-cache", "--json", "--pr", "xg", XG]))
        out.append((f"outdir-ply{ply}", ["annotate", "--ply", ply, "--no-cache", "-d", "{out}", "-f", FORMATS,
                                        *files]))
        out.append((f"outdir-stream-ply{ply}", ["annotate", "--ply", ply, "--no-cache", "-d", "{out}", "-f",
                                               "jsonl,csv,html", *files]))
        out.append((f"report-ply{ply}", ["report", "--ply", ply, "--no-cache", XG, "-o", "{out}/r.html"]))
    out.append(("level-fast", ["annotate", "--level", "fast", "--no-cache", "-d", "{out}", "-f", FORMATS, SEVEN,
                               LEVELS]))
    out.append(("level-fast-summary", ["annotate", "--level", "fast", "--no-cache", SEVEN, LEVELS]))
    out.append(("bad-file", ["annotate", "--ply", "0", "--no-cache", bad, SEVEN]))
    out.append(("bad-file-outdir", ["annotate", "--ply", "0", "--no-cache", "-d", "{out}", "-f", "jsonl,html", bad]))
    out.append(("one-output", ["annotate", "--ply", "0", "--no-cache", "-o", "{out}/one.jsonl", "-f", "jsonl", MONEY]))
    return out


def run_case(args: list[str], tmp: str, folder: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="200")
    os.makedirs(folder, exist_ok=True)
    argv = [a.replace("{out}", folder) for a in args]
    p = subprocess.run([sys.executable, "-m", "bgtools", *argv], cwd=ROOT, env=env, capture_output=True)
    h = hashlib.sha256()
    h.update(f"exit {p.returncode}\n".encode())
    for stream in (p.stdout, p.stderr):
        h.update(hashlib.sha256(stream.replace(tmp.encode(), b"<TMP>")).digest())
    for f in sorted(Path(folder).rglob("*")):
        if f.is_file():
            data = re.sub(rb'"cpu_seconds": \{[^}]*\}', b'"cpu_seconds": {}', f.read_bytes())  # (timings)
            h.update(f.name.encode() + b"\0" + hashlib.sha256(data.replace(tmp.encode(), b"<TMP>")).digest())
    return h.hexdigest()


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", metavar="FILE", help="write the fingerprints here (default: stdout)")
    ap.add_argument("--compare", metavar="FILE", help="an earlier run's fingerprints: say which differ")
    ap.add_argument("--only", metavar="NAMES", help="comma-separated case names")
    a = ap.parse_args(argv)
    only = set(a.only.split(",")) if a.only else None
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "bad.mat").write_text(" 3 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   99: 8/4\n",
                                        encoding="utf-8")
        for ply in ("0", "1"):  # compile the kernels first (the first run says so on stderr)
            run_case(["annotate", "--ply", ply, "--no-cache", LEVELS], tmp, os.path.join(tmp, "warm"))
        for name, args in cases(tmp):
            if only and name not in only:
                continue
            fp = run_case(args, tmp, os.path.join(tmp, name))
            lines.append(f"{name} {fp}")
            print(lines[-1], file=sys.stderr, flush=True)
    text = "".join(line + "\n" for line in lines)
    if a.out:
        Path(a.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    if a.compare:
        old = dict(line.split() for line in Path(a.compare).read_text(encoding="utf-8").splitlines() if line)
        new = dict(line.split() for line in lines)
        diff = [k for k in new if old.get(k) != new[k]]
        print(f"{len(new) - len(diff)}/{len(new)} identical" + (f"; differ: {', '.join(diff)}" if diff else ""))
        if diff:
            sys.exit(1)


if __name__ == "__main__":
    main()
