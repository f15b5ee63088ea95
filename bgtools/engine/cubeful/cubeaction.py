"""The cube decision in gnubg's words, with every money rule: Jacoby, beavers, the take point.

:func:`cube_advice` turns cubeless probabilities of the player on roll (before he rolls) and a
cube state into the cubeful equities of No double, Double/take and Double/pass **per unit of
the current cube** (match play: gnubg's normalised equity ``2 (MWC - (W + L) / 2) / (W - L)``
with W, L the match winning chances after winning / losing the current cube; the MWCs are
kept beside), the proper action as gnubg prints it (a :class:`CubeAction`: "No double, take",
"Redouble, pass", "Too good to double, pass", "No double, beaver", "Optional double, take", ...),
the opponent's take point and the gammon values at that score.

Money values are Janowski's cube-efficiency model (see :mod:`bgtools.engine.cubeful.cube`); under the
Jacoby rule a gammon counts single while the cube is centred, both in the dead-cube value and
in the live cube outside the doubling window.  Beavers change no value (a beaver is a take
that the taker redoubles at once, keeping the cube): they change the label when the taker
gains by it (double/take worth at most 0 to the doubler, ``-2 <= DT <= 0``).  Match values come
from the match equity table through :func:`bgtools.engine.cubeful.cube.cube_values`.

>>> a = cube_advice([0.70, 0.0, 0.0, 0.0, 0.0])
>>> a.action
'Double, take'
>>> round(take_point(x=0.0), 4), round(take_point(x=1.0), 4)   # money, no gammons, dead / live cube
(0.25, 0.2)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Optional, Sequence

import numpy as np

from bgtools.base.vocab import StrEnum
from bgtools.engine.cubeful.cube import CENTRED, OPP_OWNS, OWNED, CubeInfo, cube_values, money_per_cube
from bgtools.engine.cubeful.met import CubeStake, MatchEquityTable, load_met, mwc_after
from bgtools.engine.outputs import clamp

__all__ = ["CubeAction", "CubeAdvice", "cube_advice", "proper_action", "cube_percent", "money_cubeful", "take_point", "gammon_values",
           "NOT_AVAILABLE"]

#: equities closer than this are a tie ("Optional ..."), as gnubg compares float32 values
TIE = 2e-7


class CubeAction(StrEnum):
    """The proper cube action in gnubg's words (a closed set: each member is its words).

    >>> a = CubeAction.of("too good", centred=False, response="pass")
    >>> a, a.kind, a.response, a.doubles, a.short
    ('Too good to redouble, pass', 'too good', 'pass', False, 'TG/P')
    """

    NO_DOUBLE_TAKE = "No double, take"
    NO_DOUBLE_BEAVER = "No double, beaver"
    DOUBLE_TAKE = "Double, take"
    DOUBLE_PASS = "Double, pass"
    DOUBLE_BEAVER = "Double, beaver"
    OPTIONAL_DOUBLE_TAKE = "Optional double, take"
    OPTIONAL_DOUBLE_PASS = "Optional double, pass"
    OPTIONAL_DOUBLE_BEAVER = "Optional double, beaver"
    TOO_GOOD_TAKE = "Too good to double, take"
    TOO_GOOD_PASS = "Too good to double, pass"
    NO_REDOUBLE_TAKE = "No redouble, take"
    NO_REDOUBLE_BEAVER = "No redouble, beaver"
    REDOUBLE_TAKE = "Redouble, take"
    REDOUBLE_PASS = "Redouble, pass"
    REDOUBLE_BEAVER = "Redouble, beaver"
    OPTIONAL_REDOUBLE_TAKE = "Optional redouble, take"
    OPTIONAL_REDOUBLE_PASS = "Optional redouble, pass"
    OPTIONAL_REDOUBLE_BEAVER = "Optional redouble, beaver"
    TOO_GOOD_REDOUBLE_TAKE = "Too good to redouble, take"
    TOO_GOOD_REDOUBLE_PASS = "Too good to redouble, pass"
    NOT_AVAILABLE = "no cube action available"  #: the player on roll may not double

    @classmethod
    def of(cls, kind: str, centred: bool, response: str) -> "CubeAction":
        """The action of ``kind`` ("no", "double", "optional", "too good"), a double when the
        cube is ``centred`` (else a redouble) and the opponent's ``response`` (take, pass, beaver)."""
        return _BY_PARTS[(kind, not centred, response)]

    @property
    def kind(self) -> str:
        """"no", "double", "optional", "too good", or "" (not available)."""
        return _PARTS[self][0]

    @property
    def response(self) -> str:
        """The opponent's right answer to a double: "take", "pass", "beaver" ("" when not available)."""
        return _PARTS[self][2]

    @property
    def doubles(self) -> bool:
        """Whether the proper action is to double (an optional double counts)."""
        return self.kind in ("double", "optional")

    @property
    def short(self) -> str:
        """"ND/T", "D/P", "TG/P", ... ("-" when not available): no double, double, too good."""
        if self is CubeAction.NOT_AVAILABLE:
            return "-"
        head = {"no": "ND", "too good": "TG"}.get(self.kind, "D")
        return f"{head}/{self.response[0].upper()}"


def _words(kind: str, redouble: bool, response: str) -> str:
    dbl = "redouble" if redouble else "double"
    head = {"no": f"No {dbl}", "double": dbl.capitalize(), "optional": f"Optional {dbl}",
            "too good": f"Too good to {dbl}"}[kind]
    return f"{head}, {response}"


_FORMS = (("no", "take"), ("no", "beaver"), ("double", "take"), ("double", "pass"), ("double", "beaver"),
          ("optional", "take"), ("optional", "pass"), ("optional", "beaver"), ("too good", "take"),
          ("too good", "pass"))
#: (kind, redouble, response) of each action, and the action of each
_BY_PARTS = {(k, rd, r): CubeAction(_words(k, rd, r)) for rd in (False, True) for k, r in _FORMS}
_PARTS = {a: p for p, a in _BY_PARTS.items()}
_PARTS[CubeAction.NOT_AVAILABLE] = ("", False, "")
#: the action of a state in which the player on roll may not double
NOT_AVAILABLE = CubeAction.NOT_AVAILABLE


def proper_action(nd: float, dt: float, dp: float, *, win_gammon: bool, match: bool, centred: bool,
                  jacoby: bool = False, beavers: bool = False) -> CubeAction:
    """gnubg's proper cube action for no double / double-take / double-pass equities
    (in units of the current cube); ``win_gammon``: the player on roll can still win a gammon."""
    def act(kind: str, response: str) -> CubeAction:
        return CubeAction.of(kind, centred, response)

    tied = abs(dt - nd) <= TIE
    if dt >= nd - TIE and dp >= nd - TIE:  # doubling gains (or loses no more than rounding)
        if dp > dt:  # the opponent should take
            if beavers and not match and -2.0 <= dt <= 0.0:
                if 2.0 * dt < nd:
                    return act("no", "beaver")
                return act("optional" if tied else "double", "beaver")
            return act("optional" if tied else "double", "take")
        gammons_count = win_gammon and (match or not centred or not jacoby)
        if abs(nd - dp) <= TIE and gammons_count:
            return act("optional", "pass")
        return act("double", "pass")
    if nd > dt:
        if dt > dp:  # the opponent should pass, but playing on is worth more
            return act("too good", "pass") if win_gammon else act("double", "pass")
        if nd > dp:
            return act("too good", "take") if win_gammon else act("no", "take")
        if beavers and not match and -2.0 <= dt <= 0.0:
            return act("no", "beaver")
        return act("no", "take")
    return act("too good", "pass") if win_gammon else act("double", "pass")


def money_cubeful(probs: Sequence[float] | np.ndarray, owner: int = CENTRED, x: float = 0.68, jacoby: bool = False) -> float:
    """Janowski's money equity per unit cube of the player on roll (``owner``: 0 centred,
    1 him, 2 the opponent); under ``jacoby`` a centred cube makes gammons count single
    (:func:`bgtools.engine.cubeful.cube.money_per_cube`)."""
    return float(money_per_cube(np.ascontiguousarray(probs, np.float64).reshape(5), int(owner), float(x), bool(jacoby)))


def gammon_values(info: CubeInfo, met: Optional[MatchEquityTable] = None) -> dict[str, float]:
    """The extra equity (units of the current cube) of a gammon over a single game and of a
    backgammon over a gammon, for each side, at this score: money 1 (0 under Jacoby with a
    centred cube); match from the match equity table."""
    if info.money:
        g = 0.0 if info.jacoby and info.owner == CENTRED else 1.0
        return {"gammon_on_roll": g, "backgammon_on_roll": g, "gammon_opponent": g, "backgammon_opponent": g}
    met = met or load_met()
    am, ao = info.away
    c = info.cube

    def mwc(points: int) -> float:
        return float(mwc_after(met.pre, met.post, am, ao, points))

    w, lo = mwc(c), mwc(-c)
    span = w - lo
    if span <= 0:
        return {"gammon_on_roll": 0.0, "backgammon_on_roll": 0.0, "gammon_opponent": 0.0, "backgammon_opponent": 0.0}
    return {"gammon_on_roll": 2.0 * (mwc(2 * c) - w) / span, "backgammon_on_roll": 2.0 * (mwc(3 * c) - mwc(2 * c)) / span,
            "gammon_opponent": 2.0 * (lo - mwc(-2 * c)) / span,
            "backgammon_opponent": 2.0 * (mwc(-2 * c) - mwc(-3 * c)) / span}


@dataclass(frozen=True)
class CubeAdvice:
    """The cube decision of the player on roll before he rolls (see the module notes).

    ``no_double``, ``double_take``, ``double_pass``: cubeful equity per unit of the current
    cube (None for the last two when the cube is not available); ``mwc``: the same three as
    match winning chances (match play); ``take_point``: the opponent's least winning chance
    for a take, the gammon rates of these probabilities kept; ``percent``: gnubg's bracketed
    figure (for No double: how far between DT and DP the ND lies)."""

    action: CubeAction
    no_double: float
    double_take: Optional[float]
    double_pass: Optional[float]
    available: bool
    money: bool
    mwc: Optional[tuple[float, float, float]] = None
    take_point: Optional[float] = None
    gammon_values: dict[str, float] = field(default_factory=dict)
    percent: Optional[float] = None
    ply: int = 0

    @property
    def optimal(self) -> float:
        """The equity of the proper action."""
        if not self.available or self.double_take is None or self.double_pass is None:
            return self.no_double
        if not self.action.doubles:
            return self.no_double
        return self.double_pass if self.action.response == "pass" else self.double_take

    def to_dict(self) -> dict:
        d = {"action": self.action, "no_double": self.no_double, "double_take": self.double_take,
             "double_pass": self.double_pass, "optimal": self.optimal, "available": self.available,
             "take_point": self.take_point, "gammon_values": dict(self.gammon_values), "percent": self.percent,
             "ply": self.ply}
        if self.mwc is not None:
            d["mwc"] = {"no_double": self.mwc[0], "double_take": self.mwc[1], "double_pass": self.mwc[2]}
        return d


def cube_percent(action: CubeAction, nd: float, dt: float, dp: float) -> Optional[float]:
    """gnubg's bracketed figure after some actions: for No double how far ND lies from DT
    towards DP; for Too good to double, pass how far ND lies from DP towards DT."""
    if action.kind == "no" and dp != dt:
        return (nd - dt) / (dp - dt)
    if action.kind == "too good" and action.response == "pass" and nd <= dt and dt != dp:
        return (nd - dp) / (dt - dp)
    return None


def take_point(probs: Sequence[float] | np.ndarray | None = None, info: Optional[CubeInfo] = None, x: float = 0.68,
               met: Optional[MatchEquityTable] = None) -> float:
    """The opponent's least winning chance for which taking a double now is right, keeping
    the gammon and backgammon rates (per game won or lost) of ``probs`` (default: none).

    Found by bisection on the doubler's winning chance: the take point is where double/take
    and double/pass are worth the same to the doubler."""
    info = info or CubeInfo()
    p = list(probs) if probs is not None else [0.5, 0.0, 0.0, 0.0, 0.0]
    pw = min(max(p[0], 1e-9), 1.0 - 1e-9)
    rates = (p[1] / pw, p[2] / pw, p[3] / (1.0 - pw), p[4] / (1.0 - pw))

    def gain(w: float) -> float:  # double/pass minus double/take for the doubler
        q = [w, rates[0] * w, rates[1] * w, rates[2] * (1.0 - w), rates[3] * (1.0 - w)]
        a = cube_advice(q, replace(info, owner=CENTRED if info.owner == CENTRED else OWNED), x=x, met=met)
        if a.double_take is None or a.double_pass is None:
            return 0.0
        return a.double_pass - a.double_take

    lo, hi = 1e-6, 1.0 - 1e-6  # gain falls with w: the doubler's pass value beats his take value below w*
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if gain(mid) > 0.0:
            lo = mid
        else:
            hi = mid
    return 1.0 - 0.5 * (lo + hi)


def cube_advice(probs: Sequence[float] | np.ndarray, state: object = None, *, x: float = 0.68,
                met: Optional[MatchEquityTable] = None, jacoby: Optional[bool] = None,
                beavers: Optional[bool] = None, ply: int = 0, with_take_point: bool = False) -> CubeAdvice:
    """The proper cube action of the player on roll for cubeless ``probs`` (win, win gammon,
    win backgammon, lose gammon, lose backgammon; cumulative, as gnubg's).

    ``state`` is a :class:`~bgtools.core.matchstate.MatchState`, a :class:`CubeInfo` or None
    (money, cube centred); ``jacoby``/``beavers`` override the money rules it carries.
    ``x`` is the cube efficiency (:func:`bgtools.engine.cubeful.cube.cube_efficiency`)."""
    info = state if isinstance(state, CubeInfo) else CubeInfo.from_state(state)
    info = info.with_rules(jacoby, beavers)
    p = np.array(probs, np.float64).reshape(5)
    eps = 1e-6  # averages over rolls can miss by rounding
    if not (-eps <= p[0] <= 1.0 + eps and -eps <= p[2] <= p[1] + eps and p[1] <= p[0] + eps
            and -eps <= p[4] <= p[3] + eps and p[3] <= 1.0 - p[0] + eps):
        raise ValueError("probabilities must be cumulative: 0 <= wbg <= wg <= w and 0 <= lbg <= lg <= 1 - w")
    clamp(p)
    gv: dict[str, float] = {}
    met = met if met is not None or info.money else load_met()
    centred = info.owner == CENTRED
    if info.money:
        available = info.owner != OPP_OWNS
        nd = money_cubeful(p, info.owner, x, info.jacoby)
        dt = 2.0 * money_cubeful(p, OPP_OWNS, x, info.jacoby)
        dp = 1.0
        mwcs = None
        gv = gammon_values(info)
    else:
        assert met is not None
        if max(info.away) > met.length:
            raise ValueError(f"score beyond the {met.length}-point match equity table")
        out = np.zeros(4, np.float64)
        am, ao = info.away
        code = cube_values(p, info.args(met), x, out)
        available = code != 3
        stake = CubeStake.at(met, am, ao, info.cube)
        mwcs = (float(out[0]), float(out[1]), float(out[2]))
        nd, dt, dp = (float(stake.normalise(v)) for v in mwcs)
        gv = gammon_values(info, met)
    if not available:
        return CubeAdvice(NOT_AVAILABLE, nd, None, None, False, info.money, None if mwcs is None else (mwcs[0], mwcs[0],
                          mwcs[0]), None, gv, None, ply)
    action = proper_action(nd, dt, dp, win_gammon=p[1] > 0.0, match=not info.money, centred=centred,
                           jacoby=info.jacoby, beavers=info.beavers)
    tp = take_point(p, info, x, met) if with_take_point else None
    return CubeAdvice(action, nd, dt, dp, True, info.money, mwcs, tp, gv, cube_percent(action, nd, dt, dp), ply)
