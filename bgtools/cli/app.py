"""The ``bgtools`` command line: the Typer app and its commands, one module per group.

Each command (``positions``: show, moves, board; ``matches``: check, convert, export;
``engine``: eval, hint, bearoff; ``rollout``; ``analysis``: annotate, report; ``scoremap``; ``train``;
``library``: library add/me/analyse, stats, errors)
parses its options and calls the library.  Exit codes: 0 success, 1 the input was read
but has errors (e.g. illegal moves in a match file), 2 bad usage or unreadable input (bad
IDs, dice, missing files), every error one line ``bgtools: error: ...`` on stderr, the
parser's own (an unknown option, a value that is not a number) too.  Heavy modules (Numba kernels) are imported inside the commands
that need them so that ``bgtools --help`` and ``bgtools show`` start fast.
"""

from __future__ import annotations

import sys
from typing import Any, Optional, Sequence

import typer
from typer.core import TyperCommand, TyperGroup
from typing_extensions import Annotated

from bgtools.base.version import __version__
from bgtools.cli import analysis, engine, library, matches, positions, rollout, scoremap, train, warmup
from bgtools.cli.common import MET_ENV, CliOptions, compile_notice, fail, one_line_warnings

__all__ = ["app", "fail", "main"]

#: Typer's type names -> what the help shows
METAVARS = {"int": "INTEGER", "float": "FLOAT", "str": "TEXT", "bool": ""}


def human_metavars(params: list) -> list:
    """Help that reads like a person's: ``INTEGER``, ``FLOAT``, ``TEXT`` for values, nothing
    for on/off flags (Typer's own would be ``<int>``, ``<bool>``)."""
    for p in params:
        if getattr(p, "param_type_name", "") == "argument":
            p.display_type_rich = lambda ctx: ""  # the name (ID, PATH, ...) says what it is
            continue
        if getattr(p, "metavar", "") is not None:
            continue
        if getattr(p, "is_flag", False) or getattr(p, "count", False):
            p.metavar = ""
        elif hasattr(p, "bare_type"):
            p.metavar = METAVARS.get(p.bare_type(), p.bare_type().upper())
    return params


class Command(TyperCommand):
    """A Typer command whose help shows plain metavars."""

    def get_params(self, ctx) -> list:
        return human_metavars(super().get_params(ctx))


#: the parser's exception root (Typer carries its own copy of Click: reached through a public name)
CLICK_EXCEPTION: type[Exception] = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


def usage_error_line(e: Any) -> str:
    """The parser's error as one line like every other: ``bgtools: error: hint: invalid value
    for '--ply' / '-p': ... (see 'bgtools hint --help')``."""
    ctx = getattr(e, "ctx", None)
    names = []
    while ctx is not None and ctx.parent is not None:
        names.append(ctx.info_name or "")
        ctx = ctx.parent
    cmd = " ".join(reversed(names))
    msg = " ".join(e.format_message().split()).rstrip(".")
    if len(msg) > 1 and msg[0].isupper() and msg[1].islower():
        msg = msg[0].lower() + msg[1:]
    where = f"{cmd}: " if cmd else ""
    return f"bgtools: error: {where}{msg} (see 'bgtools {cmd + ' ' if cmd else ''}--help')"


class Group(TyperGroup):
    """The command group, with the same plain metavars for its own options, and the parser's
    errors as one line (Typer's own would be a five-line box)."""

    def get_params(self, ctx) -> list:
        return human_metavars(super().get_params(ctx))

    def main(self, args: Optional[Sequence[str]] = None, prog_name: Optional[str] = None,
             complete_var: Optional[str] = None, standalone_mode: bool = True, windows_expand_args: bool = True,
             **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except CLICK_EXCEPTION as e:
            error: Any = e
            if type(e).__name__ == "NoArgsIsHelpError":
                error.show()  # ``bgtools`` or ``bgtools train`` alone: the help, as before
            else:
                typer.echo(usage_error_line(e), err=True)
            sys.exit(error.exit_code)
        except typer.Abort:
            typer.echo("bgtools: error: aborted", err=True)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)  # an Exit's code (commands return None)


app = typer.Typer(
    cls=Group,
    name="bgtools",
    help="Backgammon analysis from the shell: positions, legal moves, match files, evaluation.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    add_completion=False,
    pretty_exceptions_enable=False,
)


def show_version(value: bool) -> None:
    if value:
        typer.echo(f"bgtools {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    ctx: typer.Context,
    version: Annotated[Optional[bool], typer.Option("--version", callback=show_version, is_eager=True,
                                                    help="Print the version and exit.")] = None,
    met: Annotated[Optional[str], typer.Option("--met", metavar="NAME|FILE", envvar=MET_ENV, show_envvar=False,
                                               help="Match equity table for match play: kazaross-xg2 (the default) "
                                               "or a file, gnubg's match equity XML or bgtools' JSON (default: the "
                                               "BGTOOLS_MET environment variable, when set).")] = None,
) -> None:
    """bgtools: backgammon positions, moves, match files and analysis."""
    from bgtools.analysis.warmup import group_of, start_helper

    group = group_of(ctx.invoked_subcommand or "")
    if group is not None:  # say so when its kernels compile (the first run after installing), a helper compiling too
        ctx.with_resource(compile_notice(group.name, group.seconds, lambda: start_helper(group)))
    if met:
        from bgtools.engine.cubeful.met import METFileError, load_met

        try:
            table = load_met(met)
        except METFileError as e:
            raise fail(str(e))
        ctx.obj = CliOptions(met=table)  # the commands pass it down (chosen_met)


for _name, _fn in (("show", positions.show), ("moves", positions.moves), ("board", positions.board),
                   ("check", matches.check), ("convert", matches.convert), ("export", matches.export),
                   ("eval", engine.eval_cmd), ("hint", engine.hint), ("rollout", rollout.rollout),
                   ("annotate", analysis.annotate), ("report", analysis.report), ("scoremap", scoremap.scoremap),
                   ("stats", library.stats), ("errors", library.errors), ("warmup", warmup.warmup)):
    app.command(_name, cls=Command)(_fn)
engine.bearoff_app.registered_commands[0].cls = Command
app.add_typer(engine.bearoff_app, name="bearoff", cls=Group)
for _cmd in train.train_app.registered_commands:
    _cmd.cls = Command
app.add_typer(train.train_app, name="train", cls=Group)
for _cmd in library.library_app.registered_commands:
    _cmd.cls = Command
app.add_typer(library.library_app, name="library", cls=Group)


def main() -> None:
    """Entry point of the ``bgtools`` script."""
    one_line_warnings()
    app()


if __name__ == "__main__":
    main()
