"""Problems found while reading a match record, and the exception that carries one.

A :class:`MatchProblem` is a value (a sentence with its file, line, column, game and move);
readers collect them on the game (``game.errors``) and go on.  :class:`MatchFileError` is
raised for a record that cannot be read at all, or in strict mode at the first problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from bgtools.base.errors import BgtoolsError

__all__ = ["MatchProblem", "MatchError", "MatchFileError", "MatchWarning", "SEVERITIES"]

SEVERITIES = ("error", "warning")


@dataclass(frozen=True, slots=True)
class MatchProblem:
    """One problem found in a match record; ``line``/``column`` are 1-based (0 = unknown)."""

    message: str
    file: str = ""
    line: int = 0
    column: int = 0
    game: int = 0  #: game number as written (0 = outside a game)
    move: int = 0  #: move number as written on the line (``12)``), 0 = unknown
    #: ``"error"`` (the record breaks the rules) or ``"warning"`` (it reads, but looks wrong)
    severity: str = field(default="error", compare=False)

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"severity {self.severity!r} must be one of {', '.join(SEVERITIES)}")

    @property
    def is_warning(self) -> bool:
        return self.severity == "warning"

    def __str__(self) -> str:
        return self.plain(severity=True)

    def plain(self, severity: bool = False) -> str:
        """``file:line:column: game g, move m: message``; with ``severity``, a warning says so
        after the place (as ``str()`` does).  The one way a problem is written as text: every
        command prints this (after ``bgtools: error:`` or ``bgtools: warning:``)."""
        where = [self.file or "<text>"]
        if self.line:
            where.append(str(self.line))
            if self.column:
                where.append(str(self.column))
        ctx = []
        if self.game:
            ctx.append(f"game {self.game}")
        if self.move:
            ctx.append(f"move {self.move}")
        sev = "warning: " if severity and self.is_warning else ""
        if self.file and not self.line and not ctx and not sev and self.message.startswith(f"{self.file}:"):
            return self.message  # (a message that names its file already: the file once)
        return ":".join(where) + ": " + sev + (f"{', '.join(ctx)}: " if ctx else "") + self.message

    def to_dict(self) -> dict:
        d = {"file": self.file, "line": self.line, "column": self.column, "game": self.game,
             "move": self.move, "message": self.message}
        if self.is_warning:  # errors keep the record they always had
            d["severity"] = self.severity
        return d


#: former name of :class:`MatchProblem`, kept for existing code
MatchError = MatchProblem


class MatchFileError(BgtoolsError, ValueError):
    """A match record that cannot be read (or, in strict mode, any error in it)."""

    def __init__(self, error: Union[MatchProblem, str]):
        if isinstance(error, str):
            error = MatchProblem(error)
        self.error = error
        super().__init__(str(error))


class MatchWarning(BgtoolsError, UserWarning):
    """A match record read in a way that may not be what was meant (not an error).

    Issued with :func:`warnings.warn` while replaying; ``problem`` is the
    :class:`MatchProblem` (file, line, column, game, move) it is about.
    """

    def __init__(self, problem: MatchProblem):
        self.problem = problem
        super().__init__(str(problem))
