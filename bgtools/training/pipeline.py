"""The supervised pipeline as stages over a run folder: selfplay -> label -> fit -> duel.

Each stage takes the run folder and its config dataclass, writes ``<stage>.log.csv`` (one
row per chunk or epoch) and ``<stage>.manifest.json`` (the settings, seed, seconds and
results) in the folder, and resumes when run again with the same settings (a changed setting
is refused rather than mixed into old data).  Data go under ``<run>/data/`` (git-ignored,
regenerated from the seeds); the fitted net is ``<run>/fit.npz``.

=========  ==================================  =======================================
stage      reads                               writes
=========  ==================================  =======================================
selfplay   the playing net                     data/selfplay/part-*.npz, data/positions.npz
label      data/positions.npz, the labelling   data/labels/part-*.npz, data/labelled.npz
           net
racelabel  data/positions.npz (races only),    data/racelabels/part-*.npz, data/labelled.npz
           the rollout net                     (rollout targets; in place of label)
deepen     data/labelled.npz, the labelling    data/deep/part-*.npz, data/deepened.npz
           net                                 (labels, the chosen rows searched deeper)
decisions  data/positions.npz, the searching   data/decisions/part-*.npz, data/decisions.npz
           net                                 (the positions after the plays of one roll
                                               each, searched deeper: issue 37's item 4)
fit        data/labelled.npz (or deepened),    data/fit_ckpt.npz, fit.npz
           other runs' data sets, the start net
duel       two nets                            duel.manifest.json (ppg, 95 % interval)
prune      data/positions.npz, the main net    prune.npz (the pruning net), prune.log.csv
           (its 0-ply values of every play
           of a few rolls per position)
calibrate  ``bgtools rollout`` records of      calibrated.npz (the start net, its contact
           self-play positions, the start net  and crashed output biases fitted to them;
                                               :mod:`bgtools.training.calibrate`)
=========  ==================================  =======================================

``weights`` fields are paths to ``.npz`` nets; None means the shipped net.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Optional

import numpy as np

from bgtools.base.errors import BgtoolsError
from bgtools.base.fileio import atomic_write
from bgtools.engine.nets.features import net_classes
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import NET_NAMES, Weights, add_contact_inputs, add_race_inputs, widen_weights
from bgtools.training.datasets import (DatasetError, append_log, completed_parts, join_parts, load_npz, part_path, save_npz,
                                       write_manifest)
from bgtools.training.decisions import ROWS, DecisionSearch, decision_chunks, first_contact
from bgtools.training.decisions import select_rows as select_decisions
from bgtools.training.duel import duel_weights
from bgtools.training.fit import FitSettings, fit_weights, prepare
from bgtools.training.label import SELECTIONS, array_tag, disagreement, label_chunks, select_rows
from bgtools.training.racedata import race_label_chunks
from bgtools.training.selfplay import selfplay_games

__all__ = ["PipelineError", "SelfplayConfig", "LabelConfig", "DeepenConfig", "FitConfig", "DuelConfig",
           "PruneConfig", "RaceLabelConfig", "DecisionsConfig", "run_selfplay", "run_decisions", "run_racelabel", "run_label", "run_deepen", "run_fit", "run_duel", "run_prune"]

Echo = Optional[Callable[[str], None]]


class PipelineError(BgtoolsError, ValueError):
    """A stage that cannot run in this folder (missing input, or other settings than before)."""


@dataclass(frozen=True)
class SelfplayConfig:
    positions: int = 50_000  #: positions to record (the data set is cut to exactly this many)
    seed: int = 1
    weights: Optional[str] = None  #: the playing net
    explore: float = 0.1  #: chance a turn takes a play within ``margin`` instead of the best
    margin: float = 0.04  #: equity window of exploring plays
    chunk_games: int = 200  #: games per part file
    #: record only the positions that these nets evaluate (names of ``NET_NAMES``: "contact",
    #: "crashed", "race"); empty: every position.  The games are the same either way.
    classes: tuple[str, ...] = ()


@dataclass(frozen=True)
class LabelConfig:
    ply: int = 1
    weights: Optional[str] = None  #: the labelling net
    chunk: int = 5_000  #: positions per part file
    #: the search ranks each roll's replies with the shipped pruning net (about half the cost
    #: at 2 ply, a little less deep: docs/training.md, "The pruning net")
    prune: bool = False


@dataclass(frozen=True)
class RaceLabelConfig:
    trials: int = 36  #: rollout games per position (bear-off positions: none, their exact value)
    seed: int = 1  #: of the rollout dice (row ``i`` uses ``racedata.row_seed(seed, i)``)
    weights: Optional[str] = None  #: the net that plays the rollouts
    chunk: int = 1_000  #: positions per part file
    ply: int = 0  #: the rollout players' search: 0 or 1 (about 20 times the cost)
    vr: bool = False  #: variance reduction (``racedata``'s module notes)


@dataclass(frozen=True)
class DeepenConfig:
    ply: int = 2
    count: int = 10_000  #: rows labelled again at ``ply``
    weights: Optional[str] = None  #: the searching net (the label stage's, so that the scores mean something)
    select: str = "disagree"  #: "disagree": the rows whose label moved furthest from the net's 0 ply; "random"
    seed: int = 1  #: of the "random" selection
    chunk: int = 2_000  #: rows per part file
    prune: bool = False  #: as :attr:`LabelConfig.prune`


@dataclass(frozen=True)
class DecisionsConfig:
    ply: int = 2  #: the deeper search that judges the 0-ply picks and labels the rows
    weights: Optional[str] = None  #: the net whose picks are judged (and that searches)
    seed: int = 1  #: of the rolls (position ``i``'s roll: ``decisions.roll_dice(seed, i)``)
    keep: int = 8  #: plays of a roll valued at ``ply`` (at most; the analysis' filter)
    threshold: float = 0.16  #: ... within this much equity of the best 0-ply play
    #: which rows ``data/decisions.npz`` gets: "pairs" (both picks of the rolls where they part by
    #: more than ``margin``) or "candidates" (every play valued at ``ply``); the parts hold them all
    rows: str = "pairs"
    margin: float = 0.0
    chunk: int = 1_000  #: positions per part file
    prune: bool = True  #: the search ranks replies with the shipped pruning net (as ``LabelConfig.prune``)
    #: 0: the deep values are the search at ``ply``; N: variance-reduced race rollouts of N trials
    #: (race positions only), the plays of a roll on the same dice
    trials: int = 0


@dataclass(frozen=True)
class FitConfig:
    init: Optional[str] = None  #: the net to start from
    epochs: int = 8
    batch: int = 256
    lr: float = 3e-4
    val_frac: float = 0.05
    seed: int = 1
    data: str = "labelled"  #: this run's data set: ``data/<data>.npz`` ("labelled", "deepened" or "decisions")
    extra: tuple[str, ...] = ()  #: further data sets (``.npz`` with boards and targets) fitted beside it
    lr_end: Optional[float] = None  #: None: constant ``lr``; else decayed geometrically to it by the last epoch
    #: hidden units per class (contact, crashed, race) when the start net is to be widened first
    #: (:func:`bgtools.engine.nets.nn.widen_weights`, seeded by ``seed``); None: as the start net
    hidden: Optional[tuple[int, int, int]] = None
    #: keep each net (contact, crashed, race) from its own best held-out epoch
    #: (:attr:`bgtools.training.fit.FitSettings.best_per_net`); False: one epoch for all three
    best_per_net: bool = False
    #: the contact and crashed nets read contactinputs' inputs too (added at zero weights when
    #: the start net does not: :func:`bgtools.engine.nets.nn.add_contact_inputs`)
    contact_inputs: bool = False
    #: the race net reads raceinputs' inputs too (added at zero weights when the start net does
    #: not: :func:`bgtools.engine.nets.nn.add_race_inputs`)
    race_inputs: bool = False
    #: weight of the within-roll loss on the rows of data sets that name their rolls (``train decisions``'
    #: ``roll``): those rows come in batches of whole rolls (:attr:`bgtools.training.fit.FitSettings.within_roll`)
    within_roll: float = 0.0


#: the fit options added after the first runs, with the values those runs had: left out of the
#: checkpoint's key while they have them, so that those runs' checkpoints still match.  A record
#: of the past, not of today's defaults (a test checks that they are still :class:`FitConfig`'s).
_FIT_DEFAULTS = {"data": "labelled", "extra": (), "lr_end": None, "hidden": None, "best_per_net": False,
                 "contact_inputs": False, "race_inputs": False, "within_roll": 0.0}


@dataclass(frozen=True)
class DuelConfig:
    a: Optional[str] = None  #: None: ``<run>/fit.npz``
    b: Optional[str] = None  #: None: the shipped net
    games: int = 2_000
    seed: int = 1
    ply: int = 0


@dataclass(frozen=True)
class PruneConfig:
    weights: Optional[str] = None  #: the main net whose 0-ply values the pruning net learns to rank
    hidden: int = 64
    epochs: int = 8
    rolls: int = 3  #: rolls drawn per position (every play of each)
    keep: int = 6  #: plays per roll the full net values after pruning (stored with the net)
    val_frac: float = 0.05  #: share of the positions held out to measure the ranking
    seed: int = 1


def weights_tag(path: Optional[str]) -> str:
    if path is None:
        return "shipped:" + str(load_weights(None).meta.get("version", "?"))
    try:
        return "sha256:" + hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]
    except OSError:
        load_weights(path)  # raises the one-line WeightsFileError
        raise


def _claim(folder: Path, key: dict, advice: str = "use a new run folder", may_replace: bool = False) -> None:
    """Record the settings a parts folder is made with; refuse to resume with other ones
    (unless ``may_replace``: nothing made with the old ones is left)."""
    folder.mkdir(parents=True, exist_ok=True)
    f = folder / "settings.json"
    text = json.dumps(key, sort_keys=True)
    if f.is_file():
        old = f.read_text(encoding="utf-8").strip()
        if old != text and not may_replace:
            raise PipelineError(f"{folder}: made with other settings ({old}); {advice}")
        if old == text:
            return
    atomic_write(f, text + "\n")


def _finish(path: Path, stage: str, cfg, t0: float, **facts) -> dict:
    """Write the stage's manifest, unless one from the same settings and results is there (a
    finished stage run again keeps the manifest, and the seconds, of the run that made it)."""
    new = json.loads(json.dumps({"config": asdict(cfg), **facts}))
    if path.is_file():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            old = {}
        if all(old.get(k) == v for k, v in new.items()):
            return old
    return write_manifest(path, stage, asdict(cfg), t0, **facts)


def _say(echo: Echo, msg: str) -> None:
    if echo is not None:
        echo(msg)


def run_selfplay(run: str | Path, cfg: SelfplayConfig = SelfplayConfig(), echo: Echo = None,
                 max_chunks: Optional[int] = None) -> Optional[dict]:
    """Self-play until ``cfg.positions`` are recorded; then write ``data/positions.npz``.

    Returns the manifest when done, None when stopped early by ``max_chunks`` (new parts).
    """
    run = Path(run)
    t0 = time.time()
    parts = run / "data" / "selfplay"
    key = {k: v for k, v in asdict(cfg).items() if k != "positions"}  # more positions = more parts
    key["weights"] = weights_tag(cfg.weights)
    if cfg.classes:
        key["classes"] = list(cfg.classes)
    else:  # (so that folders made before the option existed resume as they are)
        key.pop("classes")
    keep = _class_numbers(cfg.classes)
    _claim(parts, key)
    w = load_weights(cfg.weights)
    k = completed_parts(parts)
    total = sum(int(load_npz(part_path(parts, j), "game")["game"].size) for j in range(k))
    new = 0
    while total < cfg.positions:
        if max_chunks is not None and new >= max_chunks:
            return None
        t1 = time.perf_counter()
        d = selfplay_games(w, k * cfg.chunk_games, cfg.chunk_games, cfg.seed, cfg.explore, cfg.margin)
        if keep:
            d = _of_classes(d, keep)
        save_npz(part_path(parts, k), **d)
        dt = time.perf_counter() - t1
        total += d["game"].size
        append_log(run / "selfplay.log.csv", {"part": k, "games": (k + 1) * cfg.chunk_games,
                                              "positions": total, "explored": int(d["explored"].sum()),
                                              "seconds": round(dt, 2), "positions_per_s": round(d["game"].size / dt)})
        _say(echo, f"selfplay part {k}: {total} positions")
        k += 1
        new += 1
    data = join_parts(parts, k, cfg.positions)
    save_npz(run / "data" / "positions.npz", **data)
    return _finish(run / "selfplay.manifest.json", "selfplay", cfg, t0, parts=k,
                   positions=int(data["boards"].shape[0]), explored=int(data["explored"].sum()),
                   games=int(data["game"].max()) + 1, weights=key["weights"], boards_sha256=array_tag(data["boards"]))


def _class_numbers(names: tuple[str, ...]) -> tuple[int, ...]:
    """The net classes (``NET_CONTACT`` ...) of ``SelfplayConfig.classes``; a one-line error for
    a name that is none."""
    bad = [c for c in names if c not in NET_NAMES]
    if bad:
        raise PipelineError(f"unknown position class {bad[0]!r}: choose from {', '.join(NET_NAMES)}")
    return tuple(NET_NAMES.index(c) for c in names)


def _of_classes(d: dict[str, np.ndarray], keep: tuple[int, ...]) -> dict[str, np.ndarray]:
    """A self-play part's rows (every array of it) whose boards the nets ``keep`` evaluate."""
    cls = net_classes(d["boards"])
    mask = np.isin(cls, np.array(keep, np.int64))
    return {k: v[mask] for k, v in d.items()}


def _part_logger(run: Path, stage: str, echo: Echo, digits: int) -> Callable[[int, int, int, float], None]:
    """The progress callback of a labelling stage: a log row and a line per finished part
    (its seconds are the part's own, also when workers label several at once)."""

    def progress(k: int, rows: int, n: int, seconds: float) -> None:
        append_log(run / f"{stage}.log.csv", {"part": k, "rows": rows, "of_parts": n, "seconds": round(seconds, 3),
                                              "positions_per_s": round(rows / max(seconds, 1e-9), digits)})
        _say(echo, f"{stage} part {k + 1}/{n}")

    return progress


def _label_key(cfg, **more) -> dict:
    """The settings a labelling parts folder is claimed with; ``prune`` only when on, so that
    folders labelled before the option existed resume as they are."""
    key = {**asdict(cfg), **more}
    if not key.get("prune"):
        key.pop("prune", None)
    return key


def _pruning_of(cfg):
    if not getattr(cfg, "prune", False):
        return None
    from bgtools.training.label import shipped_pruning

    try:
        return shipped_pruning()
    except ValueError as e:
        raise PipelineError(str(e)) from None


def run_label(run: str | Path, cfg: LabelConfig = LabelConfig(), echo: Echo = None,
              max_chunks: Optional[int] = None, jobs: int = 1, dask: Any = None) -> Optional[dict]:
    """Label ``data/positions.npz`` with the net at ``cfg.ply``; then write ``data/labelled.npz``.

    ``jobs`` worker processes or the Dask scheduler ``dask`` label the parts (the same files)."""
    run = Path(run)
    t0 = time.time()
    boards = _positions(run, "")
    parts = run / "data" / "labels"
    key = _label_key(cfg, weights=weights_tag(cfg.weights))  # each part checks its own rows
    _claim(parts, key)
    w = load_weights(cfg.weights)
    n_parts = (boards.shape[0] + cfg.chunk - 1) // cfg.chunk
    done = label_chunks(boards, w, parts, cfg.ply, cfg.chunk, max_chunks, _part_logger(run, "label", echo, 1),
                        jobs, dask, _pruning_of(cfg))
    if done < n_parts:
        return None
    targets = join_parts(parts, n_parts)["targets"]
    save_npz(run / "data" / "labelled.npz", boards=boards, targets=targets)
    return _finish(run / "label.manifest.json", "label", cfg, t0, positions=int(boards.shape[0]),
                   weights=key["weights"], targets_sha256=array_tag(targets))


def _positions(run: Path, how: str) -> np.ndarray:
    """The boards of the run's ``data/positions.npz`` (the selfplay stage's, made ``how``)."""
    src = run / "data" / "positions.npz"
    if not src.is_file():
        raise PipelineError(f"{src}: no positions; run the selfplay stage first{how}")
    return load_npz(src, "boards")["boards"]


def run_racelabel(run: str | Path, cfg: RaceLabelConfig = RaceLabelConfig(), echo: Echo = None,
                  max_chunks: Optional[int] = None) -> Optional[dict]:
    """Label the race positions of ``data/positions.npz`` (``selfplay --classes race``) with
    rollouts of our own net and bear-off databases (:mod:`bgtools.training.racedata`); then
    write ``data/labelled.npz`` (it takes the label stage's place in a race run folder)."""
    run = Path(run)
    t0 = time.time()
    boards = _positions(run, " (--classes race)")
    races = net_classes(boards) == NET_NAMES.index("race")
    if not races.all():
        raise PipelineError(f"{run / 'data' / 'positions.npz'}: {int((~races).sum())} positions are not races; make them with "
                            "selfplay --classes race")
    if cfg.trials < 1 or cfg.chunk < 1 or cfg.ply not in (0, 1):
        raise PipelineError("racelabel: trials and chunk must be 1 or more, ply 0 or 1")
    parts = run / "data" / "racelabels"
    key = {**asdict(cfg), "weights": weights_tag(cfg.weights)}
    for opt in ("ply", "vr"):
        if not key[opt]:
            key.pop(opt)  # (folders made before the option resume as they are)
    _claim(parts, key)
    w = load_weights(cfg.weights)
    n_parts = (boards.shape[0] + cfg.chunk - 1) // cfg.chunk
    done = race_label_chunks(boards, w, parts, cfg.trials, cfg.seed, cfg.chunk, max_chunks,
                             _part_logger(run, "racelabel", echo, 1), cfg.ply, cfg.vr)
    if done < n_parts:
        return None
    targets = join_parts(parts, n_parts)["targets"]
    save_npz(run / "data" / "labelled.npz", boards=boards, targets=targets)
    return _finish(run / "racelabel.manifest.json", "racelabel", cfg, t0, positions=int(boards.shape[0]),
                   weights=key["weights"], targets_sha256=array_tag(targets))


def run_deepen(run: str | Path, cfg: DeepenConfig = DeepenConfig(), echo: Echo = None,
               max_chunks: Optional[int] = None, jobs: int = 1, dask: Any = None) -> Optional[dict]:
    """Label ``cfg.count`` rows of ``data/labelled.npz`` again at ``cfg.ply``: by default those
    whose label is furthest from the searching net's own 0-ply value.  Writes
    ``data/deepened.npz`` (``boards``, ``targets`` with those rows replaced, ``deep`` int8 mask)."""
    run = Path(run)
    t0 = time.time()
    src = run / "data" / "labelled.npz"
    if not src.is_file():
        raise PipelineError(f"{src}: no labelled positions; run the label stage first")
    if cfg.select not in SELECTIONS:
        raise PipelineError(f"select {cfg.select!r}: use one of {', '.join(SELECTIONS)}")
    if cfg.ply < 1 or cfg.count < 1 or cfg.chunk < 1:
        raise PipelineError(f"ply {cfg.ply}, count {cfg.count}, chunk {cfg.chunk}: each must be 1 or more")
    d = load_npz(src, "boards", "targets")
    boards, targets = d["boards"], d["targets"]
    parts = run / "data" / "deep"
    key = _label_key(cfg, weights=weights_tag(cfg.weights), labels=array_tag(targets))
    _claim(parts, key)
    w = load_weights(cfg.weights)
    score = disagreement(boards, targets, w)
    rows = select_rows(score, cfg.count, cfg.select, cfg.seed)
    n_parts = (rows.size + cfg.chunk - 1) // cfg.chunk
    done = label_chunks(boards[rows], w, parts, cfg.ply, cfg.chunk, max_chunks, _part_logger(run, "deepen", echo, 2),
                        jobs, dask, _pruning_of(cfg))
    if done < n_parts:
        return None
    deep = join_parts(parts, n_parts)["targets"]
    out = targets.copy()
    out[rows] = deep
    mask = np.zeros(boards.shape[0], np.int8)
    mask[rows] = 1
    save_npz(run / "data" / "deepened.npz", boards=boards, targets=out, deep=mask)
    eq = lambda p: 2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]  # noqa: E731
    moved = np.abs(eq(deep.astype(np.float64)) - eq(targets[rows].astype(np.float64)))
    return _finish(run / "deepen.manifest.json", "deepen", cfg, t0, positions=int(boards.shape[0]),
                   deepened=int(rows.size), weights=key["weights"], targets_sha256=array_tag(out),
                   score_mean_all=float(score.mean()), score_mean_chosen=float(score[rows].mean()),
                   score_min_chosen=float(score[rows].min()) if rows.size else 0.0,
                   deep_shift_mean=float(moved.mean()) if rows.size else 0.0)


def run_decisions(run: str | Path, cfg: DecisionsConfig = DecisionsConfig(), echo: Echo = None,
                  max_chunks: Optional[int] = None, jobs: int = 1, dask: Any = None) -> Optional[dict]:
    """Judge the net's 0-ply picks on one seeded roll of each of ``data/positions.npz``'s positions
    by its own search at ``cfg.ply`` (:mod:`bgtools.training.decisions`); write
    ``data/decisions.npz`` (``boards``, ``targets``, ``roll``, ``pick``, ``gap``: the rows
    ``cfg.rows`` chooses), to be fitted as a data set of its own (``fit --data decisions``) or
    beside another (``--extra``).  ``jobs`` worker processes or the Dask scheduler ``dask`` make
    the parts (the same files)."""
    from bgtools.engine.evaluation import MoveFilter

    run = Path(run)
    t0 = time.time()
    if cfg.ply < 1 or cfg.keep < 2 or cfg.chunk < 1 or cfg.threshold < 0 or cfg.margin < 0:
        raise PipelineError("decisions: --ply must be 1 or more, --keep 2 or more, --chunk 1 or more, "
                            "--threshold and --margin 0 or more")
    if cfg.rows not in ROWS:
        raise PipelineError(f"decisions: rows {cfg.rows!r}: use one of {', '.join(ROWS)}")
    if cfg.trials < 0:
        raise PipelineError(f"decisions: --trials must be 0 (the search at --ply) or more, not {cfg.trials}")
    boards = _positions(run, "")
    contact = first_contact(boards) if cfg.trials else None
    if contact is not None:
        raise PipelineError(f"decisions --trials: position {contact} of data/positions.npz is not a race "
                            "(rollout rows take race positions: train selfplay --classes race)")
    parts = run / "data" / "decisions"
    # (the parts hold every row; trials only where set, so that earlier parts' settings still match)
    key = {k: v for k, v in asdict(cfg).items() if k not in ("rows", "margin") and (k != "trials" or v)}
    key["weights"] = weights_tag(cfg.weights)
    _claim(parts, key)
    w = load_weights(cfg.weights)
    n_parts = (boards.shape[0] + cfg.chunk - 1) // cfg.chunk
    search = DecisionSearch(cfg.ply, cfg.seed, MoveFilter(cfg.keep, cfg.threshold), _pruning_of(cfg), cfg.trials)
    done = decision_chunks(boards, w, parts, search, cfg.chunk, max_chunks, _part_logger(run, "decisions", echo, 1),
                           jobs, dask)
    if done < n_parts:
        return None
    d = join_parts(parts, n_parts)
    d.pop("index", None)
    keep = select_decisions(d["pick"], d["gap"], cfg.rows, cfg.margin)
    out = {k: v[keep] for k, v in d.items()}
    save_npz(run / "data" / "decisions.npz", **out)
    gap0 = d["gap"][(d["pick"] & 1) == 1]  # one row a roll: its 0-ply pick
    parted = gap0 > cfg.margin
    return _finish(run / "decisions.manifest.json", "decisions", cfg, t0, positions=int(boards.shape[0]),
                   rolls=int(gap0.size), rows_valued=int(d["roll"].size), rolls_parted=int(parted.sum()),
                   mean_gap_parted=float(gap0[parted].mean()) if parted.any() else 0.0,
                   rows=int(out["roll"].size), weights=key["weights"], targets_sha256=array_tag(out["targets"]))


def run_fit(run: str | Path, cfg: FitConfig = FitConfig(), echo: Echo = None,
            max_epochs: Optional[int] = None) -> Optional[dict]:
    """Fit the start net to ``data/labelled.npz``; write ``fit.npz`` (the best epoch by held-out loss)."""
    run = Path(run)
    t0 = time.time()
    src = run / "data" / f"{cfg.data}.npz"
    if not src.is_file():
        stage = {"deepened": "deepen", "decisions": "decisions"}.get(cfg.data, "label")
        raise PipelineError(f"{src}: no labelled positions; run the {stage} stage first")
    files: list[str | Path] = [src, *cfg.extra]
    sets = [load_npz(f, "boards", "targets") for f in files]
    boards = np.concatenate([d["boards"] for d in sets])
    targets = np.concatenate([d["targets"] for d in sets])
    groups = _roll_groups(files, [d["boards"].shape[0] for d in sets]) if cfg.within_roll > 0 else None
    del sets
    init = load_weights(cfg.init)
    if cfg.hidden is not None:
        try:
            init = widen_weights(init, cfg.hidden, cfg.seed)
        except ValueError as e:
            raise PipelineError(f"fit --hidden: {e}") from None
    if cfg.contact_inputs:
        init = add_contact_inputs(init)
    if cfg.race_inputs:
        init = add_race_inputs(init)
    data = prepare(boards, targets, wide=init.wide, race_inputs=init.race_inputs, groups=groups)
    settings = FitSettings(epochs=cfg.epochs, batch=cfg.batch, lr=cfg.lr, val_frac=cfg.val_frac, seed=cfg.seed,
                           lr_end=cfg.lr_end, best_per_net=cfg.best_per_net, within_roll=cfg.within_roll)
    ckpt = run / "data" / "fit_ckpt.npz"
    key = {k: v for k, v in asdict(cfg).items() if k not in _FIT_DEFAULTS or v != _FIT_DEFAULTS[k]}
    _claim(run / "data" / "fit", {**key, "init": weights_tag(cfg.init), "labels": array_tag(targets)},
           f"delete {ckpt} or use a new run folder", may_replace=not ckpt.exists())

    def log(row: dict) -> None:
        append_log(run / "fit.log.csv", row)
        _say(echo, "fit " + ", ".join(f"{k} {v:.5g}" for k, v in row.items()))

    w = fit_weights(init, data, settings, ckpt, log, max_epochs)
    if int(w.meta["fit_epochs"]) < cfg.epochs:
        return None
    meta = dict(w.meta)
    meta.update({"name": "bgtools-nn", "version": f"{run.name}-fit", "parent": weights_tag(cfg.init)})
    out = Weights(w.W1, w.b1, w.W2, w.b2, meta)
    out.save(run / "fit.npz")
    return write_manifest(run / "fit.manifest.json", "fit", asdict(cfg), t0, rows=data.rows(),
                          data_sets=[str(src), *cfg.extra],
                          val_loss=float(meta["fit_val_loss"]), weights=weights_tag(str(run / "fit.npz")))


def _roll_groups(files: list, sizes: list[int]) -> np.ndarray:
    """Each row's roll number over the data sets ``files`` (their ``roll`` arrays, made unique
    across the sets; -1 for the rows of a set without one); an error when no set has one."""
    out, offset = [], 0
    for f, n in zip(files, sizes):
        try:
            roll = load_npz(f, "roll")["roll"].astype(np.int64)
        except DatasetError:
            out.append(np.full(n, -1, np.int64))
            continue
        out.append(roll + offset)
        offset += int(roll.max()) + 1 if roll.size else 0
    if offset == 0:
        raise PipelineError("fit --within-roll: no data set names its rolls (use a train decisions set, "
                            "--data decisions or --extra)")
    return np.concatenate(out)


def run_duel(run: str | Path, cfg: DuelConfig = DuelConfig(), echo: Echo = None) -> dict:
    """Net A (default ``<run>/fit.npz``) against net B (default shipped): ppg and 95 % interval."""
    run = Path(run)
    t0 = time.time()
    a_path = cfg.a if cfg.a is not None else str(run / "fit.npz")
    a, b = load_weights(a_path), load_weights(cfg.b)
    r = duel_weights(a, b, cfg.games, cfg.seed, cfg.ply)
    run.mkdir(parents=True, exist_ok=True)
    append_log(run / "duel.log.csv", {"a": a_path, "b": cfg.b or "shipped", "seed": cfg.seed, "ply": cfg.ply,
                                      **r.to_dict()})
    _say(echo, f"duel {a_path} vs {cfg.b or 'shipped'}: {r}")
    return write_manifest(run / "duel.manifest.json", "duel", asdict(cfg), t0, a=weights_tag(a_path),
                          b=weights_tag(cfg.b), result=r.to_dict())


def run_prune(run: str | Path, cfg: PruneConfig = PruneConfig(), echo: Echo = None) -> dict:
    """Fit the pruning net (:mod:`bgtools.training.prunefit`) to the plays of this run's
    self-play positions as the main net values them; write ``prune.npz`` and the ranking
    of the held-out positions' plays in the manifest.  Seeded: run again, the same net."""
    from bgtools.engine.nets.nn import NeuralEvaluator
    from bgtools.training.prunefit import PruneFitSettings, fit_prune, prune_dataset, ranking_report

    run = Path(run)
    t0 = time.time()
    if cfg.hidden < 1 or cfg.epochs < 1 or not 1 <= cfg.rolls <= 21 or cfg.keep < 1 or not 0 < cfg.val_frac < 1:
        raise PipelineError("prune: --hidden, --epochs and --keep must be positive, --rolls 1 to 21, "
                            "the held-out share between 0 and 1")
    src = run / "data" / "positions.npz"
    if not src.is_file():
        raise PipelineError(f"{src}: no positions; run the selfplay stage first")
    boards = load_npz(src, "boards")["boards"]
    order = np.random.default_rng(cfg.seed).permutation(boards.shape[0])
    n_val = max(1, int(round(cfg.val_frac * boards.shape[0])))
    ev = NeuralEvaluator(load_weights(cfg.weights))
    _say(echo, f"prune: the plays of {cfg.rolls} rolls of {boards.shape[0]} positions, valued by the main net")
    train = prune_dataset(boards[np.sort(order[n_val:])], ev, cfg.rolls, seed=cfg.seed)
    val = prune_dataset(boards[np.sort(order[:n_val])], ev, cfg.rolls, seed=cfg.seed + 1)
    (run / "prune.log.csv").unlink(missing_ok=True)

    def log(row: dict) -> None:
        append_log(run / "prune.log.csv", row)
        _say(echo, "prune fit " + ", ".join(f"{k} {v:.5g}" for k, v in row.items()))

    meta = {"name": "bgtools-prune", "version": f"{run.name}-prune", "main_net": weights_tag(cfg.weights)}
    pr = fit_prune(train, PruneFitSettings(hidden=cfg.hidden, epochs=cfg.epochs, seed=cfg.seed), log, meta)
    pr = pr.with_keep(cfg.keep)
    report = ranking_report(pr, val)
    pr.save(run / "prune.npz")
    _say(echo, "prune: best play kept " + ", ".join(f"{k[4:]}: {v['found']:.3f}" for k, v in report.items()
                                                   if k.startswith("keep")))
    return write_manifest(run / "prune.manifest.json", "prune", asdict(cfg), t0, plays=int(train.boards.shape[0]),
                          rolls=train.groups, held_out=report, weights=weights_tag(str(run / "prune.npz")))
