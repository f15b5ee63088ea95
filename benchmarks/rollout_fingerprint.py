"""Fingerprint of ``bgtools rollout``'s JSON records over varied settings, to show a change
to the rollout kernel or the chooser left every result byte-identical.

Each case runs ``bgtools rollout --json`` (a process of its own) on a few positions (opening,
contact, crashed, race; a match score in the match cases) with one kind of settings: cubeless
and cubeful, variance reduction off and on, 0 and 1 ply, money and match, bear-off truncation
off, a truncated rollout, ``--jobs 1`` and ``--jobs 2``.  Printed: each case's SHA-256 of its
standard output; ``--save FILE`` writes them, ``--check FILE`` compares with a saved set
(exit 1 on any difference).  Cases of the same settings with ``--jobs 1`` and ``--jobs 2``
must also agree with each other (checked in every run).

    python benchmarks/rollout_fingerprint.py [--save F | --check F]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

IDS = ["4HPwATDgc/ABMA", "d7sBADB25xsAAA", "ZvsQJAj/HQAAOA", "HQAA4L8HAIIAAA"]
MATCH_IDS = ["4HPwATDgc/ABMA:cAngACAAGAAE", "sOvBADQc3y4AQA:MAHqAAAAEAAE"]
CASES: dict[str, tuple[list[str], list[str]]] = {
    "cubeless": (IDS, ["-n", "288"]),
    "cubeless-vr": (IDS, ["-n", "36", "--vr"]),
    "cubeful": (IDS, ["-n", "288", "--cubeful"]),
    "cubeful-vr": (IDS, ["-n", "36", "--cubeful", "--vr"]),
    "cubeful-vr-jobs2": (IDS, ["-n", "36", "--cubeful", "--vr", "-j", "2"]),
    "match-cubeful": (MATCH_IDS, ["-n", "288", "--cubeful"]),
    "match-cubeful-vr": (MATCH_IDS, ["-n", "36", "--cubeful", "--vr", "--no-bearoff-truncation"]),
    "match-cubeful-vr-jobs2": (MATCH_IDS, ["-n", "36", "--cubeful", "--vr", "--no-bearoff-truncation", "-j", "2"]),
    "match-cubeless": (MATCH_IDS, ["-n", "288", "--seed", "7"]),
    "cubeless-noprune-trunc": (IDS, ["-n", "144", "--no-prune", "--truncate", "9"]),
    "ply1-cubeless": (IDS[:2], ["-n", "18", "--ply", "1"]),
    "ply1-cubeful-vr": (IDS[1:3], ["-n", "6", "--ply", "1", "--cubeful", "--vr"]),
    "cubeful-nojacoby-jobs2": (IDS, ["-n", "288", "--cubeful", "--no-jacoby", "-j", "2"]),
    "cubeful-nojacoby": (IDS, ["-n", "288", "--cubeful", "--no-jacoby"]),
}
#: cases that must give the same records (worker counts)
SAME = [("cubeful-vr", "cubeful-vr-jobs2"), ("match-cubeful-vr", "match-cubeful-vr-jobs2"),
        ("cubeful-nojacoby", "cubeful-nojacoby-jobs2")]


def run_case(ids: list[str], args: list[str]) -> bytes:
    cmd = [sys.executable, "-m", "bgtools", "rollout", *ids, *args, "--json"]
    return subprocess.run(cmd, check=True, capture_output=True).stdout


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--save", type=Path)
    ap.add_argument("--check", type=Path)
    args = ap.parse_args(argv)
    got: dict[str, str] = {}
    outs: dict[str, bytes] = {}
    for name, (ids, extra) in CASES.items():
        outs[name] = run_case(ids, extra)
        got[name] = hashlib.sha256(outs[name]).hexdigest()
        print(f"{name:24} {got[name]}", flush=True)
    bad = 0
    for a, b in SAME:
        if outs[a] != outs[b]:
            print(f"DIFFERENT: {a} and {b}")
            bad += 1
    if args.save:
        args.save.write_text(json.dumps(got, indent=1) + "\n")
    if args.check:
        want = json.loads(args.check.read_text())
        for name, h in got.items():
            if want.get(name) != h:
                print(f"CHANGED: {name}")
                bad += 1
        print("identical to", args.check, "" if not bad else f"except {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
