"""Supervised fitting of the nets to targets, in NumPy: cross-entropy, Adam, mini-batches.

Each position goes to its class's net (contact, crashed, race; finished games are dropped),
inputs from :func:`bgtools.engine.nets.features.encode_batch`.  The loss of a position is the
binary cross-entropy of each of the five sigmoid outputs against its target, summed over the
outputs; the net is the one :mod:`bgtools.engine.nets.nn` evaluates (one sigmoid hidden layer; the
exact logistic here, the kernels' rational one agrees to 3e-7).

Everything is seeded: the validation split from ``seed``, the order of epoch ``e`` from
``(seed, e)``, so a fit stopped after an epoch and resumed from its checkpoint ends with the
same weights as one that ran through.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

import numpy as np

from bgtools.engine.nets.contactinputs import encode_extra_batch
from bgtools.engine.nets.features import N_INPUTS, NET_RACE, encode_batch
from bgtools.engine.nets.nn import NET_NAMES, Weights
from bgtools.engine.nets.raceinputs import encode_race_extra_batch

__all__ = ["FitSettings", "FitData", "prepare", "bce_loss", "gradients", "fit_weights", "logistic", "EQUITY_WEIGHTS",
           "within_roll_deviation"]

_EPS = 1e-7


@dataclass(frozen=True)
class FitSettings:
    """Adam on mini-batches; ``val_frac`` of the positions held out (by position, seeded)."""

    epochs: int = 8
    batch: int = 256
    lr: float = 3e-4
    beta1: float = 0.9
    beta2: float = 0.999
    val_frac: float = 0.05
    seed: int = 1
    lr_end: Optional[float] = None  #: None: constant ``lr``; else decayed geometrically to this by the last epoch
    #: False: keep the epoch with the lowest held-out loss of all rows together (one epoch for the
    #: three nets); True: keep each net (contact, crashed, race) from its own best epoch, judged on
    #: its own held-out rows (the nets never share an input, so each may stop where it is best)
    best_per_net: bool = False
    #: weight of the within-roll term (:func:`within_roll_gradients`) on rows that name their roll
    #: (:attr:`FitData.groups`); those rows then come in batches of whole rolls.  0: none, the fit as before
    within_roll: float = 0.0

    def rate(self, epoch: int) -> float:
        """The learning rate of epoch ``epoch`` (0-based)."""
        if self.lr_end is None or self.epochs < 2:
            return self.lr
        return float(self.lr * (self.lr_end / self.lr) ** (min(epoch, self.epochs - 1) / (self.epochs - 1)))


@dataclass(frozen=True)
class FitData:
    """Inputs and targets split by net class: ``x[c]`` float32[n_c, inputs_c], ``t[c]`` [n_c, 5]."""

    x: tuple[np.ndarray, ...]
    t: tuple[np.ndarray, ...]
    #: per class, int64 roll numbers of the rows (-1: a row of no roll), or None: no row names a roll.
    #: Rows of one roll are the positions after the plays of one roll (``train decisions``)
    groups: Optional[tuple[np.ndarray, ...]] = None

    def rows(self) -> int:
        return int(sum(a.shape[0] for a in self.x))


def prepare(boards: np.ndarray, targets: np.ndarray, wide: bool = False, race_inputs: bool = False,
            groups: Optional[np.ndarray] = None) -> FitData:
    """Encode ``boards`` and group them with their ``targets`` by net class; ``wide``: the
    contact and crashed rows also get :mod:`~bgtools.engine.nets.contactinputs`' inputs (for a
    net whose :attr:`~bgtools.engine.nets.nn.Weights.wide` is true); ``race_inputs``: the race
    rows get :mod:`~bgtools.engine.nets.raceinputs`' (for a net whose
    :attr:`~bgtools.engine.nets.nn.Weights.race_inputs` is true); ``groups``: each row's roll
    number (-1: none), kept per class in :attr:`FitData.groups`."""
    b = np.ascontiguousarray(boards, np.int8).reshape(-1, 2, 25)
    cls, x = encode_batch(b)
    t = np.asarray(targets, np.float32)
    xs = []
    for c in range(3):
        rows = cls == c
        xc = x[rows, :N_INPUTS[c]]
        if wide and c != NET_RACE:
            xc = np.concatenate([xc, encode_extra_batch(b[rows])], axis=1)
        if race_inputs and c == NET_RACE:
            xc = np.concatenate([xc, encode_race_extra_batch(b[rows])], axis=1)
        xs.append(np.ascontiguousarray(xc))
    gs = None if groups is None else tuple(np.asarray(groups, np.int64)[cls == c] for c in range(3))
    return FitData(tuple(xs), tuple(np.ascontiguousarray(t[cls == c]) for c in range(3)), gs)


def logistic(v: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(v, -40.0, 40.0)))


def _forward(x, W1, b1, W2, b2):
    h = logistic(x @ W1 + b1)
    return h, logistic(h @ W2 + b2)


def bce_loss(y: np.ndarray, t: np.ndarray) -> float:
    """Mean over rows of the summed binary cross-entropy of the five outputs."""
    y = np.clip(y, _EPS, 1.0 - _EPS)
    return float(-(t * np.log(y) + (1.0 - t) * np.log(1.0 - y)).sum(axis=1).mean())


def gradients(x, t, W1, b1, W2, b2):
    """(loss, [gW1, gb1, gW2, gb2]) of :func:`bce_loss` on one batch (sigmoid outputs: the
    gradient at the output pre-activation is ``y - t``)."""
    h, y = _forward(x, W1, b1, W2, b2)
    d2 = (y - t) / x.shape[0]
    dh = (d2 @ W2.T) * h * (1.0 - h)
    return bce_loss(y, t), [x.T @ dh, dh.sum(axis=0), h.T @ d2, d2.sum(axis=0)]


EQUITY_WEIGHTS = np.array([2.0, 1.0, 1.0, -1.0, -1.0])  #: cubeless equity = outputs @ EQUITY_WEIGHTS - 1


def within_roll_deviation(e: np.ndarray, g: np.ndarray) -> np.ndarray:
    """Each row's equity error ``e`` less the mean error of its roll ``g``."""
    _, inv = np.unique(g, return_inverse=True)
    return e - (np.bincount(inv, e) / np.bincount(inv))[inv]


def within_roll_gradients(x, t, g, lam, W1, b1, W2, b2):
    """(loss, gradients) of :func:`bce_loss` plus ``lam`` times the mean squared within-roll
    equity error on one batch of whole rolls: each row's equity error minus the mean error of
    the rows of its roll ``g`` (so a roll's common error costs nothing: a net picks among the
    plays of a roll by their differences).  ``lam`` 0 gives :func:`gradients`."""
    h, y = _forward(x, W1, b1, W2, b2)
    n = x.shape[0]
    d2 = (y - t) / n
    loss = bce_loss(y, t)
    if lam > 0:
        d = within_roll_deviation((y - t) @ EQUITY_WEIGHTS, g)
        loss += lam * float((d * d).mean())
        d2 = d2 + ((2.0 * lam / n) * d)[:, None] * EQUITY_WEIGHTS[None, :] * y * (1.0 - y)
    d2 = d2.astype(np.float32)
    dh = (d2 @ W2.T) * h * (1.0 - h)
    return loss, [x.T @ dh, dh.sum(axis=0), h.T @ d2, d2.sum(axis=0)]


def _roll_batches(groups: np.ndarray, rows: np.ndarray, rng, per_batch: int) -> list[np.ndarray]:
    """The training ``rows`` that name a roll shared with another of them, in batches of
    ``per_batch`` whole rolls (shuffled by ``rng``)."""
    g = groups[rows]
    named = rows[g >= 0]
    if named.size == 0:
        return []
    order = named[np.argsort(groups[named], kind="stable")]
    _, start, count = np.unique(groups[order], return_index=True, return_counts=True)
    keep = np.flatnonzero(count >= 2)
    perm = rng.permutation(keep)
    return [np.concatenate([order[start[k]:start[k] + count[k]] for k in perm[lo:lo + per_batch]])
            for lo in range(0, perm.size, per_batch)]


def _params(w: Weights) -> list[np.ndarray]:
    return [np.array(a, np.float32) for c in range(3) for a in (w.W1[c], w.b1[c], w.W2[c], w.b2[c])]


def _weights(params: list[np.ndarray], meta: dict) -> Weights:
    layer = [tuple(np.ascontiguousarray(params[4 * c + j], np.float32) for c in range(3)) for j in range(4)]
    return Weights(layer[0], layer[1], layer[2], layer[3], dict(meta))


def _split(n: int, frac: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    perm = np.random.default_rng([seed, 999_983]).permutation(n)
    nv = int(round(frac * n))
    return np.sort(perm[nv:]), np.sort(perm[:nv])


def _class_val_losses(params, data: FitData, val, within_roll: float = 0.0) -> list[tuple[float, float, int]]:
    """Per net class: (summed cross-entropy, summed |equity error|, rows) over its held-out rows;
    with ``within_roll`` (and rows that name their rolls) the loss also holds ``within_roll`` times
    the summed squared within-roll equity error of those held-out rows, the term the fit minimises,
    so that the epoch kept is the best by the whole objective."""
    out = []
    for c in range(3):
        idx = val[c]
        if idx.size == 0:
            out.append((0.0, 0.0, 0))
            continue
        _, y = _forward(data.x[c][idx], *params[4 * c:4 * c + 4])
        t = data.t[c][idx]
        eq = lambda p: 2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]  # noqa: E731
        loss = bce_loss(y, t) * idx.size
        if within_roll > 0 and data.groups is not None:
            g = data.groups[c][idx]
            named = g >= 0
            if named.any():
                d = within_roll_deviation((y[named] - t[named]) @ EQUITY_WEIGHTS, g[named])
                loss += within_roll * float((d * d).sum())
        out.append((loss, float(np.abs(eq(y) - eq(t)).sum()), int(idx.size)))
    return out


def _totals(per: list[tuple[float, float, int]]) -> tuple[float, float]:
    """Cross-entropy and mean |equity error| over all held-out rows, from the per-class sums."""
    n = sum(r[2] for r in per)
    return (sum(r[0] for r in per) / n, sum(r[1] for r in per) / n) if n else (float("nan"), float("nan"))


def _means(per: list[tuple[float, float, int]]) -> np.ndarray:
    """Each net's mean held-out cross-entropy (inf for a net without held-out rows)."""
    return np.array([r[0] / r[2] if r[2] else np.inf for r in per])


def _per_net_mae(per: list[tuple[float, float, int]]) -> dict[str, float]:
    """Each net's mean held-out |equity error| (``val_mae_contact`` ...; nan without rows): the
    held-out error of each net, logged after the other columns of an epoch's row."""
    return {f"val_mae_{name}": (r[1] / r[2] if r[2] else float("nan")) for name, r in zip(NET_NAMES, per)}


def _class_means(params, data: FitData, val) -> np.ndarray:
    """Each net's mean held-out cross-entropy (inf for a net without held-out rows)."""
    return _means(_class_val_losses(params, data, val))


def _roll_epoch(data: FitData, train: list[np.ndarray], rng, batch: int) -> list[tuple[int, np.ndarray, bool]]:
    """An epoch's batches with the within-roll term: per class, the rows of rolls in batches of
    whole rolls (about ``batch`` rows: a quarter as many rolls), the other rows as usual."""
    assert data.groups is not None
    out: list[tuple[int, np.ndarray, bool]] = []
    for c in range(3):
        rolls = _roll_batches(data.groups[c], train[c], rng, max(1, batch // 4))
        out.extend((c, b, True) for b in rolls)
        in_rolls = np.concatenate(rolls) if rolls else np.zeros(0, np.int64)
        rest = np.setdiff1d(train[c], in_rolls)
        rest = rest[rng.permutation(rest.size)]
        out.extend((c, rest[lo:lo + batch], False) for lo in range(0, rest.size, batch))
    return out


def fit_weights(init: Weights, data: FitData, settings: FitSettings = FitSettings(),
                ckpt: Optional[str | Path] = None, log: Optional[Callable[[dict], None]] = None,
                max_epochs: Optional[int] = None) -> Weights:
    """Fit ``init`` to ``data``; return the weights of the epoch with the lowest validation loss
    (epoch 0 = ``init`` itself, so a fit never returns worse held-out loss than it started from);
    with ``settings.best_per_net`` each net from the epoch of its own lowest held-out loss
    (``meta["fit_best_epochs"]``: contact, crashed, race).

    ``ckpt``: a file written after every epoch (weights, Adam moments, best so far) and resumed
    from when present.  ``log(row)`` gets one dict per epoch (epoch, train_loss, val_loss,
    val_equity_mae, seconds, then ``lr`` with a decaying rate and each net's held-out equity
    error ``val_mae_contact``, ``val_mae_crashed``, ``val_mae_race``).  ``max_epochs``: stop after that many new epochs (to test resumes).
    """
    s = settings
    split = [_split(data.x[c].shape[0], s.val_frac, s.seed + c) for c in range(3)]
    train = [sp[0] for sp in split]
    val = [sp[1] for sp in split]
    params = _params(init)
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step, epoch = 0, 0
    per0 = _class_val_losses(params, data, val, s.within_roll)
    best_params, best_loss = [p.copy() for p in params], _totals(per0)[0]
    best_c, best_per = _means(per0), list(per0)  # per net, for best_per_net
    best_epoch = np.zeros(3, np.int64)
    if ckpt is not None and Path(ckpt).is_file():
        with np.load(ckpt, allow_pickle=False) as z:
            params = [z[f"p{i}"] for i in range(12)]
            m = [z[f"m{i}"] for i in range(12)]
            v = [z[f"v{i}"] for i in range(12)]
            best_params = [z[f"best{i}"] for i in range(12)]
            step, epoch, best_loss = int(z["step"]), int(z["epoch"]), float(z["best_loss"])
            if "best_c" in z.files:
                best_c, best_epoch = z["best_c"], z["best_epoch"]
                best_per = _class_val_losses(best_params, data, val, s.within_roll)
    elif log is not None:
        vl, vm = _totals(per0)
        log({"epoch": 0, "train_loss": float("nan"), "val_loss": vl, "val_equity_mae": vm, "seconds": 0.0,
             **_per_net_mae(per0)})
    new = 0
    while epoch < s.epochs and (max_epochs is None or new < max_epochs):
        t0 = time.perf_counter()
        rng = np.random.default_rng([s.seed, epoch])
        if s.within_roll > 0 and data.groups is not None:
            order = _roll_epoch(data, train, rng, s.batch)
        else:  # (the fit as it always was: the same order, the same bytes)
            batches = [(c, train[c][rng.permutation(train[c].size)]) for c in range(3)]
            order = [(c, batches[c][1][lo:lo + s.batch], False) for c, idx in batches
                     for lo in range(0, idx.size, s.batch)]
        tot, rows = 0.0, 0
        lr = s.rate(epoch)
        for j in rng.permutation(len(order)):
            c, idx, whole = order[j]
            x, t = data.x[c][idx], data.t[c][idx]
            if whole:
                assert data.groups is not None
                loss, grads = within_roll_gradients(x, t, data.groups[c][idx], s.within_roll, *params[4 * c:4 * c + 4])
            else:
                loss, grads = gradients(x, t, *params[4 * c:4 * c + 4])
            tot += loss * idx.size
            rows += idx.size
            step += 1
            for q, g in enumerate(grads):
                i = 4 * c + q
                m[i] = s.beta1 * m[i] + (1 - s.beta1) * g
                v[i] = s.beta2 * v[i] + (1 - s.beta2) * g * g
                mh = m[i] / (1 - s.beta1 ** step)
                vh = v[i] / (1 - s.beta2 ** step)
                params[i] = (params[i] - lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        epoch += 1
        new += 1
        per = _class_val_losses(params, data, val, s.within_roll)  # one held-out pass per epoch
        vl, vm = _totals(per)
        if s.best_per_net:
            now = _means(per)
            for c in np.flatnonzero(now < best_c):
                best_c[c], best_epoch[c], best_per[c] = now[c], epoch, per[c]
                best_params[4 * c:4 * c + 4] = [p.copy() for p in params[4 * c:4 * c + 4]]
            best_loss = _totals(best_per)[0]
        elif vl < best_loss:
            best_loss, best_params = vl, [p.copy() for p in params]
        if log is not None:
            row = {"epoch": epoch, "train_loss": tot / max(rows, 1), "val_loss": vl, "val_equity_mae": vm,
                   "seconds": round(time.perf_counter() - t0, 2)}
            if s.lr_end is not None:
                row["lr"] = lr
            log({**row, **_per_net_mae(per)})
        if ckpt is not None:
            extra = {f"{k}{i}": a for k, arrs in (("p", params), ("m", m), ("v", v), ("best", best_params))
                     for i, a in enumerate(arrs)}
            tmp = Path(str(ckpt) + ".tmp.npz")
            if s.best_per_net:
                extra.update(best_c=np.asarray(best_c, np.float64), best_epoch=np.asarray(best_epoch, np.int64))
            np.savez(tmp, step=np.int64(step), epoch=np.int64(epoch), best_loss=np.float64(best_loss), **extra)
            tmp.replace(ckpt)
    meta = dict(init.meta)
    meta.update({"fit_epochs": epoch, "fit_val_loss": best_loss, "fit_rows": data.rows()})
    if s.best_per_net:
        meta["fit_best_epochs"] = [int(e) for e in best_epoch]  # contact, crashed, race
    return _weights(best_params, meta)
