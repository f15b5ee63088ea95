"""A text board in the layout of gnubg's: the player on roll (X) at the bottom."""

from __future__ import annotations

from typing import Sequence


def _cell(n: int, ch: str, row: int) -> str:
    """One 3-wide cell for a point holding ``n`` checkers of ``ch`` at ``row`` (0 = edge)."""
    if n > row:
        if row == 4 and n > 5:
            return f"{n:>2} "[:3] if n < 10 else f"{n:<3}"
        return f" {ch} "
    return "   "


def render(me: Sequence[int], opp: Sequence[int], *, names: tuple[str, str] = ("X", "O")) -> str:
    """ASCII board of the sides ``me`` (on roll) and ``opp`` (25 slots each, from their owner's
    side; slot 24 = the bar); ``names`` = (player on roll, opponent)."""
    # X's own point p holds me[p-1]; O's checkers on X's point p are opp[24-p]
    def count(p: int) -> tuple[int, str]:
        if me[p - 1]:
            return me[p - 1], "X"
        if opp[24 - p]:
            return opp[24 - p], "O"
        return 0, " "

    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))
    lines = []
    lines.append(" +13-14-15-16-17-18------19-20-21-22-23-24-+")
    for row in range(5):
        cells = [_cell(*count(p), row) for p in top]
        bar = f" {'O' if opp[24] > row else ' '} " if row < 4 or opp[24] <= 5 else f"{opp[24]:>2} "
        lines.append(" |" + "".join(cells[:6]) + "|" + bar + "|" + "".join(cells[6:]) + "|")
    lines.append("v|                  |BAR|                  |")
    for row in range(4, -1, -1):
        cells = [_cell(*count(p), row) for p in bottom]
        bar = f" {'X' if me[24] > row else ' '} " if row < 4 or me[24] <= 5 else f"{me[24]:>2} "
        lines.append(" |" + "".join(cells[:6]) + "|" + bar + "|" + "".join(cells[6:]) + "|")
    lines.append(" +12-11-10--9--8--7-------6--5--4--3--2--1-+")
    off_me, off_opp = 15 - sum(me), 15 - sum(opp)
    pm = sum((i + 1) * n for i, n in enumerate(me))
    po = sum((i + 1) * n for i, n in enumerate(opp))
    lines[0] += f"     O: {names[1]}  pips {po}  off {off_opp}"
    lines[-1] += f"     X: {names[0]}  pips {pm}  off {off_me}  (on roll)"
    return "\n".join(lines)
