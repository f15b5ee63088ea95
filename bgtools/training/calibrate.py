"""Calibrate a net's outputs to our own rollouts: move the output biases of its contact and
crashed nets so that their mean outputs on rolled-out positions match the rollouts' (or refit
their whole output layer, held near the start net's).

The nets learn from their own searches, whose leaves are the nets themselves, so a bias in an
output survives every generation: the shipped nets' gammon outputs run about 0.012 (won) and
0.017 (lost) above what our own full rollouts of self-play positions find (docs/training.md,
"Calibrated to our rollouts").  A rollout played to the end counts the gammons that happen, so
it can correct that where a search cannot.  Only the five output biases of a class move (a
logistic fit, one output at a time, with the net's own pre-activations as offsets); the
hidden layers, and so every difference between two positions' values within an output, stay.
With ``layer="output"`` each output's weights from the hidden units move too (a logistic
regression on the hidden units, with a ridge penalty that holds the weights near the start
net's, :func:`fit_output`): the hidden layer still stays, the values of positions the rollouts
say the net misjudges (a blitz, a prime) move with the hidden units that mark them.

>>> import numpy as np
>>> z = np.array([0.0, 1.0, -1.0]); t = np.array([0.3, 0.6, 0.1])
>>> d = fit_offset(z, t)
>>> bool(abs((1 / (1 + np.exp(-(z + d)))).mean() - t.mean()) < 1e-9)
True
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence

import numpy as np

from bgtools.base.errors import BgtoolsError
from bgtools.engine.nets.features import NET_CONTACT, NET_CRASHED, net_classes
from bgtools.engine.nets.nn import NET_NAMES, Weights
from bgtools.training.fit import EQUITY_WEIGHTS as _EQ
from bgtools.training.fit import logistic as _sig
from bgtools.training.fit import prepare

__all__ = ["CalibrationError", "RolloutTargets", "read_rollouts", "fit_offset", "fit_output", "calibrate_weights",
           "ClassReport", "OUTPUT_NAMES", "LAYERS", "CalibrateConfig", "run_calibrate"]

OUTPUT_NAMES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
#: what moves: the output biases, or the whole output layer (its weights held near the start net's)
LAYERS = ("biases", "output")


class CalibrationError(BgtoolsError, ValueError):
    """Rollout records that cannot be used (file and line, what is wrong)."""


@dataclass(frozen=True)
class RolloutTargets:
    """Boards (``[1]`` on roll) and the cubeless probabilities our rollouts gave them."""

    ids: tuple[str, ...]
    boards: np.ndarray  #: int8[n, 2, 25]
    probs: np.ndarray  #: float64[n, 5]


def read_rollouts(path: str | Path | Sequence[str | Path]) -> RolloutTargets:
    """The cubeless records of a ``bgtools rollout -o`` JSON-lines file, or of several files one
    after the other (cubeful records are skipped: their probabilities come from games the cube
    ended early)."""
    paths = [path] if isinstance(path, (str, Path)) else list(path)
    if not paths:
        raise CalibrationError("calibrate: no rollout files")
    parts = [_read_one(Path(p)) for p in paths]
    return RolloutTargets(tuple(i for p in parts for i in p.ids), np.concatenate([p.boards for p in parts]),
                          np.concatenate([p.probs for p in parts]))


def _read_one(path: Path) -> RolloutTargets:
    from bgtools.core.position import Position

    ids, boards, probs = [], [], []
    try:
        with path.open(encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    r = json.loads(line)
                    if r.get("cubeful"):
                        continue
                    p = np.asarray(r["probs"], np.float64)
                    b = Position.from_id(str(r["id"]).split(":")[0]).to_array()
                except (ValueError, KeyError, TypeError, BgtoolsError) as e:
                    raise CalibrationError(f"{path}:{n}: not a rollout record ({e})") from None
                # variance reduction may leave an estimate a little outside [0, 1]
                if p.shape != (5,) or not np.all((p >= -0.05) & (p <= 1.05)):
                    raise CalibrationError(f"{path}:{n}: probs must be five values from 0 to 1")
                p = np.clip(p, 0.0, 1.0)
                ids.append(str(r["id"]))
                boards.append(b)
                probs.append(p)
    except OSError as e:
        raise CalibrationError(f"{path}: {e.strerror or e}") from None
    if not ids:
        raise CalibrationError(f"{path}: no cubeless rollout records")
    return RolloutTargets(tuple(ids), np.asarray(boards, np.int8).reshape(-1, 2, 25), np.asarray(probs))


def fit_offset(z: np.ndarray, t: np.ndarray, steps: int = 50) -> float:
    """The shift ``d`` minimising the cross-entropy of ``sigmoid(z + d)`` against targets ``t``
    (Newton's method on a convex function of one variable: at the optimum the mean output
    equals the mean target)."""
    z = np.asarray(z, np.float64)
    t = np.asarray(t, np.float64)
    d = 0.0
    for _ in range(steps):
        y = _sig(z + d)
        g = float((y - t).sum())
        h = float((y * (1.0 - y)).sum())
        if h <= 1e-12:
            break
        step = max(-2.0, min(2.0, g / h))
        d -= step
        if abs(step) < 1e-12:
            break
    return d


def fit_output(h: np.ndarray, w0: np.ndarray, b0: float, t: np.ndarray, ridge: float = 1.0,
               steps: int = 30) -> tuple[np.ndarray, float]:
    """One output's weights and bias refitted to targets ``t`` from hidden activations ``h``
    (``[n, hidden]``): the cross-entropy of ``sigmoid(h @ w + b)`` plus ``ridge / 2 * |w - w0|^2``
    minimised by Newton's method (convex; the bias is not held).  ``ridge`` very large gives
    :func:`fit_offset`'s bias shift and ``w0`` unchanged.

    >>> h = np.array([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5], [1.0, 1.0]])
    >>> w, b = fit_output(h, np.zeros(2), 0.0, np.array([0.8, 0.2, 0.5, 0.5]), ridge=1e-6)
    >>> bool(w[1] > 0 > w[0])
    True
    """
    h = np.asarray(h, np.float64)
    t = np.asarray(t, np.float64)
    a = np.hstack([h, np.ones((h.shape[0], 1))])
    th0 = np.concatenate([np.asarray(w0, np.float64), [float(b0)]])
    th = th0.copy()
    r = np.full(th.size, float(ridge))
    r[-1] = 0.0
    for _ in range(steps):
        y = _sig(a @ th)
        g = a.T @ (y - t) + r * (th - th0)
        hess = (a * (y * (1.0 - y))[:, None]).T @ a + np.diag(r) + 1e-9 * np.eye(th.size)
        step = np.linalg.solve(hess, g)
        th -= step
        if np.abs(step).max() < 1e-10:
            break
    return th[:-1], float(th[-1])


@dataclass(frozen=True)
class ClassReport:
    """One net's calibration: positions, the output-bias shifts, and the held-out check
    (fitted on one half of the positions, measured on the other, both ways round)."""

    net: str
    positions: int
    shifts: tuple[float, ...]  #: the output biases' change
    layer: str  #: "biases" or "output" (see :data:`LAYERS`)
    #: per output, |mean (net - rollout)| on each held-out half, averaged over the two halves,
    #: before and after
    held_out_bias_before: tuple[float, ...]
    held_out_bias_after: tuple[float, ...]
    #: mean |cubeless equity error| on the held-out halves, before and after
    held_out_equity_error_before: float
    held_out_equity_error_after: float

    def to_dict(self) -> dict:
        return {"net": self.net, "positions": self.positions, "layer": self.layer, "shifts": list(self.shifts),
                "held_out_bias_before": list(self.held_out_bias_before),
                "held_out_bias_after": list(self.held_out_bias_after),
                "held_out_equity_error_before": self.held_out_equity_error_before,
                "held_out_equity_error_after": self.held_out_equity_error_after}


def _halves(ids: tuple[str, ...]) -> np.ndarray:
    return np.array([hashlib.sha256(i.encode()).digest()[0] & 1 for i in ids], bool)


def _hidden(w: Weights, c: int, x: np.ndarray) -> np.ndarray:
    return _sig(x.astype(np.float64) @ w.W1[c].astype(np.float64) + w.b1[c])


def _refit(h: np.ndarray, t: np.ndarray, w2: np.ndarray, b2: np.ndarray, outputs: tuple[int, ...], layer: str,
           ridge: float) -> tuple[np.ndarray, np.ndarray]:
    """The output layer ``(w2 [hidden, 5], b2 [5])`` fitted to ``t`` on hidden activations ``h``."""
    w2n, b2n = w2.copy(), b2.copy()
    z = h @ w2 + b2 if layer == "biases" else None  # the offsets of a bias-only fit
    for o in outputs:
        if z is not None:
            b2n[o] = b2[o] + fit_offset(z[:, o], t[:, o])
        else:
            w2n[:, o], b2n[o] = fit_output(h, w2[:, o], b2[o], t[:, o], ridge)
    return w2n, b2n


def calibrate_weights(w: Weights, targets: RolloutTargets, outputs: tuple[int, ...] = (1, 2, 3, 4),
                      classes: tuple[int, ...] = (NET_CONTACT, NET_CRASHED),
                      min_positions: int = 20, layer: str = "biases",
                      ridge: float = 1.0) -> tuple[Weights, list[ClassReport]]:
    """``w`` with the output biases of ``classes`` moved to fit ``targets`` (the ``outputs``
    named; the default leaves the win output alone), or with ``layer="output"`` those outputs'
    weights from the hidden units too (held near ``w``'s by ``ridge``), and a report per class.
    A class with fewer than ``min_positions`` rolled-out positions keeps its outputs.  The race
    net, the hidden layers and every output not named are ``w``'s."""
    if layer not in LAYERS:
        raise CalibrationError(f"calibrate: layer {layer!r}: use biases or output")
    if not ridge > 0:
        raise CalibrationError(f"calibrate: ridge {ridge}: must be above 0")
    half = _halves(targets.ids)
    data = prepare(targets.boards, targets.probs, wide=w.wide, race_inputs=w.race_inputs)
    cls = net_classes(targets.boards)
    W2 = [np.array(m, np.float32) for m in w.W2]
    b2 = [np.array(b, np.float32) for b in w.b2]
    reports = []
    for c in classes:
        h, t = _hidden(w, c, data.x[c]), data.t[c].astype(np.float64)
        hc = half[cls == c]
        if h.shape[0] < min_positions or hc.all() or not hc.any():
            continue
        w2, bb = np.asarray(w.W2[c], np.float64), np.asarray(w.b2[c], np.float64)
        before, after = [], []
        for fit_rows, test_rows in ((~hc, hc), (hc, ~hc)):
            wf, bf = _refit(h[fit_rows], t[fit_rows], w2, bb, outputs, layer, ridge)
            before.append(_sig(h[test_rows] @ w2 + bb) - t[test_rows])
            after.append(_sig(h[test_rows] @ wf + bf) - t[test_rows])
        b0, a1 = np.concatenate(before), np.concatenate(after)
        # each half's mean error, in absolute value, averaged over the two halves
        bias0 = np.mean([np.abs(e.mean(axis=0)) for e in before], axis=0)
        bias1 = np.mean([np.abs(e.mean(axis=0)) for e in after], axis=0)
        wn, bn = _refit(h, t, w2, bb, outputs, layer, ridge)
        W2[c], b2[c] = wn.astype(np.float32), bn.astype(np.float32)
        d = b2[c].astype(np.float64) - bb
        reports.append(ClassReport(NET_NAMES[c], int(h.shape[0]), tuple(float(v) for v in d), layer,
                                   tuple(float(v) for v in bias0), tuple(float(v) for v in bias1),
                                   float(np.abs(b0 @ _EQ).mean()), float(np.abs(a1 @ _EQ).mean())))
    meta = dict(w.meta, calibrated=[r.to_dict() for r in reports])
    return Weights(w.W1, w.b1, tuple(W2), tuple(b2), meta), reports


# ----------------------------------------------------------------------------- the stage
@dataclass(frozen=True)
class CalibrateConfig:
    #: ``bgtools rollout -o`` JSON-lines files (cubeless records), read one after the other
    rollouts: tuple[str, ...] = ()
    init: Optional[str] = None  #: the net to calibrate (None: the shipped analysis net)
    #: the outputs that move: "gammons" (win gammon, win backgammon, lose gammon, lose
    #: backgammon) or "all" (the win output too)
    outputs: str = "gammons"
    #: the nets whose outputs move, comma-separated: contact, crashed
    nets: str = "contact"
    layer: str = "biases"  #: "biases" or "output" (:data:`LAYERS`)
    ridge: float = 1.0  #: with ``layer="output"``: how firmly the weights are held near the start net's


def run_calibrate(run: str | Path, cfg: CalibrateConfig, echo: Optional[Callable[[str], None]] = None) -> dict:
    """The ``train calibrate`` stage: move the output biases (or the output layer) of the start
    net's contact (and crashed) net to fit our own rollouts; write ``calibrated.npz``,
    ``calibrate.log.csv`` (a row per net: the bias shifts and the held-out check) and
    ``calibrate.manifest.json`` in the run folder.  Deterministic: run again, the same arrays."""
    from bgtools.engine.nets.networks import load_weights
    from bgtools.training.datasets import append_log, write_manifest
    from bgtools.training.pipeline import weights_tag

    run = Path(run)
    t0 = time.time()
    if cfg.outputs not in ("gammons", "all"):
        raise CalibrationError(f"calibrate: outputs {cfg.outputs!r}: use gammons or all")
    names = [n.strip() for n in cfg.nets.split(",") if n.strip()]
    if not names or any(n not in NET_NAMES[:2] for n in names):
        raise CalibrationError(f"calibrate: nets {cfg.nets!r}: name contact, crashed or both")
    files = (cfg.rollouts,) if isinstance(cfg.rollouts, str) else tuple(cfg.rollouts)
    targets = read_rollouts(files)
    init = load_weights(cfg.init)
    outputs = (1, 2, 3, 4) if cfg.outputs == "gammons" else (0, 1, 2, 3, 4)
    w, reports = calibrate_weights(init, targets, outputs, classes=tuple(NET_NAMES.index(n) for n in names),
                                   layer=cfg.layer, ridge=cfg.ridge)
    if not reports:
        raise CalibrationError(f"{', '.join(files)}: too few positions of the {cfg.nets} net to calibrate on")
    run.mkdir(parents=True, exist_ok=True)
    (run / "calibrate.log.csv").unlink(missing_ok=True)
    for r in reports:
        row: dict = {"net": r.net, "positions": r.positions}
        row.update({f"shift_{i}": round(v, 6) for i, v in enumerate(r.shifts)})
        row.update({f"bias_before_{i}": round(v, 6) for i, v in enumerate(r.held_out_bias_before)})
        row.update({f"bias_after_{i}": round(v, 6) for i, v in enumerate(r.held_out_bias_after)})
        row.update({"equity_error_before": round(r.held_out_equity_error_before, 6),
                    "equity_error_after": round(r.held_out_equity_error_after, 6), "layer": r.layer})
        append_log(run / "calibrate.log.csv", row)
        if echo is not None:
            what = "output biases moved by" if r.layer == "biases" else "output layer refitted, biases moved by"
            echo(f"calibrate {r.net}: {r.positions} positions, {what} "
                 + " ".join(f"{v:+.3f}" for v in r.shifts)
                 + f"; held out: mean |equity error| {r.held_out_equity_error_before:.4f} -> "
                 f"{r.held_out_equity_error_after:.4f}")
    meta = dict(w.meta)
    meta.update({"version": f"{meta.get('version', run.name)}-cal", "parent": weights_tag(cfg.init)})
    Weights(w.W1, w.b1, w.W2, w.b2, meta).save(run / "calibrated.npz")
    return write_manifest(run / "calibrate.manifest.json", "calibrate", asdict(cfg), t0,
                          positions=len(targets.ids), reports=[r.to_dict() for r in reports],
                          weights=weights_tag(str(run / "calibrated.npz")))
