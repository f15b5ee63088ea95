"""Writing tables of many match files: CSV (optionally gzipped), JSON lines or Parquet,
streamed and atomic; with ``jobs > 1`` (or ``dask``) files are parsed in worker processes
(:func:`bgtools.base.parallel.ordered_map`) and the rows keep their order (see :mod:`bgtools.export.table` for the columns).
"""

from __future__ import annotations

import gzip
import io
import os
import sys
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, ContextManager, Iterable, Iterator, Optional, Sequence, Union

import numpy as np
import pandas as pd

from bgtools.base.fileio import atomic_path
from bgtools.base.parallel import chunk_size, ordered_map
from bgtools.export.table import GAME_ROW_BUILDERS, columns_for, empty_columns, frame, left_out, match_rows
from bgtools.model.problems import MatchProblem

__all__ = ["export_files", "write_dataframe", "ExportReport", "FileProblem", "output_format"]


# ----------------------------------------------------------------------------- export
@dataclass(frozen=True, slots=True)
class FileProblem:
    """Errors in one input file: ``unreadable`` files gave no rows at all."""

    file: str
    errors: tuple[str, ...]
    games_left_out: int = 0
    unreadable: bool = False
    #: the warnings about the file (``file:line: game: message``), as ``check`` prints them
    warnings: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.unreadable:
            return f"{self.file}: {self.errors[0] if self.errors else 'cannot read'}"
        n = len(self.errors)
        left = f", {self.games_left_out} game(s) left out" if self.games_left_out else ""
        return f"{self.file}: {n} error(s){left}; first at {self.errors[0]}"


@dataclass(frozen=True, slots=True)
class ExportReport:
    """What :func:`export_files` did."""

    files: int
    rows: int
    problems: tuple[FileProblem, ...]
    output: str
    format: str
    #: the warnings about the files read, as ``check`` prints them
    warnings: tuple[str, ...] = ()


def output_format(out: str) -> str:
    """``csv``, ``csv.gz``, ``jsonl`` or ``parquet`` from an output name (``-`` = CSV on stdout)."""
    if out == "-":
        return "csv"
    low = out.lower()
    for fmt in ("csv.gz", "csv", "jsonl", "parquet"):
        if low.endswith("." + fmt):
            return fmt
    if low.endswith(".pq"):
        return "parquet"
    raise ValueError(f"{out}: cannot tell the format from the suffix; use .csv, .csv.gz, .jsonl or .parquet")


def _require_pyarrow():
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise ImportError("writing Parquet needs pyarrow: pip install 'bgtools[parquet]'") from None
    return pyarrow


#: rows rendered at a time when a file is written to CSV or JSON lines (to Parquet a file's rows
#: make one table, as its schema and row groups come from whole files)
CHUNK_ROWS = 16384


def _work(task) -> Union[list, Iterator[tuple]]:
    """Worker: read one file a game at a time, build its rows and render them for the output
    format.  Runs in a pool process when jobs > 1, so the costly part of the export is parallel.

    Returns the pieces of the file's output: ``("rows", payload, n)`` for each rendered batch,
    then ``("end", FileProblem or None)`` (its errors and warnings); a list, or (the
    task's last field true: one process) a generator, so that a file of any length is read,
    replayed and written a batch at a time.
    """
    pieces = _pieces(task)
    return pieces if task[-1] else list(pieces)


def _pieces(task) -> Iterator[tuple]:
    match_no, path, data, level, names, keep_bad, fmt, _lazy = task
    from bgtools.formats.read import FileStream

    cols = columns_for(level, names)
    rows = empty_columns(cols)
    build = GAME_ROW_BUILDERS.get(level)
    batch = CHUNK_ROWS if fmt != "parquet" else 0
    notes: list[MatchProblem] = []
    problem = None
    warned: tuple[str, ...] = ()
    n = 0
    try:  # read as every command reads it (the same verdict, the same warnings), a game at a time
        stream = FileStream(data if data is not None else Path(path), name=path, keep_steps=level == "moves")
        for gi, (head, g) in enumerate(stream):
            if build is not None:
                n += build(head, gi, g, match_no, rows, keep_bad, notes)
                if batch and n >= batch:
                    yield "rows", _payload(frame(rows, cols), fmt), n
                    rows, n = empty_columns(cols), 0
        r = stream.reading()
        m, warned = (None if r.unreadable else r.match), tuple(w.plain() for w in r.warnings)
        if r.unreadable:
            problem = FileProblem(path, tuple(_where(e) for e in r.errors), unreadable=True)
    except Exception as e:  # an unexpected parser failure must not stop a batch export
        m, problem = None, FileProblem(path, (f"unexpected error: {type(e).__name__}: {e}",), unreadable=True)
    if m is not None:
        if build is None:
            n += match_rows(m, match_no, rows, keep_bad, (r.plays, r.doubles))
        errs = m.errors
        if errs:
            left = sum(1 for g in m.games if left_out(g, keep_bad))
            problem = FileProblem(path, tuple(_where(e) for e in errs), left, unreadable=not m.games)
    warned += tuple(p.plain() for p in notes)  # (a Match ID left empty: said once)
    if problem is not None or warned:
        problem = FileProblem(path, problem.errors if problem else (), problem.games_left_out if problem else 0,
                              problem.unreadable if problem else False, warned)
    if n:
        yield "rows", _payload(frame(rows, cols), fmt), n
    yield "end", problem


def _where(e) -> str:
    """A MatchProblem without its file name: ``line 10, game 1, move 4: message``."""
    parts = [f"line {e.line}"] if e.line else []
    if e.game:
        parts.append(f"game {e.game}")
    if e.move:
        parts.append(f"move {e.move}")
    return (", ".join(parts) + ": " if parts else "") + e.message


_WARM = " 1 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   42: 8/4 6/4\n"


def _payload(df: pd.DataFrame, fmt: str):
    """Rows rendered for ``fmt``: CSV or JSON-lines text (no header), or an Arrow table."""
    if fmt in ("csv", "csv.gz"):
        return df.to_csv(header=False, index=False, lineterminator="\n")
    if fmt == "jsonl":
        if not len(df):
            return ""
        text = df.to_json(orient="records", lines=True, force_ascii=False)
        return text if text.endswith("\n") else text + "\n"
    return _arrow_table(df)


def _arrow_table(df: pd.DataFrame):
    """Arrow table of ``df`` with every categorical as dictionary<int32, string>, whatever its categories."""
    import pyarrow as pa

    table = pa.Table.from_pandas(df, preserve_index=False)
    for i, name in enumerate(df.columns):
        if isinstance(df[name].dtype, pd.CategoricalDtype):
            cat = df[name].array
            codes = np.asarray(cat.codes, dtype=np.int32)
            arr = pa.DictionaryArray.from_arrays(pa.array(codes, mask=codes < 0, type=pa.int32()),
                                                 pa.array([str(x) for x in cat.categories], type=pa.string()))
            table = table.set_column(i, pa.field(name, arr.type), arr)
    return table


class _Sink:
    """Writes rendered row batches to ``target`` (a path, or None for stdout) in one format."""

    def __init__(self, target: Optional[str], fmt: str, header: pd.DataFrame):
        self.target, self.fmt = target, fmt
        self.fh = None
        self.raw = None
        self.pq: Any = None
        self.schema = None
        self.tables: list = []
        self.pending = 0
        self.empty = header
        if target is None:
            self.fh = sys.stdout
        elif fmt != "parquet":
            self.raw = open(target, "wb")
            if fmt == "csv.gz":
                self.fh = io.TextIOWrapper(gzip.GzipFile(filename="", mode="wb", fileobj=self.raw, mtime=0),
                                           encoding="utf-8", newline="")
            elif fmt in ("csv", "jsonl"):
                self.fh = io.TextIOWrapper(self.raw, encoding="utf-8", newline="")
        if fmt in ("csv", "csv.gz"):
            self.fh.write(header.iloc[:0].to_csv(index=False, lineterminator="\n"))

    def write(self, payload, rows: int, batch_rows: int = 0) -> None:
        """Add rendered rows; Parquet collects ``batch_rows`` rows per row group."""
        if self.fmt != "parquet":
            self.fh.write(payload)
            return
        self.tables.append(payload)
        self.pending += rows
        if self.pending >= batch_rows:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if not self.tables:
            return
        if self.pq is None:
            self.schema = self.tables[0].schema
            self.pq = pq.ParquetWriter(self.target, self.schema, compression="zstd")
        table = pa.concat_tables([t.cast(self.schema) for t in self.tables])
        self.pq.write_table(table, row_group_size=max(len(table), 1))
        self.tables, self.pending = [], 0

    def close(self) -> None:
        """Finish the output."""
        if self.fmt == "parquet":
            if self.pq is None and not self.tables:
                self.tables = [_arrow_table(self.empty.iloc[:0])]
            self._flush()
            self.pq.close()
        if self.fh is not None:
            self.fh.flush()
            if self.fh is not sys.stdout:
                self.fh.close()
        if self.raw is not None and not self.raw.closed:
            self.raw.close()

    def abort(self) -> None:
        """Close whatever is open, quietly (the temporary file is then removed)."""
        for h in (self.pq, self.fh if self.fh is not sys.stdout else None, self.raw):
            try:
                if h is not None:
                    h.close()
            except Exception:
                pass


@contextmanager
def _output(out: str, fmt: str, header: pd.DataFrame) -> Iterator[_Sink]:
    """A sink for ``out`` that appears only when the block completes (``-`` = stdout)."""
    if fmt == "parquet":
        _require_pyarrow()
    if out == "-":
        sink = _Sink(None, fmt, header)
        yield sink
        sink.close()
        return
    with atomic_path(out) as tmp:
        sink = _Sink(str(tmp), fmt, header)
        try:
            yield sink
            sink.close()
        except BaseException:
            sink.abort()
            raise


def write_dataframe(df: pd.DataFrame, out: str) -> None:
    """Write ``df`` to ``out`` as export does (format from the suffix; ``-`` = CSV on stdout), atomically."""
    fmt = output_format(out)
    with _output(out, fmt, df) as sink:
        if len(df):
            sink.write(_payload(df, fmt), len(df))


ProgressFactory = Callable[[int], ContextManager[Callable[[], None]]]


def export_files(paths: Iterable[Union[str, os.PathLike]], out: str, *, level: str = "moves",
                 columns: Optional[Sequence[str]] = None, jobs: int = 1, keep_bad_games: bool = False,
                 progress: Optional[ProgressFactory] = None, batch_rows: int = 65536,
                 dask: Any = None) -> ExportReport:
    """Export the match files under ``paths`` to ``out`` (format from its suffix; ``-`` = stdout CSV).

    Files are parsed and rendered in ``jobs`` worker processes, or one task per file on
    the Dask cluster ``dask`` (an address or a ``distributed.Client``); rows keep the order
    of the files and the output is the same whatever runs it.  ``paths`` is read as the
    work goes (a bounded number of files in flight; a generator is fine), so memory stays
    flat over any number of files.  Files with errors do not stop the export: their good
    games are written and the problems returned.  The output appears only when complete.
    ``progress(total)`` may return a context manager giving a per-file ``advance()`` (the
    paths are then listed first, to count them).  Parquet row groups hold about
    ``batch_rows`` rows.
    """
    from bgtools.formats.read import expand_paths

    fmt = output_format(out)
    cols = columns_for(level, columns)
    names = tuple(c.name for c in cols)
    files: Iterable[str] = expand_paths(paths)
    if progress is not None or jobs > 1:  # (names only: the matches themselves are streamed)
        files = list(files)
    count = 0

    def tasks():
        nonlocal count
        for f in files:
            count += 1
            data = sys.stdin.buffer.read() if f == "-" else None
            yield (count, "<stdin>" if f == "-" else f, data, level, names, keep_bad_games, fmt, lazy)

    problems: list[FileProblem] = []
    total = 0
    lazy = jobs <= 1 and dask is None  # in this process: each file streamed to the output
    if jobs > 1 and dask is None:
        from bgtools.formats.read import read_match

        read_match(_WARM)  # load the kernels once, before the workers fork
    try:
        with _output(out, fmt, frame(empty_columns(cols), cols)) as sink:
            results = ordered_map(_work, tasks(), jobs=jobs, dask=dask,
                                  chunk=chunk_size(len(files), jobs) if isinstance(files, list) else 1)
            with closing(results), (progress(len(files)) if progress else _no_progress()) as advance:  # type: ignore
                for pieces in results:
                    for piece in pieces:
                        if piece[0] == "rows":
                            sink.write(piece[1], piece[2], batch_rows)
                            total += piece[2]
                        elif piece[1] is not None:
                            problems.append(piece[1])
                    advance()
            if not total and any(p.unreadable for p in problems):
                raise _NothingRead  # no output at all rather than a header alone for input that cannot be read
    except _NothingRead:
        pass
    return ExportReport(count, total, tuple(p for p in problems if p.errors), out, fmt,
                        tuple(w for p in problems for w in p.warnings))


class _NothingRead(Exception):
    """No row, and an input that could not be read: the output is not written."""


class _no_progress:
    def __enter__(self):
        return lambda: None

    def __exit__(self, *exc):
        return False
