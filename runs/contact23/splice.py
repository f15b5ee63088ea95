"""A net with its contact net taken from another: the fits of runs/contact23 change only the contact net.

From the repository root: ``python runs/contact23/splice.py FIT BASE OUT VERSION``: OUT has FIT's contact net and
BASE's crashed and race nets, BASE's meta with ``version`` VERSION and ``contact_net_from`` FIT
(``runs/gen12/splice.py``'s :func:`take_net`, as ``runs/crash19/splice.py`` takes the crashed net).
"""
from __future__ import annotations

import sys

from bgtools.engine.nets.features import NET_CONTACT
from runs.gen12.splice import take_net


def main(fit: str, base: str, out: str, version: str) -> None:
    take_net(base, fit, NET_CONTACT, out, version, "contact_net_from")


if __name__ == "__main__":
    main(*sys.argv[1:5])
