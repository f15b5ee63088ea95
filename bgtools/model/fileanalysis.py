"""The analysis a match file carries (eXtreme Gammon, BGBlitz): one small frozen value per decision.

Readers put a :class:`FileAnalysis` on the actions it belongs to (``analysis`` of
:class:`~bgtools.model.game.Roll`, ``Double``, ``Take``, ``Drop``, ``Beaver``; ignored by
equality).  Figures are the file's own, from the deciding player's side:

* checker play: ``candidates`` (the plays the program listed, best first as stored, each
  with its equity), ``played`` (index of the play made, -1 unknown), ``error`` (equity the
  play lost, >= 0) and ``luck`` (of the roll, + = lucky);
* cube: ``no_double`` / ``double_take`` / ``double_pass`` equities of the doubler,
  ``cube_error`` (the doubling decision before this roll or double, >= 0) and
  ``take_error`` (on the answer);
* ``level``: how the program evaluated (``"2-ply"``, ``"XG Roller++"``, ``"rollout"``,
  ``"book"``; ``""`` unknown), ``unit``: ``"equity"`` (normalised, XG) or ``"mwc"``
  (match winning chances, BGBlitz in a match).  ``None`` = not analysed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from bgtools.base.vocab import StrEnum

__all__ = ["Candidate", "FileAnalysis", "ErrorClass", "ERROR_THRESHOLDS", "ERRORS", "classify_error", "error_class"]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One listed play: single-die or combined ``(from, to)`` steps (25 bar, 0 off), its equity
    and, where stored, the mover's chances ``probs`` = (win, win gammon, win backgammon,
    lose gammon, lose backgammon)."""

    steps: tuple[tuple[int, int], ...]
    equity: float
    level: str = ""
    probs: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class FileAnalysis:
    """The analysis of one decision as stored in the file (see the module docstring)."""

    source: str  #: ``"xg"`` or ``"bgblitz"``
    level: str = ""
    unit: str = "equity"
    error: Optional[float] = None
    luck: Optional[float] = None
    candidates: tuple[Candidate, ...] = ()
    played: int = -1
    no_double: Optional[float] = None
    double_take: Optional[float] = None
    double_pass: Optional[float] = None
    cube_error: Optional[float] = None
    cube_level: str = ""
    take_error: Optional[float] = None
    comment: str = ""

    @property
    def best_equity(self) -> Optional[float]:
        return max((c.equity for c in self.candidates), default=None)


class ErrorClass(StrEnum):
    """gnubg's classes of a decision by the normalised equity it lost, from none to the worst
    (one home for bgtools' own analysis and for the analysis a file carries)."""

    NONE = "none"
    DOUBTFUL = "doubtful"
    BAD = "bad"
    VERY_BAD = "very bad"


#: (class, normalised equity lost above which it applies), worst first: gnubg 1.07's defaults
ERROR_THRESHOLDS: tuple[tuple[ErrorClass, float], ...] = (
    (ErrorClass.VERY_BAD, 0.12), (ErrorClass.BAD, 0.06), (ErrorClass.DOUBTFUL, 0.03))
#: the classes that are errors, mildest first (the order of counts and tables)
ERRORS = (ErrorClass.DOUBTFUL, ErrorClass.BAD, ErrorClass.VERY_BAD)


def classify_error(loss: float) -> ErrorClass:
    """The :class:`ErrorClass` of a normalised equity loss."""
    for cls, limit in ERROR_THRESHOLDS:
        if loss > limit:
            return cls
    return ErrorClass.NONE


def error_class(loss: Optional[float]) -> str:
    """``"very bad"``, ``"bad"``, ``"doubtful"``, ``"none"`` (an :class:`ErrorClass`), or ``""``
    when not analysed."""
    return "" if loss is None else classify_error(loss)
