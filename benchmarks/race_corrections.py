"""Do the post-net race corrections (``bgtools.engine.nets.raceinputs.race_correct``) change the
0-ply picks of the shipped net?  Judge-set race positions, gnubg's 2-ply values as the referee
(it only measures), our 0-ply picks with and without the corrections::

    PYTHONPATH=. python benchmarks/race_corrections.py [--set benchmarks/data/judge_selfplay.jsonl.gz]
"""

from __future__ import annotations

import argparse
import math

import numpy as np
from judge import DEFAULT_SET, load_records, loss_of

from bgtools.core.movegen import legal_plays
from bgtools.core.position import Position
from bgtools.engine.bearoff import load_databases
from bgtools.engine.evaluation import equity, invert_probs, static_probs
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import NeuralEvaluator
from bgtools.engine.nets.raceinputs import race_correct_batch


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default=str(DEFAULT_SET))
    ap.add_argument("--weights", default=None)
    args = ap.parse_args(argv)
    recs = [r for r in load_records(args.set) if r["judge_category"] == "race"]
    ev = NeuralEvaluator(load_weights(args.weights))
    db = load_databases()
    plain, fixed, changed, touched = [], [], 0, 0
    for r in recs:
        d = r["dice"]
        plays = legal_plays(Position.from_id(r["position_id"]), (int(d[0]), int(d[1])))
        after = np.stack([p.after.to_array() for p in plays])  # the opponent on roll
        probs = static_probs(after, ev)
        corr, _ = race_correct_batch(after, probs, db.os_rolls, db.os_gammon)
        touched += int((np.abs(corr - probs) > 1e-9).any(axis=1).sum())
        a = plays[int(np.argmax(equity(invert_probs(probs))))].after_id
        b = plays[int(np.argmax(equity(invert_probs(corr))))].after_id
        changed += a != b
        plain.append(loss_of(r, a))
        fixed.append(loss_of(r, b))
    p, f = np.array(plain), np.array(fixed)
    diff = f - p
    se = float(diff.std(ddof=1) / math.sqrt(diff.size)) if diff.size > 1 else float("nan")
    print(f"{args.set}: {len(recs)} race positions, {touched} plays' outputs corrected, {changed} picks changed; "
          f"0-ply loss {p.mean():.3f} without, {f.mean():.3f} with the corrections (paired {diff.mean():+.3f} ± {se:.3f}"
          " millipoints)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
