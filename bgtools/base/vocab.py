"""Closed sets of words as enums whose members *are* their words.

A :class:`StrEnum` member is a ``str``: printed, formatted, compared, hashed, written as
JSON or shown by ``repr`` it is its value, so a closed vocabulary (error classes, ...) can be
one typed definition without changing any output.

>>> class Colour(StrEnum):
...     LIGHT_RED = "light red"
>>> Colour.LIGHT_RED, f"{Colour.LIGHT_RED}", Colour("light red") is Colour.LIGHT_RED
('light red', 'light red', True)
>>> import json; json.dumps({Colour.LIGHT_RED: [Colour.LIGHT_RED]})
'{"light red": ["light red"]}'
"""

from __future__ import annotations

import enum

__all__ = ["StrEnum"]


class StrEnum(str, enum.Enum):
    """A ``str`` enum whose members print, format and ``repr`` as their values (Python 3.10 on)."""

    def __str__(self) -> str:
        return str.__str__(self)

    def __format__(self, spec: str) -> str:
        return str.__format__(self, spec)

    def __repr__(self) -> str:
        return str.__repr__(self)
