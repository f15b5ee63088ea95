"""As measure.py, on race positions the databases do not value (the rollouts' work), arrays saved."""
import json, sys, time
import numpy as np
from bgtools.engine.bearoff import load_databases
from bgtools.engine.chooser import exact_probs
from bgtools.engine.nets.networks import load_weights
from bgtools.training.datasets import load_npz
from bgtools.training.label import label_boards
from bgtools.training.racedata import race_rollout_stats

src, n, ref_trials, out_json = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
boards = load_npz(src, "boards")["boards"]
tables = load_databases().tables()
p = np.zeros(5)
cand = np.linspace(7, boards.shape[0] - 1, 6 * n).astype(int)  # (another sample than measure.py's)
keep = [i for i in cand if not exact_probs(boards[i], True, tables, p)]
idx = np.array(keep[:: max(1, len(keep) // n)][:n])
b = boards[idx]
w = load_weights(None)
race_rollout_stats(b[:2], w, 2, 1, vr=True); race_rollout_stats(b[:2], w, 2, 1)  # warm
eq = lambda m: 2 * m[:, 0] - 1 + m[:, 1] - m[:, 3] + m[:, 2] - m[:, 4]
pips = np.array([[(np.arange(1, 26) * x[s]).sum() for s in (1, 0)] for x in b])
res = {"idx": idx}
out = {"positions": int(len(idx)), "source": src, "mean_pips": float(pips.mean()), "runs": {}}
t0 = time.process_time()
ref, rsd = race_rollout_stats(b, w, ref_trials, 101, vr=True)
out["ref_trials"] = ref_trials
out["ref_cpu_ms_per_pos"] = 1000 * (time.process_time() - t0) / len(idx)
out["ref_se_mean"] = float(np.mean(rsd / np.sqrt(ref_trials)))
res["ref"], res["ref_sd"] = ref, rsd
e_ref = eq(ref)
print(json.dumps(out), flush=True)
for name, trials, vr in (("novr36", 36, False), ("vr9", 9, True), ("vr16", 16, True), ("vr36", 36, True)):
    t0 = time.process_time()
    m, sd = race_rollout_stats(b, w, trials, 37, vr=vr)
    cpu = (time.process_time() - t0) / len(idx)
    err = np.abs(eq(m) - e_ref)
    res[name], res[name + "_sd"] = m, sd
    r = {"trials": trials, "vr": vr, "cpu_ms_per_pos": 1000 * cpu, "sd_per_trial_mean": float(sd.mean()),
         "se_mean": float((sd / np.sqrt(trials)).mean()), "mean_abs_err_vs_ref": float(err.mean()),
         "rms_err_vs_ref": float(np.sqrt((err ** 2).mean())), "p95_abs_err": float(np.quantile(err, 0.95)),
         "mean_abs_pwin_err": float(np.abs(m[:, 0] - ref[:, 0]).mean())}
    out["runs"][name] = r
    print(name, json.dumps(r), flush=True)
t0 = time.process_time()
lab = label_boards(b, w, ply=2).astype(np.float64)
cpu = (time.process_time() - t0) / len(idx)
err = np.abs(eq(lab) - e_ref)
res["label2"] = lab
r = {"ply": 2, "cpu_ms_per_pos": 1000 * cpu, "mean_abs_err_vs_ref": float(err.mean()),
     "rms_err_vs_ref": float(np.sqrt((err ** 2).mean())), "p95_abs_err": float(np.quantile(err, 0.95)),
     "mean_abs_pwin_err": float(np.abs(lab[:, 0] - ref[:, 0]).mean())}
out["runs"]["label2ply"] = r
print("label2", json.dumps(r), flush=True)
json.dump(out, open(out_json, "w"), indent=1)
np.savez(out_json.replace(".json", ".npz"), **res)
