"""Judge-set race loss of race nets fitted by ``benchmarks/race_inputs_fit.py``, including those
that take the new race inputs (which bgtools' evaluator does not read): 0-ply picks of the
judge set's race positions, gnubg's 2-ply values as the referee (it only measures), paired
against the shipped net.  Exact bear-off and finished positions are valued as bgtools values
them (``static_probs``); the race net values the rest::

    PYTHONPATH=. python benchmarks/race_inputs_judge.py runs/race37/data/fit-0.npz runs/race37/data/fit-1.npz
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from judge import DEFAULT_SET, judge, load_records, our_picks, paired

from bgtools.engine.nets.features import N_INPUTS, NET_RACE, encode_batch
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import NeuralEvaluator, Weights
from bgtools.engine.nets.raceinputs import encode_race_extra_batch


class RaceNetEvaluator:
    """Race positions only: the race net of ``w``, its inputs the shipped race block and, when
    its first layer is wider, the new race inputs after it."""

    prune: Any = None

    def __init__(self, w: Weights) -> None:
        self.w = w
        self.version = str(w.meta.get("version", "?"))

    def evaluate_boards(self, boards: np.ndarray) -> np.ndarray:
        cls, x = encode_batch(np.ascontiguousarray(boards, np.int8))
        if (cls != NET_RACE).any():
            raise ValueError("a race net was asked to value a position that is not a race")
        x = x[:, :N_INPUTS[NET_RACE]]
        W1 = self.w.W1[NET_RACE]
        if W1.shape[0] > x.shape[1]:
            x = np.concatenate([x, encode_race_extra_batch(np.ascontiguousarray(boards, np.int8))], axis=1)
        h = 1 / (1 + np.exp(-(x @ W1 + self.w.b1[NET_RACE])))
        y = 1 / (1 + np.exp(-(h @ self.w.W2[NET_RACE] + self.w.b2[NET_RACE])))
        y = y.astype(np.float64)
        y[:, 0] = np.clip(y[:, 0], 0, 1)  # the cumulative order, as make_consistent
        y[:, 1] = np.minimum(y[:, 1], y[:, 0])
        y[:, 2] = np.minimum(y[:, 2], y[:, 1])
        y[:, 3] = np.minimum(y[:, 3], 1 - y[:, 0])
        y[:, 4] = np.minimum(y[:, 4], y[:, 3])
        return y


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("nets", nargs="+", help=".npz race nets (race_inputs_fit.py --save-prefix)")
    ap.add_argument("--set", action="append", default=None, help="judge set(s) (default: judge_dev)")
    args = ap.parse_args(argv)
    shipped = NeuralEvaluator(load_weights(None))
    for path in args.set or [str(DEFAULT_SET)]:
        recs = [r for r in load_records(path) if r["judge_category"] == "race"]
        base = our_picks(recs, shipped, 0)
        b = judge(recs, base)["ours"]["race"]
        print(f"{path}: {len(recs)} race positions; shipped 0-ply {b['mean']:.3f} ± {b['se']:.3f}")
        for net in args.nets:
            w = Weights.load(net)
            picks = our_picks(recs, RaceNetEvaluator(w), 0)
            s = judge(recs, picks)["ours"]["race"]
            p = paired(recs, picks, base)["race"]
            print(f"  {net} ({w.meta.get('variant', '?')}): {s['mean']:.3f} ± {s['se']:.3f}, "
                  f"paired vs shipped {p['mean']:+.3f} ± {p['se']:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
