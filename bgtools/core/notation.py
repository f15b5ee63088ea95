"""Move notation, written: gnubg-style text of a play.

Formatting follows gnubg's habits: one checker's consecutive steps are joined
(``24/18/12`` is written ``24/12``) unless it hits on the way (``8/2*/1``), moves are
listed from the highest starting point down, and identical moves are grouped as
``13/7(2)``.  Reading move text is :mod:`bgtools.core.moveparse`.

>>> format_play(((24, 18), (18, 12)))
'24/12'
>>> format_play(((13, 7), (13, 7), (24, 18), (24, 18)), doubles=True)
'24/18(2) 13/7(2)'
"""

from __future__ import annotations

from typing import Sequence

__all__ = ["format_play", "point_name"]


def point_name(p: int) -> str:
    """``bar`` for 25, ``off`` for 0, else the number."""
    return "bar" if p == 25 else ("off" if p == 0 else str(p))


def format_play(steps: Sequence[tuple[int, int]], hits: Sequence[int] = (),
                doubles: bool | None = None) -> str:
    """Format single-die steps ``(from, to)`` (25 = bar, 0 = off) in gnubg notation.

    ``doubles`` only changes the order of moves that start on the same point (gnubg
    lists the longer move first for doubles, the shorter first otherwise); by default it
    is inferred from the number and lengths of the steps.
    """
    if doubles is None:
        lengths = {a - b for a, b in steps if b != 0}
        doubles = len(steps) > 2 or (len(steps) == 2 and len(lengths) == 1)
    remaining = sorted((tuple(s) for s in steps), key=lambda s: -s[0])
    used = [False] * len(remaining)
    chains: list[tuple[int, ...]] = []
    for i, (a, b) in enumerate(remaining):
        if used[i]:
            continue
        used[i] = True
        chain = [a, b]
        while chain[-1] != 0:
            nxt = next((j for j, (c, _) in enumerate(remaining) if not used[j] and c == chain[-1]), None)
            if nxt is None:
                break
            used[nxt] = True
            chain.append(remaining[nxt][1])
        chains.append(tuple(chain))
    # highest start first; from the same start gnubg puts the longer move first for
    # doubles and the shorter first otherwise
    chains.sort(key=lambda c: (-c[0], c[-1] if doubles else -c[-1]))
    unhit = set(hits)
    out: list[str] = []
    i = 0
    while i < len(chains):
        j = i
        while j + 1 < len(chains) and chains[j + 1] == chains[i]:
            j += 1
        head = chains[i]
        text = point_name(head[0])
        marked = set()
        for k, p in enumerate(head[1:], start=1):
            hit = p in unhit
            if hit:
                marked.add(p)
            if k == len(head) - 1 or hit:
                text += "/" + point_name(p) + ("*" if hit else "")
        unhit -= marked  # a blot is marked on the first group of moves that reaches it
        cnt = j - i + 1
        out.append(text + (f"({cnt})" if cnt > 1 else ""))
        i = j + 1
    return " ".join(out)
