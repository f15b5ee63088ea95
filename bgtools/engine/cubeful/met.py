"""Match equity tables: the chance to win the match from a score, before a game starts.

The shipped table is Kazaross-XG2 (25 points; see ``bgtools/data/met_kazaross_xg2.json``
for its source and notice); :func:`load_met` also reads another from a file (gnubg's match
equity XML or bgtools' JSON).  A table is a value: the calculations that use one take it as
an argument or in their settings (None: the shipped table); nothing is read from the
environment here (``bgtools --met FILE``, or ``BGTOOLS_MET``, is read by the command line,
which passes the table down).  Scores are given as points *away* (still needed).  At the
start of a game where a player is 1-away the game is either the Crawford game (the first
such game: the pre-Crawford table holds its value) or a post-Crawford game (the
post-Crawford table); :meth:`MatchEquityTable.mwc` takes that flag.

Numba-callable kernel (plain arrays, get them from :attr:`MatchEquityTable.pre` and
:attr:`MatchEquityTable.post`):

* ``mwc_after(pre, post, away_me, away_opp, won)`` -- the match winning chance of the
  player ``away_me`` away when a game that started at (``away_me``, ``away_opp``) ends
  with him winning ``won`` points (negative: losing ``-won``).  Whether the next game is
  post-Crawford follows from the score: it is when someone was already 1-away.

>>> met = load_met()
>>> round(met.mwc(2, 4), 4)
0.6687
>>> round(met.mwc(2, 1, post_crawford=True), 5)
0.48803
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Optional

import numba as nb
import numpy as np

from bgtools.base.errors import BgtoolsError

__all__ = ["MatchEquityTable", "load_met", "mwc_after", "METS", "CubeStake", "METFileError", "DEFAULT_MET"]

#: name accepted by :func:`load_met` -> data file in ``bgtools/data``
METS = {"kazaross-xg2": "met_kazaross_xg2.json"}
#: the table :func:`load_met` returns without a name
DEFAULT_MET = "kazaross-xg2"


@nb.njit(cache=True, inline="always")
def _mwc(pre, post, am, ao, crawford_done) -> float:
    """Chance of the player ``am`` away against ``ao`` away at the start of a game."""
    if am <= 0:
        return 1.0
    if ao <= 0:
        return 0.0
    n = pre.shape[0]
    if crawford_done and (am == 1 or ao == 1):
        if am == 1 and ao == 1:
            return 0.5
        if ao == 1:
            return post[min(am, n) - 1]
        return 1.0 - post[min(ao, n) - 1]
    return pre[min(am, n) - 1, min(ao, n) - 1]


@nb.njit(cache=True, inline="always")
def mwc_after(pre, post, am, ao, won) -> float:
    """Match winning chance after a game begun at (``am``, ``ao``) away ends with ``won`` points.

    (:func:`_mwc` after the score moves, written with selects rather than branches where it can: the cube
    formulas of match play call it some thirty times a value, with scores and signs that change from call to call,
    and a branch the processor guesses wrong costs more than the table lookup.)"""
    done = (am == 1) | (ao == 1)  # this game was the Crawford game or post-Crawford
    a = am - max(won, 0)
    o = ao + min(won, 0)
    n = pre.shape[0]
    ai = min(max(a, 1), n) - 1
    oi = min(max(o, 1), n) - 1
    v = pre[ai, oi]
    if done and (a == 1 or o == 1):
        if a == 1 and o == 1:
            v = 0.5
        elif o == 1:
            v = post[ai]
        else:
            v = 1.0 - post[oi]
    if o <= 0:
        v = 0.0
    if a <= 0:
        v = 1.0
    return v


@dataclass(frozen=True)
class MatchEquityTable:
    """A match equity table: ``pre[i, j]`` = MWC at (i+1, j+1) away; ``post[j]`` = MWC of
    the player j+1 away against 1-away after the Crawford game."""

    name: str
    pre: np.ndarray
    post: np.ndarray
    source: str = ""

    @property
    def length(self) -> int:
        return int(self.pre.shape[0])

    @cached_property
    def digest(self) -> str:
        """A short hash of the table's values (its identity: equal values, equal digest)."""
        h = hashlib.sha256(np.ascontiguousarray(self.pre, np.float64).tobytes())
        h.update(np.ascontiguousarray(self.post, np.float64).tobytes())
        return h.hexdigest()[:12]

    @property
    def identity(self) -> str:
        """The table's name and :attr:`digest`, as rollout records carry it (``--resume``
        re-uses only records rolled out under the same table)."""
        return f"{self.name} ({self.digest})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MatchEquityTable):
            return NotImplemented
        return self.digest == other.digest

    def __hash__(self) -> int:
        return hash(self.digest)

    def mwc(self, away_me: int, away_opp: int, *, post_crawford: bool = False) -> float:
        """MWC of the player ``away_me`` away at the start of a game against ``away_opp``."""
        for a in (away_me, away_opp):
            if a > self.length:
                raise ValueError(f"{a}-away is beyond the {self.length}-point {self.name} table")
        if post_crawford and 1 not in (away_me, away_opp):
            raise ValueError("post-Crawford needs a player 1-away")
        return float(_mwc(self.pre, self.post, away_me, away_opp, post_crawford))

    def after(self, away_me: int, away_opp: int, won: int) -> float:
        """MWC after a game begun at (``away_me``, ``away_opp``) ends with ``won`` points for me."""
        return float(mwc_after(self.pre, self.post, away_me, away_opp, won))

    def emg(self, mwc: float, away_me: int, away_opp: int, cube: int = 1) -> float:
        """Normalised money-equivalent equity of ``mwc`` (gnubg's "EMG"): -1 = losing the
        cube value, +1 = winning it (:meth:`CubeStake.normalise`)."""
        return float(CubeStake.at(self, away_me, away_opp, cube).normalise(mwc))


class METFileError(BgtoolsError, ValueError):
    """A match equity table file that cannot be read (its path and what is wrong)."""


def load_met(name: Optional[str] = None) -> MatchEquityTable:
    """A match equity table: a shipped one by name (``kazaross-xg2``), or a file: gnubg's
    match equity XML (explicit tables, as in gnubg's ``met/`` folder) or bgtools' JSON
    (``{"name", "pre_crawford": [[...]], "post_crawford": [...]}``).  Without ``name``:
    the shipped Kazaross-XG2 (:data:`DEFAULT_MET`).  Tables are read once per process."""
    return _load_met(DEFAULT_MET if name is None else name)


@lru_cache(maxsize=8)
def _load_met(name: str) -> MatchEquityTable:
    fname = METS.get(name.lower())
    if fname is not None:
        d = json.loads(resources.files("bgtools.data").joinpath(fname).read_text(encoding="utf-8"))
        return _from_json(d, name)
    path = Path(name)
    if not path.is_file():
        raise METFileError(f"{name}: not a match equity table name ({', '.join(METS)}) or file")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise METFileError(f"{name}: cannot read: {e}") from None
    if text.lstrip().startswith("{"):
        try:
            return _from_json(json.loads(text), name)
        except (ValueError, KeyError, TypeError) as e:
            raise METFileError(f"{name}: not a match equity table in bgtools' JSON form: {e}") from None
    return _from_gnubg_xml(text, name)


def _checked(name: str, pre: np.ndarray, post: np.ndarray, title: str, source: str) -> MatchEquityTable:
    n = pre.shape[0]
    if pre.ndim != 2 or pre.shape[1] != n or n < 1 or post.shape != (n,):
        raise METFileError(f"{name}: the pre-Crawford table must be n x n and the post-Crawford row n long "
                           f"(got {pre.shape} and {post.shape})")
    if not (np.all((pre >= 0.0) & (pre <= 1.0)) and np.all((post >= 0.0) & (post <= 1.0))):
        raise METFileError(f"{name}: match winning chances must lie between 0 and 1")
    return MatchEquityTable(title, np.ascontiguousarray(pre, np.float64), np.ascontiguousarray(post, np.float64),
                            source)


def _from_json(d: dict, name: str) -> MatchEquityTable:
    pre = np.asarray(d["pre_crawford"], np.float64)
    post = np.asarray(d["post_crawford"], np.float64)
    return _checked(name, pre, post, str(d.get("name", name)), str(d.get("source", "")))


def _from_gnubg_xml(text: str, name: str) -> MatchEquityTable:
    """gnubg's ``met.dtd`` form: ``<met><info><name>`` and explicit ``<pre-crawford-table>``
    rows of ``<me>`` values, one ``<post-crawford-table>`` row (for both players)."""
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        raise METFileError(f"{name}:{e.position[0]}:{e.position[1]}: not XML: {e}") from None
    pre_t = root.find("pre-crawford-table")
    posts = root.findall("post-crawford-table")
    if root.tag != "met" or pre_t is None or not posts:
        raise METFileError(f"{name}: not a gnubg match equity table (<met> with pre- and post-Crawford tables)")
    for t in [pre_t, *posts]:
        if t.get("type", "explicit") != "explicit":
            raise METFileError(f"{name}: table type {t.get('type')!r}: only explicit tables can be read")

    def rows(t) -> list[list[float]]:
        try:
            return [[float(me.text or "") for me in row.findall("me")] for row in t.findall("row")]
        except ValueError as e:
            raise METFileError(f"{name}: a value that is not a number: {e}") from None

    pre = rows(pre_t)
    post_rows = [rows(t) for t in posts]
    if any(len(r) != 1 for r in post_rows) or len(posts) > 1 and post_rows[0] != post_rows[1]:
        raise METFileError(f"{name}: one post-Crawford row for both players is needed (got "
                           f"{len(posts)} table(s) with {[len(r) for r in post_rows]} row(s))")
    # a table is cut to the longest square that all its rows fill (gnubg extrapolates beyond)
    width = min(len(pre), len(post_rows[0][0]), *(len(r) for r in pre)) if pre else 0
    pre_a = np.asarray([r[:width] for r in pre[:width]], np.float64)
    post_a = np.asarray(post_rows[0][0][:width], np.float64)
    title_el = root.find("info/name")
    title = (title_el.text or name).strip() if title_el is not None else name
    return _checked(name, pre_a, post_a, title, f"read from {name}")


@dataclass(frozen=True)
class CubeStake:
    """The match winning chances of the player on roll after he wins (``win``) or loses
    (``lose``) the current cube: they map an MWC onto gnubg's normalised equity (-1 .. +1)."""

    win: float
    lose: float

    @classmethod
    def at(cls, met: MatchEquityTable, away: int, away_opp: int, cube: int) -> "CubeStake":
        return cls(float(mwc_after(met.pre, met.post, away, away_opp, cube)),
                   float(mwc_after(met.pre, met.post, away, away_opp, -cube)))

    @property
    def scale(self) -> float:
        """Normalised equity per unit of MWC."""
        return 2.0 / ((self.win - self.lose) or 1.0)

    def normalise(self, mwc):
        """``2 (mwc - (win + lose) / 2) / (win - lose)``; works on arrays too."""
        return self.scale * (mwc - 0.5 * (self.win + self.lose))

