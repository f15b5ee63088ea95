"""Decision-focused training rows (issue 37, item 4): the plays where a shallow look and a deeper one part.

A net is judged by the play it picks among the plays of one roll, and the rows that teach it
that are the positions after those plays, not the positions before a roll that the label stage
values.  Here each position (``[1]`` on roll, before his roll) gets one seeded roll
(:func:`roll_dice`, a function of the seed and the row's number alone); every legal play of it is
valued at 0 ply, and the best few (``keep`` within ``threshold`` of the best, as the analysis
filters them) again at ``ply``, with the label stage's search and pruning net.  Every play valued at
``ply`` gives a row: the board after it (the opponent on roll) and the deep probabilities of the
player on roll there, so a row means what a label row means.  Each row carries its roll's number
and flags: :data:`PICK0` for the 0-ply pick, :data:`PICK_DEEP` for the deep pick.  Where the two
picks differ, the net's own choice was wrong by its own deeper search: gnubg's net-building loop
trains on both positions of each such roll (:func:`select_rows` with ``"pairs"``); ``"candidates"``
keeps every deep-valued play (the close siblings of every roll).

In a race the deep values can instead be rollouts (``trials``): each deep-valued play is rolled
out ``trials`` times with variance reduction by the net at 0 ply with the bear-off databases
(:mod:`bgtools.training.racedata`, as the race-data stage labels), the plays of one roll on the
same dice (the roll's number fixes them), so that their differences carry little of the dice's
noise.  Item 2's "race targets from rollouts" for the rows that decide picks.

Only our own net, search and bear-off databases are used: nothing here comes from another program.
"""

from __future__ import annotations

import time
from contextlib import closing
from pathlib import Path
from typing import Any, Callable, NamedTuple, Optional

import numpy as np

from bgtools.base.parallel import ordered_map
from bgtools.core.movegen import is_contact, legal_plays
from bgtools.core.position import Position
from bgtools.engine.evaluation import MoveFilter, equity, evaluate_boards
from bgtools.engine.nets.nn import NeuralEvaluator, Weights
from bgtools.engine.nets.prune import Pruning
from bgtools.training.datasets import load_npz, part_path, save_npz
from bgtools.training.label import array_tag, parts_to_make
from bgtools.training.racedata import race_rollout_targets

__all__ = ["PICK0", "PICK_DEEP", "ROWS", "DecisionSearch", "roll_dice", "first_contact", "decision_rows", "decision_chunks",
           "select_rows"]

PICK0 = 1  #: flag of the play the net picks at 0 ply
PICK_DEEP = 2  #: flag of the play it picks at the deeper ply
ROWS = ("pairs", "candidates")


class DecisionSearch(NamedTuple):
    """How :func:`decision_rows` values a roll's plays (its keyword arguments, bundled for the parts)."""

    ply: int = 2
    seed: int = 1
    move_filter: MoveFilter = MoveFilter()
    pruning: Optional[Pruning] = None
    trials: int = 0


def roll_dice(seed: int, index: int) -> tuple[int, int]:
    """The roll of position ``index`` (the same whatever the parts): two dice, 1 to 6."""
    d = np.random.default_rng([seed, 4_637, index]).integers(1, 7, 2)
    return int(d[0]), int(d[1])


def first_contact(boards: np.ndarray) -> Optional[int]:
    """The index of the first of ``boards`` (int8[n, 2, 25]) in contact, or None when all are races
    (rollout rows take race positions only)."""
    return next((i for i in range(boards.shape[0]) if is_contact(boards[i])), None)


def decision_rows(boards: np.ndarray, first: int, weights: Weights, ply: int = 2, seed: int = 1,
                  move_filter: MoveFilter = MoveFilter(), pruning: Optional[Pruning] = None,
                  trials: int = 0) -> dict[str, np.ndarray]:
    """The deep-valued plays of one seeded roll of each of ``boards`` (int8[n, 2, 25], position
    ``first + i`` for row ``i``): ``boards`` after each play (the opponent on roll), ``targets``
    float32[m, 5] at ``ply`` for the player on roll there, ``roll`` int64 (the position's
    number), ``pick`` int8 flags (:data:`PICK0`, :data:`PICK_DEEP`) and ``gap`` float32 (the deep
    equity the roll's 0-ply pick gives up against its deep pick, on every row of the roll).
    A roll with one legal play (or none) gives no row.  ``trials`` > 0: the deep values are
    variance-reduced race rollouts of that many trials instead (race positions only: ValueError
    naming the first position in contact)."""
    ev = NeuralEvaluator(weights, prune=pruning)
    b = np.ascontiguousarray(boards, np.int8).reshape(-1, 2, 25)
    if trials < 0:
        raise ValueError(f"trials must be 0 (the search at ply) or more, not {trials}")
    contact = first_contact(b) if trials else None
    if contact is not None:
        raise ValueError(f"position {first + contact} is not a race: decisions by rollout take race positions "
                         "(train selfplay --classes race)")
    afters: list[np.ndarray] = []
    offs = [0]
    numbers: list[int] = []
    for i in range(b.shape[0]):
        plays = legal_plays(Position.from_array(b[i]), roll_dice(seed, first + i))
        if len(plays) < 2:
            continue
        afters.extend(p.after.to_array() for p in plays)
        offs.append(len(afters))
        numbers.append(first + i)
    if not numbers:
        return {"boards": np.zeros((0, 2, 25), np.int8), "targets": np.zeros((0, 5), np.float32),
                "roll": np.zeros(0, np.int64), "pick": np.zeros(0, np.int8), "gap": np.zeros(0, np.float32)}
    after = np.stack(afters).astype(np.int8)
    mover0 = -equity(evaluate_boards(after, 0, ev))  # the mover's equity: minus that of the side on roll after
    cand: list[int] = []
    for k in range(len(numbers)):
        e = mover0[offs[k]:offs[k + 1]]
        cand.extend(offs[k] + int(j) for j in move_filter.select(e))
    rows = np.array(cand, np.int64)
    which = np.repeat(np.arange(len(numbers)), np.diff(offs))[rows]  # each row's roll, 0 .. rolls - 1
    if trials:  # the plays of one roll on the dice of its number
        deep = race_rollout_targets(after[rows], weights, trials, seed, vr=True,
                                    rows=np.array(numbers, np.int64)[which]).astype(np.float64)
    else:
        deep = evaluate_boards(after[rows], ply, ev)
    mover_deep = np.full(after.shape[0], -np.inf)
    mover_deep[rows] = -equity(deep)
    pick = np.zeros(rows.size, np.int8)
    gaps = np.empty(len(numbers), np.float32)
    pos = {int(r): n for n, r in enumerate(rows)}
    for k in range(len(numbers)):
        lo, hi = offs[k], offs[k + 1]
        p0 = lo + int(np.argmax(mover0[lo:hi]))  # first of equals, as the analysis ranks them
        pd = lo + int(np.argmax(mover_deep[lo:hi]))
        pick[pos[p0]] |= PICK0
        pick[pos[pd]] |= PICK_DEEP
        gaps[k] = mover_deep[pd] - mover_deep[p0]
    roll, gap = np.array(numbers, np.int64)[which], gaps[which]
    return {"boards": after[rows], "targets": deep.astype(np.float32), "roll": roll, "pick": pick, "gap": gap}


def _part_matches(path: Path, boards: np.ndarray) -> bool:
    try:
        return str(load_npz(path, "boards_sha256")["boards_sha256"]) == array_tag(boards)
    except (OSError, ValueError):
        return False


def _decision_part(task: tuple) -> tuple[dict[str, np.ndarray], float]:
    """A worker's part: :func:`decision_rows` of its positions, and the seconds it took."""
    rows, first, weights, search = task
    t0 = time.perf_counter()
    return decision_rows(rows, first, weights, **search._asdict()), time.perf_counter() - t0


def decision_chunks(boards: np.ndarray, weights: Weights, folder: str | Path,
                    search: DecisionSearch = DecisionSearch(), chunk: int = 1000, max_chunks: Optional[int] = None,
                    progress: Optional[Callable[[int, int, int, float], None]] = None,
                    jobs: int = 1, dask: Any = None) -> int:
    """:func:`decision_rows` of ``boards`` (valued as ``search`` says) chunk by chunk into
    ``folder/part-NNNNN.npz`` (its arrays, ``index`` of the chunk's first position and
    ``boards_sha256`` of the positions); a part made from the same positions is kept (resume).
    At most ``max_chunks`` new parts.  ``progress(k, rows, n_parts, seconds)`` after each.  The
    parts are made ``jobs`` at a time in local worker processes, or one task per part on the Dask
    scheduler ``dask``; each is the same whatever makes it.  Returns the parts that match
    ``boards`` (done when it is ``ceil(n / chunk)``)."""
    n_parts = (boards.shape[0] + chunk - 1) // chunk
    todo, good = parts_to_make(boards, folder, chunk, max_chunks, _part_matches)
    tasks = ((boards[k * chunk:(k + 1) * chunk], k * chunk, weights, search) for k in todo)
    with closing(ordered_map(_decision_part, tasks, jobs=min(jobs, max(1, len(todo))), dask=dask)) as results:
        for k, (d, seconds) in zip(todo, results):
            save_npz(part_path(folder, k), **d, index=np.array([k * chunk], np.int64),
                     boards_sha256=np.array(array_tag(boards[k * chunk:(k + 1) * chunk])))
            good += 1
            if progress is not None:
                progress(k, int(d["roll"].size), n_parts, seconds)
    return good


def select_rows(pick: np.ndarray, gap: np.ndarray, rows: str = "pairs", margin: float = 0.0) -> np.ndarray:
    """Boolean mask of the rows a data set keeps: ``"pairs"``, the 0-ply and the deep pick of
    each roll where the deep pick is better by more than ``margin`` (in equity); ``"candidates"``,
    every row.

    >>> select_rows(np.array([3, 0, 1, 2, 0], np.int8), np.array([0, 0, .01, .01, .01], np.float32)).tolist()
    [False, False, True, True, False]
    """
    if rows == "candidates":
        return np.ones(pick.shape[0], bool)
    if rows != "pairs":
        raise ValueError(f"rows must be one of {', '.join(ROWS)}, not {rows!r}")
    return (pick != 0) & (gap > margin)
