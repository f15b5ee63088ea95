"""What reading the contact inputs costs a net (issue 37, item 3): per contact board, the
shipped encoder, the 36 inputs of ``contactinputs``, and the forward pass of a contact net
with 224 and with 260 inputs; one core, best of 5 passes over the boards::

    PYTHONPATH=. python benchmarks/wide_net_cost.py DATA.npz WIDE.npz
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bgtools.engine.nets.contactinputs import encode_extra_batch
from bgtools.engine.nets.features import N_INPUTS, NET_CONTACT, encode_batch
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import nn_forward


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", help=".npz with boards (e.g. a label stage's data/labelled.npz)")
    ap.add_argument("wide", help="a net that reads the contact inputs (.npz)")
    ap.add_argument("--boards", type=int, default=20_000)
    args = ap.parse_args(argv)
    with np.load(args.data) as z:
        b = np.ascontiguousarray(z["boards"][: 4 * args.boards], np.int8)
    cls, _ = encode_batch(b)
    b = np.ascontiguousarray(b[cls == NET_CONTACT][: args.boards])
    n = len(b)
    w0, w1 = load_weights(None, "rollout"), load_weights(args.wide)  # the plain shipped net, and a wide one
    if not w1.wide:
        ap.error(f"{args.wide}: its contact net does not read the contact inputs")

    def per_board(f) -> float:
        f()
        best = 1e9
        for _ in range(5):
            t0 = time.perf_counter()
            f()
            best = min(best, time.perf_counter() - t0)
        return best / n * 1e6

    x0 = np.ascontiguousarray(encode_batch(b)[1][:, :N_INPUTS[NET_CONTACT]])
    x1 = np.ascontiguousarray(np.concatenate([x0, encode_extra_batch(b)], axis=1))
    c = NET_CONTACT
    print(f"{n} contact boards, microseconds a board (best of 5):")
    print(f"  shipped encoder {per_board(lambda: encode_batch(b)):.2f}, "
          f"contact inputs {per_board(lambda: encode_extra_batch(b)):.2f}")
    print(f"  forward pass, {x0.shape[1]} inputs {per_board(lambda: nn_forward(x0, w0.W1[c], w0.b1[c], w0.W2[c], w0.b2[c])):.2f}, "
          f"{x1.shape[1]} inputs {per_board(lambda: nn_forward(x1, w1.W1[c], w1.b1[c], w1.W2[c], w1.b2[c])):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
