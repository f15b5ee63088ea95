"""The ``bgtools`` command line: the Typer app and its commands, one module per group.

Each command (``positions``: show, moves, board; ``matches``: check, convert, export;
``engine``: eval, hint, bearoff; ``rollout``; ``analysis``: annotate, report; ``train``)
parses its options and calls the library.  Exit codes: 0 success, 1 the input was read
but has errors (e.g. illegal moves in a match file), 2 bad usage or unreadable input (bad
IDs, dice, missing files).  Heavy modules (numba kernels) are imported inside the commands
that need them so that ``bgtools --help`` and ``bgtools show`` start fast.
"""

from __future__ import annotations

from typing import Optional

import typer
from typer.core import TyperCommand, TyperGroup
from typing_extensions import Annotated

from bgtools.base.version import __version__
from bgtools.cli import analysis, engine, matches, positions, rollout, train, warmup
from bgtools.cli.common import compile_notice, fail, one_line_warnings

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


class Group(TyperGroup):
    """The command group, with the same plain metavars for its own options."""

    def get_params(self, ctx) -> list:
        return human_metavars(super().get_params(ctx))


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
    met: Annotated[Optional[str], typer.Option("--met", metavar="NAME|FILE",
                                               help="Match equity table for match play: kazaross-xg2 (the default) "
                                               "or a file, gnubg's match equity XML or bgtools' JSON (also the "
                                               "BGTOOLS_MET environment variable).")] = None,
) -> None:
    """bgtools: backgammon positions, moves, match files and analysis."""
    from bgtools.analysis.warmup import group_of

    group = group_of(ctx.invoked_subcommand or "")
    if group is not None:  # say so when its kernels compile (the first run after installing)
        ctx.with_resource(compile_notice(group.name, group.seconds))
    if met is not None:
        import os

        from bgtools.engine.met import MET_ENV, METS, METFileError, load_met

        name = met if met.lower() in METS else os.path.abspath(met)
        try:
            load_met(name)
        except METFileError as e:
            raise fail(str(e))
        os.environ[MET_ENV] = name  # every load_met() here and in worker processes


for _name, _fn in (("show", positions.show), ("moves", positions.moves), ("board", positions.board),
                   ("check", matches.check), ("convert", matches.convert), ("export", matches.export),
                   ("eval", engine.eval_cmd), ("hint", engine.hint), ("rollout", rollout.rollout),
                   ("annotate", analysis.annotate), ("report", analysis.report), ("warmup", warmup.warmup)):
    app.command(_name, cls=Command)(_fn)
engine.bearoff_app.registered_commands[0].cls = Command
app.add_typer(engine.bearoff_app, name="bearoff", cls=Group)
for _cmd in train.train_app.registered_commands:
    _cmd.cls = Command
app.add_typer(train.train_app, name="train", cls=Group)


def main() -> None:
    """Entry point of the ``bgtools`` script."""
    one_line_warnings()
    app()


if __name__ == "__main__":
    main()
