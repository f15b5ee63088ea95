"""Race targets from our own rollouts (issue 37, item 2): the labels of the race-data stage.

Each race position (player on roll ``[1]``, before his roll) is played out ``trials`` times by
the net at 0 ply (or 1) with our bear-off databases (:func:`bgtools.engine.chooser.choose` with
``bearoff`` on); a trial stops where :func:`bgtools.engine.chooser.exact_probs` values the
position (the game is over, the two-sided database, or both sides home: the one-sided
databases) and takes that value.  The target is the mean of the five cumulative outputs over
the trials, from the root player's side.  A position the databases value is labelled from them
directly ("bear-off positions exactly").

Variance reduction (``vr``; the rollout engine's method, after Jellyfish and gnubg, in a kernel
of its own here): before each roll of a trial the mover's 0-ply play for each of the 21 rolls
is found (:func:`bgtools.engine.chooser.best_play0`) and the resulting position valued
statically (exactly where the databases value it); the luck of the roll that came, its five
outputs minus their mean over the 36 rolls, is added up from the root player's side and
subtracted from the trial's result.  Each luck term has mean zero whatever the position, so the
target stays unbiased; with exact static values every trial gives the exact value.  The dice
are the same as without it (the luck draws no random numbers).  At 1 ply the players still
choose at 1 ply and the luck is measured by the 0-ply plays.  The root's 21 plays are found
once per row, not once per trial.

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

from bgtools.core.dice import ROLL_INDEX, ROLL_WEIGHTS, ROLLS
from bgtools.engine.bearoff import load_databases
from bgtools.engine.chooser import best_play0, choose, exact_probs, make_chooser, new_chooser_buffers, swap_into
from bgtools.engine.nets.nn import Weights, equity_from_probs
from bgtools.engine.outputs import add_change, add_outputs
from bgtools.engine.play import MAX_TURNS
from bgtools.training.datasets import load_npz, part_path, save_npz
from bgtools.training.label import array_tag

__all__ = ["row_seed", "race_rollout_targets", "race_rollout_stats", "race_label_chunks"]


@nb.njit(cache=True)
def row_seed(seed, row) -> int:
    """The dice seed of data-set row ``row``."""
    return (seed * 1_000_003 + row) % 4294967296


@nb.njit(cache=True)
def _all_rolls(board, ch, buf, done, bp, vr_p, vr_b, vr_has, mean) -> None:
    """The mover's (``board[1]``) 0-ply play for each of the 21 rolls: the resulting boards
    (his side ``[1]``) in ``vr_b``, whether one is legal in ``vr_has``, their static outputs
    for the opponent on roll in ``vr_p``, and the mean over the 36 rolls in ``mean``."""
    done[0] = 0
    done[1] = 0
    mb = buf.mine.boards
    for q in range(21):
        i = best_play0(board, ROLLS[q, 0], ROLLS[q, 1], ch, buf, bp, done, None, 1, False)
        vr_has[q] = i >= 0
        if i >= 0:
            vr_b[q] = mb[i]
        vr_p[q] = bp
    for k in range(5):
        m = 0.0
        for q in range(21):
            m += ROLL_WEIGHTS[q] * vr_p[q, k]
        mean[k] = m


@nb.njit(cache=True)
def _race_rollout_kernel(ch, boards, rows, trials, seed, vr):
    n = boards.shape[0]
    out = np.zeros((n, 5), np.float64)
    sd = np.zeros(n, np.float64)  # per-trial standard deviation of the cubeless equity
    buf = new_chooser_buffers(ch.net)
    bp = np.empty(5, np.float64)
    p = np.empty(5, np.float64)
    acc = np.zeros(5, np.float64)
    res = np.zeros(5, np.float64)
    luck = np.zeros(5, np.float64)
    dl = np.zeros(5, np.float64)
    board = np.empty((2, 25), np.int8)
    done = np.zeros(2, np.int64)
    mean = np.zeros(5, np.float64)
    vr_p = np.zeros((21, 5), np.float64)
    vr_b = np.zeros((21, 2, 25), np.int8)
    vr_has = np.zeros(21, np.bool_)
    root_mean = np.zeros(5, np.float64)
    root_p = np.zeros((21, 5), np.float64)
    root_b = np.zeros((21, 2, 25), np.int8)
    root_has = np.zeros(21, np.bool_)
    for r in range(n):
        if exact_probs(boards[r], True, ch.tables, p):
            out[r] = p
            continue
        np.random.seed(row_seed(seed, rows[r]))
        acc[:] = 0.0
        s1 = s2 = 0.0
        if vr:  # the root's 21 plays, once for all the trials
            _all_rolls(boards[r], ch, buf, done, bp, root_p, root_b, root_has, root_mean)
        for _ in range(trials):
            board[:] = boards[r]
            root = True  # the root player is on roll
            res[:] = 0.0
            luck[:] = 0.0
            for turn in range(MAX_TURNS):
                d1 = np.random.randint(1, 7)
                d2 = np.random.randint(1, 7)
                if vr:
                    ra = ROLL_INDEX[max(d1, d2), min(d1, d2)]
                    if turn == 0:
                        for k in range(5):
                            dl[k] = root_p[ra, k] - root_mean[k]
                        add_change(dl, root, luck)  # the outputs after the roll are the opponent's
                        has, nxt = root_has[ra], root_b[ra]
                    else:
                        _all_rolls(board, ch, buf, done, bp, vr_p, vr_b, vr_has, mean)
                        for k in range(5):
                            dl[k] = vr_p[ra, k] - mean[k]
                        add_change(dl, root, luck)
                        has, nxt = vr_has[ra], vr_b[ra]
                # the player's own play: without VR, or the 1-ply player's (luck from the 0-ply plays);
                # one call site, as choose inlines the whole 0-ply search (a second doubled the compile)
                if not vr or ch.ply != 0:
                    i = choose(board, d1, d2, ch, buf, bp)
                    has, nxt = i >= 0, buf.mine.boards[max(i, 0)]
                if has:
                    swap_into(nxt, board)
                else:
                    swap_into(board.copy(), board)
                root = not root
                if exact_probs(board, True, ch.tables, p):
                    add_outputs(p, not root, res)
                    break
            for k in range(5):
                res[k] -= luck[k]
                acc[k] += res[k]
            e = equity_from_probs(res)
            s1 += e
            s2 += e * e
        for k in range(5):
            out[r, k] = acc[k] / trials
        if trials > 1:
            sd[r] = np.sqrt(max(0.0, (s2 - s1 * s1 / trials) / (trials - 1)))
    return out, sd


def _check(trials: int, ply: int) -> None:
    if trials < 1:
        raise ValueError(f"trials must be 1 or more, not {trials}")
    if ply not in (0, 1):
        raise ValueError(f"ply must be 0 or 1, not {ply}")


def race_rollout_stats(boards: np.ndarray, weights: Weights, trials: int, seed: int, first_row: int = 0,
                       ply: int = 0, vr: bool = False,
                       rows: Optional[np.ndarray] = None) -> tuple[np.ndarray, np.ndarray]:
    """The rollouts of :func:`race_rollout_targets` before rounding: float64[n, 5] mean
    outputs (unclipped) and float64[n] the standard deviation of one trial's cubeless equity
    (0 for positions the databases value; the target's standard error is it / sqrt(trials)).
    ``rows`` (int64[n]) names each board's row, whose number fixes its dice, instead of
    ``first_row`` onwards: boards given the same row are rolled out on the same dice."""
    _check(trials, ply)
    ch = make_chooser(weights.arrays(), ply, tables=load_databases().tables())
    b = np.ascontiguousarray(boards, np.int8).reshape(-1, 2, 25)
    if rows is None:
        rows = np.arange(first_row, first_row + b.shape[0], dtype=np.int64)
    rows = np.ascontiguousarray(rows, np.int64)
    if rows.shape != (b.shape[0],):
        raise ValueError(f"rows: one number a board ({b.shape[0]}), not {rows.shape}")
    return _race_rollout_kernel(ch, b, rows, int(trials), int(seed), bool(vr))


def race_rollout_targets(boards: np.ndarray, weights: Weights, trials: int, seed: int, first_row: int = 0,
                         ply: int = 0, vr: bool = False, rows: Optional[np.ndarray] = None) -> np.ndarray:
    """float32[n, 5] rollout targets of race ``boards`` (int8[n, 2, 25], rows ``first_row`` ..
    of their data set, which fixes their dice); the players choose at ``ply`` (0 or 1);
    ``vr``: with variance reduction (see the module notes)."""
    t, _ = race_rollout_stats(boards, weights, trials, seed, first_row, ply, vr, rows)
    # the one-sided sums can round to -1e-18, and with variance reduction a mean of a few
    # trials can step a little outside 0..1 where an output is near a bound
    return np.clip(t, 0.0, 1.0).astype(np.float32)


def _part_is(path: Path, rows: np.ndarray, vr: bool) -> bool:
    """Whether the part at ``path`` was made from ``rows`` with (``vr``) or without variance
    reduction (parts from before the option have no ``vr`` array: made without)."""
    if not path.is_file():
        return False
    z = load_npz(path)
    made_vr = bool(z["vr"]) if "vr" in z else False
    return str(z["boards_sha256"]) == array_tag(rows) and made_vr == vr


def race_label_chunks(boards: np.ndarray, weights: Weights, folder: str | Path, trials: int, seed: int,
                      chunk: int = 1000, max_chunks: Optional[int] = None,
                      progress: Optional[Callable[[int, int, int, float], None]] = None, ply: int = 0,
                      vr: bool = False) -> int:
    """Label ``boards`` into ``folder/part-NNNNN.npz`` as the label stage does (``targets``,
    ``index``, ``boards_sha256``, and ``vr`` when made with variance reduction; a part made
    from the same rows, with variance reduction as ``vr`` says, is kept); at most
    ``max_chunks`` new parts.  Returns the number of parts that match ``boards``."""
    n = boards.shape[0]
    n_parts = (n + chunk - 1) // chunk
    good = new = 0
    for k in range(n_parts):
        rows = boards[k * chunk:(k + 1) * chunk]
        path = part_path(folder, k)
        if _part_is(path, rows, vr):
            good += 1
            continue
        if max_chunks is not None and new >= max_chunks:
            continue
        t0 = time.perf_counter()
        t = race_rollout_targets(rows, weights, trials, seed, k * chunk, ply, vr)
        extra = {"vr": np.array(True)} if vr else {}  # (parts without it keep their old bytes)
        save_npz(path, targets=t, index=np.array([k * chunk], np.int64), boards_sha256=np.array(array_tag(rows)),
                 **extra)
        good += 1
        new += 1
        if progress is not None:
            progress(k, t.shape[0], n_parts, time.perf_counter() - t0)
    return good
