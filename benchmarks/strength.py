"""Strength of bgtools' net against pubeval: cubeless money games with duplicate dice.

Every dice sequence is played twice with the sides swapped; the 95 % interval comes from
the spread of the pair means.  Example::

    PYTHONPATH=. python benchmarks/strength.py --games 10000 --ply 0
    PYTHONPATH=. python benchmarks/strength.py --games 2000 --ply 1 --weights runs/main/best.npz
"""

from __future__ import annotations

import argparse
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--ply", type=int, choices=(0, 1), default=0)
    ap.add_argument("--prune", type=int, default=6, help="candidates searched at 1-ply")
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--weights", default=None, help="an .npz of weights (default: the shipped net)")
    args = ap.parse_args()

    from bgtools.engine.nets.nn import NeuralEvaluator, load_default_network
    from bgtools.engine.play import duel_vs_pubeval

    ev = NeuralEvaluator.from_file(args.weights) if args.weights else load_default_network()
    if ev is None:
        raise SystemExit("no shipped weights in bgtools/data/; pass --weights")
    duel_vs_pubeval(ev.weights, 2, seed=1, ply=args.ply)  # compile outside the timing
    t0 = time.perf_counter()
    r = duel_vs_pubeval(ev.weights, args.games, seed=args.seed, ply=args.ply, candidates=args.prune)
    dt = time.perf_counter() - t0
    print(f"net {ev.version} hidden {ev.weights.hidden} trained {ev.weights.meta.get('games', '?')} games")
    print(f"{args.ply}-ply vs pubeval, duplicate dice, seed {args.seed}: {r}")
    print(f"{r.games / dt:.1f} games/s ({dt:.0f} s)")


if __name__ == "__main__":
    main()
