"""The :class:`Library`: a match library from Python, its matches and decisions as pandas frames.

>>> import tempfile, os
>>> from bgtools.library.api import Library
>>> with tempfile.TemporaryDirectory() as d, Library(os.path.join(d, "lib.sqlite")) as lib:
...     _ = lib.set_me("Me, me")
...     lib.me, len(lib.matches()), list(lib.decisions().columns[:4])
(('Me', 'me'), 0, ['match_key', 'file', 'game', 'move_number'])
"""

from __future__ import annotations

from typing import Callable, Iterable, Optional, Sequence, Union

import sqlalchemy as sa

from bgtools.library.store import DECISION_COLUMNS, META_KEYS, Store, decisions, files, matches

__all__ = ["Library", "MATCH_FRAME_COLUMNS", "DECISION_FRAME_COLUMNS", "parse_names"]

#: the columns of :meth:`Library.matches`, in order
MATCH_FRAME_COLUMNS = ("match_key", "player0", "player1", "length", *META_KEYS, "winner", "score0", "score1", "games",
                       "paths", "me_side", "opponent")
#: the columns of :meth:`Library.decisions`, in order
DECISION_FRAME_COLUMNS = ("match_key", "file", "game", "move_number", "action_index", "side", "player", "me", "kind",
                          "phase", "forced", "counted", "dice", "position_id", "match_id", "played", "best",
                          "equity_loss", "mwc_loss", "error", "luck", "cube_nd", "cube_dt", "cube_dp", "cube_action",
                          "cube_response", "ply", "tags", "date")
_FLOAT_COLUMNS = ("equity_loss", "mwc_loss", "luck", "cube_nd", "cube_dt", "cube_dp")


def parse_names(names: Union[str, Iterable[str], None]) -> tuple[str, ...]:
    """``"me, Me,You"`` or a list -> the aliases, stripped, empties and repeats left out.

    >>> parse_names(" me,Me, ,me ")
    ('me', 'Me')
    """
    if names is None:
        return ()
    parts = names.split(",") if isinstance(names, str) else [p for n in names for p in str(n).split(",")]
    return tuple(dict.fromkeys(p.strip() for p in parts if p.strip()))


class Library:
    """A match library (``db``: a path, a SQLAlchemy URL, or None for ``BGTOOLS_DB`` or the default)."""

    def __init__(self, db: Optional[str] = None) -> None:
        self.store = Store(db)

    def __enter__(self) -> "Library":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.store.close()

    @property
    def where(self) -> str:
        return self.store.where

    # -- the user ------------------------------------------------------------------
    @property
    def me(self) -> tuple[str, ...]:
        """The user's aliases (player names that are "me")."""
        return tuple(self.store.get_meta("me", []))

    def set_me(self, names: Union[str, Iterable[str]]) -> tuple[str, ...]:
        """Record the user's aliases (a comma-separated string or a list); returns them."""
        aliases = parse_names(names)
        self.store.set_meta("me", list(aliases))
        return aliases

    # -- adding and analysing ------------------------------------------------------------
    def add(self, paths: Union[str, Sequence[str]], me: Union[str, Iterable[str], None] = None, *, jobs: int = 1,
            dask=None, progress: Optional[Callable[[int], None]] = None,
            on_total: Optional[Callable[[int], None]] = None):
        """Add match files (files, folders, globs); ``me`` also records the user's aliases.
        Returns the :class:`~bgtools.library.ingest.AddReport`."""
        from bgtools.library.ingest import add_paths

        if me is not None:
            self.set_me(me)
        return add_paths(self.store, [paths] if isinstance(paths, str) else list(paths), jobs=jobs, dask=dask,
                         progress=progress, on_total=on_total)

    def analyse(self, ply: int = 2, *, jobs: int = 1, dask=None, prune: bool = True, use_cache: bool = True,
                progress: Optional[Callable[[int], None]] = None,
                on_total: Optional[Callable[[int], None]] = None, met=None):
        """Analyse the matches not yet analysed at ``ply`` with the current evaluator (``met``:
        the match equity table of match play, None: the shipped one); returns the
        :class:`~bgtools.library.analyse.AnalyseReport`."""
        from bgtools.analysis.records import AnalysisSettings
        from bgtools.library.analyse import analyse_library

        return analyse_library(self.store, settings=AnalysisSettings(ply=ply, prune=prune, met=met), jobs=jobs, dask=dask,
                               use_cache=use_cache, progress=progress, on_total=on_total)

    # -- frames ----------------------------------------------------------------------
    def matches(self):
        """One row per match (columns :data:`MATCH_FRAME_COLUMNS`, see ``docs/library.md``)."""
        import pandas as pd

        cols = ["match_key", "player0", "player1", "length", *META_KEYS, "winner", "score0", "score1", "games"]
        q = sa.select(*(matches.c[c] for c in cols)).order_by(matches.c.added, matches.c.match_key)
        fq = sa.select(files.c.match_key, files.c.path).where(files.c.match_key.is_not(None)).order_by(files.c.id)
        with self.store.engine.begin() as conn:
            rows = conn.execute(q).all()
            paths: dict[str, list[str]] = {}
            for key, path in conn.execute(fq):
                paths.setdefault(key, []).append(path)
        me = {n.casefold() for n in self.me}
        df = pd.DataFrame.from_records([tuple(r) for r in rows], columns=cols)
        for c in ("match_key", "player0", "player1", *(k for k in META_KEYS if k != "date")):
            df[c] = df[c].astype(str)
        df["length"] = df["length"].astype("int64")
        for c in ("score0", "score1", "games"):
            df[c] = df[c].astype("int64")
        df["winner"] = df["winner"].astype("Int64")
        df["date"] = pd.to_datetime(df["date"].where(df["date"] != "", None), errors="coerce",
                                    format="mixed").astype("datetime64[ns]")
        df["paths"] = pd.Series(["\n".join(paths.get(k, ())) for k in df["match_key"]], index=df.index, dtype=str)
        sides = [_me_side(p0, p1, me) for p0, p1 in zip(df["player0"], df["player1"])]
        df["me_side"] = pd.array(sides, dtype="Int64")
        df["opponent"] = pd.Series([("" if s is None else (p1 if s == 0 else p0))
                                    for s, p0, p1 in zip(sides, df["player0"], df["player1"])], index=df.index, dtype=str)
        return df[list(MATCH_FRAME_COLUMNS)]

    def decisions(self, ply: Optional[int] = None, matches_frame=None, columns: Optional[Sequence[str]] = None):
        """One row per analysed decision (columns :data:`DECISION_FRAME_COLUMNS`), at ``ply``;
        None: each match at the deepest ply it was analysed at.  ``matches_frame``: the
        :meth:`matches` frame when the caller has it already; ``columns``: only those (and
        ``match_key``), in the same order, for speed over a large library."""
        import numpy as np
        import pandas as pd

        want = [c for c in DECISION_FRAME_COLUMNS if columns is None or c in columns or c == "match_key"]
        if columns is not None and (bad := set(columns) - set(DECISION_FRAME_COLUMNS)):
            raise ValueError(f"no decision columns {sorted(bad)}: use {', '.join(DECISION_FRAME_COLUMNS)}")
        stored = ["match_key", "ply", *DECISION_COLUMNS]
        cols = [c for c in stored if c in want or (c == "side" and ("player" in want or "me" in want))]
        sel = sa.select(*(decisions.c[c] for c in cols))
        if ply is not None:
            sel = sel.where(decisions.c.ply == ply)
        else:
            deepest = (sa.select(decisions.c.match_key, sa.func.max(decisions.c.ply).label("ply"))
                       .group_by(decisions.c.match_key).subquery())
            sel = sel.join(deepest, sa.and_(decisions.c.match_key == deepest.c.match_key,
                                            decisions.c.ply == deepest.c.ply))
        sel = sel.order_by(decisions.c.match_key, decisions.c.ply, decisions.c.seq)
        with self.store.engine.begin() as conn:
            result = conn.execute(sel)
            rows = result.cursor.fetchall() if result.cursor is not None else []  # plain tuples: fast
        df = pd.DataFrame(rows, columns=cols)
        m = (self.matches() if matches_frame is None else matches_frame).set_index("match_key")
        keys = df["match_key"]
        for c in cols:
            if c in ("game", "move_number", "action_index", "side", "ply"):
                df[c] = df[c].astype("int64")
            elif c in ("forced", "counted"):
                df[c] = df[c].astype(bool)
            elif c in _FLOAT_COLUMNS:
                df[c] = df[c].astype("float64")
        def of_match(col):  # the match's value of ``col`` on each row (reindex keeps dtypes, empty too)
            return col.reindex(keys.to_numpy()).to_numpy()

        if "file" in want:
            first = pd.Series([str(p).split("\n", 1)[0] for p in m["paths"]], index=m.index, dtype=str)
            df["file"] = pd.Series(of_match(first), index=df.index, dtype=str).fillna("")
        if "player" in want:
            df["player"] = np.where(df["side"].to_numpy() == 0, of_match(m["player0"]), of_match(m["player1"]))
        if "me" in want:
            side = pd.array(of_match(m["me_side"]), dtype="Int64")
            df["me"] = pd.Series(side == df["side"].to_numpy(), index=df.index).fillna(False).astype(bool)
        if "date" in want:
            df["date"] = pd.Series(of_match(m["date"]), index=df.index).astype("datetime64[ns]")
        return df[want].reset_index(drop=True)


def _me_side(p0: str, p1: str, me: set[str]) -> Optional[int]:
    a, b = p0.casefold() in me, p1.casefold() in me
    return 0 if a and not b else 1 if b and not a else None
