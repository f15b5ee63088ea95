"""eXtreme Gammon's PR convention: which decisions XG counts, and the PR it shows rebuilt.

XG leaves obvious decisions out of its PR (performance rating); bgtools' own PR counts every
unforced play and the cube decisions within ``close_cube`` of doubling.  XG's displayed PR is
not stored in ``.xg`` files; it is *rebuilt* here with the counting rules of gammonview's
gvformat reader (``docs/analysis.md``, "XG's PR convention"):

* a checker play counts when it was analysed and its candidates' equities span at least
  :data:`CHECKER_SPREAD` (loss: the first candidate's equity minus the played one's);
* a no double before a roll, and a double, count unless the decision is trivial
  (:func:`cube_trivial`) and nothing was lost (loss under :data:`CUBE_EPSILON`);
* a take or pass counts when double/take and double/pass differ by :data:`CUBE_EPSILON` or more;
* PR = 500 x total loss / decisions counted.

Rebuilt this way the figure came within about 0.65 PR of what XG displays on the six
player-sides quoted in that reader: a reconstruction, not XG's own number.

:func:`xg_file_pr` applies the rules to XG's own equities stored in a match file;
:func:`pr_xg_convention` to bgtools' analysis (its own equities and losses).

>>> cube_action(0.30, 0.50, 1.0), cube_action(0.30, 0.20, 1.0), cube_action(1.2, 1.5, 1.0)
('double/take', 'no double', 'too good')
>>> cube_trivial(0.3, -0.2, 1.0), counts_doubling(0.3, -0.2, 1.0, 0.0), counts_answer(1.3, 1.0)
(True, False, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Optional, Sequence

if TYPE_CHECKING:
    from bgtools.analysis.records import Decision, MatchAnalysis
    from bgtools.model.match import Match

__all__ = ["CHECKER_SPREAD", "CUBE_EPSILON", "PR_CONVENTIONS", "cube_action", "cube_cost", "cube_trivial",
           "counts_doubling", "counts_answer", "counts_checker", "counted_xg", "xg_file_pr", "pr_xg_convention",
           "pr_of", "attach_xg_pr", "XgPr", "XgTally"]

#: a checker play counts when its candidates' equities span at least this much
CHECKER_SPREAD = 1e-4
#: cube decisions: "no loss" and "take and pass differ" thresholds
CUBE_EPSILON = 0.001
#: ``annotate --pr``: bgtools' own convention, or XG's
PR_CONVENTIONS = ("bgtools", "xg")


def cube_action(nd: float, dt: float, dp: float) -> str:
    """The proper action from the doubler's no double / double-take / double-pass equities."""
    if min(dt, dp) > nd:
        return "double/take" if dt <= dp else "double/pass"
    return "too good" if dt > dp and nd >= dp else "no double"


def cube_cost(action: str, nd: float, dt: float, dp: float) -> float:
    """What following ``action`` costs by these equities: the doubler's loss (doubling or not,
    the answer being the proper one) plus the taker's (a wrong take or pass)."""
    best = max(nd, min(dt, dp))
    doubles = action.startswith("double")
    doubler = best - (min(dt, dp) if doubles else nd)
    taker = 0.0
    if doubles:
        answer = dt if action == "double/take" else dp
        taker = answer - min(dt, dp)
    return max(0.0, doubler) + max(0.0, taker)


def cube_trivial(nd: float, dt: float, dp: float) -> bool:
    """gvformat's trivial doubling decision (XG leaves it out of the PR when nothing is lost)."""
    return (abs(nd - min(dt, dp)) < CUBE_EPSILON or nd - dt > 0.2 or nd - dp > 0.2
            or (nd < -0.9 and dt < -0.9))


def counts_doubling(nd: float, dt: float, dp: float, loss: float) -> bool:
    """Does XG count a no double before a roll (or a double) in its PR?"""
    return not (cube_trivial(nd, dt, dp) and loss < CUBE_EPSILON)


def counts_answer(dt: float, dp: float) -> bool:
    """Does XG count a take or pass in its PR?"""
    return abs(dt - dp) >= CUBE_EPSILON


def counts_checker(equities: Sequence[float]) -> bool:
    """Does XG count a checker play whose candidates have these equities?"""
    return len(equities) >= 2 and max(equities) - min(equities) >= CHECKER_SPREAD


def counted_xg(d: Decision) -> bool:
    """Does XG's convention count this decision of a bgtools analysis (bgtools' equities)?"""
    if d.forced:
        return False
    if d.kind == "checker":
        return counts_checker([c.equity for c in d.candidates])
    c = d.cube
    if c is None:
        return False
    if d.played in ("no double", "double"):
        return counts_doubling(c.nd, c.dt, c.dp, d.equity_loss)
    return counts_answer(c.dt, c.dp)


def _file_game(out: list, game) -> None:
    """Add XG's own figures stored on ``game``'s actions to ``out`` (per player [loss, counted])."""
    from bgtools.model.game import Beaver, Double, Drop, Roll, Take

    for a in game.actions:
        an = getattr(a, "analysis", None)
        if an is None or getattr(an, "source", "xg") != "xg":
            continue
        p = a.player
        if isinstance(a, (Roll, Double)) and an.no_double is not None and an.cube_error is not None \
                and an.double_take is not None and an.double_pass is not None:
            if counts_doubling(an.no_double, an.double_take, an.double_pass, an.cube_error):
                out[p][0] += an.cube_error
                out[p][1] += 1
        if isinstance(a, Roll) and an.error is not None and counts_checker([c.equity for c in an.candidates]):
            eqs = [c.equity for c in an.candidates]
            loss = max(0.0, eqs[0] - eqs[an.played]) if an.played >= 0 else an.error
            out[p][0] += loss
            out[p][1] += 1
        if isinstance(a, (Take, Drop, Beaver)) and an.take_error is not None \
                and an.double_take is not None and an.double_pass is not None:
            if counts_answer(an.double_take, an.double_pass):
                out[p][0] += an.take_error
                out[p][1] += 1


def xg_file_pr(match: Match) -> list[tuple[float, int]]:
    """(total loss, decisions counted) per player from XG's own analysis stored in the file
    (both zero for a player, or a file, without it)."""
    t = XgTally()
    for g in match.games:
        t.add_game(g)
    return t.file


def pr_xg_convention(analysis: MatchAnalysis) -> list[tuple[float, int]]:
    """(total loss, decisions counted) per player: bgtools' own losses under XG's counting rules."""
    t = XgTally()
    t.add_decisions(analysis.decisions)
    return t.ours


def pr_of(total_n: tuple[float, int]) -> Optional[float]:
    """500 x total loss / decisions (None when nothing was counted)."""
    t, n = total_n
    return 500.0 * t / n if n else None


@dataclass(frozen=True, slots=True)
class XgPr:
    """One player's PR in XG's convention: bgtools' own (``pr``, None when nothing counted,
    over ``counted`` decisions) and, where the file carries XG's analysis, XG's rebuilt from it
    (``file_pr`` over ``file_counted``; None and 0 without it)."""

    player: int
    name: str
    pr: Optional[float]
    counted: int
    file_pr: Optional[float] = None
    file_counted: int = 0

    def to_dict(self) -> dict:
        """The record an analysis' JSON holds (``file_pr``, ``file_counted`` only where the file has them)."""
        d: dict = {"player": self.player, "name": self.name, "pr": self.pr, "counted": self.counted}
        if self.file_counted:
            d.update(file_pr=self.file_pr, file_counted=self.file_counted)
        return d


class XgTally:
    """The sums behind :class:`XgPr`, fed a game at a time (:meth:`add_game` with the file's
    game, :meth:`add_decisions` with bgtools' decisions)."""

    def __init__(self) -> None:
        self._ours: list[list] = [[0.0, 0], [0.0, 0]]
        self._file: list[list] = [[0.0, 0], [0.0, 0]]

    def add_decisions(self, decisions: Iterable[Decision]) -> None:
        for d in decisions:
            if counted_xg(d):
                self._ours[d.player][0] += d.equity_loss
                self._ours[d.player][1] += 1

    def add_game(self, game) -> None:
        _file_game(self._file, game)

    @property
    def ours(self) -> list[tuple[float, int]]:
        return [(float(t), int(n)) for t, n in self._ours]

    @property
    def file(self) -> list[tuple[float, int]]:
        return [(float(t), int(n)) for t, n in self._file]

    def rows(self, names: Sequence[str]) -> tuple[XgPr, XgPr]:
        """Both players' :class:`XgPr`."""
        ours, theirs = self.ours, self.file
        return tuple(XgPr(p, names[p], _r(pr_of(ours[p])), ours[p][1],
                          *((_r(pr_of(theirs[p])), theirs[p][1]) if theirs[p][1] else ()))
                     for p in (0, 1))  # type: ignore[return-value]


def attach_xg_pr(match: Match, analysis: MatchAnalysis) -> MatchAnalysis:
    """``analysis`` with ``xg_pr`` set (:class:`XgPr` per player): bgtools' PR in XG's
    convention and, where the file carries XG's analysis, XG's PR rebuilt from it."""
    from dataclasses import replace

    t = XgTally()
    t.add_decisions(analysis.decisions)
    for g in match.games:
        t.add_game(g)
    return replace(analysis, xg_pr=t.rows(analysis.players))


def _r(v: Optional[float]) -> Optional[float]:
    return None if v is None else round(v, 4)
