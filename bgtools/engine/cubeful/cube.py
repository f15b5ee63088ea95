"""Cubeful equity from cubeless probabilities, and cube decisions, for money and match play.

Static cubeful values follow Janowski's cube-efficiency model: the cubeful value is
``x * live + (1 - x) * dead``, where *dead* is the cubeless value (the cube never turned
again) and *live* assumes a perfectly efficient cube, a piecewise-linear function of the
winning chance through the take point and the cash point.

* **Money** (values in points, i.e. per unit cube times the cube): Janowski's formulas
  with W and L the average cubeless value of the games won and lost: take point
  ``TP = (L - 1/2) / (W + L + 1/2)``, cash point ``CP = (L + 1) / (W + L + 1/2)``.
  Under the Jacoby rule (``jacoby``) a gammon counts single while the cube is centred.
  Beavers change no value here (a beaver is a take that the taker redoubles at once:
  his value is twice that of a take).
* **Match** (values are match winning chances): the same construction with outcome
  values taken from the match equity table.  A player's live take point at cube ``n``
  is ``TP(n) = TP_eff(n) * (1 - TP(2n))``: taking gives him the cube, which he can
  cash once the doubler drops to the doubler's own take point at ``2n``; when he could
  gain nothing by redoubling (he would win the match with a win at ``n``) the dead take
  point is used.  The cube is dead in the Crawford game, and for a player who already
  wins the match with a single win at the current cube.

Cube efficiency ``x`` (:func:`cube_efficiency`): 0.68 in contact, 0.6 when both sides are
home, in races linear from 0.6 (40 pips or less for the player on roll) to 0.7 (120 or
more).

The cube and score seen from the player on roll is one value, :class:`CubeInfo` (``owner``: 0
centred, 1 the player on roll, 2 his opponent, the one owner encoding; :meth:`CubeInfo.flipped` the
one turn round, :func:`flip_owner` its owner code in the kernels).  The Numba kernels take it
bundled with the match equity table's arrays as a :class:`CubeArgs` (:meth:`CubeInfo.args`):
``cubeful_value(p, c, x)``, ``cube_values(p, c, x, out)`` (fills nd, dt, dp; returns the action
code) and ``money_per_cube(p, owner, x, jacoby)``.

>>> import numpy as np
>>> d = cube_decision(np.array([0.70, 0.0, 0.0, 0.0, 0.0]))
>>> d.action, d.take
('double', True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, NamedTuple, Sequence

import numba as nb
import numpy as np

from bgtools.base.vocab import StrEnum
from bgtools.engine.cubeful.met import MatchEquityTable, load_met, mwc_after

if TYPE_CHECKING:
    from bgtools.core.matchstate import MatchState

__all__ = [
    "cubeful_values",
    "CubeDecision",
    "CubeInfo",
    "CubeArgs",
    "flip_owner",
    "may_double",
    "cube_decision",
    "cubeful_equity",
    "cube_efficiency",
    "cubeful_value",
    "cube_values",
    "cube_x",
    "money_per_cube",
    "ACTIONS",
    "Doubling",
]

CENTRED, OWNED, OPP_OWNS = 0, 1, 2
#: action codes of :func:`cube_values`
NO_DOUBLE, DOUBLE, TOO_GOOD, UNAVAILABLE = 0, 1, 2, 3


class Doubling(StrEnum):
    """What the player on roll does with the cube, as :func:`cube_values`' codes name it (the
    analysis' words; :class:`~bgtools.engine.cubeful.cubeaction.CubeAction` is gnubg's, with
    the answer)."""

    NO_DOUBLE = "no double"
    DOUBLE = "double"
    TOO_GOOD = "too good"
    UNAVAILABLE = "unavailable"

    @classmethod
    def of(cls, nd: float, dt: float, dp: float) -> "Doubling":
        """The action of no double / double-take / double-pass values (the doubler's), the cube
        being available: :func:`cube_values`' rule."""
        if min(dt, dp) > nd:
            return cls.DOUBLE
        return cls.TOO_GOOD if nd >= dp and dt > dp else cls.NO_DOUBLE


#: the :class:`Doubling` of each action code
ACTIONS = tuple(Doubling)

_MAX_LEVELS = 16


class CubeArgs(NamedTuple):
    """The cube kernels' bundle: a :class:`CubeInfo`'s values (see :meth:`CubeInfo.args`) and the
    match equity table's arrays (read in match play only)."""

    money: bool
    away_me: int  #: points the player on roll needs (money: ignored)
    away_opp: int  #: points his opponent needs
    cube: int
    owner: int  #: 0 centred, 1 the player on roll, 2 his opponent
    crawford: bool
    jacoby: bool  #: money: a gammon counts single while the cube is centred
    pre: np.ndarray  #: pre-Crawford match equity table
    post: np.ndarray  #: post-Crawford match equity table


# ----------------------------------------------------------------------------- kernels
@nb.njit(cache=True)
def cube_x(board) -> float:
    """Cube efficiency for an int8[2, 25] board (``[1]`` on roll)."""
    back_me = -1
    back_op = -1
    pips = 0
    for i in range(25):
        if board[1, i] > 0:
            back_me = i
            pips += (i + 1) * board[1, i]
        if board[0, i] > 0:
            back_op = i
    if back_me + back_op >= 24:
        return 0.68  # contact (and crashed)
    if back_me < 6 and back_op < 6:
        return 0.6  # both sides home
    if pips <= 40:
        return 0.6
    if pips >= 120:
        return 0.7
    return 0.6 + 0.1 * (pips - 40) / 80.0


@nb.njit(cache=True)
def flip_owner(owner) -> int:
    """The owner code seen from the other player (centred stays centred)."""
    return owner if owner == CENTRED else 3 - owner


@nb.njit(cache=True)
def cube_with(c, cube, owner):
    """``c`` (a :class:`CubeArgs`) with another cube value and owner."""
    return CubeArgs(c.money, c.away_me, c.away_opp, cube, owner, c.crawford, c.jacoby, c.pre, c.post)


@nb.njit(cache=True)
def money_per_cube(p, owner, x, jacoby) -> float:
    """Janowski money equity per unit cube of the player on roll (``owner``: 0 centred,
    1 him, 2 the opponent); under ``jacoby`` a centred cube makes gammons count single,
    in the dead-cube value and in the live cube outside the doubling window."""
    pw = p[0]
    pl = 1.0 - pw
    single = jacoby and owner == CENTRED
    g = 0.0 if single else 1.0
    dead = 2.0 * pw - 1.0 + g * (p[1] - p[3] + p[2] - p[4])
    if pw <= 1e-7 or pw >= 1.0 - 1e-7:
        return dead
    W = 1.0 + (p[1] + p[2]) / pw
    L = 1.0 + (p[3] + p[4]) / pl
    tp = (L - 0.5) / (W + L + 0.5)
    cp = (L + 1.0) / (W + L + 0.5)
    if owner == CENTRED:
        if pw < tp:
            live = -1.0 if single else -L + (L - 1.0) * pw / tp
        elif pw < cp:
            live = -1.0 + 2.0 * (pw - tp) / (cp - tp)
        else:
            live = 1.0 if single else 1.0 + (W - 1.0) * (pw - cp) / (1.0 - cp)
    elif owner == OWNED:
        if pw < cp:
            live = -L + (L + 1.0) * pw / cp
        else:
            live = 1.0 + (W - 1.0) * (pw - cp) / (1.0 - cp)
    else:
        if pw < tp:
            live = -L + (L - 1.0) * pw / tp
        else:
            live = -1.0 + (W + 1.0) * (pw - tp) / (1.0 - tp)
    return x * live + (1.0 - x) * dead


@nb.njit(cache=True, inline="always")
def _avg_values(d1, d2, d3, pre, post, a_t, a_d, n, win):
    """Average MWC for player T (``a_t`` away vs ``a_d``) over his wins (``win``) or losses
    at cube ``n``, the outcome mix single/gammon/backgammon being ``d1, d2, d3`` (sum 1)."""
    s = 1.0 if win else -1.0
    return (d1 * mwc_after(pre, post, a_t, a_d, np.int64(s * n)) + d2 * mwc_after(pre, post, a_t, a_d, np.int64(s * 2 * n))
            + d3 * mwc_after(pre, post, a_t, a_d, np.int64(s * 3 * n)))


@nb.njit(cache=True, inline="always")
def _take_point(me_takes, w1m, w2m, w3m, l1m, l2m, l3m, c, n):
    """Live take point (the taker's own winning chance) of a double to ``n``; ``me_takes``
    says whether the taker is the player on roll (``w*m``/``l*m``: his outcome mixes, single,
    gammon, backgammon, of his wins and his losses).  (Scalars only: no arrays are made, so a
    match-play cubeful value costs a tenth of what it did with them.)"""
    pre, post, am, ao = c.pre, c.post, c.away_me, c.away_opp
    # levels k = 0, 1, ...: cube n * 2**k, the taker alternating
    top = 0
    for k in range(_MAX_LEVELS):
        t_is_me = me_takes if k % 2 == 0 else not me_takes
        a_t = am if t_is_me else ao
        top = k
        if a_t <= n * (1 << k) or k == _MAX_LEVELS - 1:
            break
    above = 0.0  # the take point one level up
    for k in range(top, -1, -1):
        nk = n * (1 << k)
        t_is_me = me_takes if k % 2 == 0 else not me_takes
        a_t = am if t_is_me else ao
        a_d = ao if t_is_me else am
        if t_is_me:
            w1, w2, w3 = w1m, w2m, w3m
            l1, l2, l3 = l1m, l2m, l3m
        else:
            w1, w2, w3 = l1m, l2m, l3m
            l1, l2, l3 = w1m, w2m, w3m
        drop = mwc_after(pre, post, a_t, a_d, -(nk // 2))
        lose = _avg_values(l1, l2, l3, pre, post, a_t, a_d, nk, False)
        if k == top:
            win = _avg_values(w1, w2, w3, pre, post, a_t, a_d, nk, True)
            q = 1.0
        else:
            win = mwc_after(pre, post, a_t, a_d, nk)  # he cashes at his cash point
            q = 1.0 - above
        tp = (drop - lose) / (win - lose) * q if win > lose else 0.0
        above = min(max(tp, 0.0), 1.0)
    return above


@nb.njit(cache=True, inline="always")
def _mixes(p):
    """(single, gammon, backgammon shares of the wins, the same of the losses) of outputs ``p``."""
    pw = p[0]
    pl = 1.0 - pw
    w1, w2, w3 = 1.0, 0.0, 0.0
    l1, l2, l3 = 1.0, 0.0, 0.0
    if pw > 1e-12:
        w1 = (pw - p[1]) / pw
        w2 = (p[1] - p[2]) / pw
        w3 = p[2] / pw
    if pl > 1e-12:
        l1 = (pl - p[3]) / pl
        l2 = (p[3] - p[4]) / pl
        l3 = p[4] / pl
    return w1, w2, w3, l1, l2, l3


@nb.njit(cache=True)
def _can_double(money, a_me, cube, crawford) -> bool:
    if money:
        return True
    return (not crawford) and a_me > cube


@nb.njit(cache=True, inline="always")
def may_double(c) -> bool:
    """Whether the player on roll of ``c`` (a :class:`CubeArgs`) may turn the cube: it is not
    his opponent's, and in a match it is not the Crawford game and the cube is below his
    points to go.  Where he may not, :func:`cube_values` says :data:`UNAVAILABLE` whatever
    the outputs."""
    return c.owner != OPP_OWNS and _can_double(c.money, c.away_me, c.cube, c.crawford)


@nb.njit(cache=True, inline="always")
def _segment(pw, xa, ya, xb, yb) -> float:
    """The value at ``pw`` on the line from (``xa``, ``ya``) to (``xb``, ``yb``)."""
    span = xb - xa
    f = (pw - xa) / span if span > 1e-12 else 1.0
    return ya + f * (yb - ya)


@nb.njit(cache=True)
def _match_value(p, c, x) -> float:
    """Janowski-style cubeful MWC of the player on roll (``c``: a :class:`CubeArgs`): the live-cube value runs
    through (0, L), the opponent's take point, the player's cash point and (1, W), straight between them."""
    am, ao, cube, owner, crawford, pre, post = c.away_me, c.away_opp, c.cube, c.owner, c.crawford, c.pre, c.post
    w1, w2, w3, l1, l2, l3 = _mixes(p)
    pw = p[0]
    W = _avg_values(w1, w2, w3, pre, post, am, ao, cube, True)
    L = 1.0 - _avg_values(l1, l2, l3, pre, post, ao, am, cube, True)
    dead = pw * W + (1.0 - pw) * L
    can_me = owner != OPP_OWNS and _can_double(False, am, cube, crawford)
    can_op = owner != OWNED and _can_double(False, ao, cube, crawford)
    if not can_me and not can_op:
        return dead
    # the points of the live-cube line after (0, L), in order; ``live`` is found on the first segment reaching pw
    px, py = 0.0, L
    found = False
    live = 0.0
    if can_op:
        tp = _take_point(True, w1, w2, w3, l1, l2, l3, c, 2 * cube)
        y = mwc_after(pre, post, am, ao, -cube)
        if pw <= tp:
            live = _segment(pw, px, py, tp, y)
            found = True
        px, py = tp, y
    if can_me:
        cp = 1.0 - _take_point(False, w1, w2, w3, l1, l2, l3, c, 2 * cube)
        if cp > px:
            y = mwc_after(pre, post, am, ao, cube)
            if not found and pw <= cp:
                live = _segment(pw, px, py, cp, y)
                found = True
            px, py = cp, y
    if px < 1.0:
        if not found and pw <= 1.0:
            live = _segment(pw, px, py, 1.0, W)
            found = True
        px, py = 1.0, W
    if not found:
        live = py
    return x * live + (1.0 - x) * dead


@nb.njit(cache=True)
def cubeful_value(p, c, x) -> float:
    """Cubeful value for the player on roll of ``c`` (a :class:`CubeArgs`) not doubling now:
    money points (cube included) or match MWC; ``x`` the cube efficiency."""
    if c.money:
        return c.cube * money_per_cube(p, c.owner, x, c.jacoby)
    return _match_value(p, c, x)


@nb.njit(cache=True)
def cubeful_values(probs, boards, c, out) -> None:
    """:func:`cubeful_value` of each row of ``probs`` (float64[n, 5]) with the cube efficiency of the
    matching int8[2, 25] board of ``boards`` (the player on roll's view), into ``out[:n]``."""
    for i in range(probs.shape[0]):
        out[i] = cubeful_value(probs[i], c, cube_x(boards[i]))


@nb.njit(cache=True)
def cube_values(p, c, x, out) -> int:
    """Fill ``out[0:3]`` with no double, double/take, double/pass for the player on roll of
    ``c`` (a :class:`CubeArgs`), ``out[3]`` with 1.0 if the opponent should take; return the
    action code."""
    money, am, cube = c.money, c.away_me, c.cube
    nd = cubeful_value(p, c, x)
    dt = cubeful_value(p, cube_with(c, 2 * cube, np.int64(OPP_OWNS)), x)
    dp = cube if money else mwc_after(c.pre, c.post, am, c.away_opp, cube)
    out[0] = nd
    out[1] = dt
    out[2] = dp
    out[3] = 1.0 if dt <= dp else 0.0
    if not may_double(c):
        return UNAVAILABLE
    best = min(dt, dp)
    if best > nd:
        return DOUBLE
    if nd >= dp and dt > dp:
        return TOO_GOOD
    return NO_DOUBLE


# ----------------------------------------------------------------------------- Python API
@dataclass(frozen=True)
class CubeInfo:
    """Cube and score seen from the player on roll.  ``away`` = (his, opponent's) points
    needed, (0, 0) for money; ``owner``: 0 centred, 1 him, 2 the opponent; ``crawford``: this
    is the Crawford game; the money rules ``jacoby`` and ``beavers``."""

    cube: int = 1
    owner: int = CENTRED
    away: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False  #: money: a gammon counts single while the cube is centred
    beavers: bool = False  #: money: the taker may redouble at once, keeping the cube

    @property
    def money(self) -> bool:
        return self.away == (0, 0)

    @property
    def can_double(self) -> bool:
        """Whether the player on roll may double (he has access to the cube and it is live)."""
        if self.owner == OPP_OWNS:
            return False
        return self.money or (not self.crawford and self.away[0] > self.cube)

    def flipped(self) -> "CubeInfo":
        """The same cube state seen from the other player (owner and away turned round)."""
        return replace(self, owner=int(flip_owner(self.owner)), away=(self.away[1], self.away[0]))

    def doubled(self) -> "CubeInfo":
        """After the player on roll doubles and the opponent takes: twice the cube, the opponent's."""
        return replace(self, cube=2 * self.cube, owner=OPP_OWNS)

    def with_rules(self, jacoby: bool | None = None, beavers: bool | None = None) -> "CubeInfo":
        """The money rules ``jacoby``/``beavers`` replaced where given (None keeps them)."""
        return replace(self, jacoby=self.jacoby if jacoby is None else bool(jacoby),
                       beavers=self.beavers if beavers is None else bool(beavers))

    def args(self, met: MatchEquityTable) -> CubeArgs:
        """The bundle the cube kernels take (``met``: the match equity table of match play)."""
        return CubeArgs(self.money, int(self.away[0]), int(self.away[1]), int(self.cube), int(self.owner),
                        bool(self.crawford), bool(self.jacoby), met.pre, met.post)

    @classmethod
    def from_state(cls, state) -> "CubeInfo":
        """From a :class:`~bgtools.core.matchstate.MatchState` (None = money, cube centred)."""
        if state is None:
            return cls()
        me = state.player_on_roll
        owner = CENTRED if state.cube_owner < 0 else (OWNED if state.cube_owner == me else OPP_OWNS)
        if state.is_money:
            return cls(state.cube, owner, jacoby=bool(state.jacoby), beavers=bool(state.beavers))
        a = state.away
        return cls(state.cube, owner, (a[me], a[1 - me]), bool(state.crawford))


@dataclass(frozen=True)
class CubeDecision:
    """Cubeful values of no double, double/take, double/pass for the player on roll
    (money points, or match winning chances), the right ``action`` and whether the
    opponent should ``take`` a double."""

    nd: float
    dt: float
    dp: float
    action: str
    take: bool

    def to_dict(self) -> dict:
        return {"nd": self.nd, "dt": self.dt, "dp": self.dp, "action": self.action, "take": self.take}

    def __str__(self) -> str:
        resp = "take" if self.take else "pass"
        return f"{self.action}/{resp}  (ND {self.nd:+.4f}, D/T {self.dt:+.4f}, D/P {self.dp:+.4f})"


def cube_efficiency(position) -> float:
    """Janowski's ``x`` for a :class:`~bgtools.core.position.Position` (see the module notes)."""
    return float(cube_x(np.asarray(position.to_array(), np.int8)))


def _check(probs, info: CubeInfo, met: MatchEquityTable):
    p = np.ascontiguousarray(probs, np.float64).reshape(5)
    if not (0.0 <= p[0] <= 1.0 and 0.0 <= p[2] <= p[1] <= p[0] + 1e-9 and 0.0 <= p[4] <= p[3] <= 1.0 - p[0] + 1e-9):
        raise ValueError("probabilities must be cumulative: 0 <= wbg <= wg <= w and 0 <= lbg <= lg <= 1 - w")
    if not info.money and max(info.away) > met.length:
        raise ValueError(f"score beyond the {met.length}-point match equity table")
    return p


def cubeful_equity(probs, state=None, x: float = 0.68, met: MatchEquityTable | None = None) -> float:
    """Cubeful value of cubeless ``probs`` for the player on roll, not doubling now.

    ``state`` is a :class:`CubeInfo`, a :class:`~bgtools.core.matchstate.MatchState` or None
    (money, cube centred).  Money: points, under the money rules ``state`` carries (with
    Jacoby a gammon counts single while the cube is centred); match: match winning chance.
    """
    info = state if isinstance(state, CubeInfo) else CubeInfo.from_state(state)
    met = met or load_met()
    p = _check(probs, info, met)
    return float(cubeful_value(p, info.args(met), x))


def cube_decision(probs: Sequence[float] | np.ndarray, state: MatchState | CubeInfo | None = None, x: float = 0.68,
                  met: MatchEquityTable | None = None) -> CubeDecision:
    """The cube decision of the player on roll, from cubeless ``probs`` (see :func:`cubeful_equity`)."""
    info = state if isinstance(state, CubeInfo) else CubeInfo.from_state(state)
    met = met or load_met()
    p = _check(probs, info, met)
    out = np.zeros(4, np.float64)
    code = cube_values(p, info.args(met), x, out)
    return CubeDecision(float(out[0]), float(out[1]), float(out[2]), ACTIONS[code], bool(out[3] > 0.5))
