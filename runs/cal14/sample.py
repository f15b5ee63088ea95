"""The positions runs/cal14 rolls out: 3,000 contact and 600 crashed positions drawn (seed 1414) from generation 13's
self-play (``DATA/gen13/data/positions.npz``: gen12 plays 120,000 positions, seed 14; ``train selfplay`` remakes it).

``python runs/cal14/sample.py POSITIONS.npz IDS.txt``: one Position ID a line, the player on roll's.
"""
from __future__ import annotations

import sys

import numpy as np

from bgtools.core.position import Position

WANT = {"CONTACT": 3000, "CRASHED": 600}


def main(src: str, out: str) -> None:
    boards = np.load(src)["boards"]
    got = {k: 0 for k in WANT}
    ids = []
    for i in np.random.default_rng(1414).permutation(len(boards)):
        p = Position.from_array(boards[i])
        c = p.classify().name
        if c in WANT and got[c] < WANT[c]:
            got[c] += 1
            ids.append(p.position_id())
        if got == WANT:
            break
    with open(out, "w", encoding="utf-8") as f:
        f.write("".join(i + "\n" for i in ids))
    print(f"{out}: {len(ids)} positions {got}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
