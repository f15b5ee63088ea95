"""A deliberately plain pure-Python legal-move generator, used as an independent check in
property tests and as the baseline of ``benchmarks/movegen.py``.

Boards are two lists of 25 ints in gnubg order (``[opponent, on_roll]``, own view, slot 24 =
bar).  Returns ``{resulting_board_key: n_dice_used}`` with the mover still as ``[1]``.
"""

from __future__ import annotations


def _can(me, opp, s, d):
    if me[s] == 0:
        return None
    if me[24] and s != 24:
        return None
    t = s - d
    if t >= 0:
        return t if opp[23 - t] < 2 else None
    if any(me[6:25]):
        return None
    if t == -1 or not any(me[s + 1:6]):
        return -1
    return None


def move_checker(me, opp, s, t):
    """Copies of both sides after one checker of ``me`` moves from slot ``s`` to ``t`` (-1: off), hitting a blot."""
    me = me[:]
    opp = opp[:]
    me[s] -= 1
    if t >= 0:
        me[t] += 1
        if opp[23 - t] == 1:
            opp[23 - t] = 0
            opp[24] += 1
    return me, opp


def reference_plays(board, d1, d2):
    """All distinct legal results: dict key -> (opp, me, dice_used, pips_used)."""
    dice_orders = [[d1] * 4] if d1 == d2 else [[d1, d2], [d2, d1]]
    found = {}

    def rec(me, opp, rest, used, pips):
        moved = False
        if rest:
            d = rest[0]
            for s in range(25):
                t = _can(me, opp, s, d)
                if t is None:
                    continue
                moved = True
                m2, o2 = move_checker(me, opp, s, t)
                rec(m2, o2, rest[1:], used + 1, pips + d)
        if not moved:
            key = (tuple(opp), tuple(me))
            prev = found.get(key)
            if prev is None or (used, pips) > prev[2:]:
                found[key] = (opp, me, used, pips)

    for order in dice_orders:
        rec(list(board[1]), list(board[0]), order, 0, 0)
    if not found:
        return {}
    best = max((v[2], v[3]) for v in found.values())
    if best[0] == 0:
        return {}
    # the most dice; among single-die plays, the larger die
    return {k: v for k, v in found.items() if (v[2], v[3]) == best or (v[2] == best[0] and best[0] != 1)}
