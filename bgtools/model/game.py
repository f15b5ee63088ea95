"""The actions of a game, how it ended, and the game itself (frozen dataclasses).

Every action has ``player`` (0/1, who acts).  Equality ignores where a thing was read from
(line and column fields are ``compare=False``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal, Optional, Protocol, Sequence, Union

from bgtools.core.position import Position
from bgtools.model.fileanalysis import FileAnalysis
from bgtools.model.problems import MatchProblem

#: how a roll was recorded: a play, a dance (no legal play), rolled with no play written,
#: an illegal play written, or not yet checked against the rules; "unknown" (XG's "???", the
#: play not written) only until the replay settles it as a play, a dance or "rolled"
RollStatus = Literal["play", "dance", "rolled", "illegal", "unchecked", "unknown"]
#: how a game ended
Ending = Literal["bearoff", "drop", "resign"]

__all__ = ["MatchRules", "RollStatus", "Ending", "Roll", "Double", "Beaver", "Take", "Drop", "Resign", "Win", "SetBoard",
           "Action", "Result", "Game", "crawford_flags", "resign_level",
           "RESIGN_NAMES"]


def _loc(default: Any) -> Any:
    """A field that records where a thing was read from: not compared, not shown."""
    return field(default=default, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Roll:
    """A roll and the play made with it.

    ``dice`` keeps the written order.  ``steps``: the play as single-die steps, ``()``
    when no play was legal, ``None`` when no play is recorded.  ``status``: ``"play"``,
    ``"dance"`` (no legal play), ``"rolled"`` (roll only: ``???`` or no move written,
    typically before a resignation), ``"illegal"`` (the written move is not legal; the
    rest of the game is then not replayed), ``"unchecked"`` (after an illegal move).
    ``text`` is the move as written, ``line``/``move_no`` where.
    """

    player: int
    dice: tuple[int, int]
    steps: Optional[tuple[tuple[int, int], ...]] = None
    status: RollStatus = "play"
    text: str = _loc("")
    line: int = _loc(0)
    column: int = _loc(0)
    move_no: int = _loc(0)
    analysis: Optional[FileAnalysis] = _loc(None)  #: the file's own analysis (XG, BGBlitz)

    @property
    def is_play(self) -> bool:
        """A checker play that moved at least one checker (what gnubg counts as a play)."""
        if self.status == "play":
            return bool(self.steps)
        return self.status == "unchecked" and (bool(self.steps) or "/" in self.text)


def _roll_init(setters):
    p, d, st, s, t, ln, c, m, an = setters

    def __init__(self, player: int, dice: tuple[int, int], steps: Optional[tuple[tuple[int, int], ...]] = None,
                 status: RollStatus = "play", text: str = "", line: int = 0, column: int = 0, move_no: int = 0,
                 analysis: Optional[FileAnalysis] = None) -> None:
        p(self, player)
        d(self, dice)
        st(self, steps)
        s(self, status)
        t(self, text)
        ln(self, line)
        c(self, column)
        m(self, move_no)
        an(self, analysis)
    return __init__


# Readers and the replay make a Roll per roll, twice: the generated __init__ of a frozen class
# (object.__setattr__ per field) was a sixth of the replay's time; this one sets the same
# slots through their descriptors, in the order and with the defaults of the fields above
# (tests/test_roll_init.py checks it against dataclasses.fields).
Roll.__init__ = _roll_init([Roll.__dict__[f.name].__set__ for f in fields(Roll)])  # type: ignore[method-assign]


@dataclass(frozen=True, slots=True)
class Double:
    """``player`` doubles; ``cube`` is the new cube value."""

    player: int
    cube: int
    line: int = _loc(0)
    column: int = _loc(0)
    move_no: int = _loc(0)
    analysis: Optional[FileAnalysis] = _loc(None)  #: the file's own analysis (XG, BGBlitz)


@dataclass(frozen=True, slots=True)
class Beaver:
    """``player`` takes and at once redoubles to ``cube`` (also a raccoon), keeping the cube."""

    player: int
    cube: int
    line: int = _loc(0)
    column: int = _loc(0)
    move_no: int = _loc(0)
    analysis: Optional[FileAnalysis] = _loc(None)  #: the file's own analysis (XG, BGBlitz)


@dataclass(frozen=True, slots=True)
class Take:
    """``player`` accepts the double (``implied``: not written, as after a gnubg beaver)."""

    player: int
    implied: bool = field(default=False, compare=False)
    line: int = _loc(0)
    column: int = _loc(0)
    move_no: int = _loc(0)
    analysis: Optional[FileAnalysis] = _loc(None)  #: the file's own analysis (XG, BGBlitz)


@dataclass(frozen=True, slots=True)
class Drop:
    """``player`` passes the double and loses the cube value before it."""

    player: int
    line: int = _loc(0)
    column: int = _loc(0)
    move_no: int = _loc(0)
    analysis: Optional[FileAnalysis] = _loc(None)  #: the file's own analysis (XG, BGBlitz)


@dataclass(frozen=True, slots=True)
class Resign:
    """``player`` resigns ``level`` (1 single, 2 gammon, 3 backgammon) and the other accepts."""

    player: int
    level: int
    line: int = _loc(0)
    column: int = _loc(0)
    move_no: int = _loc(0)


@dataclass(frozen=True, slots=True)
class Win:
    """``player`` wins ``points`` (the written result line)."""

    player: int
    points: int
    line: int = _loc(0)
    column: int = _loc(0)
    move_no: int = _loc(0)


@dataclass(frozen=True, slots=True)
class SetBoard:
    """A board edit in the record (gnubg's "set board"): the game goes on from ``sides``.

    ``sides``: player 0's and player 1's checkers, 25 slots each in the owner's own numbering
    (slot 24 the bar).  ``player``: who the record has on roll after the edit (the roller of a
    Snowie illegal play; 0 for XG's ``Set Pos``, as gnubg has it); the next action's player
    moves next whoever it is.  ``cube`` and ``owner`` (-1 centred): what it sets the cube to,
    None when it leaves the cube as it is.  ``source`` and ``text``: the dialect and the edit
    as written (``"snowie"``: the position of an ``Illegal play (...)`` cell; ``"xg"``: the
    text after ``; Set Pos=``), so that a writer can write it back the same way.
    """

    player: int
    sides: tuple[tuple[int, ...], tuple[int, ...]]
    cube: Optional[int] = None
    owner: Optional[int] = None
    source: str = _loc("")
    text: str = _loc("")
    line: int = _loc(0)
    column: int = _loc(0)
    move_no: int = _loc(0)

    def position(self, player: int) -> Position:
        """The edited board as a :class:`~bgtools.core.position.Position` with ``player`` on roll
        (raises :class:`~bgtools.core.position.PositionError` for an impossible board)."""
        return Position(self.sides[1 - player], self.sides[player])


Action = Union[Roll, Double, Beaver, Take, Drop, Resign, Win, SetBoard]


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: ``winner`` (0/1) won ``points``; ``how`` is bearoff, drop or resign."""

    winner: int
    points: int
    how: Ending


@dataclass(frozen=True)
class Game:
    """One game of a match (see the module docstring)."""

    number: int
    score: tuple[int, int]
    actions: tuple[Action, ...] = ()
    result: Optional[Result] = None
    crawford: bool = False
    errors: list[MatchProblem] = field(default_factory=list, compare=False, repr=False)
    #: the cube at the start: above 1 after automatic doubles (money play: the opening dice
    #: came up equal and the cube was turned before the game began; gnubg's SGF ``CV[n]``)
    initial_cube: int = 1
    line: int = field(default=0, compare=False, repr=False)
    props: dict = field(default_factory=dict, compare=False, repr=False)  #: opaque extras (SGF root)
    notes: tuple = field(default=(), compare=False, repr=False)  #: opaque per-action extras (SGF)
    #: what reading with ``keep_steps`` kept of its replay: (game index, the match rules, the
    #: :class:`~bgtools.model.replay.Step` of every action), for :func:`~bgtools.model.replay.replay_game`
    #: to hand over instead of replaying again; None: not kept (not part of the game's value)
    kept_steps: Optional[tuple] = field(default=None, compare=False, repr=False)

    @property
    def plays(self) -> int:
        return sum(1 for a in self.actions if isinstance(a, Roll) and a.is_play)

    @property
    def doubles(self) -> int:
        return sum(1 for a in self.actions if isinstance(a, (Double, Beaver)))

    @property
    def final_score(self) -> tuple[int, int]:
        s = list(self.score)
        if self.result is not None:
            s[self.result.winner] += self.result.points
        return (s[0], s[1])


class MatchRules(Protocol):
    """What the replay needs of a match (:class:`~bgtools.model.match.Match` has it): its
    length (0 = money), its rules and its games."""

    @property
    def length(self) -> int: ...

    @property
    def crawford(self) -> bool: ...

    @property
    def jacoby(self) -> bool: ...

    @property
    def beavers(self) -> bool: ...

    @property
    def games(self) -> tuple[Game, ...]: ...


#: a resignation's level -> its name
RESIGN_NAMES = {1: "single", 2: "gammon", 3: "backgammon"}


def resign_level(points: int, cube: int) -> int:
    """The resignation (1 single, 2 gammon, 3 backgammon) a result of ``points`` by resignation
    with the cube at ``cube`` is read as, as gnubg reads it: the smallest worth the points (a
    single up to the cube, a gammon up to twice the cube, else a backgammon).

    >>> resign_level(3, 2), resign_level(4, 2), resign_level(1, 2), resign_level(7, 2)
    (2, 2, 1, 3)
    """
    cube = max(cube, 1)
    return max(1, min(3, -(-points // cube)))


def crawford_flags(length: int, scores: Sequence[tuple[int, int]], rule: bool = True) -> list[bool]:
    """Which games are the Crawford game: the first one in which exactly one player is 1-away."""
    out = []
    seen = False
    for s in scores:
        is_c = False
        if rule and length > 0 and not seen:
            away = [length - s[0], length - s[1]]
            if (away[0] == 1) != (away[1] == 1) and min(away) >= 1:
                is_c = seen = True
        out.append(is_c)
    return out
