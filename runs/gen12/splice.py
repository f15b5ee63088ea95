"""Give a fitted net the race net of another (the fits of runs/gen12 keep gen11's race net).

From the repository root: ``python runs/gen12/splice.py FIT RACE_FROM OUT VERSION``: OUT has FIT's contact and
crashed nets and RACE_FROM's race net, with FIT's meta and ``version`` VERSION.
"""
from __future__ import annotations

import sys

from bgtools.engine.nets.nn import NET_RACE, Weights


def main(fit: str, race_from: str, out: str, version: str) -> None:
    q, g = Weights.load(fit), Weights.load(race_from)
    layers = [list(t) for t in q.arrays()]
    for mine, theirs in zip(layers, g.arrays()):
        mine[NET_RACE] = theirs[NET_RACE]
    Weights(*(tuple(t) for t in layers), dict(q.meta, version=version, race_net_from=race_from)).save(out)


if __name__ == "__main__":
    main(*sys.argv[1:5])
