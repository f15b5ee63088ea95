"""Match state: cube, score, dice and whose turn it is; gnubg Match ID and XGID.

gnubg numbers the players 0 and 1: player 0 is the first-named player of a match
file (SGF White, "O" at the top of gnubg's text board), player 1 the second-named
(SGF Black, "X").  ``player_on_roll`` says whose side is ``board[1]`` of the
:class:`~bgtools.core.position.Position` that goes with the state.

>>> ms = MatchState.from_match_id("cInqAAAAAAAE")
>>> ms.dice, ms.match_length, ms.player_on_roll
((5, 2), 7, 1)
>>> ms.match_id()
'cInqAAAAAAAE'
"""

from __future__ import annotations

import base64
import enum
from dataclasses import dataclass, field, replace
from typing import Optional

from bgtools.core.position import Position, PositionError

__all__ = [
    "MatchState",
    "GameState",
    "MatchIDError",
    "parse_gnubg_id",
    "parse_xgid",
    "to_xgid",
    "parse_any_id",
    "MAX_CUBE",
    "MAX_MATCH_LENGTH",
]

#: the largest cube value gnubg accepts (2^12); see :meth:`MatchState.impossibility`
MAX_CUBE = 4096
#: the longest match, and the highest score, the Match ID's 15-bit fields hold
MAX_MATCH_LENGTH = 2**15 - 1

_B64_SET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


class MatchIDError(PositionError):
    """A malformed Match ID, XGID or combined ID."""


class GameState(enum.IntEnum):
    """gnubg's game state field."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


@dataclass(frozen=True, slots=True)
class MatchState:
    """Everything a gnubg Match ID says, plus the beaver rule (carried by XGID only).

    ``cube_owner`` is -1 when the cube is centred, else the owning player (0/1).
    ``dice`` is ``(0, 0)`` before the roll; otherwise the larger die first, as gnubg stores it.
    ``turn`` is the player who must act now: it differs from ``player_on_roll`` while
    a double or a resignation offer awaits an answer.
    """

    cube: int = 1
    cube_owner: int = -1
    player_on_roll: int = 1
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: int = 1
    double_offered: bool = False
    resigned: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False
    beavers: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        c = self.cube
        if c < 1 or c & (c - 1) or c > 2**15:
            raise MatchIDError(f"cube value {c} is not a power of two between 1 and 32768")
        if self.cube_owner not in (-1, 0, 1):
            raise MatchIDError(f"cube owner {self.cube_owner} must be -1 (centred), 0 or 1")
        if self.player_on_roll not in (0, 1) or self.turn not in (0, 1):
            raise MatchIDError("player on roll and turn must be 0 or 1")
        if not 0 <= self.resigned <= 3:
            raise MatchIDError(f"resignation level {self.resigned} must be 0..3")
        d = tuple(int(x) for x in self.dice)
        if len(d) != 2 or not ((d == (0, 0)) or (1 <= d[0] <= 6 and 1 <= d[1] <= 6)):
            raise MatchIDError(f"dice {self.dice} must be two numbers 1..6, or (0, 0) before the roll")
        if d[0] < d[1]:
            d = (d[1], d[0])
        object.__setattr__(self, "dice", d)
        object.__setattr__(self, "game_state", GameState(self.game_state))
        if not 0 <= self.match_length <= MAX_MATCH_LENGTH:
            raise MatchIDError(f"match length {self.match_length} out of range")
        s = tuple(int(x) for x in self.score)
        if len(s) != 2 or min(s) < 0:  # (a money session's running score may pass what a Match ID holds)
            raise MatchIDError(f"score {self.score} out of range")
        object.__setattr__(self, "score", s)

    # -- derived -------------------------------------------------------------------
    @property
    def is_money(self) -> bool:
        return self.match_length == 0

    @property
    def post_crawford(self) -> bool:
        """After the Crawford game: someone is 1-away and this is not the Crawford game."""
        if self.is_money or self.crawford:
            return False
        return any(self.match_length - s == 1 for s in self.score)

    @property
    def away(self) -> tuple[int, int]:
        """Points each player (0, 1) still needs; (0, 0) for money."""
        if self.is_money:
            return (0, 0)
        return (self.match_length - self.score[0], self.match_length - self.score[1])

    def replace(self, **changes) -> "MatchState":
        return replace(self, **changes)

    def impossibility(self) -> Optional[str]:
        """Why no game under the rules can be in this state, naming the field; None if it can.

        The ID parsers refuse such states; the constructor does not (a replay of a damaged
        record may still build one).  The rules checked:

        * in a match both scores are below the match length (the match ends when one reaches it);
        * the Crawford game exists only in a match, when exactly one player is 1-away (it is the
          first game after one player reaches match-1; the other cannot be there too), and in it
          the cube is never turned: cube 1, centred, no double offered;
        * the cube is at most 4096 (2^12): the Match ID's 4-bit field could encode 2^15, but
          gnubg, which defines the format, refuses a cube above 4096 (``set cube value``, its
          MAX_CUBE), so no program can reach one.
        """
        if self.cube > MAX_CUBE:
            return f"cube field: cube {self.cube} is above {MAX_CUBE}, the largest cube gnubg allows"
        if self.match_length:
            over = [i for i in (0, 1) if self.score[i] >= self.match_length]
            if over:
                return (f"score field: {self.score[0]}-{self.score[1]} is impossible in a "
                        f"{self.match_length}-point match (the match ends at {self.match_length})")
        if self.crawford:
            if self.is_money:
                return "Crawford field: a money game has no Crawford game"
            one_away = [self.match_length - s == 1 for s in self.score]
            if one_away.count(True) != 1:
                return (f"Crawford field: the Crawford game needs exactly one player 1-away, but the score is "
                        f"{self.score[0]}-{self.score[1]} in a {self.match_length}-point match")
            if self.cube != 1 or self.cube_owner != -1:
                return f"cube field: the cube is {self.cube}{'' if self.cube_owner == -1 else ' and owned'} " \
                       "in the Crawford game, where it cannot be turned"
            if self.double_offered:
                return "double field: a double is offered in the Crawford game, where doubling is not allowed"
        return None

    def check_possible(self, what: str) -> "MatchState":
        """``self``, or :class:`MatchIDError` ``"<what>: <reason>"`` if :meth:`impossibility` finds one."""
        why = self.impossibility()
        if why is not None:
            raise MatchIDError(f"{what}: {why}")
        return self

    # -- gnubg Match ID --------------------------------------------------------------
    def match_id(self) -> str:
        """The 12-character gnubg Match ID (:class:`MatchIDError` for a score past
        :data:`MAX_MATCH_LENGTH`, which its fields cannot hold)."""
        if max(self.score) > MAX_MATCH_LENGTH:
            raise MatchIDError(f"score {self.score[0]}-{self.score[1]} is past {MAX_MATCH_LENGTH}, the highest "
                               "a Match ID can hold")
        fields = [
            (self.cube.bit_length() - 1, 4),
            (3 if self.cube_owner == -1 else self.cube_owner, 2),
            (self.player_on_roll, 1),
            (int(self.crawford), 1),
            (int(self.game_state), 3),
            (self.turn, 1),
            (int(self.double_offered), 1),
            (self.resigned, 2),
            (self.dice[0], 3),
            (self.dice[1], 3),
            (self.match_length, 15),
            (self.score[0], 15),
            (self.score[1], 15),
            (0 if (self.jacoby and self.is_money) else 1, 1),
        ]
        bits = pos = 0
        for value, width in fields:
            bits |= (value & ((1 << width) - 1)) << pos
            pos += width
        return base64.b64encode(bits.to_bytes(9, "little")).decode("ascii")

    @classmethod
    def from_match_id(cls, mid: str, *, strict: bool = True) -> "MatchState":
        """Decode a 12-character gnubg Match ID.

        ``strict`` (the default) also refuses states no game can be in (:meth:`impossibility`);
        ``strict=False`` decodes any well-formed ID, e.g. one made from a damaged record."""
        mid = mid.strip()
        if len(mid) != 12:
            raise MatchIDError(f"Match ID {mid!r} has {len(mid)} characters, expected 12")
        bad = [c for c in mid if c not in _B64_SET]
        if bad:
            raise MatchIDError(f"Match ID {mid!r} contains {bad[0]!r}, which is not a base64 character")
        bits = int.from_bytes(base64.b64decode(mid), "little")
        pos = 0

        def take(width: int) -> int:
            nonlocal pos
            v = (bits >> pos) & ((1 << width) - 1)
            pos += width
            return v

        cube_log, owner, move, crawford, gstate, turn, doubled, resigned = (
            take(4), take(2), take(1), take(1), take(3), take(1), take(1), take(2))
        d1, d2 = take(3), take(3)
        length, s0, s1, not_jacoby = take(15), take(15), take(15), take(1)
        if owner == 2:
            raise MatchIDError(f"Match ID {mid!r}: cube owner field is 2, which gnubg never writes")
        if gstate > 4:
            raise MatchIDError(f"Match ID {mid!r}: game state {gstate} is not one of 0..4")
        if (d1 == 0) != (d2 == 0) or d1 > 6 or d2 > 6:
            raise MatchIDError(f"Match ID {mid!r}: dice {d1}{d2} are not a roll")
        if cube_log > 12 and strict:
            raise MatchIDError(f"Match ID {mid!r}: cube field 2^{cube_log} is above {MAX_CUBE}, "
                               "the largest cube gnubg allows")
        state = cls(
            cube=1 << cube_log,
            cube_owner=-1 if owner == 3 else owner,
            player_on_roll=move,
            crawford=bool(crawford),
            game_state=GameState(gstate),
            turn=turn,
            double_offered=bool(doubled),
            resigned=resigned,
            dice=(d1, d2),
            match_length=length,
            score=(s0, s1),
            jacoby=(length == 0 and not not_jacoby),
        )
        return state.check_possible(f"Match ID {mid!r}") if strict else state

    def to_dict(self) -> dict:
        return {
            "cube": self.cube,
            "cube_owner": self.cube_owner,
            "player_on_roll": self.player_on_roll,
            "crawford": self.crawford,
            "game_state": int(self.game_state),
            "turn": self.turn,
            "double_offered": self.double_offered,
            "resigned": self.resigned,
            "dice": list(self.dice),
            "match_length": self.match_length,
            "score": list(self.score),
            "jacoby": self.jacoby,
        }


# -- combined forms ----------------------------------------------------------------------
def parse_gnubg_id(text: str) -> tuple[Position, Optional[MatchState]]:
    """``POSITIONID`` or ``POSITIONID:MATCHID`` -> (position, match state or None)."""
    text = text.strip()
    if text.lower().startswith("gnubgid"):
        text = text.split("=", 1)[-1] if "=" in text else text[7:]
        text = text.strip()
    parts = text.split(":")
    if len(parts) > 2:
        raise MatchIDError(f"{text!r} is not POSITIONID or POSITIONID:MATCHID")
    pos = Position.from_id(parts[0])
    ms = MatchState.from_match_id(parts[1]) if len(parts) == 2 else None
    return pos, ms


def parse_any_id(text: str) -> tuple[Position, Optional[MatchState]]:
    """Accept a Position ID, ``POSITIONID:MATCHID`` or an XGID."""
    t = text.strip()
    if t.upper().startswith("XGID=") or t.count(":") >= 8:
        return parse_xgid(t)
    return parse_gnubg_id(t)


# -- XGID ----------------------------------------------------------------------------
def _xg_char(n: int, upper: bool) -> str:
    if n == 0:
        return "-"
    return chr((ord("A") if upper else ord("a")) + n - 1)


def to_xgid(position: Position, state: Optional[MatchState] = None, *, max_cube_log: int = 10) -> str:
    """XGID for a position and match state (gnubg player 1 = XG's upper-case player)."""
    ms = state or MatchState()
    if ms.player_on_roll == 1:
        upper, lower = position.on_roll, position.opponent
    else:
        upper, lower = position.opponent, position.on_roll
    chars = [_xg_char(lower[24], False)]
    for i in range(1, 25):
        if upper[i - 1]:
            chars.append(_xg_char(upper[i - 1], True))
        else:
            chars.append(_xg_char(lower[24 - i], False))
    chars.append(_xg_char(upper[24], True))
    owner = {-1: 0, 1: 1, 0: -1}[ms.cube_owner]
    turn = 1 if ms.player_on_roll == 1 else -1
    if ms.double_offered:
        dice = "D"
    elif ms.dice[0]:
        dice = f"{ms.dice[0]}{ms.dice[1]}"
    else:
        dice = "00"
    if ms.match_length:
        rules = int(ms.crawford)
    else:
        rules = int(ms.jacoby) + 2 * int(ms.beavers)
    return (
        f"XGID={''.join(chars)}:{ms.cube.bit_length() - 1}:{owner}:{turn}:{dice}:"
        f"{ms.score[1]}:{ms.score[0]}:{rules}:{ms.match_length}:{max_cube_log}"
    )


def parse_xgid(text: str) -> tuple[Position, MatchState]:
    """Parse an XGID into (position with the player whose turn it is on roll, match state)."""
    t = text.strip()
    if t.upper().startswith("XGID="):
        t = t[5:]
    parts = t.split(":")
    if len(parts) != 10:
        raise MatchIDError(f"XGID {text!r} has {len(parts)} fields, expected 10 "
                           "(position:cube:owner:turn:dice:score:score:rules:length:max cube)")
    if len(parts[0]) != 26:
        raise MatchIDError(f"XGID position {parts[0]!r} has {len(parts[0])} characters, expected 26")
    try:
        cube_log, owner, turn = int(parts[1]), int(parts[2]), int(parts[3])
        dice_s = parts[4]
        score_up, score_low, rules, length = int(parts[5]), int(parts[6]), int(parts[7]), int(parts[8])
        max_cube_log = int(parts[9])
    except ValueError as e:
        raise MatchIDError(f"XGID {text!r}: a numeric field is not a number ({e})") from None
    if min(score_up, score_low) < 0 or length < 0:
        raise MatchIDError(f"XGID {text!r}: score and match length fields must not be negative")
    if not 0 <= rules <= (1 if length else 3):
        raise MatchIDError(f"XGID {text!r}: rules field {rules} must be 0 or 1 (Crawford game) in a match, "
                           "0..3 (Jacoby + 2 x beavers) for money")
    if not 0 <= max_cube_log <= 15:
        raise MatchIDError(f"XGID {text!r}: max cube field {max_cube_log} out of range 0..15")
    if turn not in (1, -1):
        raise MatchIDError(f"XGID turn field is {turn}; expected 1 or -1")
    if owner not in (-1, 0, 1):
        raise MatchIDError(f"XGID cube owner field is {owner}; expected -1, 0 or 1")
    if not 0 <= cube_log <= 12:
        raise MatchIDError(f"XGID cube field {cube_log} out of range 0..12 (cube 1..{MAX_CUBE})")
    mover = 1 if turn == 1 else 0
    doubled = False
    dice = (0, 0)
    if dice_s.upper() == "D":
        doubled = True
    elif dice_s in ("00", "0"):
        pass
    elif len(dice_s) == 2 and dice_s.isdigit() and all("1" <= c <= "6" for c in dice_s):
        dice = (int(dice_s[0]), int(dice_s[1]))
    else:
        raise MatchIDError(f"XGID dice field {dice_s!r} is not 00, D or a roll")
    try:
        pos = Position.from_xgid(t)
    except MatchIDError:
        raise
    except PositionError as e:
        raise MatchIDError(str(e)) from None
    state = MatchState(
        cube=1 << cube_log,
        cube_owner={0: -1, 1: 1, -1: 0}[owner],
        player_on_roll=mover,
        crawford=bool(rules & 1) if length else False,
        game_state=GameState.PLAYING,
        turn=(1 - mover) if doubled else mover,
        double_offered=doubled,
        dice=dice,
        match_length=length,
        score=(score_low, score_up),
        jacoby=bool(rules & 1) if length == 0 else False,
        beavers=bool(rules & 2) if length == 0 else False,
    ).check_possible(f"XGID {text!r}")
    return pos, state
