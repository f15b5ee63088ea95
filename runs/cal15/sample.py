"""The positions runs/cal15 rolls out: 4,000 contact positions drawn (seed 1515) from generation 13's self-play
(``DATA/gen13/data/positions.npz``; ``train selfplay`` remakes it), leaving out those runs/cal14 rolled out.

``python runs/cal15/sample.py POSITIONS.npz EXCLUDE_IDS.txt IDS.txt``: one Position ID a line, the player on roll's.
"""
from __future__ import annotations

import sys

import numpy as np

from bgtools.core.position import Position

WANT = {"CONTACT": 4000}
SEED = 1515


def main(src: str, exclude: str, out: str) -> None:
    boards = np.load(src)["boards"]
    with open(exclude, encoding="utf-8") as f:
        seen = {line.strip() for line in f if line.strip()}
    got = {k: 0 for k in WANT}
    ids = []
    for i in np.random.default_rng(SEED).permutation(len(boards)):
        p = Position.from_array(boards[i])
        c = p.classify().name
        pid = p.position_id()
        if c in WANT and got[c] < WANT[c] and pid not in seen:
            seen.add(pid)
            got[c] += 1
            ids.append(pid)
        if got == WANT:
            break
    with open(out, "w", encoding="utf-8") as f:
        f.write("".join(i + "\n" for i in ids))
    print(f"{out}: {len(ids)} positions {got}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
