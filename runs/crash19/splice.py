"""A net with one of its class nets taken from another: the fits of runs/crash19 change only the crashed net.

From the repository root: ``python runs/crash19/splice.py FIT BASE OUT VERSION``: OUT has FIT's crashed net and
BASE's contact and race nets, BASE's meta with ``version`` VERSION and ``crashed_net_from`` FIT
(``runs/gen12/splice.py``'s :func:`take_net`).
"""
from __future__ import annotations

import sys

from bgtools.engine.nets.features import NET_CRASHED
from runs.gen12.splice import take_net


def main(fit: str, base: str, out: str, version: str) -> None:
    take_net(base, fit, NET_CRASHED, out, version, "crashed_net_from")


if __name__ == "__main__":
    main(*sys.argv[1:5])
