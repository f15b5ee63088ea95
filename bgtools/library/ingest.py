"""``library add``: match files into the library, each match once.

A match is keyed by :func:`content_key`, a hash of its replayed content (players, length,
rules, and per action who did what from which position), so the same match read from an
``.xg`` and from its ``.mat`` export, or a file renamed, is one match: every path it was
read from is remembered (``files``).  A path already known is skipped without reading when
its size and modification time are unchanged, or when its bytes hash as before; a path
whose bytes equal those of a known file is a duplicate without reading; every other file is
read (in worker processes with ``jobs``) and is new, a duplicate, or unreadable.  Each file
is written in its own transaction, so a run stopped at any moment keeps what it finished.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from typing import Callable, Collection, Iterable, Optional

import sqlalchemy as sa

from bgtools.library.store import META_KEYS, Store, files, matches

__all__ = ["FileRead", "AddReport", "content_key", "read_file", "read_match_at", "add_paths", "file_sha256"]


def content_key(match) -> str:
    """Hex SHA-256 of the match's replayed content: players, length, rules, and for every
    action its game, kind, player, dice (sorted), the position before it and the position
    after a play; the games' scores and results.  Independent of the file format and name."""
    from bgtools.model.game import Roll

    h = hashlib.sha256()
    h.update(repr((tuple(match.players), match.length, match.crawford, match.jacoby, match.beavers)).encode())
    for s in match.replay():
        a = s.action
        dice = tuple(sorted(a.dice)) if isinstance(a, Roll) else ()
        after = s.play.after_id if s.play is not None else ""
        h.update(f"{s.game_index}|{type(a).__name__}|{a.player}|{dice}|{s.position_id}|{after};".encode())
    for g in match.games:
        r = g.result
        h.update(repr((g.score, g.initial_cube, None if r is None else (r.winner, r.points), len(g.actions),
                       len(g.errors))).encode())
    return h.hexdigest()


def file_sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@dataclass(frozen=True)
class FileRead:
    """What reading one file gave: its key and match record, or why it is unreadable."""

    path: str
    sha256: str
    key: Optional[str] = None
    record: Optional[dict] = None  #: the ``matches`` row
    error: str = ""


def match_record(match, key: str) -> dict:
    """The ``matches`` row of a replayed match (standard metadata from ``Match.tags``)."""
    tags = match.tags or {}
    s0, s1 = match.final_score
    winner = None
    if match.length and max(s0, s1) >= match.length:
        winner = 0 if s0 > s1 else 1
    return {"match_key": key, "player0": match.players[0] or "", "player1": match.players[1] or "",
            "length": match.length, "crawford": bool(match.crawford), "jacoby": bool(match.jacoby),
            "beavers": bool(match.beavers), "format": match.format or "",
            **{k: str(tags.get(k, "") or "") for k in META_KEYS},
            "raw_tags": json.dumps({str(k): str(v) for k, v in tags.items()}, ensure_ascii=False, sort_keys=True),
            "winner": winner, "score0": s0, "score1": s1, "games": len(match.games),
            "problems": len(match.errors), "added": time.time()}


def read_match_at(path: str):
    """(match, '') for the match file at ``path`` read as every command reads it
    (:func:`bgtools.formats.read.read_file`, with its steps kept), or (None, why not)."""
    from pathlib import Path

    from bgtools.formats.read import read_file as read_match_file
    from bgtools.model.problems import MatchFileError

    try:
        reading = read_match_file(Path(path), name=path, keep_steps=True)
    except (MatchFileError, OSError, UnicodeDecodeError, ValueError) as e:
        why = str(e)
    else:
        m = reading.match
        if not reading.unreadable and m.games:
            return m, ""
        why = str(m.file_errors[0]) if m.file_errors else "no games in the file"
    return None, why if why.startswith(path) else f"{path}: {why}"


def read_file(task: tuple[str, str]) -> FileRead:
    """(path, sha256) -> :class:`FileRead` (for worker processes: problems returned, never raised)."""
    path, sha = task
    m, why = read_match_at(path)
    if m is None:
        return FileRead(path, sha, error=why)
    key = content_key(m)
    return FileRead(path, sha, key, match_record(m, key))


@dataclass
class AddReport:
    """Counts of one ``library add`` and the unreadable files' reasons."""

    new: int = 0
    unchanged: int = 0
    duplicates: int = 0
    unreadable: int = 0
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (f"{self.new} new, {self.unchanged} unchanged, {self.duplicates} duplicates, "
                f"{self.unreadable} unreadable")


def _stat(path: str) -> Optional[os.stat_result]:
    try:
        return os.stat(path)
    except OSError:
        return None


def add_paths(store: Store, paths: Iterable[str], *, jobs: int = 1, dask=None,
              progress: Optional[Callable[[int], None]] = None,
              on_total: Optional[Callable[[int], None]] = None) -> AddReport:
    """Add the match files of ``paths`` (files, folders, globs) to the library; see the module notes.

    ``progress(n)`` is called as files are done, after ``on_total(count)`` of those to read."""
    from bgtools.base.parallel import chunk_size, ordered_map
    from bgtools.formats.read import expand_paths

    report = AddReport()
    wanted = list(dict.fromkeys(os.path.abspath(p) for p in expand_paths(paths) if p != "-"))
    with store.engine.begin() as conn:
        known = {r.path: r for r in conn.execute(sa.select(files.c.path, files.c.size, files.c.mtime_ns,
                                                           files.c.sha256, files.c.match_key, files.c.error))}
        by_sha = {r.sha256: r.match_key for r in known.values() if r.match_key is not None}
    to_read: list[tuple[str, str]] = []
    for path in wanted:
        st = _stat(path)
        if st is None:
            report.unreadable += 1
            report.problems.append(f"{path}: no such file")
            continue
        old = known.get(path)
        if old is not None and old.size == st.st_size and old.mtime_ns == st.st_mtime_ns:
            _count_known(report, old)
            continue
        try:
            sha = file_sha256(path)
        except OSError as e:
            report.unreadable += 1
            report.problems.append(f"{path}: cannot read: {e.strerror or e}")
            continue
        if old is not None and old.sha256 == sha:  # touched, not changed
            with store.engine.begin() as conn:
                conn.execute(files.update().where(files.c.path == path).values(size=st.st_size,
                                                                              mtime_ns=st.st_mtime_ns))
            _count_known(report, old)
            continue
        if sha in by_sha and old is None:  # a copy of a known file
            _store_file(store, path, st, sha, by_sha[sha], "")
            report.duplicates += 1
            continue
        to_read.append((path, sha))
    if on_total:
        on_total(len(to_read))
    n_jobs = max(1, min(jobs, len(to_read)))
    for res in ordered_map(read_file, to_read, jobs=n_jobs, dask=dask, chunk=chunk_size(len(to_read), n_jobs)):
        st = _stat(res.path)
        if st is None:
            continue
        if res.key is None:
            _store_file(store, res.path, st, res.sha256, None, res.error)
            report.unreadable += 1
            report.problems.append(res.error)
        elif _store_match(store, res, st):
            report.new += 1
            by_sha[res.sha256] = res.key
        else:
            report.duplicates += 1
            by_sha[res.sha256] = res.key
        if progress:
            progress(1)
    return report


def _count_known(report: AddReport, old) -> None:
    if old.match_key is None:
        report.unreadable += 1
        report.problems.append(old.error)
    else:
        report.unchanged += 1


def _upsert_file(conn, path: str, st: os.stat_result, sha: str, key: Optional[str], error: str) -> None:
    values = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": sha, "match_key": key, "error": error}
    done = conn.execute(files.update().where(files.c.path == path).values(**values))
    if not done.rowcount:
        conn.execute(files.insert().values(path=path, **values))


def _store_file(store: Store, path: str, st: os.stat_result, sha: str, key: Optional[str], error: str) -> None:
    with store.engine.begin() as conn:
        _upsert_file(conn, path, st, sha, key, error)


def _store_match(store: Store, res: FileRead, st: os.stat_result) -> bool:
    """Record the file and (when new) its match in one transaction; True when the match is new."""
    record = res.record or {}
    with store.engine.begin() as conn:
        exists = conn.execute(sa.select(*(matches.c[k] for k in META_KEYS))
                              .where(matches.c.match_key == res.key)).first()
        if exists is None:
            conn.execute(matches.insert().values(**record))
        else:  # metadata the first file lacked and this one has (an .xg's date beside a bare .mat)
            fill = {k: record[k] for k, old in zip(META_KEYS, exists) if not old and record.get(k)}
            if fill:
                conn.execute(matches.update().where(matches.c.match_key == res.key).values(**fill))
        _upsert_file(conn, res.path, st, res.sha256, res.key, "")
    return exists is None


def match_paths(store: Store, keys: Optional[Collection[str]] = None) -> dict[str, list[str]]:
    """match key -> the paths it was read from, first added first."""
    q = sa.select(files.c.match_key, files.c.path).where(files.c.match_key.is_not(None)).order_by(files.c.id)
    out: dict[str, list[str]] = {}
    with store.engine.begin() as conn:
        for key, path in conn.execute(q):
            if keys is None or key in keys:
                out.setdefault(key, []).append(path)
    return out
