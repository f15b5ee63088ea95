"""SVG board diagrams.

:func:`board_svg` draws a position from the view of the player on roll (his checkers light,
moving anticlockwise from his 24-point at the top right... to his 1-point at the bottom right),
optionally with arrows for a play and a caption.  The result is a ``str`` subclass that
Jupyter renders inline.

>>> from bgtools.core.position import Position
>>> svg = board_svg(Position.initial())
>>> svg.startswith("<svg") and svg.count("<circle") == 30
True
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence
from xml.sax.saxutils import escape

from bgtools.core.matchstate import MatchState
from bgtools.core.position import Position

__all__ = ["SvgBoard", "board_svg"]

# geometry (user units)
_W, _H = 560, 420
_M = 20  # frame margin
_PW = 34  # point width
_BAR = 36
_TRAY = 44
_CH = 16  # checker radius
_LIGHT, _DARK = "#f4efe1", "#3b3b3b"


class SvgBoard(str):
    """An SVG document (a ``str``) that notebooks display as a picture."""

    def _repr_svg_(self) -> str:
        return str(self)


def _point_x(p: int) -> float:
    """Centre x of the on-roll player's point ``p`` (1..24)."""
    if 1 <= p <= 6:
        col = 12 - p  # 6..11 from the left, right half
    elif 7 <= p <= 12:
        col = 12 - p  # 0..5, left half
    elif 13 <= p <= 18:
        col = p - 13
    else:
        col = p - 13
    x = _M + col * _PW + _PW / 2
    if col >= 6:
        x += _BAR
    return x


def _is_top(p: int) -> bool:
    return p >= 13


def _checker_xy(p: int, k: int) -> tuple[float, float]:
    x = _point_x(p)
    k = min(k, 4)
    if _is_top(p):
        return x, _M + _CH + k * 2 * _CH
    return x, _H - _M - _CH - k * 2 * _CH


def board_svg(position: Position, *, play: Optional[Sequence[tuple[int, int]]] = None,
              caption: str = "", names: tuple[str, str] = ("on roll", "opponent"),
              cube: Optional[int] = None, cube_owner: Optional[str] = None,
              state: Optional[MatchState] = None) -> SvgBoard:
    """Draw ``position``; ``play`` = single-die (from, to) steps of the player on roll
    (25 = bar, 0 = off) drawn as arrows.

    The cube is drawn on its owner's side of the tray (the player on roll at the bottom) and in
    the middle when centred: from ``state`` (the match state that goes with ``position``: its
    ``cube_owner`` compared with ``player_on_roll``), else ``cube`` with ``cube_owner``
    ``"on roll"``, ``"opponent"`` or None (centred)."""
    me, opp = position.on_roll, position.opponent
    parts: list[str] = []
    add = parts.append
    total_h = _H + (28 if caption else 0)
    add(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_W} {total_h}" width="{_W}" height="{total_h}" '
        f'role="img" aria-label="backgammon position {position.position_id()}">')
    add('<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#c0392b"/></marker></defs>')
    board_w = 12 * _PW + _BAR
    add(f'<rect x="0" y="0" width="{_W}" height="{_H}" fill="#7a4b2a"/>')
    add(f'<rect x="{_M}" y="{_M}" width="{board_w}" height="{_H - 2 * _M}" fill="#d9b77e"/>')
    bar_x = _M + 6 * _PW
    add(f'<rect x="{bar_x}" y="{_M}" width="{_BAR}" height="{_H - 2 * _M}" fill="#7a4b2a"/>')
    tray_x = _M + board_w + 12
    add(f'<rect x="{tray_x}" y="{_M}" width="{_TRAY}" height="{_H - 2 * _M}" fill="#5c371e"/>')
    # points
    tri_h = 5 * 2 * _CH
    for p in range(1, 25):
        x = _point_x(p)
        colour = "#a23b2a" if p % 2 else "#efe3c8"
        if _is_top(p):
            pts = f"{x - _PW / 2},{_M} {x + _PW / 2},{_M} {x},{_M + tri_h}"
            ty = _M - 6
        else:
            pts = f"{x - _PW / 2},{_H - _M} {x + _PW / 2},{_H - _M} {x},{_H - _M - tri_h}"
            ty = _H - 6
        add(f'<polygon points="{pts}" fill="{colour}" stroke="#6b4a2b" stroke-width="0.5"/>')
        add(f'<text x="{x}" y="{ty}" font-size="10" text-anchor="middle" fill="#f4efe1" '
            f'font-family="sans-serif">{p}</text>')

    def stack(x: float, y0: float, dy: float, n: int, fill: str, stroke: str) -> None:
        for k in range(min(n, 5)):
            add(f'<circle cx="{x}" cy="{y0 + k * dy}" r="{_CH - 1}" fill="{fill}" stroke="{stroke}" '
                f'stroke-width="1.5" class="checker"/>')
        if n > 5:
            add(f'<text x="{x}" y="{y0 + 4 * dy + 4}" font-size="12" text-anchor="middle" '
                f'font-family="sans-serif" font-weight="bold" fill="{stroke}">{n}</text>')

    for p in range(1, 25):
        n_me, n_opp = me[p - 1], opp[24 - p]
        n, fill, stroke = (n_me, _LIGHT, _DARK) if n_me else (n_opp, _DARK, _LIGHT)
        if n:
            x, y0 = _checker_xy(p, 0)
            stack(x, y0, 2 * _CH if _is_top(p) else -2 * _CH, n, fill, stroke)
    cx = bar_x + _BAR / 2
    if me[24]:
        stack(cx, _H / 2 + 2 * _CH, 2 * _CH, me[24], _LIGHT, _DARK)
    if opp[24]:
        stack(cx, _H / 2 - 2 * _CH, -2 * _CH, opp[24], _DARK, _LIGHT)
    off_me, off_opp = position.borne_off
    tx = tray_x + _TRAY / 2
    add(f'<text x="{tx}" y="{_H - _M - 8}" font-size="12" text-anchor="middle" fill="{_LIGHT}" '
        f'font-family="sans-serif" class="off">off {off_me}</text>')
    add(f'<text x="{tx}" y="{_M + 16}" font-size="12" text-anchor="middle" fill="#bbbbbb" '
        f'font-family="sans-serif" class="off">off {off_opp}</text>')
    pm, po = position.pips
    add(f'<text x="{tx}" y="{_H - _M - 28}" font-size="10" text-anchor="middle" fill="{_LIGHT}" '
        f'font-family="sans-serif" class="pips">{pm}</text>')
    add(f'<text x="{tx}" y="{_M + 36}" font-size="10" text-anchor="middle" fill="#bbbbbb" '
        f'font-family="sans-serif" class="pips">{po}</text>')
    value, owner = _cube_of(cube, cube_owner, state)
    if value is not None:
        cy = _CUBE_Y[owner]
        h = _CUBE / 2
        add(f'<g class="cube" data-owner="{owner}"><rect x="{tx - h}" y="{cy - h}" width="{_CUBE}" '
            f'height="{_CUBE}" rx="3" fill="#fff" stroke="#000"/><text x="{tx}" y="{cy + 4}" '
            f'font-size="{11 if value < 1000 else 8}" text-anchor="middle" font-family="sans-serif">{value}</text></g>')
    if play:
        for x1, y1, qx, qy, x2, y2 in _arrow_curves(play):
            add(f'<path d="M{x1:.1f},{y1:.1f} Q{qx:.1f},{qy:.1f} {x2:.1f},{y2:.1f}" fill="none" '
                f'stroke="#c0392b" stroke-width="3" stroke-opacity="0.9" marker-end="url(#arrow)" class="move-arrow"/>')
    add(f'<text x="{_M}" y="{_H - 4}" font-size="1" fill="none">{escape(names[0])} vs {escape(names[1])}</text>')
    if caption:
        add(f'<text x="{_W / 2}" y="{_H + 19}" font-size="14" text-anchor="middle" font-family="sans-serif">'
            f'{escape(caption)}</text>')
    add("</svg>")
    return SvgBoard("".join(parts))


_CUBE = 26  # cube side
#: centre y of the cube: at the top (the opponent owns it), in the middle, at the bottom (the player on roll)
_CUBE_Y = {"opponent": _H / 2 - 70, "centred": _H / 2, "on roll": _H / 2 + 70}
_SPREAD = 10.0  # x distance between arrow ends that share a point
_BOW, _MIN_BOW, _LANE = 0.22, 18.0, 14.0  # how far an arrow bows: share of its length (at least
# _MIN_BOW), plus _LANE for each earlier arrow of the same step


def _cube_of(cube: Optional[int], owner: Optional[str], state: Optional[MatchState]) -> tuple[Optional[int], str]:
    """(value, "on roll" | "opponent" | "centred") of the cube to draw, or (None, "") for none."""
    if state is not None:
        if state.cube_owner == -1:
            return state.cube, "centred"
        return state.cube, "on roll" if state.cube_owner == state.player_on_roll else "opponent"
    if cube is None:
        return None, ""
    side = owner or "centred"
    if side not in _CUBE_Y:
        raise ValueError(f"cube owner {owner!r} must be 'on roll', 'opponent' or None (centred)")
    return cube, side


def _loc(p: int) -> tuple[float, float]:
    """Where an arrow starts or ends on point ``p`` (25 = bar, 0 = off)."""
    if p == 25:
        return _M + 6 * _PW + _BAR / 2, _H / 2 + 2 * _CH
    if p == 0:
        return _M + 12 * _PW + _BAR + 12 + _TRAY / 2, _H - _M - 56
    x = _point_x(p)
    y = _M + 4 * _CH if _is_top(p) else _H - _M - 4 * _CH
    return x, y


def _spread(keys: list[int]) -> list[tuple[float, int]]:
    """(x offset, rank) per arrow end, keeping ends at the same point apart: the j-th of k
    ends at a point gets rank j and an x offset across the point (0 for a point used once)."""
    count: dict[int, int] = {}
    for k in keys:
        count[k] = count.get(k, 0) + 1
    seen: dict[int, int] = {}
    out = []
    for k in keys:
        j = seen.get(k, 0)
        seen[k] = j + 1
        out.append(((j - (count[k] - 1) / 2) * _SPREAD, j))
    return out


def _end(p: int, dx: float, rank: int) -> tuple[float, float]:
    """An arrow end at point ``p``: moved across by ``dx`` and, for the rank-th arrow there,
    one checker further towards the middle of the board (the next checker of the stack)."""
    x, y = _loc(p)
    towards = 1.0 if y < _H / 2 else -1.0
    return x + dx, y + towards * rank * 1.5 * _CH


def _arrow_curves(steps: Iterable[tuple[int, int]]) -> list[tuple[float, float, float, float, float, float]]:
    """A quadratic curve ``(x1, y1, control x, control y, x2, y2)`` per step.

    Arrows that start (or end) at the same point are moved apart along the point, each is bowed
    towards the middle of the board by a share of its length, and a step repeated (a double)
    bows further, so no arrow hides another.  One checker's steps still join end to start.
    """
    pairs = [(int(a), int(b)) for a, b in steps]
    ds, de = _spread([a for a, _ in pairs]), _spread([b for _, b in pairs])
    centre = (_M + 6 * _PW + _BAR / 2, _H / 2)
    lanes: dict[tuple[int, int], int] = {}
    out = []
    for (a, b), sa, sb in zip(pairs, ds, de):
        (x1, y1), (x2, y2) = _end(a, *sa), _end(b, *sb)
        lane = lanes.get((a, b), 0)
        lanes[(a, b)] = lane + 1
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
        nx, ny = -(y2 - y1) / length, (x2 - x1) / length
        if nx * (centre[0] - mx) + ny * (centre[1] - my) < 0:
            nx, ny = -nx, -ny
        bow = max(_BOW * length, _MIN_BOW) + _LANE * lane
        out.append((x1, y1, mx + nx * bow, my + ny * bow, x2, y2))
    return out
