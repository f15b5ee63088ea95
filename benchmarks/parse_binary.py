"""Speed of the binary readers: eXtreme Gammon (.xg) and BGBlitz (.bgf), records per second.

    PYTHONPATH=. python benchmarks/parse_binary.py [FOLDER ...]

Default folders: tests/data/matches/realmatches/xg-kevung-gbf and .../bgf-gammonview.  For each
reader it times three stages over every file (best of ``--repeat`` runs): unpacking (XG archive
+ CRCs; BGF gzip + Smile), reading into the model (parse_xg / parse_bgf, analysis included) and
the full read_match (with the replay under the rules).  A "record" is a 2,560-byte temp.xg record
(XG) or one game entry (BGF).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bgtools.formats import read_match  # noqa: E402
from bgtools.formats.bgf import load_bgf_tree, parse_bgf  # noqa: E402
from bgtools.formats.xg import RECORD_SIZE, parse_xg, read_archive  # noqa: E402

DEFAULT = [ROOT / "tests/data/matches/realmatches/xg-kevung-gbf", ROOT / "tests/data/matches/realmatches/bgf-gammonview"]


def _best(fn, items, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for x in items:
            fn(x)
        best = min(best, time.perf_counter() - t)
    return best


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="*", default=[str(p) for p in DEFAULT])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    files = [p for f in args.folders for p in sorted(Path(f).rglob("*")) if p.suffix in (".xg", ".xgp", ".bgf")]
    xg = [(p.name, p.read_bytes()) for p in files if p.suffix != ".bgf"]
    bgf = [(p.name, p.read_bytes()) for p in files if p.suffix == ".bgf"]
    read_match(xg[0][1] if xg else bgf[0][1])  # warm-up: the Numba move generator
    if xg:
        recs = sum(len(read_archive(d).members["temp.xg"]) // RECORD_SIZE for _, d in xg)
        mb = sum(len(d) for _, d in xg) / 1e6
        for label, fn in (("unpack (archive, CRCs)", lambda x: read_archive(x[1])),
                          ("parse_xg (model + analysis)", lambda x: parse_xg(x[1], x[0])),
                          ("read_match (with replay)", lambda x: read_match(x[1], name=x[0]))):
            t = _best(fn, xg, args.repeat)
            print(f"xg   {label:30s} {len(xg)} files, {recs} records, {mb:.1f} MB: {t:.3f} s = {recs / t:,.0f} records/s")
    if bgf:
        ents = sum(len(g.get("moves") or []) for _, d in bgf for g in load_bgf_tree(d)["games"])
        mb = sum(len(d) for _, d in bgf) / 1e6
        for label, fn in (("unpack (gzip + Smile)", lambda x: load_bgf_tree(x[1])),
                          ("parse_bgf (model + analysis)", lambda x: parse_bgf(x[1], x[0])),
                          ("read_match (with replay)", lambda x: read_match(x[1], name=x[0]))):
            t = _best(fn, bgf, args.repeat)
            print(f"bgf  {label:30s} {len(bgf)} files, {ents} entries, {mb:.1f} MB: {t:.3f} s = {ents / t:,.0f} records/s")


if __name__ == "__main__":
    main()
