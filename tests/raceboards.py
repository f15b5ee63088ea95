"""Hand-made race boards for the race-data tests."""

import numpy as np


def race_board(me: dict, opp: dict) -> np.ndarray:
    """int8[2, 25] with ``me`` (point index -> checkers) for the player on roll (``[1]``) and
    ``opp`` for his opponent (``[0]``), each indexed from its own side."""
    b = np.zeros((2, 25), np.int8)
    for i, n in me.items():
        b[1, i] = n
    for i, n in opp.items():
        b[0, i] = n
    return b
