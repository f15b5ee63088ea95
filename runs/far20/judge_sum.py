"""The judge figures of two sets of picks (``judge_picks.py``'s): before and after, paired, per set and category.

    python runs/far20/judge_sum.py DIR PLY ...      # DIR/before_PLY.json, DIR/after_PLY.json
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from judge import judge, load_records, paired  # noqa: E402

d = Path(sys.argv[1])
for P in sys.argv[2:]:
    a = json.loads((d / f"before_{P}.json").read_text())
    b = json.loads((d / f"after_{P}.json").read_text())
    for s in a:
        recs = load_records(s)
        ja, jb = judge(recs, a[s])["ours"], judge(recs, b[s])["ours"]
        pv = paired(recs, b[s], a[s])
        n = sum(x != y for x, y in zip(a[s], b[s]))
        name = s.split("/")[-1].split(".")[0]
        line = (f"{P}-ply {name:15s} differ {n:3d}  all {ja['all']['mean']:.2f} -> {jb['all']['mean']:.2f} "
                f"(paired {pv['all']['mean']:+.3f} ± {pv['all']['se']:.3f})")
        if ja["race"]["n"]:
            line += (f"  race {ja['race']['mean']:.3f} -> {jb['race']['mean']:.3f} "
                     f"(paired {pv['race']['mean']:+.3f} ± {pv['race']['se']:.3f})")
        for c in ("contact", "crashed", "bearoff", "on_bar"):
            if ja[c]["n"] and abs(pv[c]["mean"]) > 1e-9:
                line += f"  {c} {pv[c]['mean']:+.3f} ± {pv[c]['se']:.3f}"
        print(line)
