"""The score map of a position: its cube decision at every score of an N-point match and at
money, as data, a text table and an SVG grid (what ``bgtools scoremap`` prints and draws).

Each cell is :func:`bgtools.engine.cubeful.cubesearch.cube_advice_at` for the player on roll with the
cube centred at 1, the value ``bgtools eval`` gives at that score: the proper action, the no
double / double-take / double-pass equities (per unit of the cube; match play: gnubg's
normalised equity) and two margins, the **double margin** ``min(DT, DP) - ND`` (> 0: doubling
gains) and the **take margin** ``DP - DT`` (> 0: the opponent should take).  Scores are given
as points away, the player on roll's first; a 1-away score is post-Crawford (in the Crawford
game no one may double), so a 1-away player on roll has no cube action.

>>> from bgtools.core.position import Position
>>> m = score_map(Position.initial(), 3, ply=0)
>>> [(c.away, c.short) for c in m.cells[:3]]
[((1, 1), '-'), ((1, 2), '-'), ((1, 3), '-')]
>>> len(m.cells), m.cell(2, 3).away, m.money.away, m.cell(2, 3).short in SHORT_ACTIONS
(9, (2, 3), (0, 0), True)
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any, Optional

from bgtools.core.position import Position
from bgtools.engine.cubeful.cube import CENTRED, CubeInfo
from bgtools.engine.cubeful.cubeaction import CubeAction, CubeAdvice
from bgtools.engine.cubeful.cubesearch import CubeSearch, cube_advice_at
from bgtools.engine.evaluation import Evaluator, default_evaluator
from bgtools.engine.cubeful.met import MatchEquityTable, load_met

__all__ = ["ScoreCell", "ScoreMap", "score_map", "short_action", "SHORT_ACTIONS"]

#: short names of the proper actions (the grid's cell text), with what they mean
SHORT_ACTIONS = {"ND/T": "no double, take", "ND/B": "no double, beaver", "D/T": "double, take",
                 "D/B": "double, beaver", "D/P": "double, pass", "TG/T": "too good to double, take",
                 "TG/P": "too good to double, pass", "-": "no cube action available"}
#: fill colour of each short action in the SVG
_COLOURS = {"ND/T": "#e8eef7", "ND/B": "#d7e3f4", "D/T": "#bfe3c0", "D/B": "#a6d8a8", "D/P": "#f7d79a",
            "TG/T": "#f2b8a2", "TG/P": "#e89a8a", "-": "#dddddd"}


def short_action(action: str) -> str:
    """``"Double, take"`` -> ``"D/T"``, ``"Too good to redouble, pass"`` -> ``"TG/P"``, ...
    (:attr:`~bgtools.engine.cubeful.cubeaction.CubeAction.short`; "-" for none)."""
    return CubeAction(action).short if action else "-"


@dataclass(frozen=True)
class ScoreCell:
    """The cube decision at one score (``away`` = (on roll, opponent); (0, 0) = money)."""

    away: tuple[int, int]
    advice: CubeAdvice

    @property
    def short(self) -> str:
        return short_action(self.advice.action)

    @property
    def double_margin(self) -> Optional[float]:
        a = self.advice
        if a.double_take is None or a.double_pass is None:
            return None
        return min(a.double_take, a.double_pass) - a.no_double

    @property
    def take_margin(self) -> Optional[float]:
        a = self.advice
        if a.double_take is None or a.double_pass is None:
            return None
        return a.double_pass - a.double_take

    def to_dict(self) -> dict[str, Any]:
        return {"away": list(self.away), "money": self.away == (0, 0), "short": self.short,
                "double_margin": self.double_margin, "take_margin": self.take_margin, **self.advice.to_dict()}


@dataclass(frozen=True)
class ScoreMap:
    """Every score of a ``length``-point match (``cells``, row by row: the player on roll 1-away
    first, the opponent 1-away first within a row) and money."""

    position_id: str
    length: int
    ply: int
    cells: tuple[ScoreCell, ...]
    money: ScoreCell
    jacoby: bool
    beavers: bool

    def cell(self, away: int, opp_away: int) -> ScoreCell:
        return self.cells[(away - 1) * self.length + (opp_away - 1)]

    def to_dict(self) -> dict[str, Any]:
        return {"position_id": self.position_id, "length": self.length, "ply": self.ply,
                "money_rules": {"jacoby": self.jacoby, "beavers": self.beavers},
                "scores": [c.to_dict() for c in self.cells], "money": self.money.to_dict()}

    def grid_lines(self) -> list[str]:
        """The actions as a grid: rows the player on roll's away, columns the opponent's."""
        w = 6
        head = "away " + "".join(f"{f'{b}a':>{w}}" for b in range(1, self.length + 1))
        out = [f"{'':5}opponent away ->", head]
        for a in range(1, self.length + 1):
            out.append(f"{f'{a}a':>4} " + "".join(f"{self.cell(a, b).short:>{w}}" for b in range(1, self.length + 1)))
        out.append(f"money ({'Jacoby' if self.jacoby else 'no Jacoby'}, {'beavers' if self.beavers else 'no beavers'})"
                   f": {self.money.short}")
        return out

    def table_lines(self) -> list[str]:
        """One line per score with the equities and margins."""
        out = [f"{'score':>8}  {'action':<27} {'ND':>7} {'DT':>7} {'DP':>7} {'double':>7} {'take':>7}"]
        for c in (*self.cells, self.money):
            a = c.advice
            score = "money" if c.away == (0, 0) else f"{c.away[0]}a-{c.away[1]}a"
            if not a.available:
                out.append(f"{score:>8}  {a.action}")
                continue
            assert a.double_take is not None and a.double_pass is not None
            out.append(f"{score:>8}  {a.action:<27} {a.no_double:+.3f} {a.double_take:+.3f} {a.double_pass:+.3f} "
                       f"{c.double_margin:+.3f} {c.take_margin:+.3f}")
        return out

    def svg(self) -> str:
        """The grid as an SVG picture: one square per score, coloured by the action, with its
        short name and the double margin; money below."""
        n, s, left, top = self.length, 64, 56, 64
        width, height = left + n * s + 16, top + n * s + 96
        p = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{left}" y="20" font-size="14" font-weight="bold">{escape(self.position_id)}: cube action '
             f'by score ({self.ply}-ply)</text>',
             f'<text x="{left}" y="40" font-size="11">columns: opponent away; rows: player on roll away; '
             f'small: double margin min(DT, DP) - ND</text>']
        for b in range(1, n + 1):
            p.append(f'<text x="{left + (b - 1) * s + s / 2}" y="{top - 6}" font-size="12" '
                     f'text-anchor="middle">{b}a</text>')
        for a in range(1, n + 1):
            y = top + (a - 1) * s
            p.append(f'<text x="{left - 8}" y="{y + s / 2 + 4}" font-size="12" text-anchor="end">{a}a</text>')
            for b in range(1, n + 1):
                p.append(self._svg_cell(self.cell(a, b), left + (b - 1) * s, y, s))
        y = top + n * s + 20
        p.append(f'<text x="{left - 8}" y="{y + s / 4 + 4}" font-size="12" text-anchor="end">money</text>')
        p.append(self._svg_cell(self.money, left, y, s))
        p.append("</svg>")
        return "\n".join(p) + "\n"

    @staticmethod
    def _svg_cell(c: ScoreCell, x: float, y: float, s: float) -> str:
        dm = c.double_margin
        margin = "" if dm is None else (f'<text x="{x + s / 2}" y="{y + s / 2 + 18}" font-size="10" '
                                        f'text-anchor="middle">{dm:+.3f}</text>')
        return (f'<g><title>{escape(c.advice.action)}</title><rect x="{x}" y="{y}" width="{s}" height="{s}" '
                f'fill="{_COLOURS[c.short]}" stroke="#888"/><text x="{x + s / 2}" y="{y + s / 2}" font-size="13" '
                f'text-anchor="middle">{escape(c.short)}</text>{margin}</g>')


def score_map(position: Position, length: int, ply: int = 0, evaluator: Optional[Evaluator] = None, *,
              jacoby: bool = True, beavers: bool = True, met: Optional[MatchEquityTable] = None) -> ScoreMap:
    """The cube decision of ``position``'s player on roll (cube centred at 1) at every score of
    a ``length``-point match and at money (``jacoby``/``beavers``: its rules), at ``ply`` (0-2).
    One lookahead serves every score (its expansions do not depend on the score); ``met``: the
    match equity table (None: the shipped one)."""
    met = met or load_met()
    if not 1 <= length <= met.length:
        raise ValueError(f"match length must be 1 to {met.length} (the match equity table's), not {length}")
    if not 0 <= ply <= 2:
        raise ValueError(f"cube decisions are made at 0, 1 or 2 ply, not {ply}")
    ev = evaluator or default_evaluator()
    search = CubeSearch(ev, met)

    def at(info: CubeInfo) -> CubeAdvice:
        return cube_advice_at(position, info, ply, evaluator=ev, met=met, search=search)

    cells = tuple(ScoreCell((a, b), at(CubeInfo(1, CENTRED, (a, b))))
                  for a in range(1, length + 1) for b in range(1, length + 1))
    money = ScoreCell((0, 0), at(CubeInfo(1, CENTRED, (0, 0), jacoby=jacoby, beavers=beavers)))
    return ScoreMap(position.position_id(), length, ply, cells, money, jacoby, beavers)
