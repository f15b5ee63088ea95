"""Issue 37's race (item 2): the plays of a roll that all leave a race with the mover home and the other side
outside, valued from the one-sided bear-off database instead of the race net (the engine's far race,
:func:`bgtools.engine.farrace.far_race_probs_into`), judged on the judge sets' race positions at 0 ply.

The largest race losses of the net on the judge sets were plays of a side bearing off (all its checkers home)
while the other side still has checkers outside: the siblings of such a roll differ only in the home side's
bear-off, which the one-sided database knows exactly, yet the net values them to 0.02-0.1 from gnubg's 2-ply and
orders them by a few millipoints.  The engine now values every play of such a roll from the mover's exact
distributions (rolls to bear off, rolls to the first checker off) against the other side's estimated ones (its
outside checkers brought home at 8.17 pips a roll, then the database; :func:`bgtools.engine.farrace.race_side_moments`
as a discretised normal); backgammons count 0.  A roll where some play leaves the mover outside keeps the net for
all its plays (mixing the two valuations in one roll lost a 55 on judge_selfplay by 0.017).

    PYTHONPATH=.:benchmarks python benchmarks/race_hybrid.py [--set SET ...] [--weights NPZ]

prints, per judge set, the race loss at 0 ply of the net alone (each board valued on its own:
``evaluate_boards`` without ``rolls_of``) and of the engine's plays of a roll (``evaluate_plays``), with the
paired difference and how many picks each way; gnubg's 2-ply values only measure.  Only our own nets and
databases value anything.
"""

from __future__ import annotations

import argparse
import math

import numpy as np
from judge import load_records, loss_of

from bgtools.core.movegen import legal_plays
from bgtools.core.position import Position
from bgtools.engine.evaluation import equity, evaluate_boards, evaluate_plays, invert_probs
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import NeuralEvaluator

SETS = ["../shared/oracle/judge_dev.jsonl", "benchmarks/data/judge_selfplay.jsonl.gz"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", action="append", default=None, help="judge set(s) (default: judge_dev and judge_selfplay)")
    ap.add_argument("--weights", default=None, help="the net (default: the shipped analysis net)")
    args = ap.parse_args(argv)
    net = NeuralEvaluator(load_weights(args.weights))
    for path in args.set or SETS:
        recs = [r for r in load_records(path) if r["judge_category"] == "race"]
        alone, roll = [], []
        for r in recs:
            d = r["dice"]
            plays = legal_plays(Position.from_id(r["position_id"]), (int(d[0]), int(d[1])))
            after = np.stack([p.after.to_array() for p in plays]).astype(np.int8)
            e_alone = equity(invert_probs(evaluate_boards(after, 0, net)))  # each board on its own: the net
            e_roll = equity(evaluate_plays(after, 0, net))  # the plays of one roll: the engine
            alone.append(loss_of(r, plays[int(np.argmax(e_alone))].after_id))
            roll.append(loss_of(r, plays[int(np.argmax(e_roll))].after_id))
        a, b = np.array(alone), np.array(roll)
        se = lambda v: float(v.std(ddof=1) / math.sqrt(v.size))  # noqa: E731
        print(f"{path}: {a.size} race positions; {net.version} 0-ply, the net alone {a.mean():.3f} ± {se(a):.3f}, "
              f"the engine (far races from the database) {b.mean():.3f} ± {se(b):.3f}, paired {(b - a).mean():+.3f} ± "
              f"{se(b - a):.3f} (better {(b < a - 1e-9).sum()}, worse {(b > a + 1e-9).sum()})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
