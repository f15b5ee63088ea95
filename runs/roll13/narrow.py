"""A net's contact net narrowed to its ``WIDTH`` hidden units with the largest output weights (as runs/narrow38/fit.sh).

From the repository root: ``python runs/roll13/narrow.py NET WIDTH OUT``.
"""
from __future__ import annotations

import sys

import numpy as np

from bgtools.engine.nets.features import NET_CONTACT
from bgtools.engine.nets.nn import Weights


def main(net: str, width: str, out: str) -> None:
    w = Weights.load(net)
    W1, b1, W2 = list(w.W1), list(w.b1), list(w.W2)
    c = NET_CONTACT
    keep = np.sort(np.argsort(-np.linalg.norm(W2[c], axis=1))[:int(width)])
    W1[c], b1[c], W2[c] = np.ascontiguousarray(W1[c][:, keep]), b1[c][keep].copy(), np.ascontiguousarray(W2[c][keep])
    Weights(tuple(W1), tuple(b1), tuple(W2), tuple(w.b2),
            dict(w.meta, narrowed_from=w.meta.get("version"), contact_hidden=int(width))).save(out)


if __name__ == "__main__":
    main(*sys.argv[1:4])
