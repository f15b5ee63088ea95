"""Race targets from our own rollouts (issue 37, item 2): the labels of the race-data stage.

Each race position (player on roll ``[1]``, before his roll) is played out ``trials`` times by
the net at 0 ply (or 1) with our bear-off databases (:func:`bgtools.engine.chooser.choose` with
``bearoff`` on); a trial stops where :func:`bgtools.engine.chooser.exact_probs` values the
position (the game is over, the two-sided database, or both sides home: the one-sided
databases) and takes that value.  The target is the mean of the five cumulative outputs over
the trials, from the root player's side.  A position the databases value is labelled from them
directly ("bear-off positions exactly").

Row ``i`` of a data set draws its dice from seed ``(seed * 1_000_003 + i) mod 2**32`` whatever
part it falls in, so parts can be labelled in any order, stopped and resumed, and give the same
bytes.  Only our own nets and databases are used.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Optional

import numba as nb
import numpy as np

from bgtools.engine.bearoff import load_databases
from bgtools.engine.chooser import choose, exact_probs, make_chooser, new_chooser_buffers, swap_into
from bgtools.engine.nets.nn import Weights
from bgtools.engine.play import MAX_TURNS
from bgtools.training.datasets import load_npz, part_path, save_npz
from bgtools.training.label import array_tag

__all__ = ["row_seed", "race_rollout_targets", "race_label_chunks"]


@nb.njit(cache=True)
def row_seed(seed, row) -> int:
    """The dice seed of data-set row ``row``."""
    return (seed * 1_000_003 + row) % 4294967296


@nb.njit(cache=True)
def _root_view(p, root_on_roll, acc) -> None:
    """Add ``p`` (the outputs of the side on roll) to ``acc`` seen from the root player."""
    if root_on_roll:
        for k in range(5):
            acc[k] += p[k]
    else:
        acc[0] += 1.0 - p[0]
        acc[1] += p[3]
        acc[2] += p[4]
        acc[3] += p[1]
        acc[4] += p[2]


@nb.njit(cache=True)
def _race_rollout_kernel(ch, boards, first_row, trials, seed):
    n = boards.shape[0]
    out = np.zeros((n, 5), np.float64)
    buf = new_chooser_buffers(ch.net)
    bp = np.empty(5, np.float64)
    p = np.empty(5, np.float64)
    acc = np.zeros(5, np.float64)
    board = np.empty((2, 25), np.int8)
    for r in range(n):
        if exact_probs(boards[r], True, ch.tables, p):
            out[r] = p
            continue
        np.random.seed(row_seed(seed, first_row + r))
        acc[:] = 0.0
        for _ in range(trials):
            board[:] = boards[r]
            root = True  # the root player is on roll
            for _turn in range(MAX_TURNS):
                d1 = np.random.randint(1, 7)
                d2 = np.random.randint(1, 7)
                i = choose(board, d1, d2, ch, buf, bp)
                if i >= 0:
                    swap_into(buf.mine.boards[i], board)
                else:
                    swap_into(board.copy(), board)
                root = not root
                if exact_probs(board, True, ch.tables, p):
                    _root_view(p, root, acc)
                    break
        for k in range(5):
            out[r, k] = acc[k] / trials
    return out


def race_rollout_targets(boards: np.ndarray, weights: Weights, trials: int, seed: int, first_row: int = 0,
                         ply: int = 0) -> np.ndarray:
    """float32[n, 5] rollout targets of race ``boards`` (int8[n, 2, 25], rows ``first_row`` ..
    of their data set, which fixes their dice); the players choose at ``ply`` (0 or 1)."""
    if trials < 1:
        raise ValueError(f"trials must be 1 or more, not {trials}")
    if ply not in (0, 1):
        raise ValueError(f"ply must be 0 or 1, not {ply}")
    ch = make_chooser(weights.arrays(), ply, tables=load_databases().tables())
    b = np.ascontiguousarray(boards, np.int8).reshape(-1, 2, 25)
    t = _race_rollout_kernel(ch, b, int(first_row), int(trials), int(seed))
    return np.clip(t, 0.0, 1.0).astype(np.float32)  # the one-sided sums can round to -1e-18


def race_label_chunks(boards: np.ndarray, weights: Weights, folder: str | Path, trials: int, seed: int,
                      chunk: int = 1000, max_chunks: Optional[int] = None,
                      progress: Optional[Callable[[int, int, int, float], None]] = None, ply: int = 0) -> int:
    """Label ``boards`` into ``folder/part-NNNNN.npz`` as the label stage does (``targets``,
    ``index``, ``boards_sha256``; a part made from the same rows is kept); at most ``max_chunks``
    new parts.  Returns the number of parts that match ``boards``."""
    n = boards.shape[0]
    n_parts = (n + chunk - 1) // chunk
    good = new = 0
    for k in range(n_parts):
        rows = boards[k * chunk:(k + 1) * chunk]
        path = part_path(folder, k)
        if path.is_file() and str(load_npz(path, "boards_sha256")["boards_sha256"]) == array_tag(rows):
            good += 1
            continue
        if max_chunks is not None and new >= max_chunks:
            continue
        t0 = time.perf_counter()
        t = race_rollout_targets(rows, weights, trials, seed, k * chunk, ply)
        save_npz(path, targets=t, index=np.array([k * chunk], np.int64), boards_sha256=np.array(array_tag(rows)))
        good += 1
        new += 1
        if progress is not None:
            progress(k, t.shape[0], n_parts, time.perf_counter() - t0)
    return good
