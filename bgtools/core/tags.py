"""Position tags: each side's game plan, and what a turn did.

Words used below: a side's points are numbered from its own view (its 1-point is deepest
in its home board, its 24-point deepest in the opponent's); a side **holds** a point when
two or more of its checkers stand on it; an **anchor** is a point held in the opponent's
home board (the side's own 19- to 24-points); the **race** is the pip count (the side's
pips minus the other's: positive = behind).

**Game plans** (:func:`position_tags`).  For each side, every plan whose rule holds, with the
prefix ``on_roll:`` (the side on roll in the position) or ``opponent:``:

``bearoff``
    every checker the side has left is on its 1- to 6-points (none on the bar).
``race``
    no contact (no checker has still to pass an opposing one) and not ``bearoff``.

The plans below need contact (and a side that is not bearing off):

``backgame``
    the side holds two or more anchors and is at least 50 pips behind in the race.
``holding``
    not ``backgame``; the side holds one of its 18- to 21-points (the opponent's bar-, 6-,
    5- or 4-point) and is behind in the race.
``priming``
    four or more consecutive points held, with an opposing checker behind them (on the bar
    or on one of the side's points below the prime: it has the prime still to pass).
``blitz``
    the side holds three or more of its home-board points, the opponent has a checker on the
    bar and no anchor in the side's home board (the side is attacking; an anchor ends a blitz).
``containment``
    one or two opposing checkers are still back (on the bar or on the side's 1- to 12-points)
    and the side holds four or more of its 2- to 11-points (it is keeping them in).

**What a turn did** (:func:`turn_tags`, ``before`` with the mover on roll, ``after`` with the
opponent on roll, as :attr:`bgtools.core.movegen.Play.after` gives it):

``hit`` / ``double-hit``
    one / two or more opposing checkers sent to the bar.
``closeout``
    the mover holds all six home points after the turn, not before, with an opposing checker
    on the bar.
``point-made``
    a home-board point (the mover's 1- to 6-point) or the bar-point (7) held after, not before.
``anchor-made`` / ``anchor-broken``
    an anchor held after and not before / held before and not after.
``prime-made``
    the mover's longest run of held points reaches six (a full prime), from fewer.
``entered``
    the mover had checkers on the bar and has fewer after.
``dance``
    the mover is on the bar and cannot move (the position is unchanged).
``contact-broken``
    contact before the turn, none after: the game is now a race.

:func:`tags_for_step` joins a replayed :class:`~bgtools.model.step.Step`'s tags with commas:
the game plans of the position before the action (``on_roll:`` is the player on roll in it:
for a take or a drop, the doubler) and, for a roll, its turn tags.

>>> from bgtools.core.position import Position
>>> position_tags(Position.initial())
()
>>> race = Position.from_sides([0] * 6 + [3, 3, 3, 3, 3] + [0] * 14, [2, 2, 2, 2, 2, 5] + [0] * 19)
>>> position_tags(race)
('on_roll:race', 'opponent:bearoff')
"""

from __future__ import annotations

from functools import lru_cache
from operator import mul
from typing import Any, Sequence

from bgtools.core.position import Position

__all__ = ["PLANS", "TURN_TAGS", "position_tags", "side_plans", "turn_tags", "tags_for_step"]

#: the game-plan tags, in the order they are listed
PLANS = ("bearoff", "race", "backgame", "holding", "priming", "blitz", "containment")
#: the turn tags, in the order they are listed
TURN_TAGS = ("hit", "double-hit", "closeout", "point-made", "anchor-made", "anchor-broken", "prime-made",
             "entered", "dance", "contact-broken")


@lru_cache(maxsize=256)
def _info(side: tuple[int, ...]) -> tuple[int, int, int]:
    """(held, blots, pips) of a side: bit masks of its points (bit ``p - 1`` = its point ``p``)
    held / occupied by one checker, and its pip count.  Cached: in a game one side stands
    still while the other moves, so a side recurs from step to step: a few hundred recent sides
    are enough (a bigger cache made memory grow with the file, up to its size)."""
    held = blots = 0
    for i in range(24):
        n = side[i]
        if n >= 2:
            held |= 1 << i
        elif n == 1:
            blots |= 1 << i
    return held, blots, sum(map(mul, side, _WEIGHTS))


_WEIGHTS = tuple(range(1, 26))


def _count(mask: int, lo: int, hi: int) -> int:
    """Set bits of ``mask`` for the points ``lo``..``hi``."""
    return bin(mask >> (lo - 1) & ((1 << (hi - lo + 1)) - 1)).count("1")


def _run(mask: int) -> tuple[int, int]:
    """(length, lowest point) of the longest run of held points (the lowest such run)."""
    length, m = 0, mask
    while m:
        prev, m = m, m & (m >> 1)
        length += 1
    if not length:
        return 0, 0
    return length, (prev & -prev).bit_length()


def _flip(mask: int) -> int:
    """A 24-point mask seen from the other side (its point ``p`` is this side's ``25 - p``)."""
    return int(f"{mask:024b}"[::-1], 2)


def side_plans(side: Sequence[int], other: Sequence[int], contact: bool) -> tuple[str, ...]:
    """The game plans (see the module docstring) of ``side`` against ``other`` (25 slots each,
    own views); ``contact`` as :meth:`Position.is_contact`."""
    if not any(side):
        return ()
    if not any(side[6:]):
        return ("bearoff",)
    if not contact:
        return ("race",)
    out = []
    held, _, pips = _info(tuple(side))
    o_held, o_blots, o_pips = _info(tuple(other))
    # the other's checkers in this side's numbering; they move up it, from its 1- to its 24-point
    o_held, o_blots = _flip(o_held), _flip(o_blots)
    o_any = o_held | o_blots
    o_bar = other[24]
    behind = pips - o_pips
    if _count(held, 19, 24) >= 2 and behind >= 50:
        out.append("backgame")
    elif _count(held, 18, 21) and behind > 0:
        out.append("holding")
    length, low = _run(held)
    if length >= 4 and (o_bar or o_any & ((1 << (low - 1)) - 1)):
        out.append("priming")
    if _count(held, 1, 6) >= 3 and o_bar and not o_held & 0x3F:
        out.append("blitz")
    back = o_bar + sum(other[12:24])  # the other's 13- to 24-points are this side's 12..1
    if 1 <= back <= 2 and _count(held, 2, 11) >= 4:
        out.append("containment")
    return tuple(out)


def position_tags(position: Position) -> tuple[str, ...]:
    """Each side's game plans, ``on_roll:`` ones first (see the module docstring)."""
    contact = position.is_contact()
    me, opp = position.on_roll, position.opponent
    return (tuple("on_roll:" + t for t in side_plans(me, opp, contact))
            + tuple("opponent:" + t for t in side_plans(opp, me, contact)))


def turn_tags(before: Position, after: Position) -> tuple[str, ...]:
    """What the mover's turn did (see the module docstring): ``before`` with the mover on
    roll, ``after`` with the opponent on roll."""
    m0, o0 = before.on_roll, before.opponent
    m1, o1 = after.opponent, after.on_roll
    h0, h1 = _info(m0)[0], _info(m1)[0]
    out = []
    hits = o1[24] - o0[24]
    if hits >= 1:
        out.append("hit" if hits == 1 else "double-hit")
    if h1 & 0x3F == 0x3F and h0 & 0x3F != 0x3F and o1[24]:
        out.append("closeout")
    if h1 & ~h0 & 0x7F:
        out.append("point-made")
    a0, a1 = h0 >> 18, h1 >> 18
    if a1 & ~a0:
        out.append("anchor-made")
    if a0 & ~a1:
        out.append("anchor-broken")
    if _run(h1)[0] >= 6 > _run(h0)[0]:
        out.append("prime-made")
    if m0[24] and m1[24] < m0[24]:
        out.append("entered")
    if m0[24] and tuple(m0) == tuple(m1) and tuple(o0) == tuple(o1):
        out.append("dance")
    if before.is_contact() and not after.is_contact():
        out.append("contact-broken")
    return tuple(out)


def tags_for_step(step: Any) -> str:
    """The comma-joined tags of a replayed step (``step.position``, and for a roll with a play
    made, ``step.play.after``; a dance leaves the board as it was): game plans before the
    action, then the turn's tags."""
    pos = step.position
    tags = position_tags(pos)
    play = getattr(step, "play", None)
    if play is not None:
        tags += turn_tags(pos, play.after)
    elif getattr(step.action, "status", None) == "dance":
        tags += turn_tags(pos, pos.swap())
    return ",".join(tags)
