"""The positions runs/cal15 (and runs/cal16) roll out: positions drawn from generation 13's self-play
(``DATA/gen13/data/positions.npz``; ``train selfplay`` remakes it), leaving out those of earlier sets.

``python runs/cal15/sample.py POSITIONS.npz EXCLUDE_IDS.txt[,MORE.txt...] IDS.txt [SEED CLASS=N ...]``: one
Position ID a line, the player on roll's.  Without SEED and counts: runs/cal15's draw, 4,000 contact positions,
seed 1515.
"""
from __future__ import annotations

import sys

import numpy as np

from bgtools.core.position import Position

WANT = {"CONTACT": 4000}
SEED = 1515


def main(src: str, exclude: str, out: str, seed: int = SEED, want: dict[str, int] | None = None) -> None:
    want = dict(want or WANT)
    boards = np.load(src)["boards"]
    seen: set[str] = set()
    for path in exclude.split(","):
        with open(path, encoding="utf-8") as f:
            seen.update(line.strip() for line in f if line.strip())
    got = {k: 0 for k in want}
    ids = []
    for i in np.random.default_rng(seed).permutation(len(boards)):
        p = Position.from_array(boards[i])
        c = p.classify().name
        pid = p.position_id()
        if c in want and got[c] < want[c] and pid not in seen:
            seen.add(pid)
            got[c] += 1
            ids.append(pid)
        if got == want:
            break
    with open(out, "w", encoding="utf-8") as f:
        f.write("".join(i + "\n" for i in ids))
    print(f"{out}: {len(ids)} positions {got}")


if __name__ == "__main__":
    extra = sys.argv[4:]
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(extra[0]) if extra else SEED,
         {k: int(v) for k, v in (a.split("=") for a in extra[1:])} if extra else None)
