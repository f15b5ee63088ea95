"""``check``, ``convert`` and ``export``: match files in, reports, files or tables out.

Exit status: 1 when a file was read but holds errors, 2 when any file cannot be read at all
(or the usage is wrong, or no match file was found).
"""

from __future__ import annotations

import glob
import json
import os
import sys
from contextlib import closing
from pathlib import Path
from typing import List, Optional

import typer
from typing_extensions import Annotated

from bgtools.cli.common import (EXIT_ERRORS, EXIT_USAGE, error, fail, note, os_message, output_file_ok,
                                resolve_jobs, rich_progress, warning)

PATHS_HELP = "Match files, folders, globs; '-' reads stdin."


def match_files(paths: list[str], allow_stdin: bool = True) -> list[str]:
    """The match files named by ``paths`` (folders searched, globs expanded); a missing path
    or an empty result is a usage error (exit 2)."""
    from bgtools.formats.read import expand_paths

    for p in paths:
        if p == "-" and not allow_stdin:
            raise fail("reading stdin ('-') is not supported here; give a file")
        if p != "-" and os.path.islink(p) and not os.path.exists(p):
            raise fail(f"{p}: a symbolic link to a missing file ({os.readlink(p)})")
        if p != "-" and not os.path.exists(p) and not glob.glob(p, recursive=True):
            raise fail(f"{p}: no such file or folder")
    files = list(expand_paths(paths))
    if not files:
        raise fail(f"no match files found in {' '.join(paths)}")
    return files


def check(
    paths: Annotated[List[str], typer.Argument(help=PATHS_HELP, metavar="PATH")],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON line per file (errors included).")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Stop each file at its first error.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Read files in N processes (0 = one per CPU); "
                                                           "the output is the same for any N.")] = 1,
) -> None:
    """Replay every game of match files (.mat/.txt, SGF, FIBS oldmoves, JSON) under the rules.

    Prints games, plays, doubles and final score per file on stdout, and each error (file,
    line, game, move) on stderr.  Exit status 1 when any error was found, 2 when a file
    cannot be read at all or no match file was found.
    """
    from bgtools.base.parallel import chunk_size, ordered_map
    from bgtools.formats.check import CheckTask, check_file

    jobs = resolve_jobs("--jobs", jobs)
    files = match_files(paths)
    show_bar = sys.stderr.isatty() and len(files) > 1 and not as_json
    status = 0

    def tasks():
        for f in files:
            yield CheckTask(f, strict, sys.stdin.buffer.read() if f == "-" else None)

    def report(res) -> None:
        nonlocal status
        s, unreadable, problems, warned = res.summary, res.unreadable, res.errors, res.warnings
        if unreadable:
            status = EXIT_USAGE
        elif s["errors"]:
            status = max(status, EXIT_ERRORS)
        if as_json:
            typer.echo(json.dumps(s, ensure_ascii=False))
            return
        typer.echo(f"{s['file']}: {s['games']} games, {s['plays']} plays, {s['doubles']} doubles, "
                   f"final score {s['final_score'][0]}-{s['final_score'][1]}"
                   + (f", {len(s['errors'])} error(s)" if s["errors"] else "")
                   + (f", {len(s['warnings'])} warning(s)" if s["warnings"] else ""))
        for line in problems:
            error(line)
        for line in warned:
            warning(line)

    jobs = min(jobs, len(files))
    if jobs > 1:
        _warm()  # load the kernels once, before the workers fork
    with closing(ordered_map(check_file, tasks(), jobs=jobs, chunk=chunk_size(len(files), jobs))) as results:
        if show_bar:
            with rich_progress(len(files), "checking") as advance:
                for res in results:
                    report(res)
                    advance()
        else:
            for res in results:
                report(res)
    if status:
        raise typer.Exit(status)


def _warm() -> None:
    """Load the replay kernels."""
    from bgtools.formats.read import read_match

    read_match(" 1 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   42: 8/4 6/4\n")


def convert(
    src: Annotated[str, typer.Argument(help="A match file, a folder of them, or '-' (stdin).", metavar="IN")],
    out: Annotated[Optional[str], typer.Option("--output", "-o", metavar="FILE",
                                               help="Output file (IN is one file or '-').")] = None,
    out_dir: Annotated[Optional[str], typer.Option("--out-dir", "-d", metavar="FOLDER",
                                                   help="Output folder (IN is a folder; needs --to).")] = None,
    to: Annotated[Optional[str], typer.Option("--to", metavar="FORMAT",
                                              help="mat, sgf or json (default: from the output suffix).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Convert files in N processes (0 = one per CPU); "
                                                           "the output is the same for any N.")] = 1,
) -> None:
    """Convert match files between .mat, SGF and JSON (written atomically, never half-written).

    Games with errors are left out (and listed); the exit status is then 1.  Inputs whose
    output names would clash (a.mat, a.sgf -> a.json) keep their suffix (a.mat.json).
    """
    from bgtools.base.parallel import chunk_size, ordered_map
    from bgtools.formats.convert import ConvertError, ConvertTask, convert_task, plan_conversion

    jobs = resolve_jobs("--jobs", jobs)
    folder_in = src != "-" and os.path.isdir(src)
    if out and out_dir:
        raise fail("give -o FILE or --out-dir FOLDER, not both")
    if folder_in and out_dir is None:
        raise fail(f"{src} is a folder: give --out-dir FOLDER (and --to mat|sgf|json)")
    if not folder_in and out is None:
        raise fail("give -o FILE" + (" (--out-dir is for a folder of inputs)" if out_dir else ""))
    try:
        target = out_dir if folder_in else out
        assert target is not None  # checked above
        plan = plan_conversion(src, target, to)
    except ConvertError as e:
        raise fail(str(e))
    for s, d in plan.renamed:
        note(f"{s}: written to {d} (another input has the same name)")
    status = 0
    jobs = min(jobs, len(plan.pairs))
    if jobs > 1:
        _warm()  # load the kernels once, before the workers fork

    def tasks():
        for s, d in plan.pairs:
            yield ConvertTask(s, d, plan.format, sys.stdin.buffer.read() if s == "-" else None)

    with closing(ordered_map(convert_task, tasks(), jobs=jobs, chunk=chunk_size(len(plan.pairs), jobs))) as results:
        for res in results:
            s, d = res.source, res.output
            if res.write_error is not None:
                raise fail(f"{d}: cannot write: {os_message(res.write_error)}")
            for p in res.problems:
                error(str(p))
            for w in res.warnings:
                warning(w.plain())
            name = "<stdin>" if s == "-" else s
            if res.not_held:
                done = f"{res.games} game(s) written to {d}" if res.written else "nothing written"
                note(f"{name}: game(s) {', '.join(map(str, res.not_held))} not converted (see the warnings above); "
                     + done)
            if res.unreadable:
                status = EXIT_USAGE
                note(f"{name}: not converted")
            elif res.left_out:
                status = max(status, EXIT_ERRORS)
                games = ", ".join(str(g) for g in res.left_out)
                done = f"the other {res.games} written to {d}" if res.written else "nothing written"
                note(f"{name}: game(s) {games} not converted (see the errors above); {done}")
            elif res.problems:  # errors outside the games (a damaged archive after them): all games written
                status = max(status, EXIT_ERRORS)
                note(f"{name}: the file holds errors (above); its {res.games} game(s) written to {d}")
    if status:
        raise typer.Exit(status)


def _length_culprit(files: list[str]) -> str:
    """The first file whose match length no Match ID can hold (after an export failed on it)."""
    from bgtools.formats.convert import length_problem
    from bgtools.formats.read import read_match
    from bgtools.model.problems import MatchFileError

    for f in files:
        try:
            p = length_problem(read_match(Path(f), name=f)) if f != "-" else None
        except MatchFileError:
            continue
        if p is not None:
            return str(p)
    return ""


def export(
    paths: Annotated[List[str], typer.Argument(help=PATHS_HELP, metavar="PATH")],
    out: Annotated[str, typer.Option("--output", "-o", metavar="FILE",
                                     help="Output: .csv, .csv.gz, .jsonl or .parquet; '-' = CSV on stdout.")],
    level: Annotated[str, typer.Option("--level", metavar="LEVEL",
                                       help="One row per action (moves), game or match.")] = "moves",
    columns: Annotated[Optional[List[str]], typer.Option("--columns", metavar="NAMES", help="Comma-separated "
                                                           "columns to write, in this order (default: all).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Parse files in N processes (0 = one per CPU); "
                                                           "the output is the same for any N.")] = 1,
    keep_bad_games: Annotated[bool, typer.Option("--keep-bad-games", help="Also write games with errors "
                                                 "(board columns empty after an illegal move).")] = False,
    dask: Annotated[Optional[str], typer.Option("--dask", metavar="ADDRESS", help="Address of a dask.distributed "
                                                "scheduler: one task per file there (same output).")] = None,
) -> None:
    """Export match files as a table, one row per action, game or match (columns: docs/export.md).

    Files with errors are listed on stderr, their good games written, and the exit status is
    1 (2 when a file cannot be read at all).
    """
    from bgtools.base.errors import BgtoolsError
    from bgtools.base.parallel import ParallelError
    from bgtools.export import columns_for, export_files, output_format

    try:
        fmt = output_format(out)
        names = [n.strip() for c in columns for n in c.split(",") if n.strip()] if columns else None
        columns_for(level, names)
    except ValueError as e:
        raise fail(str(e))
    if fmt == "parquet":
        try:
            import pyarrow.parquet  # noqa: F401
        except ImportError:
            raise fail("writing Parquet needs pyarrow: pip install 'bgtools[parquet]'")
    jobs = resolve_jobs("--jobs", jobs)
    for p in paths:
        if p != "-" and os.path.islink(p) and not os.path.exists(p):
            raise fail(f"{p}: a symbolic link to a missing file ({os.readlink(p)})")
        if p != "-" and not os.path.exists(p) and not glob.glob(p, recursive=True):
            raise fail(f"{p}: no such file or folder")
    output_file_ok(out)
    files = match_files(paths)
    progress = rich_progress if sys.stderr.isatty() and len(files) > 1 else None
    try:
        report = export_files(files, out, level=level, columns=names, jobs=min(jobs, len(files)),
                              keep_bad_games=keep_bad_games, progress=progress, dask=dask)
    except ParallelError as e:
        raise fail(str(e))
    except OSError as e:
        raise fail(f"{out}: cannot write: {os_message(e)}")
    except BgtoolsError as e:
        raise fail(_length_culprit(files) or str(e))
    for prob in report.problems:
        error(str(prob))
    for w in report.warnings:
        warning(w)
    if not report.rows and any(p.unreadable for p in report.problems) and out != "-":
        note(f"nothing written to {out}")
        raise typer.Exit(EXIT_USAGE)
    where = "stdout" if out == "-" else out
    bad = f"; {len(report.problems)} file(s) had errors" if report.problems else ""
    note(f"{report.rows} rows from {report.files} file(s) written to {where}{bad}")
    if any(p.unreadable for p in report.problems):
        raise typer.Exit(EXIT_USAGE)
    if report.problems:
        raise typer.Exit(EXIT_ERRORS)
