"""Match metadata under standard keys, whatever format the match was read from.

Every reader keeps the header tags as its file writes them (``.mat`` ``; [Key "Value"]``
tags, SGF root properties, the XG and BGBlitz header fields) and adds the **standard
keys** below (str values; a key is absent when the file does not hold it):

=========  ===================================================================================
key        filled from
=========  ===================================================================================
date       ISO ``YYYY-MM-DD``: .mat ``EventDate`` (or ``Date``), SGF ``DT`` (the first date of a
           list), XG header date (Delphi day count), BGF ``date``.  Dates written ``Y.M.D``,
           ``Y-M-D``, ``Y/M/D`` or day first ``D.M.YYYY`` / ``D/M/YYYY``; a year alone (``"1981"``)
           or an unreadable date fills no ``date`` (the raw tag is kept).
time       ``HH:MM`` or ``HH:MM:SS``: .mat ``EventTime`` (``"09.30"`` -> ``"09:30"``), the XG
           header date's time of day.
event      .mat ``Event``, SGF ``EV`` (else ``GN``, the game name), XG event, BGF ``event``.
round      .mat ``Round``, SGF ``RO``, XG round, BGF ``round``.
site       the server or venue: .mat ``Site``, SGF ``PC``, XG location, BGF ``site`` (else its
           ``location``).  gnubg keeps one place field, writes it as ``PC`` in SGF and as ``Site``
           in .mat (and reads ``Site`` back into it); XG writes its location as ``Site`` when it
           exports .mat.  Mapping all of them to ``site`` gives one match the same ``site``
           from its .mat, .sgf and .xg.
place      the venue where a file keeps it apart from the site: .mat ``Place``/``Location``,
           BGF ``location``.
rating0/1  player 0's / player 1's rating as written: .mat ``Player 1 Elo``/``Player 2 Elo``
           (given to the side whose name equals the ``Player N`` tag; in file order when neither
           name matches) or else the GridGammon ``name,rating`` of the first score line, SGF
           ``WR``/``BR``, XG ``elo/experience`` (as XG writes it in .mat,
           ``"1600.00/0"``), BGF ``ratingGreen``/``ratingRed`` when not 0.
=========  ===================================================================================

>>> iso_date("2022.05.08"), iso_date("12.08.2024"), iso_date("1981"), iso_time("09.30")
('2022-05-08', '2024-08-12', '', '09:30')
>>> sorted(mat_standard({"EventDate": "2023.11.26", "Site": "Galaxy", "Player 1": "B",
...                      "Player 1 Elo": "1600.00/0"}, ("A", "B")).items())
[('date', '2023-11-26'), ('rating1', '1600.00/0'), ('site', 'Galaxy')]
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Mapping, Optional

__all__ = ["STANDARD_KEYS", "iso_date", "iso_time", "with_standard", "mat_standard", "sgf_standard",
           "delphi_datetime", "mat_header_tags", "sgf_root_properties"]

#: the standard metadata keys of ``Match.tags``
STANDARD_KEYS = ("date", "time", "event", "round", "place", "site", "rating0", "rating1")

_YMD = re.compile(r"^\s*(\d{4})\s*[.\-/]\s*(\d{1,2})\s*[.\-/]\s*(\d{1,2})")
_DMY = re.compile(r"^\s*(\d{1,2})\s*[./\-]\s*(\d{1,2})\s*[./\-]\s*(\d{4})\b")
_TIME = re.compile(r"^\s*(\d{1,2})[.:h](\d{2})(?:[.:](\d{2}))?\s*$")


def iso_date(text: str) -> str:
    """``YYYY-MM-DD`` from a date as match files write it; ``""`` when it holds no full date."""
    m = _YMD.match(text or "")
    if m:
        y, mo, d = (int(x) for x in m.groups())
    else:
        m = _DMY.match(text or "")
        if not m:
            return ""
        d, mo, y = (int(x) for x in m.groups())
    try:
        return _dt.date(y, mo, d).isoformat()
    except ValueError:
        return ""


def iso_time(text: str) -> str:
    """``HH:MM[:SS]`` from ``"09.30"``, ``"17:44"``, ``"9:05:12"``; ``""`` when unreadable."""
    m = _TIME.match(text or "")
    if not m:
        return ""
    h, mi, s = int(m.group(1)), int(m.group(2)), m.group(3)
    if h > 23 or mi > 59 or (s is not None and int(s) > 59):
        return ""
    return f"{h:02d}:{mi:02d}" + (f":{int(s):02d}" if s is not None else "")


def delphi_datetime(days: float) -> tuple[str, str]:
    """(date, time) of a Delphi ``TDateTime`` (days since 1899-12-30; XG's header date);
    ``("", "")`` for 0 or a value out of range, time ``""`` at exactly midnight, ``HH:MM`` on
    the minute (as .mat files write it).

    >>> delphi_datetime(45256.395833333336)
    ('2023-11-26', '09:30')
    """
    if not days or not (0 < days < 2958466):  # year 1 .. 9999
        return "", ""
    t = _dt.datetime(1899, 12, 30) + _dt.timedelta(seconds=round(days * 86400))
    if t.time() == _dt.time():
        return t.date().isoformat(), ""
    return t.date().isoformat(), t.strftime("%H:%M" if t.second == 0 else "%H:%M:%S")


def with_standard(tags: Mapping[str, str], std: Mapping[str, Optional[str]]) -> dict[str, str]:
    """``tags`` plus the standard keys of ``std`` that hold a value (stripped); a standard key
    already in ``tags`` (a JSON match written by bgtools) is kept."""
    out = dict(tags)
    for k in STANDARD_KEYS:
        v = (std.get(k) or "").strip()
        if v and not out.get(k):
            out[k] = v
    return out


def _first(tags: Mapping[str, str], *keys: str) -> str:
    lower = {k.lower(): v for k, v in tags.items()}
    for k in keys:
        v = (lower.get(k.lower()) or "").strip()
        if v:
            return v
    return ""


def mat_standard(tags: Mapping[str, str], players: tuple[str, str],
                 line_ratings: tuple[str, str] = ("", "")) -> dict[str, str]:
    """The standard keys of a ``.mat`` header (see the module docstring); ``line_ratings``
    are the GridGammon ratings written after the names of the first score line
    (``Alice,1811 : 0``), used where no ``Player N Elo`` tag gives one."""
    std = {"date": iso_date(_first(tags, "EventDate", "Date")),
           "time": iso_time(_first(tags, "EventTime", "Time")),
           "event": _first(tags, "Event"), "round": _first(tags, "Round"),
           "site": _first(tags, "Site"), "place": _first(tags, "Place", "Location")}
    names = (_first(tags, "Player 1"), _first(tags, "Player 2"))
    elos = (_first(tags, "Player 1 Elo"), _first(tags, "Player 2 Elo"))
    named = [n in players and n != "" for n in names]
    for i, elo in enumerate(elos):
        if not elo:
            continue
        if named[i]:
            side = players.index(names[i])
        elif any(named):
            side = 1 - players.index(names[1 - i])
        else:
            side = i
        std[f"rating{side}"] = elo
    for side in (0, 1):
        if not std.get(f"rating{side}") and line_ratings[side]:
            std[f"rating{side}"] = line_ratings[side]
    return {k: v for k, v in std.items() if v}


def sgf_standard(props: Mapping[str, str]) -> dict[str, str]:
    """The standard keys of an SGF root (``DT``, ``EV``/``GN``, ``RO``, ``PC``, ``WR``, ``BR``)."""
    date = (props.get("DT") or "").split(",")[0]
    std = {"date": iso_date(date), "event": props.get("EV") or props.get("GN") or "",
           "round": props.get("RO") or "", "site": props.get("PC") or "",
           "rating0": props.get("WR") or "", "rating1": props.get("BR") or ""}
    return {k: v.strip() for k, v in std.items() if v and v.strip()}


def mat_header_tags(tags: Mapping[str, str]) -> list[tuple[str, str]]:
    """The ``; [Key "Value"]`` tags a ``.mat`` writer puts before the match line: the tags as
    read, without the standard keys, and each standard key under its ``.mat`` name when the
    match holds none (a match read from SGF, XG or BGBlitz keeps its date and event in .mat)."""
    std = set(STANDARD_KEYS)
    out = [(k, v) for k, v in tags.items() if k not in std]
    have = {k.lower() for k, _ in out}
    date = tags.get("date", "")
    for key, value in (("Site", tags.get("site")), ("Place", tags.get("place")),
                       ("Event", tags.get("event")), ("Round", tags.get("round")),
                       ("Player 1 Elo", tags.get("rating0")), ("Player 2 Elo", tags.get("rating1")),
                       ("EventDate", date.replace("-", ".")),
                       ("EventTime", (tags.get("time") or "")[:5].replace(":", "."))):
        if value and key.lower() not in have and not (key == "EventDate" and "date" in have):
            out.append((key, value))
    return out


def sgf_root_properties(tags: Mapping[str, str]) -> list[tuple[str, str]]:
    """SGF root properties for the standard keys (``DT``, ``EV``, ``RO``, ``PC``, ``WR``, ``BR``)."""
    pairs = (("DT", "date"), ("EV", "event"), ("RO", "round"), ("PC", "site"),
             ("WR", "rating0"), ("BR", "rating1"))
    return [(p, tags[k]) for p, k in pairs if tags.get(k)]
