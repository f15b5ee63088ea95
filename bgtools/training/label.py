"""Targets for supervised training: our own net searched deeper (1 ply by default).

``label_boards`` values positions with :func:`bgtools.engine.evaluation.evaluate_boards` at
``ply`` around a :class:`~bgtools.engine.nets.nn.NeuralEvaluator`: finished games and positions in
bgtools' own bear-off databases exact, everything else averaged over the 21 rolls of the best
0-ply reply.  No value from any other program enters.  ``label_chunks`` does it chunk by chunk
into part files so that a stopped run resumes where it stopped and ends identical.

Deeper targets for a subset: :func:`disagreement` scores each labelled row by how far its
target's equity moved from the labelling net's own 0-ply value (the positions where a shallow
look and a deeper one disagree most), and :func:`select_rows` picks the rows a deeper search
(2 ply) then labels again.
"""

from __future__ import annotations

import hashlib
import time
from contextlib import closing
from pathlib import Path
from typing import Any, Callable, Optional

import numpy as np

from bgtools.base.parallel import ordered_map
from bgtools.engine.evaluation import evaluate_boards
from bgtools.engine.nets.nn import NeuralEvaluator, Weights
from bgtools.engine.nets.prune import Pruning, load_default_pruning
from bgtools.training.datasets import part_path, save_npz

__all__ = ["label_boards", "label_chunks", "array_tag", "disagreement", "select_rows", "SELECTIONS"]

SELECTIONS = ("disagree", "random")


def shipped_pruning() -> Pruning:
    """The shipped pruning net every data set so far was labelled with (``prune-20261201-gen4``, the rollout net's),
    for labelling with ``prune`` on, so that a run's seeds give the same targets (an error when none is shipped)."""
    p = load_default_pruning("rollout")
    if p is None:
        raise ValueError("no pruning net is shipped (bgtools/data/prune_weights.npz)")
    return p


def label_boards(boards: np.ndarray, weights: Weights, ply: int = 1, batch: int = 512,
                 pruning: Optional[Pruning] = None) -> np.ndarray:
    """float32[n, 5] targets for int8[n, 2, 25] boards (player on roll ``[1]``), in batches;
    ``pruning``: the search ranks each roll's replies with that pruning net (None: the net
    values every reply)."""
    ev = NeuralEvaluator(weights, prune=pruning)
    b = np.ascontiguousarray(boards, np.int8).reshape(-1, 2, 25)
    out = np.empty((b.shape[0], 5), np.float32)
    for lo in range(0, b.shape[0], batch):
        out[lo:lo + batch] = evaluate_boards(b[lo:lo + batch], ply, ev)
    return out


def disagreement(boards: np.ndarray, targets: np.ndarray, weights: Weights, batch: int = 8192) -> np.ndarray:
    """float64[n]: |cubeless equity of ``targets`` - the net's 0-ply equity| of each row."""
    ev = NeuralEvaluator(weights)
    b = np.ascontiguousarray(boards, np.int8).reshape(-1, 2, 25)
    t = np.asarray(targets, np.float64)
    out = np.empty(b.shape[0], np.float64)
    for lo in range(0, b.shape[0], batch):
        out[lo:lo + batch] = np.abs(_equity(t[lo:lo + batch]) - _equity(evaluate_boards(b[lo:lo + batch], 0, ev)))
    return out


def _equity(p: np.ndarray) -> np.ndarray:
    return 2.0 * p[:, 0] - 1.0 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]


def select_rows(score: np.ndarray, count: int, how: str = "disagree", seed: int = 1) -> np.ndarray:
    """Ascending indices of ``count`` rows: the highest ``score`` (ties: the earlier row) for
    ``"disagree"``, a seeded uniform sample for ``"random"`` (the control)."""
    n = score.shape[0]
    count = max(0, min(int(count), n))
    if how == "disagree":
        order = np.lexsort((np.arange(n), -np.asarray(score, np.float64)))
        return np.sort(order[:count])
    if how == "random":
        return np.sort(np.random.default_rng([seed, 424_243]).choice(n, count, replace=False))
    raise ValueError(f"selection must be one of {', '.join(SELECTIONS)}, not {how!r}")


def array_tag(a: np.ndarray) -> str:
    """A short hash of an array's bytes (which rows a part file holds)."""
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]


def _part_matches(path: Path, boards: np.ndarray) -> bool:
    try:
        with np.load(path, allow_pickle=False) as z:
            return str(z["boards_sha256"]) == array_tag(boards) and z["targets"].shape[0] == boards.shape[0]
    except (OSError, KeyError, ValueError, EOFError):
        return False


def parts_to_make(boards: np.ndarray, folder: str | Path, chunk: int, max_chunks: Optional[int],
                  matches: Callable[[Path, np.ndarray], bool]) -> tuple[list[int], int]:
    """(the parts to make, at most ``max_chunks``; how many already match) of ``boards`` cut into
    parts of ``chunk`` rows in ``folder``: a part is kept when ``matches(its path, its rows)``."""
    todo: list[int] = []
    good = 0
    for k in range((boards.shape[0] + chunk - 1) // chunk):
        if matches(part_path(folder, k), boards[k * chunk:(k + 1) * chunk]):
            good += 1
        elif max_chunks is None or len(todo) < max_chunks:
            todo.append(k)
    return todo, good


def _label_part(task: tuple) -> tuple[np.ndarray, float]:
    """A worker's part: ``label_boards(rows, weights, ply, pruning=pruning)`` and the seconds it took."""
    rows, weights, ply, pruning = task
    t0 = time.perf_counter()
    return label_boards(rows, weights, ply, pruning=pruning), time.perf_counter() - t0


def label_chunks(boards: np.ndarray, weights: Weights, folder: str | Path, ply: int = 1, chunk: int = 5000,
                 max_chunks: Optional[int] = None,
                 progress: Optional[Callable[[int, int, int, float], None]] = None,
                 jobs: int = 1, dask: Any = None, pruning: Optional[Pruning] = None) -> int:
    """Label ``boards`` into ``folder/part-NNNNN.npz`` (``targets``, ``index`` of the first row,
    ``boards_sha256`` of the rows labelled).

    A part already there is kept when it was made from the same rows (resume; also when the
    data set grew: only new or changed chunks are labelled), else labelled again.  At most
    ``max_chunks`` parts are (re)labelled (None: all).  ``progress(k, rows, n_parts, seconds)``
    is called after each (``seconds``: the part's own labelling time, wherever it ran).  Returns the number of parts that match ``boards``; the labelling is done when
    it equals ``ceil(n / chunk)``.  The parts are labelled ``jobs`` at a time in local worker
    processes, or one task per part on the Dask scheduler ``dask``
    (:func:`bgtools.base.parallel.ordered_map`); each part file is written here, in order, and
    is the same whatever runs it.  ``pruning``: as :func:`label_boards`.
    """
    n_parts = (boards.shape[0] + chunk - 1) // chunk
    todo, good = parts_to_make(boards, folder, chunk, max_chunks, _part_matches)
    tasks = ((boards[k * chunk:(k + 1) * chunk], weights, ply, pruning) for k in todo)
    with closing(ordered_map(_label_part, tasks, jobs=min(jobs, max(1, len(todo))), dask=dask)) as results:
        for k, (t, seconds) in zip(todo, results):
            lo = k * chunk
            rows = boards[lo:lo + chunk]
            save_npz(part_path(folder, k), targets=t, index=np.array([lo], np.int64),
                     boards_sha256=np.array(array_tag(rows)))
            good += 1
            if progress is not None:
                progress(k, t.shape[0], n_parts, seconds)
    return good
