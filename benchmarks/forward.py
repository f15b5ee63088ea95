"""Forward pass and 0-ply chooser: the committed code (``git show HEAD:...``) against the
working tree, in the same run, with the shipped 128-unit net and a 256-unit one.

    nice -n 5 python benchmarks/forward.py [--net WEIGHTS.npz ...] [--reps 3]

(the former shipped 128-unit net: ``git show b8ae2fe:bgtools/data/nn_weights.npz > gen2.npz``)

The committed modules (engine/nets/nn.py, engine/nets/incremental.py, engine/chooser.py) are written
to a scratch folder under other names and imported beside the current ones, so both are
compiled by the same Numba with the same flags.  Timed on every oracle position
(tests/data/oracle_positions.jsonl.gz): (a) the full pass (``net_probs``) over every
position the 21 rolls lead to, (b) the incremental pass (``net_probs_inc``) over the same
siblings, (c) ``choose0`` for every roll of every position.  Best of ``--reps``, old and new alternating.  Also (d) the two layers alone on
encoded inputs (``first_layer`` + ``hidden_out``, the first 100,000 siblings).
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba as nb
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OLD = {"nn": "bgtools/engine/nets/nn.py", "incremental": "bgtools/engine/nets/incremental.py",
       "chooser": "bgtools/engine/chooser.py"}


def load_old(rev: str = "HEAD"):
    """The committed nn, incremental and chooser as modules ``_old_nn`` etc."""
    tmp = Path(tempfile.mkdtemp(prefix="fwd_old_"))
    for name, path in OLD.items():
        src = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{path}"], check=True,
                             capture_output=True, text=True).stdout
        for other in OLD:
            for pkg in ("bgtools.engine", "bgtools.engine.nets"):
                src = src.replace(f"{pkg}.{other} ", f"_old_{other} ")
                src = src.replace(f"from {pkg} import {other} ", f"import _old_{other} ")
        (tmp / f"_old_{name}.py").write_text(src)
    sys.path.insert(0, str(tmp))
    return {name: importlib.import_module(f"_old_{name}") for name in OLD}


def oracle_boards() -> np.ndarray:
    with gzip.open(ROOT / "tests/data/oracle_positions.jsonl.gz", "rt") as fh:
        return np.array([json.loads(line)["board"] for line in fh], np.int8)


def make_kernels(nnm, incm, chm):
    """The timed loops (full, incremental, choose0, the two layers), bound to one version of the modules."""
    net_probs, new_eval_buffers = nnm.net_probs, nnm.new_eval_buffers
    net_probs_inc, new_inc_base, set_base = incm.net_probs_inc, incm.new_inc_base, incm.set_base
    choose0, new_chooser_buffers = chm.choose0, chm.new_chooser_buffers

    @nb.njit
    def full(sibs, net, out):
        ev = new_eval_buffers(net)
        p = np.zeros(5)
        for i in range(sibs.shape[0]):
            net_probs(sibs[i], net, ev, p)
            for o in range(5):
                out[i, o] = p[o]

    @nb.njit
    def inc(parents, sibs, parent_of, net, out):
        ev = new_eval_buffers(net)
        base = new_inc_base(net)
        p = np.zeros(5)
        cur = -1
        for i in range(sibs.shape[0]):
            if parent_of[i] != cur:
                cur = parent_of[i]
                set_base(parents[cur], net, base)
            net_probs_inc(sibs[i], net, ev, base, p)
            for o in range(5):
                out[i, o] = p[o]

    @nb.njit
    def choose_all(boards, ch, picks):
        buf = new_chooser_buffers(ch.net)
        bp = np.zeros(5)
        r = 0
        for i in range(boards.shape[0]):
            for d1 in range(1, 7):
                for d2 in range(1, d1 + 1):
                    picks[r] = choose0(boards[i], d1, d2, ch, buf, bp)
                    r += 1


    first_layer, hidden_out = nnm.first_layer, nnm.hidden_out

    @nb.njit
    def layers(X, cls, net, out):
        """The two layers alone on encoded inputs (no encode, no bundles per row)."""
        ev = new_eval_buffers(net)
        for i in range(X.shape[0]):
            c = cls[i]
            W1 = net.W1s[c]
            first_layer(X[i], W1.shape[0], W1, net.b1s[c], ev.h, ev.idx)
            hidden_out(ev.h, net.W2s[c], net.b2s[c], ev.y)
            for o in range(5):
                out[i, o] = ev.y[o]

    return full, inc, choose_all, layers


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--net", action="append", metavar="NPZ",
                    help="a weights file to time (repeatable); default: the shipped net and, where it "
                         "exists, runs/gen4/wide/fit.npz")
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args(argv)
    from bgtools.engine import chooser as new_ch
    from bgtools.engine.nets import incremental as new_inc
    from bgtools.engine.nets import nn as new_nn
    from bgtools.engine.children import live_children
    from bgtools.engine.nets.networks import load_weights

    old = load_old()
    boards = oracle_boards()
    k_old = make_kernels(old["nn"], old["incremental"], old["chooser"])
    k_new = make_kernels(new_nn, new_inc, new_ch)
    parents, sibs, parent_of = live_children(boards)
    nroll = boards.shape[0] * 21
    from bgtools.engine.nets.features import MAX_INPUTS, encode

    X = np.zeros((min(100_000, sibs.shape[0]), MAX_INPUTS), np.float32)
    cls = np.array([encode(sibs[i], X[i]) for i in range(X.shape[0])], np.int64)
    print(f"{boards.shape[0]} oracle positions, {nroll} rolls, {sibs.shape[0]} siblings (non-final plays)")
    if args.net:
        nets = [(p, load_weights(p)) for p in args.net]
    else:
        nets = [("shipped rollout net", load_weights(None, "rollout"))]  # (the former code reads no wide net)
        if (ROOT / "runs/gen4/wide/fit.npz").is_file():
            nets.append(("runs/gen4/wide/fit.npz", load_weights(str(ROOT / "runs/gen4/wide/fit.npz"))))
    for label, w in nets:
        c_w2 = tuple(np.ascontiguousarray(a) for a in w.W2)  # the layout the committed code had
        net_o = old["nn"].Net(tuple(w.W1), tuple(w.b1), c_w2, tuple(w.b2))
        net_n = new_nn.Net(*w.arrays())
        print(f"\n{label}: hidden {w.hidden}")
        res, jobs = {}, {}
        for which, k, net, chm in (("old", k_old, net_o, old["chooser"]), ("new", k_new, net_n, new_ch)):
            outs = (np.zeros((sibs.shape[0], 5)), np.zeros((sibs.shape[0], 5)), np.zeros(nroll, np.int64))
            ch = chm.make_chooser(net, 0)
            jobs[which] = ((k[0], sibs, net, outs[0]), (k[1], parents, sibs, parent_of, net, outs[1]),
                           (k[2], boards, ch, outs[2]), (k[3], X, cls, net, np.zeros((X.shape[0], 5), np.float32)))
            res[which] = outs
            for job in jobs[which]:
                job[0](*job[1:])  # compile
        best = {w: [1e300] * 4 for w in jobs}
        for _ in range(args.reps):  # old and new alternate, so that load on the machine hits both
            for which in ("old", "new"):
                for j, job in enumerate(jobs[which]):
                    t = time.thread_time()
                    job[0](*job[1:])
                    best[which][j] = min(best[which][j], time.thread_time() - t)
        n = sibs.shape[0]
        for which in ("old", "new"):
            tf, ti, tc, tl = best[which]
            print(f"  {which}: layers only {tl / X.shape[0] * 1e6:.3f} us/eval, full pass {tf / n * 1e6:.3f} us/eval, "
                  f"incremental {ti / n * 1e6:.3f} us/eval, choose0 {tc:.3f} s for {nroll} rolls "
                  f"({tc / nroll * 1e6:.1f} us/roll)")
        (fo, io_, po), (fn, in_, pn) = res["old"], res["new"]
        print(f"  max |new - old|: full {np.abs(fn - fo).max():.3g}, incremental {np.abs(in_ - io_).max():.3g}; "
              f"full bit-identical {np.array_equal(fn, fo)}; choose0 picks differ on {int((pn != po).sum())} rolls; "
              f"(the committed code's own full vs incremental: {np.abs(fo - io_).max():.3g})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
