"""Merge nets into one wider net whose outputs are the mean of theirs before the logistic function.

``python runs/ens14/merge.py OUT VERSION [--race-all] A B [C ...]``: the contact and crashed nets of A, B, ... side by side
(their hidden units concatenated, each output layer scaled by 1/k, the output biases averaged), so the merged net's
raw outputs are the mean of the nets' raw outputs: an ensemble that the kernels evaluate as one net.  A net without
the contact inputs gets zero rows for them.  The race net is A's.
"""
from __future__ import annotations

import sys

import numpy as np

from bgtools.engine.nets.nn import NET_RACE, Weights, add_contact_inputs


def merge(nets: list[Weights], race_all: bool = False) -> tuple[tuple, ...]:
    nets = [add_contact_inputs(w) if not w.wide else w for w in nets]
    k = len(nets)
    W1, b1, W2, b2 = [], [], [], []
    for c in range(3):
        if c == NET_RACE and not race_all:
            a = nets[0]
            W1.append(a.W1[c])
            b1.append(a.b1[c])
            W2.append(a.W2[c])
            b2.append(a.b2[c])
            continue
        W1.append(np.ascontiguousarray(np.concatenate([w.W1[c] for w in nets], 1)))
        b1.append(np.concatenate([w.b1[c] for w in nets]))
        W2.append(np.asfortranarray(np.concatenate([w.W2[c] / np.float32(k) for w in nets], 0), np.float32))
        b2.append((sum(w.b2[c] for w in nets) / np.float32(k)).astype(np.float32))
    return tuple(W1), tuple(b1), tuple(W2), tuple(b2)


def main(out: str, version: str, *paths: str) -> None:
    race_all = paths[0] == "--race-all"
    paths = paths[1:] if race_all else paths
    nets = [Weights.load(p) for p in paths]
    W1, b1, W2, b2 = merge(nets, race_all)
    meta = dict(nets[0].meta, version=version, merged_from=list(paths), hidden=[int(w.shape[1]) for w in W1])
    Weights(W1, b1, W2, b2, meta).save(out)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], *sys.argv[3:])
