"""Hand-made boards for the tests (inputs, race data, move generation)."""

import numpy as np


def race_board(me: dict, opp: dict) -> np.ndarray:
    """int8[2, 25] (any position, not only a race) with ``me`` (point index -> checkers) for
    the player on roll (``[1]``) and ``opp`` for his opponent (``[0]``), each indexed from its
    own side."""
    b = np.zeros((2, 25), np.int8)
    for i, n in me.items():
        b[1, i] = n
    for i, n in opp.items():
        b[0, i] = n
    return b


def side(**pts: int) -> np.ndarray:
    """A 25-slot side from keywords ``p<i>=n`` (index ``i``) and ``bar=n``."""
    s = np.zeros(25, np.int8)
    for k, n in pts.items():
        s[24 if k == "bar" else int(k[1:])] = n
    return s


def board(me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """The board of two sides in gnubg order: ``[1]`` (``me``) on roll."""
    return np.stack([opp, me]).astype(np.int8)
