"""The backgammon position and its identifiers (gnubg Position ID, XGID board).

A :class:`Position` holds the two sides the way GNU Backgammon orders them:
``board[0]`` is the player *not* on roll, ``board[1]`` the player on roll.  Each
side is a tuple of 25 counts seen from its own owner: index ``i`` (0..23) is that
player's point ``i + 1`` and index 24 is his bar.  Checkers borne off are
``15 - sum(side)``.

>>> p = Position.initial()
>>> p.position_id()
'4HPwATDgc/ABMA'
>>> p.pips
(167, 167)
"""

from __future__ import annotations

import base64
import enum
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np
from bgtools.base.errors import BgtoolsError
from bgtools.core.textboard import render

__all__ = [
    "Position",
    "PositionError",
    "PositionClass",
    "INITIAL_SIDE",
    "encode_position_key",
    "decode_position_key",
]

Side = tuple[int, ...]

INITIAL_SIDE: Side = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_B64_SET = frozenset(_B64)


class PositionError(BgtoolsError, ValueError):
    """An impossible position or a malformed position identifier."""


class PositionClass(enum.IntEnum):
    """Coarse class of a position, as evaluators use it (ordered like gnubg's)."""

    OVER = 0
    BEAROFF = 1  #: both sides have all checkers in their home boards, no contact
    RACE = 2  #: no contact, not yet all home
    CRASHED = 3  #: contact, and a side has few checkers left in play
    CONTACT = 4

    @property
    def label(self) -> str:
        """The class as a word: ``"over"``, ``"bearoff"``, ``"race"``, ``"crashed"``, ``"contact"``
        (the phases of an analysis)."""
        return self.name.lower()


def _check_side(side: Sequence[int], who: str) -> Side:
    if len(side) != 25:
        raise PositionError(f"{who} side has {len(side)} slots, expected 25 (24 points and the bar)")
    out = []
    for i, n in enumerate(side):
        try:
            v = int(n)
        except (TypeError, ValueError):
            raise PositionError(f"{who} side slot {i} is not a number: {n!r}") from None
        if v < 0:
            raise PositionError(f"{who} side has {v} checkers on {_slot_name(i)}")
        out.append(v)
    total = sum(out)
    if total > 15:
        raise PositionError(f"{who} side has {total} checkers on the board, at most 15 are allowed")
    return tuple(out)


def _slot_name(i: int) -> str:
    return "the bar" if i == 24 else f"point {i + 1}"


def _pips(side: Side) -> int:
    return sum((i + 1) * n for i, n in enumerate(side))


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable backgammon position, player on roll = ``board[1]``.

    Build one with :meth:`initial`, :meth:`from_id`, :meth:`from_xgid` or
    :meth:`from_sides`; it validates itself and raises :class:`PositionError`.
    """

    opponent: Side
    on_roll: Side

    def __post_init__(self) -> None:
        opp = _check_side(self.opponent, "opponent's")
        me = _check_side(self.on_roll, "on-roll")
        object.__setattr__(self, "opponent", opp)
        object.__setattr__(self, "on_roll", me)
        if not any(opp) and not any(me):
            raise PositionError("both players have borne off all their checkers; only one can have")
        for i in range(24):
            if me[i] and opp[23 - i]:
                raise PositionError(
                    f"both players have checkers on the same point (on-roll point {i + 1} = "
                    f"opponent's point {24 - i})"
                )

    # -- constructors -------------------------------------------------------------
    @classmethod
    def _trusted(cls, opponent: Side, on_roll: Side) -> "Position":
        """Build without validation, for sides produced by our own kernels (tuples of ints)."""
        self = object.__new__(cls)
        object.__setattr__(self, "opponent", opponent)
        object.__setattr__(self, "on_roll", on_roll)
        return self

    @classmethod
    def initial(cls) -> "Position":
        """The opening position."""
        return cls(INITIAL_SIDE, INITIAL_SIDE)

    @classmethod
    def from_sides(cls, on_roll: Iterable[int], opponent: Iterable[int]) -> "Position":
        """From the on-roll side and the opponent side (25 slots each, own view)."""
        return cls(tuple(opponent), tuple(on_roll))

    @classmethod
    def from_board(cls, board: Sequence[Sequence[int]]) -> "Position":
        """From gnubg's ``(board[0], board[1])`` = (opponent, player on roll)."""
        if len(board) != 2:
            raise PositionError("a board has two sides")
        return cls(tuple(board[0]), tuple(board[1]))

    @classmethod
    def from_array(cls, arr: np.ndarray) -> "Position":
        """From an int array of shape (2, 25) in gnubg order."""
        a = np.asarray(arr)
        if a.shape != (2, 25):
            raise PositionError(f"array shape {a.shape}, expected (2, 25)")
        return cls(tuple(int(x) for x in a[0]), tuple(int(x) for x in a[1]))

    @classmethod
    def from_id(cls, text: str) -> "Position":
        """From a 14-character gnubg Position ID (or ``POSITIONID:MATCHID``)."""
        pid = text.strip().split(":", 1)[0]
        opp, me = decode_position_key(pid)
        return cls(opp, me)

    @classmethod
    def from_xgid(cls, xgid: str) -> "Position":
        """From an XGID (its position and turn fields); the player whose turn it is becomes
        the player on roll.  The other fields are read by :func:`bgtools.core.matchstate.parse_xgid`."""
        t = xgid.strip()
        if t.upper().startswith("XGID="):
            t = t[5:]
        parts = t.split(":")
        if len(parts) < 4:
            raise PositionError(f"XGID {xgid!r} has {len(parts)} fields, expected 10")
        board = parts[0]
        if len(board) != 26:
            raise PositionError(f"XGID position {board!r} has {len(board)} characters, expected 26")
        upper = [0] * 25
        lower = [0] * 25
        for i, ch in enumerate(board):
            if ch == "-":
                continue
            if "A" <= ch <= "O":
                n, up = ord(ch) - ord("A") + 1, True
            elif "a" <= ch <= "o":
                n, up = ord(ch) - ord("a") + 1, False
            else:
                raise PositionError(f"XGID position character {i} is {ch!r}; expected '-', A-O or a-o")
            if i == 0:
                if up:
                    raise PositionError("XGID character 0 is the lower-case player's bar; found an upper-case letter")
                lower[24] = n
            elif i == 25:
                if not up:
                    raise PositionError("XGID character 25 is the upper-case player's bar; found a lower-case letter")
                upper[24] = n
            elif up:
                upper[i - 1] = n
            else:
                lower[24 - i] = n
        if parts[3].strip() not in ("1", "-1"):
            raise PositionError(f"XGID turn field is {parts[3]}; expected 1 or -1")
        if parts[3].strip() == "1":
            return cls(tuple(lower), tuple(upper))
        return cls(tuple(upper), tuple(lower))

    # -- views --------------------------------------------------------------------
    @property
    def board(self) -> tuple[Side, Side]:
        """gnubg's ``(board[0], board[1])``: (opponent, player on roll)."""
        return (self.opponent, self.on_roll)

    def to_array(self) -> np.ndarray:
        """int8 array of shape (2, 25) in gnubg order."""
        return np.array([self.opponent, self.on_roll], dtype=np.int8)

    def swap(self) -> "Position":
        """The same physical position with the other player on roll."""
        return Position._trusted(self.on_roll, self.opponent)

    def position_id(self) -> str:
        """The 14-character gnubg Position ID."""
        return encode_position_key(self.opponent, self.on_roll)

    # -- counts -------------------------------------------------------------------
    @property
    def pips(self) -> tuple[int, int]:
        """Pip counts (player on roll, opponent); the bar counts 25."""
        return (_pips(self.on_roll), _pips(self.opponent))

    @property
    def borne_off(self) -> tuple[int, int]:
        """Checkers off (player on roll, opponent)."""
        return (15 - sum(self.on_roll), 15 - sum(self.opponent))

    @property
    def on_bar(self) -> tuple[int, int]:
        """Checkers on the bar (player on roll, opponent)."""
        return (self.on_roll[24], self.opponent[24])

    def is_game_over(self) -> bool:
        """True when a side has borne off all fifteen checkers."""
        return sum(self.on_roll) == 0 or sum(self.opponent) == 0

    def is_contact(self) -> bool:
        """True while some checkers still have to pass each other."""
        me_back = _back(self.on_roll)
        opp_back = _back(self.opponent)
        if me_back < 0 or opp_back < 0:
            return False
        # on-roll point k+1 is opponent point 24-k: contact when the rearmost checkers have not passed
        return me_back + opp_back > 22

    def classify(self) -> PositionClass:
        """contact / crashed / race / bear-off / over."""
        if self.is_game_over():
            return PositionClass.OVER
        if not self.is_contact():
            if all(n == 0 for n in self.on_roll[6:]) and all(n == 0 for n in self.opponent[6:]):
                return PositionClass.BEAROFF
            return PositionClass.RACE
        if _crashed(self.on_roll) or _crashed(self.opponent):
            return PositionClass.CRASHED
        return PositionClass.CONTACT

    # -- text -----------------------------------------------------------------------
    def ascii(self, *, names: tuple[str, str] = ("X", "O")) -> str:
        """A text board in gnubg's layout: the player on roll (``X``) at the bottom, moving
        anticlockwise from his 24-point (top left ... ) to his 1-point (bottom right)."""
        return render(self.on_roll, self.opponent, names=names)

    def __str__(self) -> str:
        return self.ascii()

    def __repr__(self) -> str:
        return f"Position.from_id({self.position_id()!r})"


def _back(side: Side) -> int:
    for i in range(24, -1, -1):
        if side[i]:
            return i
    return -1


def _crashed(side: Side) -> bool:
    # gnubg 1.07's rule (eval.c ClassifyPosition): a side is "crashed" when six or fewer of its
    # checkers are in play, not counting a stack on its 1-point (or counting it and a stack on
    # the 2-point behind it as one checker), or counting a 2-point stack as one checker.
    total = sum(side)
    if total <= 6:
        return True
    if side[0] > 1:
        return total - side[0] <= 6 or (side[1] > 1 and total - side[0] - side[1] + 1 <= 6)
    return side[1] > 1 and total - (side[1] - 1) <= 6


# -- Position ID codec ----------------------------------------------------------------
def encode_position_key(first: Sequence[int], second: Sequence[int]) -> str:
    """Encode two 25-slot sides (``board[0]`` then ``board[1]``) as a 14-char Position ID."""
    bits = 0
    pos = 0
    for side in (first, second):
        for n in side:
            # n one-bits then a zero bit, least significant bit first
            bits |= ((1 << n) - 1) << pos
            pos += n + 1
    if pos > 80:
        raise PositionError("too many checkers to encode")
    raw = bits.to_bytes(10, "little")
    return base64.b64encode(raw).decode("ascii")[:14]


def decode_position_key(pid: str) -> tuple[Side, Side]:
    """Decode a 14-character Position ID into (``board[0]``, ``board[1]``)."""
    if len(pid) != 14:
        raise PositionError(f"Position ID {pid!r} has {len(pid)} characters, expected 14")
    bad = [c for c in pid if c not in _B64_SET]
    if bad:
        raise PositionError(f"Position ID {pid!r} contains {bad[0]!r}, which is not a base64 character")
    raw = base64.b64decode(pid + "==")
    bits = int.from_bytes(raw, "little")
    sides: list[list[int]] = [[0] * 25, [0] * 25]
    side = slot = 0
    for k in range(80):
        if side == 2:
            if (bits >> k) & 1:
                raise PositionError(f"Position ID {pid!r} encodes more than two sides of checkers")
            continue
        if (bits >> k) & 1:
            sides[side][slot] += 1
        else:
            slot += 1
            if slot == 25:
                side += 1
                slot = 0
    if side < 2:
        raise PositionError(f"Position ID {pid!r} is truncated: it does not describe two complete sides")
    for who, s in zip(("first", "second"), sides):
        if sum(s) > 15:
            raise PositionError(f"Position ID {pid!r}: the {who} side has {sum(s)} checkers, at most 15")
    return tuple(sides[0]), tuple(sides[1])
