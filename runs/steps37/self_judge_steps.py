"""Issue 37's self-judge, step by step (twenty-second session): every analysis net shipped since the issue opened,
judged on the same 1,000 held-out rolls by the same referee, so that the table says which step moved what.

The rolls are the shipped net's own greedy self-play (seed 3701, as ``benchmarks/self_judge.py``); the referee is
the shipped net's unpruned 2-ply search; each net is judged on its own 0-ply candidates (its 8 best within 0.16) and
its 1-ply pick among them.  The earlier nets are read from git history (``git show COMMIT:FILE``), so no weights are
copied into the tree.  From the repository root (``PYTHONPATH=.``):

* ``python runs/steps37/self_judge_steps.py run OUT_DIR NAME [NAME ...]``: judge the named steps (:data:`STEPS`),
  one JSON file each in OUT_DIR (skipped where it exists: resumable, and two processes may take different names);
* ``python runs/steps37/self_judge_steps.py table OUT_DIR``: the table (markdown), each step paired against the
  step before it.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from bgtools.engine.nets.networks import load_weights
from bgtools.training.selfjudge import held_out_rolls, paired_summary, self_judge, summarize

#: (name, what the step was, git commit, file at that commit): the nets in the order they were shipped
STEPS = [
    ("gen8", "before issue 37 (the analysis net then)", "86d9e29", "bgtools/data/nn_weights.npz"),
    ("gen9w", "item 3: the 36 contact inputs, a 1,000-epoch fit", "6cac456", "bgtools/data/nn_analysis.npz"),
    ("gen11", "item 4: decision rows, within-roll loss", "7fbb2aa", "bgtools/data/nn_analysis.npz"),
    ("gen12", "item 4: gen11's own decision rows, a within-roll sweep", "5327043", "bgtools/data/nn_analysis.npz"),
    ("gen12cal", "item 5: calibrated to our rollouts", "ce966f5", "bgtools/data/nn_analysis.npz"),
    ("gen12cal2", "item 5: output layer refitted to our rollouts", "a224916", "bgtools/data/nn_analysis.npz"),
    ("gen12cal3", "item 5: three sets of rollouts, the crashed net too", "e1356e2", "bgtools/data/nn_analysis.npz"),
    ("crash19e", "item 5: the crashed net on 300,000 crashed 2-ply rows", "d7a8de4", "bgtools/data/nn_analysis.npz"),
    ("crash21r", "item 5: the crashed net on sibling rollouts, anchored", "", "bgtools/data/nn_analysis.npz"),
]
POSITIONS, SEED = 1000, 3701


def _weights(commit: str, path: str):
    if not commit:
        return load_weights(path)
    blob = subprocess.run(["git", "show", f"{commit}:{path}"], check=True, capture_output=True).stdout
    with tempfile.NamedTemporaryFile(suffix=".npz") as f:
        f.write(blob)
        f.flush()
        return load_weights(f.name)


def run(out_dir: str, names: list[str]) -> None:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    shipped = load_weights("bgtools/data/nn_analysis.npz")
    rolls = held_out_rolls(shipped, POSITIONS, SEED)
    steps = {s[0]: s for s in STEPS}
    for name in names:
        dest = out / f"{name}.json"
        if dest.exists():
            continue
        _, _, commit, path = steps[name]
        w = _weights(commit, path)
        res = self_judge(w, rolls, shipped)
        rec = {"name": name, "version": str(w.meta.get("version")), "referee": str(shipped.meta.get("version")),
               "loss0": res["loss0"].tolist(), "loss1": res["loss1"].tolist(), "categories": res["categories"]}
        tmp = dest.with_suffix(".tmp")
        tmp.write_text(json.dumps(rec) + "\n", encoding="utf-8")
        tmp.replace(dest)
        print(f"{name}: 0-ply {np.mean(res['loss0']):.2f}, 1-ply {np.mean(res['loss1']):.2f}", flush=True)


def table(out_dir: str) -> None:
    cats = ["contact", "crashed", "race", "on_bar", "all"]
    recs = [json.loads((Path(out_dir) / f"{s[0]}.json").read_text()) for s in STEPS]
    print(f"self-judge on {POSITIONS} rolls of {recs[-1]['referee']}'s own play (seed {SEED}), its unpruned 2 ply the "
          "referee; millipoints a move; paired: against the step before")
    print("| step | net | " + " | ".join(f"0-ply {c}" for c in cats) + " | 1-ply all | paired 0-ply all |")
    print("| --- | --- | " + " | ".join("---:" for _ in cats) + " | ---: | ---: |")
    prev = None
    for (name, what, _, _), r in zip(STEPS, recs):
        c = r["categories"]
        n = {k: sum(1 for x in c if x == k) for k in cats[:-1]}
        s0 = summarize(np.array(r["loss0"]), c)
        s1 = summarize(np.array(r["loss1"]), c)
        cells = [f"{s0[k]['mean']:.2f}" if k in s0 else "" for k in cats]
        pair = ""
        if prev is not None:
            p = paired_summary(np.array(r["loss0"]), np.array(prev["loss0"]), c)["all"]
            pair = f"{p['mean']:+.2f} ± {p['se']:.2f}"
        print(f"| {what} | {name} | " + " | ".join(cells) + f" | {s1['all']['mean']:.2f} | {pair} |")
        prev = r
    print("rolls per category: " + ", ".join(f"{k} {v}" for k, v in n.items()))


if __name__ == "__main__":
    if sys.argv[1] == "run":
        run(sys.argv[2], sys.argv[3:])
    elif sys.argv[1] == "table":
        table(sys.argv[2])
    else:
        raise SystemExit(__doc__)
