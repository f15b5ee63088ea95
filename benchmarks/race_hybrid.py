"""A study for issue 37's race (item 2): bear-offs against a side still outside, valued from the
one-sided database instead of the race net.

The largest race losses of the shipped net on the judge sets are plays of a side bearing off
(all its checkers home) while the other side still has checkers outside: the siblings of such a
roll differ only in the home side's bear-off, which the one-sided database knows exactly, yet the
net values them to 0.02-0.1 from gnubg's 2-ply and orders them by a few millipoints.  Here, after
a play that leaves the mover home and the side on roll not (no contact), the five outputs come from
the mover's exact distributions (rolls to bear off, rolls to the first checker off) against the
other side's estimated ones (its outside checkers brought home at 8.17 pips a roll, then the
database: :func:`bgtools.engine.evaluation._race_side`'s mean and variance, as a discretised
normal); backgammons count 0.  Every other position keeps the net's value.

    PYTHONPATH=.:benchmarks python benchmarks/race_hybrid.py [--set SET ...]

prints, per judge set, the race loss of the shipped net at 0 ply with and without the hybrid
(gnubg's 2-ply values only measure) and the paired difference; ``race_rollout_judge.py hybrid``
judges it against our own rollouts.  Only our own nets and databases are used.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

import numpy as np
from judge import load_records, loss_of

from bgtools.core.movegen import is_contact, legal_plays
from bgtools.core.position import Position
from bgtools.engine import bearoff as bo
from bgtools.engine.evaluation import HeuristicEvaluator, _race_side, equity, evaluate_plays
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import NeuralEvaluator

SETS = ["../shared/oracle/judge_dev.jsonl", "benchmarks/data/judge_selfplay.jsonl.gz"]
K = 40  #: rolls counted (the one-sided database's 32, and the estimate's tail)


class _Tables:
    def __init__(self) -> None:
        self.db = bo.load_databases()
        h = HeuristicEvaluator()
        self.mean, self.var, self.gmean, self.gvar = h._mean, h._var, h._gmean, h._gvar


def _normal(mean: float, var: float) -> np.ndarray:
    sd = math.sqrt(max(var, 0.05) + 1 / 12)
    cdf = np.array([0.5 * (1 + math.erf((k + 0.5 - mean) / (sd * math.sqrt(2)))) for k in range(K)])
    p = np.diff(np.concatenate([[0.0], cdf]))
    p[-1] += 1 - p.sum()
    return p


def _side(t: _Tables, side: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
    """P(bear off in exactly k rolls), P(first checker off in exactly k rolls), and whether exact."""
    if bo.in_one_sided(side):
        idx = bo.bearoff_index(side.astype(np.int64))
        r, g = np.zeros(K), np.zeros(K)
        r[:32], g[:32] = t.db.os_rolls[idx], t.db.os_gammon[idx]
        return r, g, True
    m, v, gm, gv = _race_side(side.astype(np.int64), t.mean, t.var, t.gmean, t.gvar)
    return _normal(m, v), _normal(gm, gv), False


def hybrid_probs(t: _Tables, board: np.ndarray) -> np.ndarray:
    """The five outputs for the side on roll (``board[1]``) from the two sides' distributions."""
    rx, gx, _ = _side(t, board[1])
    ry, gy, _ = _side(t, board[0])
    at_least = lambda p: 1 - np.concatenate([[0.0], np.cumsum(p)[:-1]])  # noqa: E731 - P(R >= k)
    win = float((rx * at_least(ry)).sum())  # the side on roll rolls first: wins ties
    wg = float((rx * at_least(gy)).sum()) if int(board[0].sum()) == 15 else 0.0
    lg = float((ry[:-1] * (1 - np.cumsum(gx)[:-1])).sum()) if int(board[1].sum()) == 15 else 0.0
    return np.array([win, min(wg, win), 0.0, min(lg, 1 - win), 0.0])


class HybridRaceEvaluator:
    """``base``'s values, except after a play that leaves the mover (``board[0]``) home and the side
    on roll not: :func:`hybrid_probs` there."""

    prune: Any = None

    def __init__(self, base: Any) -> None:
        self.base = base
        self.version = f"{getattr(base, 'version', '?')}+hybrid"
        self.t = _Tables()

    def evaluate_boards(self, boards: np.ndarray) -> np.ndarray:
        b = np.ascontiguousarray(boards, np.int8).reshape(-1, 2, 25)
        out = np.array(self.base.evaluate_boards(b), np.float64)
        for i in range(b.shape[0]):
            if not is_contact(b[i]) and bo.in_one_sided(b[i, 0]) and not bo.in_one_sided(b[i, 1]):
                out[i] = hybrid_probs(self.t, b[i])
        return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", action="append", default=None, help="judge set(s) (default: judge_dev and judge_selfplay)")
    args = ap.parse_args(argv)
    net = NeuralEvaluator(load_weights(None))
    hyb = HybridRaceEvaluator(net)
    for path in args.set or SETS:
        recs = [r for r in load_records(path) if r["judge_category"] == "race"]
        losses: dict[str, list[float]] = {"net": [], "hybrid": []}
        for r in recs:
            d = r["dice"]
            plays = legal_plays(Position.from_id(r["position_id"]), (int(d[0]), int(d[1])))
            after = np.stack([p.after.to_array() for p in plays]).astype(np.int8)
            for name, ev in (("net", net), ("hybrid", hyb)):
                e = equity(evaluate_plays(after, 0, ev))  # the mover's equity (evaluate_plays: his side)
                losses[name].append(loss_of(r, plays[int(np.argmax(e))].after_id))
        a, b = np.array(losses["net"]), np.array(losses["hybrid"])
        se = lambda v: float(v.std(ddof=1) / math.sqrt(v.size))  # noqa: E731
        print(f"{path}: {a.size} race positions; {net.version} 0-ply {a.mean():.3f} ± {se(a):.3f}, with the hybrid "
              f"{b.mean():.3f} ± {se(b):.3f}, paired {(b - a).mean():+.3f} ± {se(b - a):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
