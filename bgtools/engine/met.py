"""Match equity tables: the chance to win the match from a score, before a game starts.

The shipped table is Kazaross-XG2 (25 points; see ``bgtools/data/met_kazaross_xg2.json``
for its source and notice).  Scores are given as points *away* (still needed).  At the
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

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numba as nb
import numpy as np

__all__ = ["MatchEquityTable", "load_met", "mwc_after", "METS", "CubeStake"]

#: name accepted by :func:`load_met` -> data file in ``bgtools/data``
METS = {"kazaross-xg2": "met_kazaross_xg2.json"}


@nb.njit(cache=True)
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


@nb.njit(cache=True)
def mwc_after(pre, post, am, ao, won) -> float:
    """Match winning chance after a game begun at (``am``, ``ao``) away ends with ``won`` points."""
    done = am == 1 or ao == 1  # this game was the Crawford game or post-Crawford
    if won >= 0:
        return _mwc(pre, post, am - won, ao, done)
    return _mwc(pre, post, am, ao + won, done)


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
        cube value, +1 = winning it."""
        lo = self.after(away_me, away_opp, -cube)
        hi = self.after(away_me, away_opp, cube)
        return 2.0 * (mwc - lo) / (hi - lo) - 1.0 if hi > lo else 0.0


@lru_cache(maxsize=None)
def load_met(name: str = "kazaross-xg2") -> MatchEquityTable:
    """A shipped table by name (only ``kazaross-xg2`` so far)."""
    fname = METS.get(name.lower())
    if fname is None:
        raise ValueError(f"unknown match equity table {name!r}; known: {', '.join(METS)}")
    d = json.loads(resources.files("bgtools.data").joinpath(fname).read_text(encoding="utf-8"))
    pre = np.ascontiguousarray(d["pre_crawford"], np.float64)
    post = np.ascontiguousarray(d["post_crawford"], np.float64)
    return MatchEquityTable(d["name"], pre, post, d.get("source", ""))


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

