"""Encoding cost of issue 37's candidate inputs beside the shipped encoder's, per board.

Boards from the shipped net's self-play (seed 3701); each encoder timed over the same boards,
alternated ``--repeats`` times, best time kept.  Prints microseconds per board::

    PYTHONPATH=. python benchmarks/new_inputs_cost.py --games 200
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bgtools.engine.nets.contactinputs import encode_extra_batch
from bgtools.engine.nets.features import NET_RACE, encode_batch, net_classes
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.raceinputs import encode_race_extra_batch
from bgtools.training.selfplay import selfplay_games


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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
