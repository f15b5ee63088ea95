"""``check`` of one input, for any process: the input read as every command reads it
(:func:`~bgtools.formats.read.read_file`), its summary and its problems as lines."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple, Optional

from bgtools.formats.read import FileReading, read_file
from bgtools.model.match import Match, match_summary
from bgtools.model.problems import MatchProblem

__all__ = ["CheckTask", "CheckResult", "check_file", "read_input"]


class CheckTask(NamedTuple):
    """One input to check: a path, or '-' with ``data`` (the bytes of stdin)."""

    path: str
    strict: bool = False  #: stop at the first error
    data: Optional[bytes] = None


class CheckResult(NamedTuple):
    """What checking one input gave."""

    summary: dict  #: the ``check --json`` record
    unreadable: bool
    errors: list[str]  #: one line each, as printed
    warnings: list[str]


def read_input(path: str, strict: bool = False, data: Optional[bytes] = None, keep_steps: bool = False,
               stream: bool = False) -> FileReading:
    """The :class:`~bgtools.formats.read.FileReading` of one input as every command reads it
    (``path`` '-' reads ``data``, the bytes of stdin; a path that is no file is unreadable;
    ``stream``: a game at a time, see :func:`~bgtools.formats.read.read_file`)."""
    if path == "-":
        return read_file(data or b"", name="<stdin>", strict=strict, keep_steps=keep_steps, stream=stream)
    if not Path(path).is_file():
        return FileReading(Match(("", ""), 0, source=path, file_errors=[MatchProblem("no such file", path)]), True)
    return read_file(Path(path), name=path, strict=strict, keep_steps=keep_steps, stream=stream)


def check_file(task: CheckTask) -> CheckResult:
    """``check`` of one input (a game at a time: only the games' summaries are kept)."""
    r = read_input(task.path, task.strict, task.data, stream=True)
    return CheckResult(match_summary(r.match, r.warnings) | {"plays": r.plays, "doubles": r.doubles}, r.unreadable,
                       [e.plain() for e in r.errors], [w.plain() for w in r.warnings])
