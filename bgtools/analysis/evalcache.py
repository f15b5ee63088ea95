"""A persistent store of evaluations in SQLite, so that re-analysing a collection is fast.

(:class:`EvalStore`; not :class:`bgtools.engine.evalcache.EvalCache`, the rollout workers'
in-memory Numba hash table.)

Values are cubeless outcome probabilities (float64[5]) of a board, stored under
``(setting, board)``: ``setting`` names the evaluator and its version, the ply and any
search option that changes the value (e.g. ``"bgtools-nn nn-20261130-40k|ply=2"``);
``board`` is the int8[2, 25] board (player on roll ``[1]``) as 50 raw bytes.  Cubeless
values do not depend on the score or the cube, so one entry serves every match state;
cubeful equities and cube decisions are recomputed from them (cheap).  The one exception is
the analysis' cubeful lookahead of close checker plays (a whole search per play): its values
are kept under a setting that names the cube state too (``"...|cubeful ply=2|away=3,5 cube=2
owner=1 crawford=0 met=..."``), the value in the row's first column.

The file lives in bgtools' cache folder (``BGTOOLS_CACHE_DIR`` or the platform's user
cache directory), ``evals.sqlite``.  Several processes may share it (WAL journal).

>>> import numpy as np, tempfile, os
>>> c = EvalStore(os.path.join(tempfile.mkdtemp(), "e.sqlite"))
>>> b = np.zeros((1, 2, 25), np.int8)
>>> c.put("x|ply=0", b, np.array([[0.5, 0.1, 0.0, 0.1, 0.0]]))
>>> c.get("x|ply=0", b)[0].tolist()
[0.5, 0.1, 0.0, 0.1, 0.0]
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Optional, Union

import numpy as np

__all__ = ["EvalStore", "default_cache_path"]

_SCHEMA = """CREATE TABLE IF NOT EXISTS evals (
    setting TEXT NOT NULL, board BLOB NOT NULL, probs BLOB NOT NULL, PRIMARY KEY (setting, board)
) WITHOUT ROWID"""


def default_cache_path() -> Path:
    """``<cache folder>/evals.sqlite`` (see :func:`bgtools.engine.bearoff.cache_dir`)."""
    from bgtools.engine.bearoff import cache_dir

    return cache_dir() / "evals.sqlite"


class EvalStore:
    """Cubeless probabilities of boards (float64[5] rows), per evaluation setting, in one SQLite file."""

    def __init__(self, path: Optional[Union[str, os.PathLike]] = None) -> None:
        self.path = Path(path) if path is not None else default_cache_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(self.path), timeout=60.0)
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError:
            pass
        self._db.execute(_SCHEMA)
        self._db.commit()
        self.hits = 0
        self.misses = 0

    def get(self, setting: str, boards: np.ndarray) -> list[Optional[np.ndarray]]:
        """One float64[5] (or None when absent) per board of int8[n, 2, 25] ``boards``."""
        b = np.ascontiguousarray(boards, np.int8).reshape(-1, 50)
        keys = [row.tobytes() for row in b]
        found: dict[bytes, bytes] = {}
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            q = "SELECT board, probs FROM evals WHERE setting = ? AND board IN (%s)" % ",".join("?" * len(chunk))
            found.update(self._db.execute(q, (setting, *chunk)).fetchall())
        out = [np.frombuffer(found[k], np.float64).copy() if k in found else None for k in keys]
        hit = sum(v is not None for v in out)
        self.hits += hit
        self.misses += len(out) - hit
        return out

    def put(self, setting: str, boards: np.ndarray, probs: np.ndarray) -> None:
        """Store float64[n, 5] ``probs`` of ``boards`` (replacing older values)."""
        b = np.ascontiguousarray(boards, np.int8).reshape(-1, 50)
        p = np.ascontiguousarray(probs, np.float64).reshape(-1, 5)
        rows = [(setting, b[i].tobytes(), p[i].tobytes()) for i in range(b.shape[0])]
        self._db.executemany("INSERT OR REPLACE INTO evals VALUES (?, ?, ?)", rows)
        self._db.commit()

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM evals").fetchone()[0])

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "EvalStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


#: the name this class had (scripts may use it); bgtools.engine.evalcache.EvalCache is the Numba table
EvalCache = EvalStore
