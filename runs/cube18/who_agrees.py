"""Issue 35: where gnubg's 2-ply pick is XG's and ours is not, by kind of position and by XG's gap.

Joins ``benchmarks/xg_agreement.py --ply 2 --json OURS`` and ``benchmarks/xg_checker_gnubg.py --ply 2 --json GNUBG``
(the same 1,787 XG-analysed plays) on file, position and dice, and counts, per position class (the analysis'
``phase``) and per XG gap between its two best plays: the plays where both first plays are XG's, only gnubg's, only
ours, neither; and what following each costs by XG's equities (PR: 500 x the mean over the class's plays).
gnubg only measures.  From the repository root:

    python benchmarks/xg_agreement.py --ply 2 --json /tmp/ours.jsonl
    python benchmarks/xg_checker_gnubg.py --ply 2 --json /tmp/gnubg.jsonl
    python runs/cube18/who_agrees.py /tmp/ours.jsonl /tmp/gnubg.jsonl > runs/cube18/who_agrees.txt
"""
from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

from bgtools.analysis.records import PHASES
from bgtools.core.position import Position


def key(file: str, pid: str, dice) -> tuple[str, str, str]:
    d = sorted(str(dice), reverse=True) if not isinstance(dice, (list, tuple)) else sorted(map(str, dice), reverse=True)
    return Path(file).name, pid, "".join(d)


def main(ours_path: str, gnubg_path: str) -> None:
    gnubg = {}
    for line in open(gnubg_path):
        r = json.loads(line)
        gnubg.setdefault(key(r["file"], r["id"], r["dice"]), r)
    table: dict[tuple[str, str], list] = defaultdict(lambda: [0, 0, 0, 0, 0.0, 0.0, 0])  # both, gnubg, ours, none
    examples: list[tuple[float, str]] = []
    for line in open(ours_path):
        r = json.loads(line)
        if r.get("kind", "checker") != "checker" or "xg_best" not in r:
            continue
        g = gnubg.get(key(r["file"], r["id"], r["dice"]))
        if g is None or r["xg_cost"] is None or g["xg_cost"] is None:
            continue
        phase = PHASES[int(Position.from_id(r["id"].split(":")[0]).classify())]
        cell = 0 if r["same"] and g["same"] else 1 if g["same"] else 2 if r["same"] else 3
        for k in ((phase, "all"), ("all", r["bucket"]), ("all", "all")):
            t = table[k]
            t[cell] += 1
            t[4] += r["xg_cost"]
            t[5] += g["xg_cost"]
            t[6] += 1
        if cell == 1:
            examples.append((r["xg_cost"], f"{r['id']} {r['dice']}: XG and gnubg {r['xg_best']}, ours {r['ours']} "
                                            f"({Path(r['file']).name}, {phase})"))
    print("| class | XG gap | plays | both XG's | only gnubg's | only ours | neither | our advice PR | gnubg's |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for (phase, bucket), t in sorted(table.items(), key=lambda kv: (kv[0][0] == "all", kv[0])):
        n = t[6]
        print(f"| {phase} | {bucket} | {n} | {t[0]} | {t[1]} | {t[2]} | {t[3]} | {500 * t[4] / n:.2f} | {500 * t[5] / n:.2f} |")
    print("\nthe costliest plays where gnubg's pick is XG's and ours is not (XG's cost of ours):")
    for c, text in sorted(examples, reverse=True)[:20]:
        print(f"  {c:.3f}  {text}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
