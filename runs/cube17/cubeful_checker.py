"""A study for issue 35: rank the analysis's close checker plays by a cubeful lookahead (each play's position
valued by :class:`bgtools.engine.cubeful.cubesearch.CubeSearch` at 2 ply: every node takes its own cube decision and
the leaves are cubeful) instead of the 2-ply cubeless probabilities run through the cube formula once at the root,
and count how often the first play is XG's (the same plays as ``benchmarks/xg_agreement.py --ply 2``).

    PYTHONPATH=.:benchmarks python runs/cube17/cubeful_checker.py [--window 0.06] [--keep 4] [--depth 2] [--no-prune]
        [--files F.xg ...]
"""
from __future__ import annotations

import argparse
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
from xg_agreement import GAPS, _after, default_files, gap_bucket, xg_plays

from bgtools.analysis import AnalysisSettings, analyse_match
from bgtools.core.matchstate import MatchState
from bgtools.engine.cubeful.cube import CubeInfo
from bgtools.engine.cubeful.cubesearch import CubeSearch
from bgtools.engine.evaluation import default_evaluator
from bgtools.formats import read_match
from bgtools.model.resolve import apply_steps


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--window", type=float, default=0.06)
    ap.add_argument("--keep", type=int, default=4)
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--no-prune", action="store_true", help="every reply valued by the full net (no pruning net)")
    ap.add_argument("--files", nargs="*", type=Path, default=None)
    args = ap.parse_args()
    ev = default_evaluator()
    if args.no_prune:
        from bgtools.engine.nets.nn import NeuralEvaluator

        assert isinstance(ev, NeuralEvaluator)
        ev = NeuralEvaluator(ev.weights, prune=None, rollout_weights=ev.rollout_weights)
    same = {"before": defaultdict(lambda: [0, 0]), "after": defaultdict(lambda: [0, 0])}
    cost = {"before": [], "after": []}
    changed = 0
    t0 = time.process_time()
    for f in args.files or default_files():
        m = read_match(f)
        a = analyse_match(m, evaluator=ev, settings=AnalysisSettings(ply=2), cache=None)
        search = CubeSearch(ev)
        for d, pos, _, xg, eqs in xg_plays(m, a):
            bucket = gap_bucket(eqs[0] - max(eqs[1:]))
            cands = list(d.candidates)  # the analysis's order: the deepest-valued plays first, best first
            close = [c for c in cands if c.ply == cands[0].ply and c.equity >= cands[0].equity - args.window]
            close = close[:args.keep]
            pick = cands[0]
            if len(close) > 1:
                info = CubeInfo.from_state(MatchState.from_match_id(d.match_id))
                boards = np.stack([apply_steps(pos, c.steps)[0].to_array() for c in close]).astype(np.int8)
                theirs = search.node(boards, info.flipped(), args.depth)
                mine = -theirs if info.money else 1.0 - theirs
                pick = close[int(np.argmax(mine))]
            changed += pick is not cands[0]
            for name, c in (("before", cands[0]), ("after", pick)):
                after = _after(pos, c.steps)
                hit = after == xg[0]
                for b in ("all", bucket):
                    same[name][b][0] += hit
                    same[name][b][1] += 1
                k = next((i for i, x in enumerate(xg) if x == after), None)
                if k is not None:
                    cost[name].append(max(0.0, eqs[0] - eqs[k]))
        print(f"{f.name}: done, {time.process_time() - t0:.0f} CPU s", flush=True)
    for name in ("before", "after"):
        h, n = same[name]["all"]
        print(f"{name}: same play {100 * h / n:.1f}% ({h}/{n}); advice PR by XG {500 * np.mean(cost[name]):.2f}; "
              + ", ".join(f"{g} {100 * same[name][g][0] / max(1, same[name][g][1]):.1f}%" for _, g in GAPS))
    print(f"first play changed on {changed} plays; window {args.window}, keep {args.keep}, depth {args.depth}, "
          f"{'no pruning' if args.no_prune else 'pruned replies'}; "
          f"{time.process_time() - t0:.0f} CPU s")


if __name__ == "__main__":
    main()
