"""A position assessed as a player asks for it: the probabilities, the cubeless equity and,
whenever the cube can be turned, the cube decision (what ``bgtools eval`` and a dice-less
``bgtools hint`` print).

The money rules come from the ID where it carries them (an XGID carries Jacoby and beavers,
a Match ID Jacoby), else from the arguments, else gnubg's defaults (Jacoby on, beavers on).

>>> from bgtools.core.position import Position
>>> a = assess_position(Position.initial())
>>> a.cube.action in ("No double, take", "No double, beaver"), a.rules
(True, 'money, Jacoby on, beavers on')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from bgtools.core.matchstate import MatchState
from bgtools.core.position import Position
from bgtools.engine.cubeful.met import MatchEquityTable, load_met
from bgtools.engine.cubeful.cube import CubeInfo
from bgtools.engine.cubeful.cubeaction import CubeAdvice
from bgtools.engine.cubeful.cubesearch import cube_advice_at
from bgtools.engine.evaluation import Evaluation, Evaluator, evaluate

__all__ = ["PositionAssessment", "assess_position", "DEFAULT_JACOBY", "DEFAULT_BEAVERS", "CUBE_MAX_PLY"]

#: gnubg's defaults for a money game
DEFAULT_JACOBY = True
DEFAULT_BEAVERS = True
#: cube decisions are searched at most this deep (deeper checker evaluation is still shown)
CUBE_MAX_PLY = 2


@dataclass(frozen=True)
class PositionAssessment:
    """What :func:`assess_position` found; ``cube`` is None when it was not asked for."""

    evaluation: Evaluation
    cube: Optional[CubeAdvice]
    rules: str  #: e.g. "money, Jacoby on, beavers off" or "7-point match, 5-away 3-away"

    def to_dict(self) -> dict[str, Any]:
        e = self.evaluation
        d: dict[str, Any] = {"probs": list(e.probs), "equity": e.equity, "ply": e.ply,
                             "evaluator": e.evaluator_version, "rules": self.rules}
        if self.cube is not None:
            d["cube"] = self.cube.to_dict()
        return d

    def cube_lines(self) -> list[str]:
        """The cube analysis laid out as gnubg's ``hint`` prints it."""
        c = self.cube
        if c is None:
            return []
        head = f"  cube decision, {c.ply}-ply ({self.rules}):"
        if not c.available:
            return [head, "    no cube action available (the player on roll may not double)"]
        rows = [("No double", c.no_double), ("Double, pass", c.double_pass), ("Double, take", c.double_take)]
        best = c.optimal
        out = [head]
        # as gnubg lists them: the proper action first, then the others, best first
        proper = "No double" if not c.action.doubles else (
            "Double, pass" if c.action.response == "pass" else "Double, take")
        rows.sort(key=lambda r: (r[0] != proper, -(r[1] or 0.0)))
        for i, (name, v) in enumerate(rows, start=1):
            assert v is not None
            diff = "" if abs(v - best) < 1e-12 else f"  ({v - best:+.4f})"
            mwc = ""
            if c.mwc is not None:
                m = {"No double": c.mwc[0], "Double, take": c.mwc[1], "Double, pass": c.mwc[2]}[name]
                mwc = f"   MWC {100 * m:6.2f}%"
            out.append(f"    {i}. {name:<14} {v:+.4f}{mwc}{diff}")
        pct = f" ({100 * c.percent:.1f}%)" if c.percent is not None else ""
        out.append(f"    Proper cube action: {c.action}{pct}")
        if c.take_point is not None:
            out.append(f"    the opponent's take point: {100 * c.take_point:.1f}% (cube efficiency as this position's)")
        g = c.gammon_values
        if g:
            out.append(f"    gammon values: on roll {g['gammon_on_roll']:.2f} (backgammon {g['backgammon_on_roll']:.2f}),"
                       f" opponent {g['gammon_opponent']:.2f} ({g['backgammon_opponent']:.2f})")
        return out


def _rules_text(state: Optional[MatchState], info: CubeInfo, met: Optional[MatchEquityTable]) -> str:
    if info.money:
        return f"money, Jacoby {'on' if info.jacoby else 'off'}, beavers {'on' if info.beavers else 'off'}"
    assert state is not None
    extra = ", Crawford game" if info.crawford else ""
    met = met or load_met()
    if met.name != "Kazaross-XG2":
        extra += f", MET {met.name}"
    return f"{state.match_length}-point match, {info.away[0]}-away {info.away[1]}-away{extra}"


def assess_position(position: Position, state: Optional[MatchState] = None, ply: int = 0, *,
                    evaluator: Optional[Evaluator] = None, cube: bool = True, jacoby: Optional[bool] = None,
                    beavers: Optional[bool] = None, id_sets_beavers: bool = False,
                    met: Optional[MatchEquityTable] = None) -> PositionAssessment:
    """Evaluate ``position`` (player on roll before his roll) at ``ply`` and, with ``cube``,
    decide the cube at ``min(ply, CUBE_MAX_PLY)``.

    ``jacoby``/``beavers`` set the money rules; None keeps what ``state`` says (its Jacoby
    flag; its beaver flag only with ``id_sets_beavers``, as from an XGID) or gnubg's default.
    ``met``: the match equity table of match play (None: the shipped one)."""
    ev = evaluate(position, ply, evaluator)
    info = CubeInfo.from_state(state)
    if info.money:
        jac = jacoby if jacoby is not None else (bool(state.jacoby) if state is not None else DEFAULT_JACOBY)
        bea = beavers if beavers is not None else (bool(state.beavers) if state is not None and id_sets_beavers
                                                   else DEFAULT_BEAVERS)
        info = info.with_rules(jac, bea)
    advice = cube_advice_at(position, info, min(ply, CUBE_MAX_PLY), evaluator=evaluator, met=met) if cube else None
    return PositionAssessment(ev, advice, _rules_text(state, info, met))
