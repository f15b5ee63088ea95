"""Encoding cost of issue 37's candidate inputs beside the shipped encoder's, per board.

Boards from the shipped net's self-play (seed 3701); each encoder timed over the same boards,
alternated ``--repeats`` times, best time kept.  Then each kernel of ``contactinputs`` alone,
for both sides of every contact board (``hit_stats_exact``: the move generator for every roll,
what the hit kernel replaced; "empty loop": the loop without a kernel, included in each).
Prints microseconds per board::

    PYTHONPATH=. python benchmarks/new_inputs_cost.py --games 200
"""

from __future__ import annotations

import argparse
import time

import numba as nb
import numpy as np

from bgtools.core.movegen import new_move_buffers
from bgtools.engine.nets import contactinputs as ci
from bgtools.engine.nets.contactinputs import encode_extra_batch
from bgtools.engine.nets.features import NET_RACE, encode_batch, net_classes
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.hitstats import hit_stats_exact
from bgtools.engine.nets.raceinputs import encode_race_extra_batch
from bgtools.training.selfplay import selfplay_games

KERNELS = ("empty loop", "checkers_off", "break_contact", "back_checker", "back_anchor", "forward_anchor",
           "hit_stats", "hit_stats_exact", "dance", "enter_loss", "containment", "mobility", "moment2", "timing",
           "backbone")


@nb.njit
def _kernel_loop(boards, k, buf) -> float:
    """Kernel ``KERNELS[k]`` on both sides of every board (a sum, so nothing is skipped)."""
    s = 0.0
    for i in range(boards.shape[0]):
        for side in range(2):
            me = boards[i, 1 - side]
            opp = boards[i, side]
            if k == 0:
                s += me[0]
            elif k == 1:
                s += ci.checkers_off(me)
            elif k == 2:
                s += ci.break_contact(me, opp)
            elif k == 3:
                s += ci.back_checker(me)
            elif k == 4:
                s += ci.back_anchor(me)
            elif k == 5:
                s += ci.forward_anchor(me)
            elif k == 6:
                a, b, c = ci.hit_stats(me, opp, buf)
                s += a + b + c
            elif k == 7:
                a, b, c = hit_stats_exact(me, opp, buf)
                s += a + b + c
            elif k == 8:
                s += ci.dance(opp)
            elif k == 9:
                s += ci.enter_loss(opp)
            elif k == 10:
                s += ci.containment(me, opp)
            elif k == 11:
                s += ci.mobility(me, opp)
            elif k == 12:
                s += ci.moment2(me)
            elif k == 13:
                s += ci.timing(me)
            else:
                s += ci.backbone(me)
    return s


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    boards = selfplay_games(load_weights(None), 0, args.games, 3701, explore=0.0)["boards"]
    cls = net_classes(boards)
    contact = np.ascontiguousarray(boards[(cls >= 0) & (cls != NET_RACE)])
    race = np.ascontiguousarray(boards[cls == NET_RACE])
    runs = {"shipped encoder (contact/crashed)": (encode_batch, contact),
            "contactinputs.encode_extra": (encode_extra_batch, contact),
            "shipped encoder (race)": (encode_batch, race),
            "raceinputs.encode_race_extra": (encode_race_extra_batch, race)}
    for fn, b in runs.values():
        fn(b[:2])  # compile
    best = {k: float("inf") for k in runs}
    for _ in range(args.repeats):
        for name, (fn, b) in runs.items():
            t0 = time.perf_counter()
            fn(b)
            best[name] = min(best[name], time.perf_counter() - t0)
    for name, (_, b) in runs.items():
        print(f"{name}: {1e6 * best[name] / max(len(b), 1):.2f} us a board ({len(b)} boards)")
    buf = new_move_buffers()
    _kernel_loop(contact[:2], 0, buf)  # compile
    kbest = [float("inf")] * len(KERNELS)
    for _ in range(args.repeats):
        for k in range(len(KERNELS)):
            t0 = time.perf_counter()
            _kernel_loop(contact, k, buf)
            kbest[k] = min(kbest[k], time.perf_counter() - t0)
    for name, t in zip(KERNELS, kbest):
        print(f"  {name}: {1e6 * t / max(len(contact), 1):.3f} us a board (both sides)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
