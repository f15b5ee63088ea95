"""Issue 37 item 2: cost and spread of race targets, no VR 36 vs VR 9/16/36, against a 288-trial VR reference."""
import json, sys, time
import numpy as np
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import equity_from_probs
from bgtools.training.datasets import load_npz
from bgtools.training.label import label_boards
from bgtools.training.racedata import race_rollout_stats

src, n, ref_trials = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
boards = load_npz(src, "boards")["boards"]
idx = np.linspace(0, boards.shape[0] - 1, n).astype(int)
b = boards[idx]
w = load_weights(None)
race_rollout_stats(b[:2], w, 2, 1, vr=True); race_rollout_stats(b[:2], w, 2, 1)  # warm
eq = lambda m: 2 * m[:, 0] - 1 + m[:, 1] - m[:, 3] + m[:, 2] - m[:, 4]
pips = np.array([[(np.arange(1, 26) * x[s]).sum() for s in (1, 0)] for x in b])
out = {"positions": int(n), "source": src, "mean_pips_on_roll": float(pips[:, 0].mean()), "runs": {}}
t0 = time.process_time()
ref, rsd = race_rollout_stats(b, w, ref_trials, 101, vr=True)
out["ref_cpu_s_per_pos"] = (time.process_time() - t0) / n
e_ref = eq(ref)
exact = rsd == 0
out["exact_positions"] = int(exact.sum())
out["ref_se_mean"] = float(np.mean(rsd / np.sqrt(ref_trials)))
print(json.dumps(out), flush=True)
for name, trials, vr in (("novr36", 36, False), ("vr9", 9, True), ("vr16", 16, True), ("vr36", 36, True)):
    t0 = time.process_time()
    m, sd = race_rollout_stats(b, w, trials, 37, vr=vr)
    cpu = (time.process_time() - t0) / n
    err = np.abs(eq(m) - e_ref)
    r = {"trials": trials, "vr": vr, "cpu_ms_per_pos": 1000 * cpu,
         "sd_per_trial_mean": float(sd[~exact].mean()), "se_mean": float((sd[~exact] / np.sqrt(trials)).mean()),
         "mean_abs_err_vs_ref": float(err.mean()), "rms_err_vs_ref": float(np.sqrt((err ** 2).mean())),
         "mean_abs_pwin_err": float(np.abs(m[:, 0] - ref[:, 0]).mean())}
    out["runs"][name] = r
    print(name, json.dumps(r), flush=True)
for ply in (2,):
    t0 = time.process_time()
    lab = label_boards(b, w, ply=ply).astype(np.float64)
    cpu = (time.process_time() - t0) / n
    err = np.abs(eq(lab) - e_ref)
    r = {"ply": ply, "cpu_ms_per_pos": 1000 * cpu, "mean_abs_err_vs_ref": float(err[~exact].mean() * (~exact).sum() / n),
         "rms_err_vs_ref": float(np.sqrt((err ** 2).mean())), "mean_abs_pwin_err": float(np.abs(lab[:, 0] - ref[:, 0]).mean())}
    out["runs"][f"label{ply}ply"] = r
    print(f"label{ply}", json.dumps(r), flush=True)
json.dump(out, open(sys.argv[4], "w"), indent=1)
