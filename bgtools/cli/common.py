"""Helpers shared by the command modules: one-line errors, input lines, dice, option checks.

Exit codes (README): 0 success, 1 the input was read but holds errors, 2 bad usage or
unreadable input.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Optional

import typer

if TYPE_CHECKING:
    from bgtools.engine.cubeful.met import MatchEquityTable

#: exit status when the input was read but holds errors
EXIT_ERRORS = 1
#: exit status for bad usage or unreadable input
EXIT_USAGE = 2
#: ``--jobs``/``--workers`` beyond this are refused (a typo, not a machine)
MAX_JOBS = 256
#: the largest ``--seed`` of training, self-play and duels (kernels take 64-bit seeds, some times 10**9)
MAX_SEED = 2**32 - 1
#: counts (games, positions, epochs, ...) beyond this are refused (a typo, not a plan)
MAX_COUNT = 10**12
#: the environment variable that gives ``bgtools --met`` its default (read by the command line only)
MET_ENV = "BGTOOLS_MET"


@dataclass(frozen=True)
class CliOptions:
    """The options given before the command (``bgtools --met FILE eval ...``), loaded."""

    met: Optional["MatchEquityTable"] = None  #: None: the shipped table


def chosen_met(ctx: typer.Context) -> Optional["MatchEquityTable"]:
    """The match equity table of ``bgtools --met`` (or ``BGTOOLS_MET``) that the root
    command of ``ctx`` loaded; None: the shipped one.  A command passes it to its library
    call explicitly."""
    obj = ctx.find_root().obj
    return obj.met if isinstance(obj, CliOptions) else None


def fail(message: str, code: int = EXIT_USAGE) -> "typer.Exit":
    """Print a one-line error to stderr and return the Exit to raise."""
    typer.echo(f"bgtools: error: {message}", err=True)
    return typer.Exit(code)


def error(message: str) -> None:
    """Print a one-line error to stderr and go on (the caller sets the exit status)."""
    typer.echo(f"bgtools: error: {message}", err=True)


#: the warning lines printed by :func:`warning`: the same warning issued again by the library
#: (a game replayed a second time) is not shown twice (see :func:`one_line_warnings`)
_WARNED: set[str] = set()


def warning(message: str) -> None:
    """A one-line ``bgtools: warning: ...`` on stderr (the exit status is not changed)."""
    _WARNED.add(message)
    typer.echo(f"bgtools: warning: {message}", err=True)


def note(message: str) -> None:
    """A one-line remark on stderr (what a command did or ignored)."""
    typer.echo(f"bgtools: {message}", err=True)


def one_line_warnings() -> None:
    """Show bgtools' own warnings (a match read in a way that may not be what was meant) as
    one ``bgtools: warning: ...`` line each on stderr, not as Python shows a warning (the
    library's file and source line); other warnings as before.  For the command line only."""
    import warnings

    from bgtools.base.errors import BgtoolsError

    shown = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, BgtoolsError):
            problem = getattr(message, "problem", None)
            text = problem.plain() if problem is not None else str(message)
            if text not in _WARNED:
                warning(text)
        else:
            shown(message, category, filename, lineno, file, line)

    warnings.showwarning = show


def os_message(e: OSError) -> str:
    """``Is a directory``, ``Permission denied``, ...: the OS reason without the errno."""
    return e.strerror or str(e)


def open_lines(path: str):
    """The lines of ``path`` ('-' = stdin); a missing or unreadable file is a usage error."""
    if path == "-":
        return sys.stdin
    p = Path(path)
    if not p.exists():
        raise fail(f"{path}: no such file")
    if p.is_dir():
        raise fail(f"{path}: is a folder, not a file")
    try:
        return p.open(encoding="utf-8-sig")
    except OSError as e:
        raise fail(f"{path}: cannot read: {os_message(e)}")


def parse_dice(text: str) -> tuple[int, int]:
    """``31``, ``3-1``, ``3,1`` -> (3, 1); ValueError for anything else."""
    t = text.strip().replace("-", "").replace(",", "").replace(" ", "")
    if len(t) != 2 or not t.isdigit() or not all("1" <= c <= "6" for c in t):
        raise ValueError(f"dice {text!r} must be two digits 1-6, e.g. 31")
    return int(t[0]), int(t[1])


def check_range(option: str, value: int, low: int, high: int, what: str = "") -> None:
    """Refuse ``value`` outside [low, high] with a one-line error naming the option."""
    if not low <= value <= high:
        raise fail(f"{option} {value}: use {low} to {high}{what}")


def check_ranges(*checks: tuple[str, int, int, int]) -> None:
    """:func:`check_range` of each (option, value, low, high)."""
    for option, value, low, high in checks:
        check_range(option, value, low, high)


def check_ply(ply: int, high: int = 3) -> None:
    if not 0 <= ply <= high:
        raise fail(f"--ply {ply}: use " + ", ".join(str(p) for p in range(high)) + f" or {high}")


def resolve_jobs(option: str, jobs: int) -> int:
    """``--jobs N``: 0 = one per CPU; negative or absurd values are refused."""
    if jobs < 0 or jobs > MAX_JOBS:
        raise fail(f"{option} {jobs}: expected 0 (one per CPU) to {MAX_JOBS}")
    from bgtools.base.workers import usable_cores

    return jobs or usable_cores()


def output_file_ok(out: str) -> None:
    """Refuse an output path that cannot be a file we write: a folder, a missing folder,
    a folder we may not write into (:func:`bgtools.base.fileio.check_output`)."""
    from bgtools.base.fileio import OutputError, check_output

    try:
        check_output(out)
    except OutputError as e:
        raise fail(str(e))


def rich_progress(total: int, label: str = "exporting"):
    """Context manager giving ``advance()`` for a file progress bar on stderr."""
    from contextlib import contextmanager

    from rich.console import Console
    from rich.progress import Progress

    @contextmanager
    def bar():
        with Progress(console=Console(stderr=True), transient=True) as prog:
            task = prog.add_task(label, total=total)
            yield lambda: prog.advance(task)

    return bar()


def compile_notice(what: str, seconds: int, helper: Optional[Callable[[], Optional[Callable[[], None]]]] = None):
    """Context manager: when Numba compiles kernels inside the block (their first use after
    installing or upgrading bgtools: none in the cache), say so once on stderr, with about
    how long it takes, and show a spinner while it compiles (on a terminal); nothing when
    the kernels load from the cache.  ``helper``: called at the first compile to start a
    helper process that compiles part of the kernels meanwhile; it returns the call that
    waits for that process at the end of the block (or None)."""
    from contextlib import contextmanager

    from bgtools.base.compiles import watch_compiles

    @contextmanager
    def notice():
        from rich.console import Console
        from rich.errors import LiveError

        console = Console(stderr=True)
        said = []
        spinner = []

        closers: list = []

        def started() -> None:
            if not said:
                said.append(True)
                note(f"compiling the {what} kernels, once after installing: about {seconds} s")
                close = helper() if helper is not None else None
                if close is not None:
                    closers.append(close)
            if console.is_terminal:
                status = console.status(f"compiling the {what} kernels", spinner="dots")
                try:
                    status.start()
                except LiveError:  # another display (a progress bar) is live: no spinner
                    return
                spinner.append(status)

        def finished() -> None:
            while spinner:
                spinner.pop().stop()

        try:
            with watch_compiles(started, finished):
                yield
        finally:
            for close in closers:
                close()

    return notice()


def input_items(input: Optional[str], single: Optional[list]) -> Iterator[tuple[int, list[str]]]:
    """(line number, fields) of each non-blank, non-comment line of ``--input`` (line 0 for
    the arguments given on the command line)."""
    if input is None:
        yield 0, list(single or [])
        return
    for lineno, line in enumerate(open_lines(input), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        yield lineno, line.split()


def run_lines(items: Iterable[tuple[int, list[str]]], handle: Callable[[list[str]], None],
              errors: tuple = (ValueError,)) -> int:
    """The input loop of ``moves``, ``eval`` and ``hint``: ``handle(fields)`` per line, a
    one-line error (with the line number) for each line it refuses; returns the count."""
    bad = 0
    for lineno, parts in items:
        where = f"line {lineno}: " if lineno else ""
        try:
            handle(parts)
        except errors as e:
            error(f"{where}{e}")
            bad += 1
    return bad
