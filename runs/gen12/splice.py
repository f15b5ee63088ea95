"""Give a fitted net the race net of another (the fits of runs/gen12 keep gen11's race net).

From the repository root: ``python runs/gen12/splice.py FIT RACE_FROM OUT VERSION``: OUT has FIT's contact and
crashed nets and RACE_FROM's race net, with FIT's meta and ``version`` VERSION.  :func:`take_net` is the splice
of any one class net (``runs/crash19/splice.py`` takes the crashed net).
"""
from __future__ import annotations

import sys

from bgtools.engine.nets.nn import NET_RACE, Weights


def take_net(base: str, donor: str, net: int, out: str, version: str, meta_key: str) -> None:
    """Write to ``out`` the nets of ``base`` with its class net ``net`` taken from ``donor``; ``base``'s meta with
    ``version`` and ``meta_key`` (naming the donor)."""
    q, g = Weights.load(base), Weights.load(donor)
    layers = [list(t) for t in q.arrays()]
    for mine, theirs in zip(layers, g.arrays()):
        mine[net] = theirs[net]
    Weights(*(tuple(t) for t in layers), dict(q.meta, version=version, **{meta_key: donor})).save(out)


def main(fit: str, race_from: str, out: str, version: str) -> None:
    take_net(fit, race_from, NET_RACE, out, version, "race_net_from")


if __name__ == "__main__":
    main(*sys.argv[1:5])
