"""Resolving a written move into the legal play it means, for the replay (the Python side;
the compiled side is :mod:`bgtools.model.replay_kernel`).

:func:`resolve_play` finds the legal play a move text or a list of single-die steps
describes (and how many plays the roll allows), :func:`forced_play` the only legal play of a
roll, :func:`apply_steps` applies steps without checking them.
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from bgtools.core import movegen
from bgtools.core.movegen import Play
from bgtools.core.moveparse import AmbiguousMoveError, IllegalMoveError, mover_after, parse_move_text, parse_play
from bgtools.core.position import Position

__all__ = ["apply_steps", "resolve_play", "forced_play", "target_from_text", "target_from_steps"]


def apply_steps(position: Position, steps: Sequence[tuple[int, int]]) -> tuple[Position, tuple[int, ...]]:
    """Apply single-die steps (mover = ``position.on_roll``) without checking legality.

    Returns the position with the opponent on roll and the points hit (mover's numbering).
    """
    me = list(position.on_roll)
    opp = list(position.opponent)
    hits = []
    for a, b in steps:
        me[24 if a == 25 else a - 1] -= 1
        if b:
            me[b - 1] += 1
            j = 24 - b
            if opp[j] == 1:
                opp[j] = 0
                opp[24] += 1
                hits.append(b)
    return Position(tuple(me), tuple(opp)), tuple(hits)


def target_from_text(position: Position, text: str) -> list[int]:
    return mover_after(position, parse_move_text(text), text)


def target_from_steps(position: Position, steps) -> list[int]:
    target = list(position.on_roll)
    for a, b in steps:
        sa = 24 if a == 25 else a - 1
        if not (0 <= a <= 25 and 0 <= b <= 24) or target[sa] <= 0:
            raise IllegalMoveError(f"no checker on {'bar' if a == 25 else a} to move")
        target[sa] -= 1
        if b:
            target[b - 1] += 1
    return target


def resolve_play(position: Position, dice: tuple[int, int], text: Optional[str] = None,
             steps=None):
    """Find the legal play written as ``text`` (or ``steps``).

    Returns ``(play or None, number of legal plays)``; ``None`` with plays > 0 means no
    move was given.  Raises IllegalMoveError / AmbiguousMoveError / MoveParseError.
    """
    d1, d2 = (dice[0], dice[1]) if dice[0] >= dice[1] else (dice[1], dice[0])
    sc = movegen.scratch()
    empty = (steps is not None and len(steps) == 0) or (steps is None and not (text or "").strip())
    if empty:
        return None, sc.run(position.to_array(), d1, d2)
    if steps is not None:
        target = target_from_steps(position, steps)
    else:
        target = target_from_text(position, text or "")
    n, first, count = sc.find(position.to_array(), d1, d2, np.array(target, dtype=np.int8))
    if n == 0:
        raise IllegalMoveError(f"no play is legal with {d1}{d2}, but {text or steps!r} is written")
    if count == 0:
        shown = text if text is not None else " ".join(f"{a}/{b}" for a, b in steps)
        raise IllegalMoveError(f"{shown.strip()!r} is not a legal play for {dice[0]}{dice[1]}")
    idx = [first]
    if count > 1:
        idx = [i for i in range(n) if sc.boards[i, 1, :].tolist() == target]
        if steps is not None:
            # exact steps: pick the play whose hits follow from the steps in order
            after, hits = apply_steps(position, steps)
            for i in idx:
                if sc.boards[i, 0, :].tolist() == list(after.on_roll):
                    idx = [i]
                    break
            else:
                raise AmbiguousMoveError(f"steps {steps!r} fit {len(idx)} legal plays")
        else:
            return parse_play(position, (d1, d2), text or ""), n
    i = int(idx[0])
    k = int(sc.nsteps[i])
    st = tuple((a + 1, b + 1) for a, b in sc.steps[i, :k].tolist())
    opp_after = tuple(sc.boards[i, 0].tolist())
    me_after = tuple(sc.boards[i, 1].tolist())
    opp_before = position.opponent
    hits = ()
    if opp_after[24] != opp_before[24]:
        hits = tuple(sorted({24 - j for j in range(24) if opp_before[j] == 1 and opp_after[j] == 0}, reverse=True))
    return Play((d1, d2), st, hits, Position._trusted(me_after, opp_after)), n


def forced_play(position: Position, dice: tuple[int, int]) -> Play:
    """The only legal play of a roll (the caller knows there is exactly one)."""
    return movegen.legal_plays(position, dice)[0]
