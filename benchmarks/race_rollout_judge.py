"""Race picks judged by our own rollouts: a race referee that needs neither gnubg nor a net's search.

The judge sets hold 164 and 214 race positions, and a few large errors make most of their race
loss (their standard errors are about 0.2 millipoints, a third of the mean).  Here the referee
is our rollout: held-out race rolls of the shipped net's greedy self-play (the self-judge's
positions, seed 3701, :func:`bgtools.training.selfjudge.held_out_rolls`, at most two a game),
and the candidate plays of each roll (the first net's best within 0.2, at most ``--keep``,
and every judged net's pick) valued by variance-reduced rollouts of the positions after them,
the same dice for the plays of one roll (:func:`bgtools.training.racedata.race_rollout_stats`, the shipped net playing at 0 ply,
exact where the bear-off databases apply; ``--trials``).  A net's loss on a roll is the
referee's best minus the referee's value of the net's 0-ply pick, in millipoints; nets after
the first are paired against it (exact positions valued exactly, as everywhere).  Race nets with the new race inputs (a first layer wider than
the shipped race block) are valued as ``race_inputs_judge.py`` values them::

    PYTHONPATH=. python benchmarks/race_rollout_judge.py [--rolls 600] [--trials 16] SHIPPED|NET.npz ...

(``shipped`` names the shipped net; every net's plays of a roll are valued as the engine values them, far races
from the bear-off database (``race_hybrid.py``) and bear-ins by the mover's next two rolls (``bgtools.engine.bearin``);
``alone`` names the shipped net valuing each board on its own, as the engine did before far races; ``farrace`` the
shipped net with far races but no bear-ins, as the engine did before bear-ins.)  Only our own nets and databases are used.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from race_inputs_judge import RaceNetEvaluator

from bgtools.core.movegen import legal_plays
from bgtools.core.position import Position
from bgtools.engine.evaluation import equity, evaluate_boards, evaluate_plays, invert_probs
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import NeuralEvaluator, Weights
from bgtools.training.racedata import race_rollout_stats
from bgtools.training.selfjudge import held_out_rolls


def _mean_se(v: np.ndarray) -> str:
    return f"{v.mean():.3f} ± {v.std(ddof=1) / math.sqrt(v.size):.3f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("nets", nargs="+", help="'shipped', 'alone', 'farrace' or .npz nets; the first is the one the others are "
                    "paired against")
    ap.add_argument("--rolls", type=int, default=600)
    ap.add_argument("--trials", type=int, default=16, help="variance-reduced rollout trials per play")
    ap.add_argument("--seed", type=int, default=3701)
    ap.add_argument("--keep", type=int, default=6, help="the first net's best plays rolled out per roll (and every net's pick)")
    args = ap.parse_args(argv)
    shipped = load_weights(None)
    nets = [shipped if name in ("shipped", "alone", "farrace") else Weights.load(name) for name in args.nets]
    t0 = time.perf_counter()
    rolls = held_out_rolls(shipped, args.rolls, args.seed, categories=("race",))
    boards, offs = [], [0]
    for b, d in zip(rolls.boards, rolls.dice):
        plays = legal_plays(Position.from_array(b), (int(d[0]), int(d[1])))
        boards.extend(p.after.to_array() for p in plays)  # the opponent on roll
        offs.append(len(boards))
    after = np.stack(boards).astype(np.int8)
    rolls_of = np.repeat(np.arange(len(offs) - 1), np.diff(offs))
    evals = [equity(invert_probs(evaluate_boards(after, 0, NeuralEvaluator(w)))) if name == "alone"
             else equity(evaluate_plays(after, 0, RaceNetEvaluator(w), rolls_of, bear_ins=name != "farrace"))
             # (exact positions exactly)
             for name, w in zip(args.nets, nets)]
    t1 = time.perf_counter()
    # the candidates of a roll: the first net's best plays within 0.2 (at most --keep) and every net's pick,
    # each rolled out with the same dice (row seed = the roll's number): common random numbers
    ref = np.full(after.shape[0], np.nan)
    sds = []
    for i in range(args.rolls):
        lo, hi = offs[i], offs[i + 1]
        e0 = evals[0][lo:hi]
        order = np.argsort(-e0, kind="stable")
        cand = {int(j) for j in order[:args.keep] if e0[j] >= e0[order[0]] - 0.2}
        cand |= {int(np.argmax(e[lo:hi])) for e in evals}
        for j in sorted(cand):
            m, sd = race_rollout_stats(after[lo + j:lo + j + 1], shipped, args.trials, args.seed, first_row=i, vr=True)
            ref[lo + j] = -equity(m)[0]  # the mover's equity of the play
            sds.append(float(sd[0]))
    t2 = time.perf_counter()
    print(f"{args.rolls} race rolls (seed {args.seed}), {len(sds)} candidate plays of {after.shape[0]} rolled out, "
          f"{args.trials} trials with variance reduction and the same dice for the plays of a roll ({t2 - t1:.0f} s; "
          f"mean standard error of a play's value {1000 * float(np.mean(sds)) / math.sqrt(args.trials):.2f} "
          f"millipoints, less for the differences; positions {t1 - t0:.0f} s)")
    losses = []
    for name, e in zip(args.nets, evals):
        loss = np.array([1000.0 * (np.nanmax(ref[offs[i]:offs[i + 1]]) - ref[offs[i] + int(np.argmax(e[offs[i]:offs[i + 1]]))])
                         for i in range(args.rolls)])
        losses.append(loss)
        line = f"  {name}: 0-ply race loss {_mean_se(loss)}"
        if len(losses) > 1:
            line += f", paired vs {args.nets[0]} {_mean_se(loss - losses[0])}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
