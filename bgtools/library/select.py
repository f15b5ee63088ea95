"""Choosing parts of the library's frames: a period (``--since``/``--until``), the user's
own decisions (``--me``), and the two sides of ``stats --compare A B``.

A selection (:func:`parse_selection`) is a period, ``YYYY``, ``YYYY-MM``, ``YYYY-MM-DD`` or
``START..END`` (either end may be left out; an end is the whole of its year, month or day),
or a filter ``column=value`` on a match column (``event``, ``opponent``, ``site``,
``length``, ``player``, ``round``, ``place``), several joined by ``,``.

>>> parse_selection("2024")
{'since': Timestamp('2024-01-01 00:00:00'), 'until': Timestamp('2025-01-01 00:00:00')}
>>> parse_selection("2024-03..2024-05,event=Nordic Open")["event"]
'Nordic Open'
"""

from __future__ import annotations

import re
from typing import Optional

from bgtools.base.errors import BgtoolsError

__all__ = ["SelectionError", "period_bounds", "parse_selection", "select", "FILTER_COLUMNS"]

#: match columns a selection may filter on
FILTER_COLUMNS = ("event", "opponent", "site", "length", "player", "round", "place")
_DATE = re.compile(r"^\d{4}(-\d{1,2}(-\d{1,2})?)?$")


class SelectionError(BgtoolsError, ValueError):
    """A period or filter that cannot be read."""


def period_bounds(text: str):
    """(start, end) Timestamps of ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``: end excluded."""
    import pandas as pd

    t = text.strip()
    if not _DATE.match(t):
        raise SelectionError(f"{text!r}: a date is YYYY, YYYY-MM or YYYY-MM-DD")
    parts = [int(p) for p in t.split("-")]
    try:
        start = pd.Timestamp(year=parts[0], month=parts[1] if len(parts) > 1 else 1,
                             day=parts[2] if len(parts) > 2 else 1)
    except ValueError as e:
        raise SelectionError(f"{text!r}: {e}") from None
    step = {1: pd.DateOffset(years=1), 2: pd.DateOffset(months=1), 3: pd.DateOffset(days=1)}[len(parts)]
    return start, start + step


def parse_selection(text: str) -> dict:
    """``{"since": Timestamp, "until": Timestamp (excluded), column: value, ...}`` of a selection."""
    out: dict = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if "=" in part:
            col, _, value = part.partition("=")
            col = col.strip().lower()
            if col not in FILTER_COLUMNS:
                raise SelectionError(f"{part!r}: filter on one of {', '.join(FILTER_COLUMNS)}")
            out[col] = value.strip()
        elif ".." in part:
            a, _, b = part.partition("..")
            if a.strip():
                out["since"] = period_bounds(a)[0]
            if b.strip():
                out["until"] = period_bounds(b)[1]
        else:
            out["since"], out["until"] = period_bounds(part)
    if not out:
        raise SelectionError(f"{text!r}: give a period (2024, 2024-03, 2024-01..2024-06) or a filter (event=...)")
    return out


def select(decisions, matches, *, since: Optional[str] = None, until: Optional[str] = None,
           me: bool = False, selection: Optional[str] = None):
    """(decisions, matches) restricted to the matches dated from ``since`` to ``until``
    (inclusive, as :func:`period_bounds`; an undated match is left out when either is
    given), of the user (``me``: matches where a side is the user, decisions of that side),
    and to ``selection`` (:func:`parse_selection`)."""
    keep = matches["match_key"].notna()
    sel = parse_selection(selection) if selection else {}
    if since:
        keep &= matches["date"] >= period_bounds(since)[0]
    if until:
        keep &= matches["date"] < period_bounds(until)[1]
    if "since" in sel:
        keep &= matches["date"] >= sel["since"]
    if "until" in sel:
        keep &= matches["date"] < sel["until"]
    for col in FILTER_COLUMNS:
        if col not in sel:
            continue
        value = sel[col]
        if col == "length":
            keep &= matches["length"].astype(str) == value
        elif col == "player":
            keep &= (matches["player0"].str.casefold() == value.casefold()) | (
                matches["player1"].str.casefold() == value.casefold())
        else:
            keep &= matches[col].astype(str).str.casefold() == value.casefold()
    if me:
        keep &= matches["me_side"].notna()
    m = matches[keep.fillna(False).astype(bool)]
    d = decisions[decisions["match_key"].isin(set(m["match_key"]))]
    if me:
        d = d[d["me"]]
    return d.reset_index(drop=True), m.reset_index(drop=True)
