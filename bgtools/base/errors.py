"""The root of every exception bgtools raises on purpose.

``except bgtools.BgtoolsError`` catches them all; each subclass also keeps the builtin base
it had (``ValueError`` for bad input), so existing ``except ValueError`` code still works.

>>> from bgtools.core.position import PositionError
>>> issubclass(PositionError, BgtoolsError) and issubclass(PositionError, ValueError)
True
"""

from __future__ import annotations

__all__ = ["BgtoolsError"]


class BgtoolsError(Exception):
    """Base class of bgtools' own exceptions (bad IDs, unreadable files, illegal moves, ...)."""
