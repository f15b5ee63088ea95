"""Do issue 37's contact inputs pay?  The shipped contact and crashed nets fitted to 2-ply data
sets (``train label``) twice with the same rows, split, order and rate: with their own inputs
(the control: what the long fit alone brings) and with ``contactinputs``' 36 inputs appended
(their first-layer weights start at zero, so epoch 0 is the shipped net in both).  The race
net is left as shipped (race rows are not fitted).  Prints the held-out cross-entropy and
|equity error| per net; ``--save-prefix P`` writes ``P-0.npz`` (control) and ``P-1.npz`` (new
inputs: an ``nn.WideNet``, which every command and benchmark can load)::

    PYTHONPATH=. python benchmarks/contact_inputs_fit.py runs/gen9/a/data/labelled.npz --epochs 100 --save-prefix CI
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from bgtools.engine.nets.contactinputs import EXTRA_NAMES, N_EXTRA_SIDE
from bgtools.engine.nets.features import N_INPUTS, NET_CONTACT, NET_CRASHED, NET_RACE, encode_batch
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import add_contact_inputs
from bgtools.training.datasets import load_npz
from bgtools.training.fit import FitData, FitSettings, fit_weights, prepare

def load_rows(paths: list[str]) -> tuple[np.ndarray, np.ndarray]:
    boards, targets = [], []
    for p in paths:
        d = load_npz(p, "boards", "targets")
        boards.append(np.ascontiguousarray(d["boards"], np.int8))
        targets.append(np.asarray(d["targets"], np.float32))
    return np.concatenate(boards), np.concatenate(targets)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="+", help=".npz data sets with boards and targets")
    ap.add_argument("--epochs", type=int, default=100)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--lr-end", type=float, default=1e-5)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--variants", default="0,1", help="which to fit: 0 control, 1 new inputs (default both)")
    ap.add_argument("--init", default=None, help="starting net (default: the shipped rollout net, gen8, as in the "
                                                  "study; a net that reads the inputs already fits variant 1 only)")
    ap.add_argument("--drop", default="", metavar="NAMES",
                    help="new inputs (contactinputs.EXTRA_NAMES, comma-separated) held at zero for both sides: their "
                         "weights stay zero, so the net does without them (an ablation)")
    ap.add_argument("--json-out", default=None)
    ap.add_argument("--save-prefix", default=None, metavar="PATH")
    args = ap.parse_args(argv)
    drop = [c.strip() for c in args.drop.split(",") if c.strip()]
    unknown = sorted(set(drop) - set(EXTRA_NAMES))
    if unknown:
        ap.error(f"unknown input(s) {', '.join(unknown)}; the inputs are {', '.join(EXTRA_NAMES)}")
    cols = [k + side * N_EXTRA_SIDE for side in (0, 1) for k, nm in enumerate(EXTRA_NAMES) if nm in drop]
    boards, t = load_rows(args.data)
    cls = encode_batch(boards)[0]
    print(f"{len(cls)} rows: contact {int((cls == NET_CONTACT).sum())}, crashed {int((cls == NET_CRASHED).sum())}, "
          f"race {int((cls == NET_RACE).sum())} (not fitted)", flush=True)
    init = load_weights(args.init, "rollout")
    if init.wide and "0" in args.variants.split(","):
        ap.error("--init reads the contact inputs already: the control (variant 0) needs a net without them")
    settings = FitSettings(epochs=args.epochs, batch=args.batch, lr=args.lr, lr_end=args.lr_end, seed=args.seed,
                           best_per_net=True)
    names = ("shipped inputs (control)", "plus contact inputs")
    out = {}
    for k in (int(v) for v in args.variants.split(",")):
        w0 = init if k == 0 else add_contact_inputs(init)
        enc = prepare(boards, t, wide=k == 1)
        if k == 1:
            for c in (NET_CONTACT, NET_CRASHED):
                enc.x[c][:, [N_INPUTS[c] + j for j in cols]] = 0.0
        # the race rows are left out: the race net stays as it is
        data = FitData((enc.x[NET_CONTACT], enc.x[NET_CRASHED], enc.x[NET_RACE][:0]),
                       (enc.t[NET_CONTACT], enc.t[NET_CRASHED], enc.t[NET_RACE][:0]))
        rows: list[dict] = []
        t1 = time.perf_counter()
        w = fit_weights(w0, data, settings, log=rows.append)
        if args.save_prefix:
            w.meta.update(version=f"contact-inputs-fit-{k}", variant=names[k], data=",".join(args.data),
                          contact_inputs="features" if k == 0 else "features+contactinputs", dropped=",".join(drop))
            w.save(f"{args.save_prefix}-{k}.npz")
        res: dict = {"seconds": round(time.perf_counter() - t1, 1), "best_epochs": w.meta.get("fit_best_epochs")}
        for net in ("contact", "crashed"):
            key = f"val_mae_{net}"
            best = min(r[key] for r in rows)
            res[net] = {"epoch0_val_mae": rows[0][key], "best_val_mae": best}
        out[names[k]] = res
        print(f"{names[k]}: contact |equity error| {res['contact']['epoch0_val_mae']:.5f} -> "
              f"{res['contact']['best_val_mae']:.5f}, crashed {res['crashed']['epoch0_val_mae']:.5f} -> "
              f"{res['crashed']['best_val_mae']:.5f}, best epochs {res['best_epochs']}, {res['seconds']} s", flush=True)
        for r in rows[:: max(1, len(rows) // 10)]:
            print("   ", {kk: (round(v, 5) if isinstance(v, float) else v) for kk, v in r.items()}, flush=True)
    print(f"{args.epochs} epochs, lr {args.lr} -> {args.lr_end}, batch {args.batch}, seed {args.seed}"
          + (f", without {', '.join(drop)}" if drop else ""))
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
