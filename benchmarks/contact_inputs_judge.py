"""Judge-set 0-ply (or 1-ply) loss of nets that may read issue 37's new inputs, which bgtools'
evaluator does not read: ``contactinputs`` after the shipped block for a contact or crashed net
whose first layer is wider, ``raceinputs`` likewise for the race net.  gnubg's 2-ply values are
the referee (they only measure); each net is paired against the first one named (or the
shipped net)::

    PYTHONPATH=. python benchmarks/contact_inputs_judge.py CI-0.npz CI-1.npz --set benchmarks/data/judge_selfplay.jsonl.gz

With a net of the shipped shape this gives the judge's figures exactly (checked by ``--check``).
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from judge import DEFAULT_SET, judge, load_records, our_picks, paired

from bgtools.engine.nets.contactinputs import encode_extra_batch
from bgtools.engine.nets.features import N_INPUTS, NET_RACE, encode_batch
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import NeuralEvaluator, Weights, nn_forward
from bgtools.engine.nets.raceinputs import encode_race_extra_batch


def consistent(y: np.ndarray) -> np.ndarray:
    """Row-wise ``nn.make_consistent``."""
    y[:, 0] = np.clip(y[:, 0], 0, 1)
    y[:, 1] = np.minimum(y[:, 1], y[:, 0])
    y[:, 2] = np.minimum(y[:, 2], y[:, 1])
    y[:, 3] = np.minimum(y[:, 3], 1 - y[:, 0])
    y[:, 4] = np.minimum(y[:, 4], y[:, 3])
    return y


class WideInputsEvaluator:
    """Each net of ``w`` reads the shipped inputs, then its new ones when its first layer is wider."""

    prune: Any = None

    def __init__(self, w: Weights) -> None:
        self.w = w
        self.version = str(w.meta.get("version", "?"))

    def evaluate_boards(self, boards: np.ndarray) -> np.ndarray:
        b = np.ascontiguousarray(boards, np.int8).reshape(-1, 2, 25)
        cls, x = encode_batch(b)
        out = np.zeros((b.shape[0], 5), np.float64)
        for c in range(3):
            rows = np.flatnonzero(cls == c)
            if rows.size == 0:
                continue
            xc = x[rows, :N_INPUTS[c]]
            W1 = self.w.W1[c]
            if W1.shape[0] > xc.shape[1]:
                more = encode_race_extra_batch(b[rows]) if c == NET_RACE else encode_extra_batch(b[rows])
                xc = np.concatenate([xc, more], axis=1)
            out[rows] = consistent(nn_forward(np.ascontiguousarray(xc, np.float32), W1, self.w.b1[c],
                                              self.w.W2[c], self.w.b2[c]))
        return out


def _self_judge(nets: list[str], shipped_w: Weights, n: int) -> int:
    from bgtools.training.label import shipped_pruning
    from bgtools.training.selfjudge import held_out_rolls, paired_summary, self_judge

    rolls = held_out_rolls(shipped_w, n)
    pr = shipped_pruning()
    base = self_judge(shipped_w, rolls, shipped_w, 2, prune=pr, evaluator=WideInputsEvaluator(shipped_w))
    cats = base["categories"]

    def line(name: str, r: dict) -> None:
        print(f"  {name}:", flush=True)
        for k, v in r["ply0"].items():
            if v["n"]:
                p = paired_summary(r["loss0"], base["loss0"], cats)[k]
                print(f"    {k:8} 0-ply {v['mean']:.3f} ± {v['se']:.3f}  vs shipped {p['mean']:+.3f} ± {p['se']:.3f}  "
                      f"1-ply {r['ply1'][k]['mean']:.3f} ± {r['ply1'][k]['se']:.3f}  "
                      f"mean |0-ply - 2-ply| {1000 * r['mae0'][k]['mean']:.1f}", flush=True)

    print(f"self-judge: {len(cats)} held-out rolls (seed 3701), referee the shipped net's 2-ply (pruned)")
    line("shipped", base)
    for net in nets:
        line(net, self_judge(shipped_w, rolls, shipped_w, 2, prune=pr, evaluator=WideInputsEvaluator(Weights.load(net))))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("nets", nargs="+", help=".npz nets (contact_inputs_fit.py --save-prefix)")
    ap.add_argument("--set", action="append", default=None, help="judge set(s) (default: judge_dev)")
    ap.add_argument("--ply", type=int, default=0, choices=(0, 1))
    ap.add_argument("--check", action="store_true", help="first check that the shipped net gives the judge's picks")
    ap.add_argument("--self-judge", type=int, default=0, metavar="N",
                    help="instead of the judge sets: the self-judge on N held-out rolls (the shipped net's 2-ply "
                         "search, pruned, referees every net; seed 3701)")
    args = ap.parse_args(argv)
    shipped_w = load_weights(None)
    if args.self_judge:
        return _self_judge(args.nets, shipped_w, args.self_judge)
    for path in args.set or [str(DEFAULT_SET)]:
        recs = load_records(path)
        if args.check:
            a = our_picks(recs, NeuralEvaluator(shipped_w), args.ply)
            b = our_picks(recs, WideInputsEvaluator(shipped_w), args.ply)
            same = sum(x == y for x, y in zip(a, b))
            print(f"check: {same} of {len(a)} picks as the shipped evaluator's")
        base = our_picks(recs, WideInputsEvaluator(shipped_w), args.ply)
        js = judge(recs, base)["ours"]
        print(f"{path}: {len(recs)} positions; shipped {args.ply}-ply: "
              + ", ".join(f"{k} {v['mean']:.3f} ± {v['se']:.3f}" for k, v in js.items() if v["n"]), flush=True)
        first = None
        for net in args.nets:
            w = Weights.load(net)
            picks = our_picks(recs, WideInputsEvaluator(w), args.ply)
            s = judge(recs, picks)["ours"]
            p = paired(recs, picks, base)
            print(f"  {net} ({w.meta.get('variant', '?')}):", flush=True)
            for k in s:
                if not s[k]["n"]:
                    continue
                line = f"    {k:8} {s[k]['mean']:.3f} ± {s[k]['se']:.3f}  vs shipped {p[k]['mean']:+.3f} ± {p[k]['se']:.3f}"
                if first is not None:
                    q = paired(recs, picks, first)
                    line += f"  vs {args.nets[0]} {q[k]['mean']:+.3f} ± {q[k]['se']:.3f}"
                print(line, flush=True)
            if first is None:
                first = picks
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
