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
              cube: Optional[int] = None) -> SvgBoard:
    """Draw ``position``; ``play`` = single-die (from, to) steps of the player on roll
    (25 = bar, 0 = off) drawn as arrows."""
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
        f'font-family="sans-serif">off {off_me}</text>')
    add(f'<text x="{tx}" y="{_M + 16}" font-size="12" text-anchor="middle" fill="#bbbbbb" '
        f'font-family="sans-serif">off {off_opp}</text>')
    pm, po = position.pips
    add(f'<text x="{tx}" y="{_H / 2 + 20}" font-size="10" text-anchor="middle" fill="{_LIGHT}" '
        f'font-family="sans-serif">{pm}</text>')
    add(f'<text x="{tx}" y="{_H / 2 - 12}" font-size="10" text-anchor="middle" fill="#bbbbbb" '
        f'font-family="sans-serif">{po}</text>')
    if cube is not None:
        add(f'<rect x="{tx - 14}" y="{_H / 2 - 6}" width="28" height="14" fill="#fff" stroke="#000"/>'
            f'<text x="{tx}" y="{_H / 2 + 5}" font-size="10" text-anchor="middle" '
            f'font-family="sans-serif">{cube}</text>')
    if play:
        for a, b in _arrows(play):
            x1, y1 = _loc(a, True)
            x2, y2 = _loc(b, False)
            add(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#c0392b" stroke-width="3" '
                f'marker-end="url(#arrow)" class="move-arrow"/>')
    add(f'<text x="{_M}" y="{_H - 4}" font-size="1" fill="none">{escape(names[0])} vs {escape(names[1])}</text>')
    if caption:
        add(f'<text x="{_W / 2}" y="{_H + 19}" font-size="14" text-anchor="middle" font-family="sans-serif">'
            f'{escape(caption)}</text>')
    add("</svg>")
    return SvgBoard("".join(parts))


def _arrows(steps: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in steps]


def _loc(p: int, start: bool) -> tuple[float, float]:
    if p == 25:
        return _M + 6 * _PW + _BAR / 2, _H / 2 + 2 * _CH
    if p == 0:
        return _M + 12 * _PW + _BAR + 12 + _TRAY / 2, _H - _M - 40
    x = _point_x(p)
    y = _M + 4 * _CH if _is_top(p) else _H - _M - 4 * _CH
    return x, y
