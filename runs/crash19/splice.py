"""A net with one of its class nets taken from another: the fits of runs/crash19 change only the crashed net.

From the repository root: ``python runs/crash19/splice.py FIT BASE OUT VERSION``: OUT has FIT's crashed net and
BASE's contact and race nets, BASE's meta with ``version`` VERSION and ``crashed_net_from`` FIT.
"""
from __future__ import annotations

import sys

from bgtools.engine.nets.features import NET_CRASHED
from bgtools.engine.nets.nn import Weights


def main(fit: str, base: str, out: str, version: str) -> None:
    q, g = Weights.load(fit), Weights.load(base)
    layers = [list(t) for t in g.arrays()]
    for mine, theirs in zip(layers, q.arrays()):
        mine[NET_CRASHED] = theirs[NET_CRASHED]
    Weights(*(tuple(t) for t in layers), dict(g.meta, version=version, crashed_net_from=fit)).save(out)


if __name__ == "__main__":
    main(*sys.argv[1:5])
