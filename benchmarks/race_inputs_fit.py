"""Do issue 37's race inputs pay?  The shipped race net fitted to a race data set (rollout targets,
``train racelabel``) with its own inputs, with the new inputs added (``raceinputs``: exactly-k-off
units and the crossover count; their first-layer weights start at zero, so epoch 0 is the
shipped net in every variant), and with the new inputs and 128 hidden units.  The same rows,
split, order and rate for each; the held-out cross-entropy and |equity error| per epoch::

    PYTHONPATH=. python benchmarks/race_inputs_fit.py runs/race37/data/labelled.npz --epochs 30
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from bgtools.engine.nets.features import N_INPUTS, NET_RACE, encode_batch
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import Weights, widen_weights
from bgtools.engine.nets.raceinputs import encode_race_extra_batch
from bgtools.training.datasets import load_npz
from bgtools.training.fit import FitData, FitSettings, fit_weights


def _with_rows(w: Weights, extra: int) -> Weights:
    """``w`` with ``extra`` zero rows appended to the race net's first layer."""
    W1 = list(w.W1)
    W1[NET_RACE] = np.concatenate([W1[NET_RACE], np.zeros((extra, W1[NET_RACE].shape[1]), np.float32)])
    return Weights(tuple(W1), w.b1, w.W2, w.b2, dict(w.meta))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", help=".npz with boards and targets (race positions)")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--lr-end", type=float, default=1e-5)
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--json-out", default=None)
    ap.add_argument("--save-prefix", default=None, metavar="PATH",
                    help="write variant k's net to PATH-k.npz (variants 1 and 2 take the new race inputs: only "
                         "benchmarks/race_inputs_judge.py reads them)")
    args = ap.parse_args(argv)
    d = load_npz(args.data, "boards", "targets")
    cls, x = encode_batch(np.ascontiguousarray(d["boards"], np.int8))
    race = cls == NET_RACE
    base = np.ascontiguousarray(x[race, :N_INPUTS[NET_RACE]])
    plus = np.ascontiguousarray(np.concatenate([base, encode_race_extra_batch(d["boards"][race])], axis=1))
    t = np.ascontiguousarray(d["targets"][race], np.float32)
    empty = [np.zeros((0, N_INPUTS[c]), np.float32) for c in range(2)]
    none_t = np.zeros((0, 5), np.float32)
    shipped = load_weights(None)
    variants = {"shipped inputs, 64 hidden": (base, shipped),
                "plus race inputs, 64 hidden": (plus, _with_rows(shipped, plus.shape[1] - base.shape[1])),
                "plus race inputs, 128 hidden": (plus, _with_rows(widen_weights(shipped, (256, 128, 128), args.seed),
                                                                  plus.shape[1] - base.shape[1]))}
    settings = FitSettings(epochs=args.epochs, batch=256, lr=args.lr, lr_end=args.lr_end, seed=args.seed)
    out = {}
    for name, (xr, init) in variants.items():
        data = FitData((*empty, xr), (none_t, none_t, t))
        rows: list[dict] = []
        t0 = time.perf_counter()
        w = fit_weights(init, data, settings, log=rows.append)
        if args.save_prefix:
            k = list(variants).index(name)
            w.meta.update(version=f"race-inputs-fit-{k}", variant=name, data=args.data,
                          race_inputs="features" if k == 0 else "features+raceinputs")
            w.save(f"{args.save_prefix}-{k}.npz")
        best = min(rows, key=lambda r: r["val_loss"])
        out[name] = {"epoch0_val_loss": rows[0]["val_loss"], "epoch0_val_mae": rows[0]["val_mae_race"],
                     "best_epoch": best["epoch"], "best_val_loss": best["val_loss"],
                     "best_val_mae": best["val_mae_race"], "seconds": round(time.perf_counter() - t0, 1),
                     "fit_val_loss": float(w.meta["fit_val_loss"])}
        print(f"{name}: held-out loss {rows[0]['val_loss']:.5f} -> {best['val_loss']:.5f} (epoch {best['epoch']}), "
              f"|equity error| {rows[0]['val_mae_race']:.4f} -> {best['val_mae_race']:.4f}, "
              f"{out[name]['seconds']} s", flush=True)
    print(f"{int(race.sum())} race rows of {len(cls)}; {args.epochs} epochs, lr {args.lr} -> {args.lr_end}, "
          f"seed {args.seed}")
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
