"""``library add|me|analyse``, ``stats`` and ``errors``: the match library (docs/library.md).

Every command takes ``--db`` (a path or a SQLAlchemy URL; default ``BGTOOLS_DB`` or the
library in the user data folder).
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from typing import Iterator, List, Optional

import typer
from typing_extensions import Annotated

from bgtools.cli.common import EXIT_USAGE, check_ply, chosen_met, error, fail, note, output_file_ok, resolve_jobs

__all__ = ["library_app", "add", "me", "analyse", "stats", "errors"]

library_app = typer.Typer(help="The match library: add match files, say which player is you, analyse them "
                          "(then use stats and errors).", no_args_is_help=True)

DB_HELP = "The library: a file (SQLite) or a SQLAlchemy URL such as postgresql+psycopg://user@host/db " \
          "(default: BGTOOLS_DB, else library.sqlite in the user data folder)."
DbOption = Annotated[Optional[str], typer.Option("--db", metavar="DB", help=DB_HELP)]
BY_CHOICES = ("month", "year", "event", "opponent", "length", "site")


@contextmanager
def open_library(db: Optional[str]) -> Iterator:
    """The :class:`~bgtools.library.api.Library` of ``--db``; a library that cannot be opened exits 2."""
    from bgtools.library.api import Library
    from bgtools.library.store import LibraryError

    try:
        lib = Library(db)
    except LibraryError as e:
        raise fail(str(e))
    import sqlalchemy as sa

    try:
        yield lib
    except sa.exc.DBAPIError as e:  # the database went away, is read-only, is full...
        raise fail(f"{lib.where}: {e.orig}")
    finally:
        lib.close()


@contextmanager
def progress_bar(label: str):
    """(on_total, advance) for a rich progress bar on stderr (nothing when stderr is not a terminal)."""
    if not sys.stderr.isatty():
        yield None, None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as prog:
        task = prog.add_task(label, total=None)
        yield (lambda n: prog.update(task, total=n)), (lambda n: prog.advance(task, n))


@library_app.command("add")
def add(
    paths: Annotated[List[str], typer.Argument(help="Match files, folders or globs (every format bgtools reads).",
                                               metavar="PATH")],
    db: DbOption = None,
    me_names: Annotated[Optional[str], typer.Option("--me", metavar="NAMES",
                                                    help="Your player names, comma-separated (kept).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Read files in N processes (0 = one per CPU).")] = 1,
) -> None:
    """Add match files to the library, each match once; unchanged files skipped.

    The same match as .xg and .mat, or a renamed file, is one match.  Prints "N new, M unchanged, K
    duplicates, E unreadable"; exit status 2 when a file could not be read."""
    from bgtools.cli.matches import match_files

    jobs = resolve_jobs("--jobs", jobs)
    files = match_files(paths, allow_stdin=False)
    with open_library(db) as lib, progress_bar("reading") as (on_total, advance):
        report = lib.add(files, me=me_names, jobs=jobs, on_total=on_total, progress=advance)
    for p in report.problems:
        error(p)
    typer.echo(report.line())
    if report.unreadable:
        raise typer.Exit(EXIT_USAGE)


@library_app.command("me")
def me(
    names: Annotated[Optional[str], typer.Argument(help="Your player names, comma-separated, e.g. 'me,Me,You' "
                                                   "(none: print them).", metavar="NAMES")] = None,
    db: DbOption = None,
) -> None:
    """Record which player names are you: statistics and errors can then be yours alone."""
    from bgtools.library.api import parse_names

    with open_library(db) as lib:
        if names is None:
            typer.echo(",".join(lib.me))
            return
        if not parse_names(names):
            raise fail(f"{names!r}: give at least one name")
        aliases = lib.set_me(names)
        m = lib.matches()
    note(f"you are {', '.join(aliases)}: {int(m['me_side'].notna().sum())} of {len(m)} matches have you as a player")


@library_app.command("analyse")
def analyse(
    ctx: typer.Context,
    db: DbOption = None,
    ply: Annotated[int, typer.Option("--ply", help="Search depth 0-3 (2 = gnubg's default analysis).")] = 2,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Analyse matches in N processes (0 = one per CPU).")] = 1,
    dask: Annotated[Optional[str], typer.Option("--dask", metavar="ADDRESS",
                                                help="Address of a dask.distributed scheduler: one task per "
                                                "match there.")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Do not read or fill the evaluation cache.")] = False,
) -> None:
    """Analyse the matches not yet analysed at --ply (or by another net); store every decision.

    Each match is saved as it is done: stopped at any moment, a rerun goes on
    from there; with nothing left it does nothing."""
    from bgtools.base.parallel import ParallelError

    check_ply(ply)
    jobs = resolve_jobs("--jobs", jobs)
    try:
        with open_library(db) as lib, progress_bar("analysing") as (on_total, advance):
            report = lib.analyse(ply, jobs=jobs, dask=dask, use_cache=not no_cache, on_total=on_total,
                                 progress=advance, met=chosen_met(ctx))
    except ParallelError as e:
        raise fail(str(e))
    for p in report.problems:
        error(p)
    typer.echo(report.line())
    if report.failed:
        raise typer.Exit(EXIT_USAGE)


#: the decision columns the statistics read (loading fewer is faster over a large library)
STATS_COLUMNS = ("match_key", "game", "move_number", "action_index", "side", "me", "kind", "counted",
                 "equity_loss", "error", "luck", "date")


def _frames(lib, me_only: bool, since: Optional[str], until: Optional[str], columns=None):
    from bgtools.library.select import SelectionError, select

    m = lib.matches()
    d = lib.decisions(matches_frame=m, columns=columns)
    try:
        return select(d, m, since=since, until=until, me=me_only)
    except SelectionError as e:
        raise fail(str(e))


MeOption = Annotated[bool, typer.Option("--me", help="Only your matches and your own decisions (library me).")]


def stats(
    db: DbOption = None,
    me_only: MeOption = False,
    by: Annotated[Optional[str], typer.Option("--by", metavar="PERIOD",
                                              help="Rows per " + ", ".join(BY_CHOICES) + ".")] = None,
    since: Annotated[Optional[str], typer.Option("--since", metavar="DATE", help="From this date (YYYY[-MM[-DD]]).")]
    = None,
    until: Annotated[Optional[str], typer.Option("--until", metavar="DATE", help="Up to this date, inclusive.")]
    = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per row.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="CSV.")] = False,
    compare: Annotated[Optional[tuple[str, str]], typer.Option(
        "--compare", metavar="A B", help="Two periods or filters (2024, 2024-01..2024-06, event=X, opponent=Y): "
        "the difference of PR with its interval and a p-value.")] = None,
    rolling: Annotated[Optional[int], typer.Option("--rolling", metavar="N",
                                                   help="PR over the last N decisions, decision by decision.")] = None,
    plot: Annotated[Optional[str], typer.Option("--plot", metavar="FILE",
                                                help="Draw PR over time with its 95% band (.svg or .html; per month unless --by or "
                                                "--rolling says otherwise).")] = None,
) -> None:
    """Statistics of the analysed library: PR with its 95% interval, error rates, luck, wins.

    Matches, decisions, PR (checker and cube) with a 95% interval, error rates, luck per
    game, luck-adjusted result, wins; a row per period or group with --by."""
    from bgtools.library.select import SelectionError, select

    if as_json and as_csv:
        raise fail("give --json or --csv, not both")
    if by is not None and by not in BY_CHOICES:
        raise fail(f"--by {by}: use {', '.join(BY_CHOICES)}")
    if rolling is not None and rolling < 1:
        raise fail(f"--rolling {rolling}: give a number of decisions, 1 or more")
    if plot is not None:
        if not plot.lower().endswith((".svg", ".html", ".htm")):
            raise fail(f"--plot {plot}: the file name ends in .svg or .html")
        output_file_ok(plot)
    from bgtools.library import stats as st
    from bgtools.library.select import parse_selection, period_bounds

    try:  # refused before anything is read
        for text in (since, until):
            if text is not None:
                period_bounds(text)
        for text in compare or ():
            parse_selection(text)
    except SelectionError as e:
        raise fail(str(e))
    with open_library(db) as lib:
        d, m = _frames(lib, me_only, since, until, STATS_COLUMNS)
    if d.empty:
        note("no analysed decisions" + (" in that selection" if me_only or since or until else "")
             + ": bgtools library add, then bgtools library analyse")
        return
    try:
        if compare is not None:
            try:
                (da, _), (db_, _) = (select(d, m, selection=compare[0]), select(d, m, selection=compare[1]))
            except SelectionError as e:
                raise fail(str(e))
            result = st.compare(da, db_)
            typer.echo(json.dumps(result.to_dict()) if as_json else str(result))
            return
        if rolling is not None:
            table = st.rolling_pr(d, rolling)
        else:
            if plot is not None and by is None:
                by = "month"  # a plot over time needs periods
            table = st.stats_table(d, m, by=by, me=True if me_only else None)
    except st.StatsError as e:
        raise fail(str(e))
    if plot is not None:
        from bgtools.library.plot import PlotError, pr_plot

        try:
            pr_plot(table, plot)
        except PlotError as e:
            raise fail(str(e))
        except OSError as e:
            raise fail(f"{plot}: cannot write: {e.strerror or e}")
        note(f"plot written to {plot}")
    if as_json or as_csv or rolling is not None:
        _print_table(table, as_json, as_csv)
    else:
        typer.echo(st.format_table(table), nl=False)


def _print_table(table, as_json: bool, as_csv: bool) -> None:
    if as_json:
        typer.echo(table.to_json(orient="records", lines=True, date_format="iso").rstrip("\n"))
    elif as_csv:
        typer.echo(table.to_csv(index=False), nl=False)
    else:
        typer.echo(table.to_string(index=False))


def errors(
    db: DbOption = None,
    me_only: MeOption = False,
    min_loss: Annotated[float, typer.Option("--min", metavar="LOSS", help="Smallest normalised equity loss "
                                            "shown.")] = 0.08,
    kind: Annotated[Optional[str], typer.Option("--kind", metavar="KIND", help="checker or cube.")] = None,
    types: Annotated[Optional[List[str]], typer.Option("--type", metavar="TYPE", help="A cube error type (gnubg's: "
                                                       "'wrong take', 'wrong pass', ...); repeatable.")] = None,
    phases: Annotated[Optional[List[str]], typer.Option("--phase", metavar="PHASE", help="contact, crashed, race, "
                                                        "bearoff; repeatable.")] = None,
    tags: Annotated[Optional[List[str]], typer.Option("--tag", metavar="TAG", help="A position or turn tag (e.g. "
                                                      "backgame, hit); repeatable.")] = None,
    out: Annotated[Optional[str], typer.Option("--output", "-o", metavar="FILE",
                                               help="Write the catalogue to FILE (.html with boards, .csv, .jsonl).")]
    = None,
    quiz: Annotated[Optional[str], typer.Option("--quiz", metavar="DECK",
                                                help="Write a drill deck of these errors (.apkg for Anki, or .csv).")]
    = None,
) -> None:
    """The catalogue of errors across the library, largest first.

    Identical positions are merged, with every file:game:move where they happened."""
    if kind is not None and kind not in ("checker", "cube"):
        raise fail(f"--kind {kind}: use checker or cube")
    for f in (out, quiz):
        if f is not None:
            output_file_ok(f)
    if out is not None and not out.lower().endswith((".html", ".htm", ".csv", ".jsonl")):
        raise fail(f"-o {out}: the file name ends in .html, .csv or .jsonl")
    if quiz is not None and not quiz.lower().endswith((".apkg", ".csv")):
        raise fail(f"--quiz {quiz}: the file name ends in .apkg or .csv")
    from bgtools.library.catalogue import CatalogueError, error_catalogue, write_catalogue
    from bgtools.library.quiz import QuizError, write_deck

    with open_library(db) as lib:
        d, _ = _frames(lib, me_only, None, None)
    try:
        frame = error_catalogue(d, min_loss=min_loss, kind=kind, types=types or None, phases=phases or None,
                                tags=tags or None)
        if out is not None:
            write_catalogue(frame, out)
            note(f"{len(frame)} errors written to {out}")
        if quiz is not None:
            cards = write_deck(frame, quiz)
            note(f"{cards} cards written to {quiz}")
    except (CatalogueError, QuizError) as e:
        raise fail(str(e))
    except OSError as e:
        raise fail(f"{e.filename or out or quiz}: cannot write: {e.strerror or e}")
    if out is None and quiz is None:
        typer.echo(error_lines(frame))


def error_lines(frame) -> str:
    """The catalogue as a text table: loss, type, who, dice, played, best, count, first place."""
    if not len(frame):
        return "no errors"
    view = frame.assign(loss=frame["equity_loss"].map(lambda x: f"{x:.3f}"),
                        where=[p[0] + (f" (+{len(p) - 1})" if len(p) > 1 else "") for p in frame["places"]])
    cols = ["loss", "type", "player", "phase", "dice", "played", "best", "count", "where"]
    return view[cols].to_string(index=False)
