"""Fit sweep on gen1's labels (run from the repo root after gen1.sh):
nice -n 10 python runs/gen1/sweep.py > runs/gen1/sweep.log 2>&1
Fitted nets go to runs/gen1/data/sweep/ (git-ignored); each is judged at 0 ply."""
import subprocess
import sys
from pathlib import Path

from bgtools.engine.nets.networks import load_weights
from bgtools.training.datasets import load_npz
from bgtools.training.fit import FitSettings, fit_weights, prepare

out = Path("runs/gen1/data/sweep")
out.mkdir(parents=True, exist_ok=True)
d = load_npz("runs/gen1/data/labelled.npz", "boards", "targets")
data = prepare(d["boards"], d["targets"])
for lr, epochs in ((1e-3, 30), (3e-3, 30)):
    name = f"lr{lr:g}_e{epochs}"
    rows = []
    w = fit_weights(load_weights(None), data, FitSettings(epochs=epochs, batch=256, lr=lr, seed=1),
                    log=rows.append)
    w.meta.update({"version": f"gen1-{name}"})
    w.save(out / f"{name}.npz")
    for r in rows[::5] + rows[-1:]:
        print(name, {k: round(v, 5) for k, v in r.items()}, flush=True)
    subprocess.run([sys.executable, "benchmarks/judge.py", "--ply", "0", "--weights", str(out / f"{name}.npz")],
                   check=True)
