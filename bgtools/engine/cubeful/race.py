"""Race counts and the cube actions they recommend, for the player on roll.

All counts are seen by the player on roll as the potential doubler ("L", the leader's
count) against his opponent ("T", the trailer's).  Sources (facts, see
``shared/spec/engine-facts.md`` section 3):

* **EPC** (effective pip count): expected rolls to bear off x 49/6 (= 8.1667, the average
  pips of a roll) from the one-sided bear-off database, as gnubg defines it.  A side
  with checkers outside its home board gets an estimate: outside checkers brought home at
  8.17 pips a roll, the rest from the database (flagged ``exact: false``).
* **Kleinman** (as in gnubg's eval.c): ``K = (D + 4) / (2 sqrt(S - 4))`` with D = the
  opponent's pips minus the roller's and S their sum; cubeless chance = (1 + erf K) / 2.
* **Keith** (as in gnubg's show.c): pips + 2 per checker beyond the first on the 1-point,
  + 1 per checker beyond the first on the 2-point, + 1 per checker beyond the third on
  the 3-point, + 1 per empty 4, 5 or 6 point; the roller's count is raised by 1/7.
  Double if L <= T + 4, redouble if L <= T + 3, the opponent passes if L <= T + 2.
* **Thorp** (as in gnubg's show.c): pips + 2 x checkers left + checkers on the 1-point
  - home points occupied; the roller adds 10 % when his count is over 30.  Double if
  L <= T + 2, redouble if L <= T + 1, pass if L <= T - 2.
* **Trice** -- published versions differ by a pip at some counts; this follows the point
  of last take quoted from Walter Trice by Simborg (backgammon.org forum): with the
  roller's pip count L >= 62, PLT = L + ceil(L / 10) + 1 (74 -> 83), else
  PLT = L + floor((L - 5) / 7) (55 -> 62); the opponent passes if his pip count is
  above PLT; the roller doubles within 3 pips of PLT, redoubles within 2.  Plain pip
  counts, none of Trice's adjustments for gaps or stacks.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from bgtools.core.dice import PIPS_PER_ROLL
from bgtools.core.position import Position, PositionClass

__all__ = ["RaceCounts", "race_counts", "race_report", "effective_pip_count", "keith_count",
           "thorp_count", "trice_plt", "kleinman"]


@dataclass(frozen=True, slots=True)
class CubeAdvice:
    """A count's verdict for the roller (centred cube: ``double``; owned: ``redouble``) and the opponent."""

    double: bool
    redouble: bool
    take: bool

    @property
    def action(self) -> str:
        if not self.double:
            return "no double"
        return "double/take" if self.take else "double/pass"


def effective_pip_count(side) -> tuple[float, bool]:
    """(EPC, exact) of a 25-slot side; exact when it lies in the one-sided database."""
    from bgtools.engine.bearoff import bearoff_index, load_databases

    db = load_databases()
    s = np.asarray(side, np.int64)
    if s.sum() == 0:
        return 0.0, True
    if s[6:].sum() == 0:
        return float(db.os_mean[bearoff_index(s)] * PIPS_PER_ROLL), True
    home = s[:6].copy()
    travel = 0.0
    k = 0
    for p in range(24, 5, -1):
        for _ in range(int(s[p])):
            target = 5 - (k % 3)
            travel += p - target
            home[target] += 1
            k += 1
    return float(db.os_mean[bearoff_index(home)] * PIPS_PER_ROLL + travel), False


def keith_count(side) -> int:
    """Keith's count of one 25-slot side (before the roller's 1/7)."""
    s = [int(x) for x in side]
    pips = sum((i + 1) * n for i, n in enumerate(s))
    return (pips + 2 * max(0, s[0] - 1) + max(0, s[1] - 1) + max(0, s[2] - 3)
            + sum(1 for p in (3, 4, 5) if s[p] == 0))


def thorp_count(side) -> int:
    """Thorp's count of one 25-slot side (before the roller's 10 %)."""
    s = [int(x) for x in side]
    pips = sum((i + 1) * n for i, n in enumerate(s))
    return pips + 2 * sum(s) + s[0] - sum(1 for p in range(6) if s[p] > 0)


def trice_plt(leader_pips: int) -> int:
    """Trice's point of last take for the roller's pip count (Simborg's quotation)."""
    if leader_pips >= 62:
        return leader_pips + math.ceil(leader_pips / 10) + 1
    return leader_pips + (leader_pips - 5) // 7


def kleinman(roller_pips: int, opp_pips: int) -> tuple[float, float]:
    """(K, cubeless winning chance of the roller) by Kleinman's formula."""
    d = opp_pips - roller_pips
    s = opp_pips + roller_pips
    k = (d + 4) / (2.0 * math.sqrt(max(s - 4, 1)))
    return k, 0.5 * (1.0 + math.erf(k))


@dataclass(frozen=True, slots=True)
class RaceCounts:
    """Every count for the player on roll (first of each pair) and his opponent."""

    pips: tuple[int, int]
    epc: tuple[float, float]
    epc_exact: tuple[bool, bool]
    kleinman_k: float
    kleinman_win: float
    keith: tuple[float, int]
    keith_advice: CubeAdvice
    thorp: tuple[float, int]
    thorp_advice: CubeAdvice
    trice_plt: int
    trice_advice: CubeAdvice

    def to_dict(self) -> dict:
        d = asdict(self)
        for k in ("keith_advice", "thorp_advice", "trice_advice"):
            d[k]["action"] = getattr(self, k).action
        return d

    def summary(self) -> str:
        return (f"pips {self.pips[0]}-{self.pips[1]}, EPC {self.epc[0]:.1f}-{self.epc[1]:.1f}"
                f"{'' if all(self.epc_exact) else ' (est.)'}; Kleinman {100 * self.kleinman_win:.1f}%; "
                f"Keith {self.keith[0]:.1f}-{self.keith[1]} {self.keith_advice.action}; "
                f"Thorp {self.thorp[0]:.1f}-{self.thorp[1]} {self.thorp_advice.action}; "
                f"Trice PLT {self.trice_plt} {self.trice_advice.action}")


def race_counts(pos: Position) -> RaceCounts:
    """All the counts for a race (or bear-off) position, the player on roll to double."""
    me, opp = pos.on_roll, pos.opponent
    pm, po = pos.pips
    e_me, x_me = effective_pip_count(me)
    e_op, x_op = effective_pip_count(opp)
    k, kw = kleinman(pm, po)
    ke_l = keith_count(me) * 8.0 / 7.0
    ke_t = keith_count(opp)
    keith = CubeAdvice(ke_l <= ke_t + 4, ke_l <= ke_t + 3, not ke_l <= ke_t + 2)
    th_l = float(thorp_count(me))
    if th_l > 30:
        th_l *= 1.1
    th_t = thorp_count(opp)
    thorp = CubeAdvice(th_l <= th_t + 2, th_l <= th_t + 1, not th_l <= th_t - 2)
    plt = trice_plt(pm)
    trice = CubeAdvice(po >= plt - 3, po >= plt - 2, po <= plt)
    return RaceCounts((pm, po), (e_me, e_op), (x_me, x_op), k, kw, (ke_l, ke_t), keith,
                      (th_l, th_t), thorp, plt, trice)


def race_report(pos: Position) -> dict:
    """For ``bgtools show``: ``{}`` unless the position is a race or a bear-off."""
    if pos.classify() not in (PositionClass.RACE, PositionClass.BEAROFF):
        return {}
    rc = race_counts(pos)
    return {"race": rc.summary(), "race_counts": rc.to_dict()}
