"""``warmup``: compile every command's kernels now, so that no later command waits for them."""

from __future__ import annotations

from typing import List, Optional

import typer
from typing_extensions import Annotated

from bgtools.analysis.warmup import GROUPS
from bgtools.base.workers import usable_cores
from bgtools.cli.common import MAX_JOBS, fail

GROUP_NAMES = ", ".join(repr(g.name) if " " in g.name else g.name for g in GROUPS)


def warmup(
    groups: Annotated[Optional[List[str]], typer.Argument(help=f"Groups of kernels to compile (default: all): "
                                                          f"{GROUP_NAMES}.", metavar="GROUP")] = None,
    jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", help=f"Groups compiled at once, each in its own "
                                                f"process, 1 to {MAX_JOBS} (default: all cores).")] = None,
) -> None:
    """Compile the Numba kernels of every command (or of the GROUPs named) into the cache now: they are compiled
    once after installing or upgrading bgtools, on first use otherwise.  Already compiled: loads them, quickly."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from bgtools.analysis.warmup import warm_groups

    known = [g.name for g in GROUPS]
    names = list(dict.fromkeys(groups)) if groups else known
    for name in names:
        if name not in known:
            raise fail(f"unknown group {name!r}: use {', '.join(repr(k) for k in known)}")
    n = jobs if jobs is not None else usable_cores()
    if not 1 <= n <= MAX_JOBS:
        raise fail(f"--jobs {n}: use 1 to {MAX_JOBS}")
    console = Console(stderr=True)
    about = max(g.seconds for g in GROUPS if g.name in names)
    progress = Progress(SpinnerColumn(), TextColumn("compiling kernels"), BarColumn(),
                        TextColumn("{task.completed}/{task.total} groups"), TimeElapsedColumn(), console=console,
                        disable=not console.is_terminal, transient=True)
    typer.echo(f"bgtools: compiling the kernels of {len(names)} group{'s' if len(names) > 1 else ''}, {min(n, len(names))} "
               f"at a time (once after installing: about {about} s or more; already compiled: a few seconds)", err=True)
    with progress:
        task = progress.add_task("warmup", total=len(names))
        for name, seconds in warm_groups(names, n):
            progress.advance(task)
            typer.echo(f"{name}: ready ({seconds:.1f} s)")
