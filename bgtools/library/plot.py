"""PR over time with its 95 % band, as a hand-written SVG (or an HTML page holding it).

:func:`pr_plot` draws either a :func:`bgtools.library.stats.stats_table` (one point per group
with its interval as an error bar, the intervals joined into a shaded band, the "all" row as
a dashed line) or a :func:`bgtools.library.stats.rolling_pr` frame (the rolling PR as a line
over the decision count with its band).  Groups without a PR are left out; the band is broken
where an interval is missing (a group of one match).

The SVG marks what it draws with classes: ``band`` (polygons), ``point`` (circles),
``error-bar`` (lines), ``pr-line`` (the rolling polyline), ``overall`` (the dashed line), and
gives each point a ``<title>`` with its figures, so a browser shows them on hover.
"""

from __future__ import annotations

import math
import os
from html import escape
from typing import Sequence, Union

import numpy as np
import pandas as pd

from bgtools.base.errors import BgtoolsError
from bgtools.base.fileio import atomic_write

__all__ = ["PlotError", "pr_plot", "pr_svg"]

_W, _H = 820, 420
_L, _R, _T, _B = 60, 20, 40, 70  # margins: left, right, top, bottom
_MAX_POINTS = 2000  # a rolling line keeps at most this many vertices


class PlotError(BgtoolsError, ValueError):
    """A plot that cannot be drawn (no PR column, an unknown file type)."""


def _ticks(hi: float, n: int = 5) -> list[float]:
    """About ``n`` round tick values from 0 to at least ``hi``."""
    if not hi > 0:
        return [0.0, 1.0]
    raw = hi / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    return [i * step for i in range(int(math.ceil(hi / step)) + 1)]


def _runs(ok: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) of each run of True."""
    out, start = [], None
    for i, v in enumerate(ok):
        if v and start is None:
            start = i
        elif not v and start is not None:
            out.append((start, i))
            start = None
    if start is not None:
        out.append((start, len(ok)))
    return out


def _pts(xs: Sequence[float], ys: Sequence[float]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys))


def pr_svg(frame: pd.DataFrame, *, title: str = "PR over time (95 % interval)") -> str:
    """The SVG text of :func:`pr_plot`."""
    if "pr" not in frame.columns:
        raise PlotError("the frame has no pr column (expected stats_table or rolling_pr output)")
    rolling = "n" in frame.columns and "group" not in frame.columns
    f = frame
    overall = math.nan
    if not rolling:
        if "group" not in f.columns:
            raise PlotError("the frame has neither a group column (stats_table) nor an n column (rolling_pr)")
        allrow = f[f["group"] == "all"]
        if len(allrow) and len(f) > 1:
            overall = float(allrow["pr"].iloc[0])
        f = f[f["group"] != "all"]
    f = f[np.isfinite(f["pr"].to_numpy(float))]
    if rolling and len(f) > _MAX_POINTS:
        keep = np.unique(np.r_[np.linspace(0, len(f) - 1, _MAX_POINTS).astype(int), len(f) - 1])
        f = f.iloc[keep]
    pr = f["pr"].to_numpy(float)
    lo = f["pr_lo"].to_numpy(float) if "pr_lo" in f.columns else np.full(len(f), np.nan)
    hi = f["pr_hi"].to_numpy(float) if "pr_hi" in f.columns else np.full(len(f), np.nan)
    top = np.nanmax(np.r_[pr, hi, overall, 1.0]) if len(f) else 1.0
    ticks = _ticks(float(top) * 1.05)
    ymax = ticks[-1]
    pw, ph = _W - _L - _R, _H - _T - _B

    def y(v: float) -> float:
        return _T + ph * (1.0 - v / ymax)

    if rolling:
        n = f["n"].to_numpy(float)
        span = (n.min(), n.max()) if len(n) else (0.0, 1.0)
        span = span if span[1] > span[0] else (span[0] - 1, span[0] + 1)
        xs = [_L + pw * (v - span[0]) / (span[1] - span[0]) for v in n]
    else:
        k = len(f)
        xs = [_L + pw * (i + 0.5) / max(k, 1) for i in range(k)]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_W} {_H}" width="{_W}" height="{_H}" '
           f'role="img" aria-label="{escape(title)}">',
           f'<rect x="0" y="0" width="{_W}" height="{_H}" fill="white"/>',
           f'<text x="{_W / 2}" y="22" text-anchor="middle" font-family="sans-serif" font-size="15">'
           f'{escape(title)}</text>']
    for t in ticks:
        out.append(f'<line class="grid" x1="{_L}" x2="{_W - _R}" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{_L - 6}" y="{y(t) + 4:.1f}" text-anchor="end" font-family="sans-serif" '
                   f'font-size="11">{t:g}</text>')
    out.append(f'<text x="14" y="{_T + ph / 2}" transform="rotate(-90 14 {_T + ph / 2})" text-anchor="middle" '
               f'font-family="sans-serif" font-size="12">PR</text>')
    ok = np.isfinite(lo) & np.isfinite(hi)
    for a, b in _runs(ok):
        if b - a >= 2 or rolling:
            poly = _pts(xs[a:b] + xs[a:b][::-1], [y(v) for v in lo[a:b]] + [y(v) for v in hi[a:b][::-1]])
            out.append(f'<polygon class="band" points="{poly}" fill="#4a90d9" fill-opacity="0.2" stroke="none"/>')
    if not math.isnan(overall):
        out.append(f'<line class="overall" x1="{_L}" x2="{_W - _R}" y1="{y(overall):.1f}" y2="{y(overall):.1f}" '
                   f'stroke="#888" stroke-dasharray="6 4"><title>all: PR {overall:.2f}</title></line>')
    if rolling:
        out.append(f'<polyline class="pr-line" points="{_pts(xs, [y(v) for v in pr])}" fill="none" '
                   f'stroke="#1f5fa8" stroke-width="1.5"/>')
        for v in _ticks(float(f["n"].max()) if len(f) else 1.0, 6):
            if len(f) and span[0] <= v <= span[1]:
                x = _L + pw * (v - span[0]) / (span[1] - span[0])
                out.append(f'<text x="{x:.1f}" y="{_H - _B + 18}" text-anchor="middle" font-family="sans-serif" '
                           f'font-size="11">{v:g}</text>')
        out.append(f'<text x="{_L + pw / 2}" y="{_H - 20}" text-anchor="middle" font-family="sans-serif" '
                   f'font-size="12">decisions</text>')
    else:
        groups = [str(g) for g in f["group"]]
        step = max(1, math.ceil(len(groups) / 24))
        for i, (x, g) in enumerate(zip(xs, groups)):
            figures = f"{g}: PR {pr[i]:.2f}"
            if ok[i]:
                figures += f" [{lo[i]:.2f}, {hi[i]:.2f}]"
                out.append(f'<line class="error-bar" x1="{x:.1f}" x2="{x:.1f}" y1="{y(lo[i]):.1f}" '
                           f'y2="{y(hi[i]):.1f}" stroke="#1f5fa8"/>')
            if "matches" in f.columns:
                figures += f", {int(f['matches'].iloc[i])} matches"
            out.append(f'<circle class="point" cx="{x:.1f}" cy="{y(pr[i]):.1f}" r="4" fill="#1f5fa8">'
                       f'<title>{escape(figures)}</title></circle>')
            if i % step == 0:
                ly = _H - _B + 14
                out.append(f'<text x="{x:.1f}" y="{ly}" transform="rotate(40 {x:.1f} {ly})" font-family="sans-serif" '
                           f'font-size="11">{escape(g)}</text>')
    out.append(f'<line x1="{_L}" x2="{_L}" y1="{_T}" y2="{_T + ph}" stroke="#333"/>')
    out.append(f'<line x1="{_L}" x2="{_W - _R}" y1="{_T + ph}" y2="{_T + ph}" stroke="#333"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def pr_plot(table_or_rolling: pd.DataFrame, path: Union[str, os.PathLike], *,
            title: str = "PR over time (95 % interval)") -> None:
    """Draw PR with its band (see the module docstring) to ``path``: ``.svg`` (or ``-``,
    standard output) or ``.html`` (a page holding the SVG), atomically."""
    name = os.fspath(path)
    svg = pr_svg(table_or_rolling, title=title)
    if name == "-" or name.lower().endswith(".svg"):
        atomic_write(path, svg)
    elif name.lower().endswith((".html", ".htm")):
        atomic_write(path, f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{escape(title)}</title></head>"
                           f"<body>\n{svg}</body></html>\n")
    else:
        raise PlotError(f"{name}: unknown plot format (expected .svg or .html)")
