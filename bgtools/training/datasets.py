"""Training data sets as ``.npz`` files, written atomically, and chunked stages that resume.

A data set is an ``.npz`` of named arrays; the ones the pipeline uses:

* ``boards`` int8[n, 2, 25]: positions in gnubg order, the player on roll as ``[1]``, before
  his roll (never finished games);
* ``game`` int32[n]: the self-play game each position comes from (for splits);
* ``targets`` float32[n, 5]: cumulative outputs for the player on roll (win, win gammon,
  win backgammon, lose gammon, lose backgammon), as the nets give them.

Stages that take long write one *part* file per chunk (``part-00000.npz``, ...) into a
folder, each a pure function of the stage's settings and the chunk number, so a stopped
stage continues from its last complete part and ends with the same bytes of data as an
uninterrupted run (:func:`completed_parts`, :func:`join_parts`).
"""

from __future__ import annotations

import csv
import io
import json
import time
from pathlib import Path

import numpy as np

from bgtools.base.errors import BgtoolsError
from bgtools.base.fileio import atomic_path, atomic_write

__all__ = ["DatasetError", "save_npz", "load_npz", "load_boards", "part_path", "completed_parts", "join_parts",
           "append_log", "write_manifest"]


class DatasetError(BgtoolsError, ValueError):
    """A data set that is missing or malformed (one line naming the file)."""


def save_npz(path: str | Path, **arrays: np.ndarray) -> None:
    """Write ``arrays`` to ``path`` (``.npz``) atomically: the file is whole or absent."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path, ".npz") as tmp:
        np.savez(tmp, **arrays)  # type: ignore[arg-type]  # numpy's stub types the first kwarg


def load_npz(path: str | Path, *names: str) -> dict[str, np.ndarray]:
    """The arrays ``names`` of an ``.npz`` (all of them when none are named)."""
    path = Path(path)
    if not path.is_file():
        raise DatasetError(f"{path}: no such data set")
    try:
        with np.load(path, allow_pickle=False) as z:
            keys = names or tuple(z.files)
            missing = [k for k in keys if k not in z.files]
            if missing:
                raise DatasetError(f"{path}: no array {missing[0]!r} (has {', '.join(z.files) or 'none'})")
            return {k: z[k] for k in keys}
    except (OSError, ValueError, EOFError) as e:
        if isinstance(e, DatasetError):
            raise
        raise DatasetError(f"{path}: not an .npz data set ({e})") from None


def load_boards(path: str | Path) -> np.ndarray:
    """The ``boards`` of a data set, checked: int8[n, 2, 25] with 0..15 checkers per slot."""
    b = load_npz(path, "boards")["boards"]
    if b.ndim != 3 or b.shape[1:] != (2, 25):
        raise DatasetError(f"{path}: boards have shape {b.shape}, expected (n, 2, 25)")
    b = np.ascontiguousarray(b, np.int8)
    if b.size and (b.min() < 0 or b.sum(axis=2).max() > 15):
        raise DatasetError(f"{path}: boards hold negative counts or more than 15 checkers a side")
    return b


def part_path(folder: str | Path, k: int) -> Path:
    return Path(folder) / f"part-{k:05d}.npz"


def completed_parts(folder: str | Path) -> int:
    """How many consecutive parts (from ``part-00000``) the folder holds."""
    k = 0
    while part_path(folder, k).is_file():
        k += 1
    return k


def join_parts(folder: str | Path, n_parts: int, limit: int | None = None) -> dict[str, np.ndarray]:
    """The parts ``0 .. n_parts - 1`` concatenated array by array (first ``limit`` rows);
    scalars (a part's own tags) are left out."""
    parts = [load_npz(part_path(folder, k)) for k in range(n_parts)]
    if not parts:
        raise DatasetError(f"{folder}: no parts")
    out = {name: np.concatenate([p[name] for p in parts]) for name in parts[0] if parts[0][name].ndim}
    if limit is not None:
        out = {k: v[:limit] for k, v in out.items()}
    return out


def append_log(path: str | Path, row: dict) -> None:
    """Append ``row`` to a CSV log (header written with the first row).  The columns are the
    header's: a row without some of them leaves them empty, and a row with new ones (a stage
    resumed by a newer version that logs more) widens the header, the earlier rows kept with
    those cells empty (the file rewritten atomically), so every row stays under its names."""
    path = Path(path)
    header: list[str] = []
    if path.exists():
        with open(path, newline="", encoding="utf-8") as f:
            header = next(csv.reader(f), [])
    if not header:
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=list(row))
            w.writeheader()
            w.writerow(row)
        return
    extra = [k for k in row if k not in header]
    if extra:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        buf = io.StringIO(newline="")
        w = csv.DictWriter(buf, fieldnames=header + extra, restval="")
        w.writeheader()
        w.writerows(rows)
        w.writerow(row)
        atomic_write(path, buf.getvalue().encode("utf-8"))  # (bytes: the csv module's line ends kept)
        return
    with open(path, "a", newline="", encoding="utf-8") as f:
        csv.DictWriter(f, fieldnames=header, restval="").writerow(row)


def write_manifest(path: str | Path, stage: str, config: dict, started: float, **facts) -> dict:
    """Write the stage's manifest (JSON): what ran, its settings and seed, how long, results."""
    m = {"stage": stage, "config": config, "seconds": round(time.time() - started, 2),
         "finished_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), **facts}
    atomic_write(path, json.dumps(m, indent=1, sort_keys=True) + "\n")
    return m
