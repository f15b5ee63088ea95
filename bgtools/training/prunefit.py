"""Training the pruning net (:mod:`bgtools.engine.nets.prune`) to rank plays like our main net.

The data are what the pruning net is asked about inside a search: the plays of a roll.
From positions our own self-play reached (player on roll, before his roll), seeded draws
of a few of the 21 rolls each, and for each drawn roll **every** legal play (the board
after it, the opponent on roll), valued by the main evaluator at 0 ply
(:func:`bgtools.engine.evaluation.static_probs`: exact where the databases know, else the
net) as the cubeless equity of the player on roll.  No other program's numbers enter.

The fit: mean squared error of the pruning net's output against those equities, Adam on
seeded mini-batches (NumPy; the inputs are :func:`~bgtools.engine.nets.prune.prune_inputs`).
:func:`ranking_report` measures what matters for pruning: per roll, whether the main
net's best play is among the ``keep`` the pruning net ranks first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

from bgtools.engine.children import expand_rolls
from bgtools.engine.evaluation import Evaluator, equity, static_probs
from bgtools.engine.nets.prune import PRUNE_INPUTS, Pruning, make_prune_net, prune_inputs, prune_select, prune_values

__all__ = ["PruneData", "prune_dataset", "PruneFitSettings", "fit_prune", "ranking_report"]


@dataclass(frozen=True)
class PruneData:
    """Candidate plays grouped by roll: ``boards`` int8[n, 2, 25] (after each play, the
    opponent on roll), ``targets`` float64[n] (the main evaluator's equity for him),
    ``offsets`` int64[groups + 1] (the plays of group ``g`` are ``offsets[g]:offsets[g+1]``)."""

    boards: np.ndarray
    targets: np.ndarray
    offsets: np.ndarray

    @property
    def groups(self) -> int:
        return int(self.offsets.shape[0] - 1)

    def take_groups(self, idx: np.ndarray) -> "PruneData":
        """The groups ``idx``, in that order."""
        sizes = self.offsets[1:] - self.offsets[:-1]
        rows = np.concatenate([np.arange(self.offsets[g], self.offsets[g + 1]) for g in idx]) if len(idx) else \
            np.zeros(0, np.int64)
        return PruneData(self.boards[rows], self.targets[rows], np.concatenate([[0], np.cumsum(sizes[idx])]))


def prune_dataset(positions: np.ndarray, evaluator: Evaluator, rolls_per_position: int = 3, seed: int = 1,
                  batch: int = 2000) -> PruneData:
    """Every play of ``rolls_per_position`` seeded rolls (drawn without repeats from the 21)
    of each of ``positions`` (int8[n, 2, 25], player on roll ``[1]``), valued by ``evaluator``
    at 0 ply.  Rolls with fewer than two plays are left out (nothing to rank)."""
    rng = np.random.default_rng(seed)
    b_all: list[np.ndarray] = []
    sizes: list[int] = []
    pos = np.ascontiguousarray(positions, np.int8).reshape(-1, 2, 25)
    k = rolls_per_position
    for lo in range(0, pos.shape[0], batch):
        part = pos[lo:lo + batch]
        drawn = np.array([rng.choice(21, size=k, replace=False) for _ in range(part.shape[0])],
                         np.int64).reshape(-1, k)
        children, offsets = expand_rolls(part, drawn)  # only the drawn rolls' plays
        for g in range(part.shape[0] * k):
            a, b = offsets[g], offsets[g + 1]
            if b - a >= 2:
                b_all.append(children[a:b])
                sizes.append(b - a)
    boards = np.concatenate(b_all) if b_all else np.zeros((0, 2, 25), np.int8)
    targets = np.empty(boards.shape[0], np.float64)
    for lo in range(0, boards.shape[0], 100_000):
        targets[lo:lo + 100_000] = equity(static_probs(boards[lo:lo + 100_000], evaluator))
    return PruneData(boards, targets, np.concatenate([[0], np.cumsum(np.array(sizes, np.int64))]))


@dataclass(frozen=True)
class PruneFitSettings:
    """Adam on mini-batches; ``hidden`` ReLU units; the learning rate decays geometrically
    from ``lr`` to ``lr_end`` over the epochs."""

    hidden: int = 16
    epochs: int = 6
    batch: int = 512
    lr: float = 3e-3
    lr_end: float = 1e-4
    seed: int = 1
    centered: bool = True  #: fit the differences between the plays of a roll only (what ranking needs)


def _init(hidden: int, rng: np.random.Generator) -> list[np.ndarray]:
    return [(rng.standard_normal((PRUNE_INPUTS, hidden)) * np.sqrt(2.0 / 30)).astype(np.float32),
            np.zeros(hidden, np.float32), (rng.standard_normal(hidden) * np.sqrt(1.0 / hidden)).astype(np.float32),
            np.zeros(1, np.float32)]


def fit_prune(data: PruneData, settings: PruneFitSettings = PruneFitSettings(),
              log: Optional[Callable[[dict], None]] = None, meta: Optional[dict] = None) -> Pruning:
    """Fit a pruning net to ``data`` (all of it; hold groups out with
    :meth:`PruneData.take_groups` to measure); ``log(row)`` after each epoch with its mean
    squared error.  Seeded: the same data and settings give the same net."""
    s = settings
    rng = np.random.default_rng(s.seed)
    W1, b1, w2, b2 = params = _init(s.hidden, rng)
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    n = data.boards.shape[0]
    sizes = data.offsets[1:] - data.offsets[:-1]
    step = 0
    for epoch in range(s.epochs):
        lr = s.lr * (s.lr_end / s.lr) ** (epoch / max(1, s.epochs - 1))
        # whole groups per mini-batch (the loss compares the plays of one roll), groups in a seeded order
        gorder = np.random.default_rng([s.seed, epoch]).permutation(data.groups)
        ends = np.cumsum(sizes[gorder])
        cuts = np.searchsorted(ends, np.arange(s.batch, int(ends[-1]) if len(ends) else 0, s.batch))
        total = 0.0
        for gs in np.split(gorder, np.unique(cuts + 1)):
            if not len(gs):
                continue
            idx = np.concatenate([np.arange(data.offsets[g], data.offsets[g + 1]) for g in gs])
            starts = np.concatenate([[0], np.cumsum(sizes[gs])[:-1]])
            x = prune_inputs(data.boards[idx])
            t = data.targets[idx].astype(np.float32)
            z = x @ W1 + b1
            h = np.maximum(z, 0)
            y = h @ w2 + b2[0]
            e = y - t
            if s.centered:  # only the differences within a roll count: each group's mean error taken out
                e = e - np.repeat(np.add.reduceat(e, starts) / sizes[gs], sizes[gs])
            total += float(e @ e)
            g = (2.0 / len(idx)) * e  # (centring is a projection: the same one applies to the gradient)
            gw2 = h.T @ g
            gb2 = np.array([g.sum()], np.float32)
            gz = np.outer(g, w2) * (z > 0)
            grads = [x.T @ gz, gz.sum(axis=0), gw2, gb2]
            step += 1
            for k, (p, gr) in enumerate(zip(params, grads)):
                m[k] = 0.9 * m[k] + 0.1 * gr
                v[k] = 0.999 * v[k] + 0.001 * gr * gr
                mh = m[k] / (1 - 0.9 ** step)
                vh = v[k] / (1 - 0.999 ** step)
                p -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        if log is not None:
            log({"epoch": epoch + 1, "lr": lr, "mse": total / max(1, n)})
    net = make_prune_net(W1, b1, w2, b2)
    return Pruning(net, meta=dict(meta or {}, hidden=s.hidden))


def ranking_report(pruning: Pruning, data: PruneData, keeps=(1, 2, 3, 4, 6)) -> dict:
    """How well ``pruning`` ranks ``data``'s groups: per ``keep``, the share of groups whose
    best play by the targets (lowest equity for the opponent on roll) is among the ``keep``
    kept, and the mean equity lost when it is not (the best kept play's target less the
    best's); plus the mean squared error."""
    pv = prune_values(data.boards, pruning.net)
    off = data.offsets
    out: dict = {"groups": data.groups, "mse": float(np.mean((pv - data.targets) ** 2)) if len(pv) else 0.0}
    best = np.array([off[g] + int(np.argmin(data.targets[off[g]:off[g + 1]])) for g in range(data.groups)])
    for k in keeps:
        sel, sel_off = prune_select(pv, off, k)
        hit = 0
        lost = 0.0
        for g in range(data.groups):
            kept = sel[sel_off[g]:sel_off[g + 1]]
            if best[g] in kept:
                hit += 1
            else:
                lost += float(data.targets[kept].min() - data.targets[best[g]])
        out[f"keep{k}"] = {"found": hit / max(1, data.groups), "mean_loss": lost / max(1, data.groups)}
    return out
