"""Judge-set 0-ply (or 1-ply) loss of nets that read issue 37's contact inputs
(``contactinputs``, a net whose contact and crashed layers are wider: ``nn.WideNet``, which the
kernels evaluate like any net), or not.  gnubg's 2-ply values are the referee (they only
measure); each net is paired against the shipped net and against the first one named::

    PYTHONPATH=. python benchmarks/contact_inputs_judge.py CI-0.npz CI-1.npz --set benchmarks/data/judge_selfplay.jsonl.gz

(Before the kernels read the inputs this script valued them with its own NumPy pass, and its
``--check`` showed that pass gave the shipped net's 1,035 judge_dev picks exactly.)
"""

from __future__ import annotations

import argparse

from judge import DEFAULT_SET, judge, load_records, our_picks, paired

from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import NeuralEvaluator, Weights


def _self_judge(nets: list[str], shipped_w: Weights, n: int) -> int:
    from bgtools.training.label import shipped_pruning
    from bgtools.training.selfjudge import held_out_rolls, paired_summary, self_judge

    rolls = held_out_rolls(shipped_w, n)
    pr = shipped_pruning()
    base = self_judge(shipped_w, rolls, shipped_w, 2, prune=pr)
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
        line(net, self_judge(load_weights(net), rolls, shipped_w, 2, prune=pr))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("nets", nargs="+", help=".npz nets (contact_inputs_fit.py --save-prefix)")
    ap.add_argument("--set", action="append", default=None, help="judge set(s) (default: judge_dev)")
    ap.add_argument("--ply", type=int, default=0, choices=(0, 1))
    ap.add_argument("--self-judge", type=int, default=0, metavar="N",
                    help="instead of the judge sets: the self-judge on N held-out rolls (the shipped net's 2-ply "
                         "search, pruned, referees every net; seed 3701)")
    args = ap.parse_args(argv)
    shipped_w = load_weights(None)
    if args.self_judge:
        return _self_judge(args.nets, shipped_w, args.self_judge)
    for path in args.set or [str(DEFAULT_SET)]:
        recs = load_records(path)
        base = our_picks(recs, NeuralEvaluator(shipped_w), args.ply)
        js = judge(recs, base)["ours"]
        print(f"{path}: {len(recs)} positions; shipped {args.ply}-ply: "
              + ", ".join(f"{k} {v['mean']:.3f} ± {v['se']:.3f}" for k, v in js.items() if v["n"]), flush=True)
        first = None
        for net in args.nets:
            w = load_weights(net)
            picks = our_picks(recs, NeuralEvaluator(w), args.ply)
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
