"""Evaluation engine: lookahead accuracy against gnubg, evaluation speed, 2-ply hint time.

1. Accuracy: mean absolute difference between our 0-, 1- and 2-ply cubeless equity and
   gnubg's 2-ply on the 500 oracle positions (tests/data/evals.jsonl.gz), per category;
   gnubg's own 0- and 1-ply against its 2-ply for scale.
2. Speed on one core: static evaluations per second, one Python call per position and
   batched, for the default evaluator (and the network architecture with untrained
   weights, when bgtools.engine.nets.nn is importable; beside the shipped analysis net, the
   shipped rollout net); then every play of every roll of the
   same boards valued by each shipped net as the lookahead values them (each board's
   children updated from its first layer, computed once: only the inputs a play changes;
   :func:`bgtools.engine.nets.incremental.evaluate_siblings`), and the same plays by the full
   forward pass.
   Beside them gnubg's ``calibrate`` (0-ply evaluations of random contact positions,
   one thread), run in the same run when gnubg is installed (else the figure of
   shared/oracle/timing.md, 69k-132k/s, is printed and said to be quoted); baseline
   timed in the same run: legal-move generation over the same boards (positions x 21
   rolls), printed as a ratio.
3. Time of a 2-ply ``hint`` from the opening position (3-1, and the mean over the 15
   opening rolls).

    python benchmarks/evaluation.py [--batch 100000]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from bgtools.engine import evaluation as E  # noqa: E402
from bgtools.core.movegen import ROLLS, count_plays_batch  # noqa: E402
from bgtools.core.position import Position  # noqa: E402
from bgtools.engine.children import live_children  # noqa: E402
from bgtools.engine.nets.incremental import evaluate_siblings  # noqa: E402
from bgtools.engine.nets.networks import load_weights  # noqa: E402
from bgtools.engine.nets.nn import evaluate_net  # noqa: E402

from benchmarks import gnubg_pty  # noqa: E402

GNUBG_QUOTED = "69,000-132,000 /s (quoted: gnubg 1.07 `calibrate`, 1 thread, shared/oracle/timing.md; not installed here)"
_CALIBRATE = """
gnubg.command('set threads 1')
text, cpu = capture('calibrate {n}')
done({{'text': text, 'cpu': cpu}})
"""


def gnubg_calibrate(n: int = 300) -> float | None:
    """gnubg's ``calibrate n`` (n x 1024 0-ply evaluations of random contact positions, one
    thread) run now: its evaluations per CPU second, or None without gnubg."""
    r = gnubg_pty.run_in_gnubg(_CALIBRATE.format(n=n), {}, timeout=600)
    if not r or r["cpu"] <= 0:
        return None
    return n * 1024 / r["cpu"]


def accuracy(recs, ev) -> None:
    boards = np.array([r["board"] for r in recs], np.int8)
    ref = np.array([r["eval_2ply"][5] for r in recs])
    ours = {}
    secs = {}
    for ply in (0, 1, 2):
        t0 = time.perf_counter()
        ours[ply] = E.equity(E.evaluate_boards(boards, ply, ev))
        secs[ply] = time.perf_counter() - t0
    g0 = np.array([r["eval_0ply"][5] for r in recs])
    g1 = np.array([r["eval_1ply"][5] for r in recs])
    cats = sorted({r["category"] for r in recs})
    print(f"\n1. |our equity - gnubg 2-ply equity|, mean per category ({ev.name} {ev.version})")
    print(f"{'category':<18}{'n':>4}{'ours 0-ply':>12}{'ours 1-ply':>12}{'ours 2-ply':>12}"
          f"{'gnubg 0-ply':>13}{'gnubg 1-ply':>13}")
    for c in cats + ["all"]:
        m = np.array([c == "all" or r["category"] == c for r in recs])
        row = [np.abs(ours[p][m] - ref[m]).mean() for p in (0, 1, 2)]
        print(f"{c:<18}{m.sum():>4}" + "".join(f"{x:>12.4f}" for x in row)
              + f"{np.abs(g0[m] - ref[m]).mean():>13.4f}{np.abs(g1[m] - ref[m]).mean():>13.4f}")
    print("time for all 500: " + ", ".join(f"{p}-ply {secs[p]:.2f} s" for p in (0, 1, 2)))


def speed(recs, ev, batch: int, calibrate: int) -> None:
    base = np.array([r["board"] for r in recs], np.int8)
    live = base[[r["gnubg_class"] >= 8 for r in recs]]  # race, crashed, contact: the evaluator's work
    big = np.ascontiguousarray(np.resize(live, (batch, 2, 25)))
    rolls = np.array(ROLLS, np.int64)
    count_plays_batch(big[:2], rolls)
    t0 = time.perf_counter()
    count_plays_batch(live, rolls)
    gen_rate = len(live) * 21 / (time.perf_counter() - t0)

    print("\n2. static evaluations per second, one core")
    g = gnubg_calibrate(calibrate) if calibrate > 0 else None
    if g is not None:
        print(f"gnubg 1.07 `calibrate {calibrate}` (this run, 1 thread, random contact positions, "
              f"per CPU second): {g:,.0f} /s")
    else:
        print(f"gnubg: {GNUBG_QUOTED}")
    print(f"baseline (same run): move generation {gen_rate:,.0f} (position, roll)/s")
    evaluators = [(f"{ev.name} {ev.version}", ev)]
    if getattr(ev, "rollout_weights", None) is not None and ev.rollout_weights is not ev.weights:
        from bgtools.engine.nets.nn import NeuralEvaluator

        fast = NeuralEvaluator(ev.rollout_weights)  # the shipped rollout net
        evaluators.append((f"{fast.name} {fast.version} (rollouts)", fast))
    if not isinstance(ev, E.HeuristicEvaluator):
        evaluators.append(("bgtools-heuristic", E.HeuristicEvaluator()))
    try:
        from bgtools.engine.nets.nn import NeuralEvaluator, init_weights

        evaluators.append(("nn architecture (untrained weights)", NeuralEvaluator(init_weights())))
    except Exception as e:  # noqa: BLE001 - the network is another module's; report and go on
        print(f"(nn not timed: {e})")
    for label, x in evaluators:
        E.static_probs(big[:4], x)
        t0 = time.perf_counter()
        n1 = min(len(big), 3000)
        for i in range(n1):
            E.static_probs(big[i:i + 1], x)
        single = n1 / (time.perf_counter() - t0)
        t0 = time.perf_counter()
        E.static_probs(big, x)
        batched = len(big) / (time.perf_counter() - t0)
        t0 = time.perf_counter()
        x.evaluate_boards(big)
        raw = len(big) / (time.perf_counter() - t0)
        line = (f"{label:<40} single {single:>10,.0f}/s   batched {batched:>12,.0f}/s   "
                f"raw evaluate_boards {raw:>12,.0f}/s   batched / move-gen baseline = {batched / gen_rate:.2f}x")
        print(line + (f"   batched / gnubg = {batched / g:.2f}x" if g else ""))
    # every play of every roll, as the lookahead values them (each shipped net): the
    # children of each board updated from its first layer, or each by the full pass
    t0 = time.process_time()
    parents, children, parent_of = live_children(live)
    gen = time.process_time() - t0
    for use in ("analysis", "rollout"):
        weights = load_weights(None, use)
        net = weights.arrays()
        evaluate_siblings(parents, children[:2], parent_of[:2], net)  # compile / load
        evaluate_net(children[:2], net)
        secs = {"incremental": float("inf"), "full pass": float("inf")}
        for _ in range(3):
            for kind in secs:
                t0 = time.process_time()
                if kind == "incremental":
                    evaluate_siblings(parents, children, parent_of, net)
                else:
                    evaluate_net(children, net)
                secs[kind] = min(secs[kind], time.process_time() - t0)
        rate = {k: len(children) / v for k, v in secs.items()}
        print(f"all plays of every roll, shipped {use} net {weights.meta.get('version')} ({len(live)} positions x 21 "
              f"rolls, {len(children):,} plays, per CPU second, best of 3; generating them {gen:.2f} s): incremental "
              f"{rate['incremental']:,.0f} /s, full pass {rate['full pass']:,.0f} /s "
              f"(x{rate['incremental'] / rate['full pass']:.2f})"
              + (f"; incremental / gnubg calibrate = {rate['incremental'] / g:.2f}x" if g else ""))


def hint_time(ev) -> None:
    pos = Position.initial()
    E.rank_plays(pos, (3, 1), ply=2, evaluator=ev)  # warm
    t0 = time.perf_counter()
    ranked = E.rank_plays(pos, (3, 1), ply=2, evaluator=ev)
    t31 = time.perf_counter() - t0
    t0 = time.perf_counter()
    opening = [d for d in ROLLS if d[0] != d[1]]
    for d in opening:
        E.rank_plays(pos, d, ply=2, evaluator=ev)
    mean = (time.perf_counter() - t0) / len(opening)
    t0 = time.perf_counter()
    E.rank_plays(pos, (3, 1), ply=0, evaluator=ev)
    t0ply = time.perf_counter() - t0
    print(f"\n3. 2-ply hint from the opening position ({ev.name}): 3-1 {t31 * 1000:.0f} ms "
          f"({sum(p.ply == 2 for p in ranked)} of {len(ranked)} plays searched at 2 ply; best {ranked[0].play}); "
          f"mean over the 15 opening rolls {mean * 1000:.0f} ms; baseline 0-ply hint {t0ply * 1000:.1f} ms "
          f"(2-ply = {t31 / t0ply:.0f}x)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=100_000)
    ap.add_argument("--calibrate", type=int, default=300,
                    help="gnubg's `calibrate N` (N x 1024 evaluations) run beside ours; 0: quote the stored figure")
    ap.add_argument("--evaluator", choices=("default", "heuristic"), default="default",
                    help="default = the shipped network if any; heuristic = HeuristicEvaluator")
    args = ap.parse_args()
    with gzip.open(ROOT / "tests/data/evals.jsonl.gz", "rt") as fh:
        recs = [json.loads(line) for line in fh]
    ev = E.default_evaluator() if args.evaluator == "default" else E.HeuristicEvaluator()
    E.evaluate(Position.initial(), 2, ev)  # compile / load caches before timing
    accuracy(recs, ev)
    speed(recs, ev, args.batch, args.calibrate)
    hint_time(ev)


if __name__ == "__main__":
    main()
