"""A self-contained HTML page for an analysed match: summary, chart and error diagrams.

:func:`html_report` takes a :class:`~bgtools.model.match.Match` and its
:class:`~bgtools.analysis.analyse.MatchAnalysis` and returns one HTML document with no external
resources and no JavaScript: a summary table per player, a table per game, an inline
SVG chart of the first player's winning chances after every checker play (cubeless game
winning chance, and the match winning chance in match play), and for each error a board
diagram of the play made, one of the best play, and the candidates (or the cube values).
"""

from __future__ import annotations

import heapq
from array import array
from html import escape
from typing import Any, Callable, Iterable, Optional, Sequence, Union

from bgtools.analysis.records import ERROR_THRESHOLDS, ERRORS, Decision, MatchAnalysis
from bgtools.core.position import PositionClass

__all__ = ["html_report", "equity_chart_svg", "ReportData"]

_CSS = """
body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1200px}
h1{font-size:22px;margin-bottom:4px} h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ccc}
h3{font-size:15px;margin:18px 0 6px}
table{border-collapse:collapse;margin:8px 0;font-size:13px}
th,td{border:1px solid #ccc;padding:3px 8px;text-align:right} th{background:#f0ece2}
td.l,th.l{text-align:left}
tr.played td{background:#fde2dd;font-weight:600}
.meta{color:#555;font-size:13px}
.boards{display:flex;gap:16px;flex-wrap:wrap;align-items:flex-start}
.boards figure{margin:0;width:360px} .boards svg{width:100%;height:auto}
.boards figcaption{font-size:12px;color:#444;text-align:center}
.err-very-bad{color:#b00020} .err-bad{color:#c75000} .err-doubtful{color:#8a6d00}
.chart svg{width:100%;height:auto}
"""

#: "doubtful / bad / very bad", and each with the equity loss above which it applies
_ERROR_NAMES = " / ".join(ERRORS)
_ERROR_LIMITS = ", ".join(f"{c} &gt; {limit:g}" for c, limit in reversed(ERROR_THRESHOLDS))
#: the phases the summary counts errors in, the most complex first
_TABLE_PHASES = tuple(c.label for c in reversed(PositionClass) if c is not PositionClass.OVER)


def _phase_cell(phase: str) -> Callable[[Any], str]:
    """The table cell of one phase's error counts for a player summary."""
    def cell(s: Any) -> str:
        return " / ".join(str(s.errors_by_phase.get(phase, {}).get(k, 0)) for k in ERRORS)
    return cell


def _f(x: Optional[float], digits: int = 3, sign: bool = True) -> str:
    if x is None:
        return ""
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


class ReportData:
    """What the report shows of an analysis' decisions, gathered a game at a time (:meth:`add`):
    a few numbers per point of the chart, the errors' dots on it, the number of errors and the
    ``max_errors`` largest of them (the report shows no more), so that a report of a big file
    is made in little memory."""

    def __init__(self, max_errors: int = 300) -> None:
        self.max_errors = max_errors
        self.game = array("i")  #: per chart point (a checker play): its game
        self.win = array("d")  #: player 0's game winning chance after it
        self.mwc = array("d")  #: player 0's match winning chance after it (where ``has_mwc``)
        self.has_mwc = array("b")
        self.dots: list[tuple[int, int, str]] = []  #: (chart point, player, title) of each error played
        self.errors = 0  #: errors (doubtful or worse) in all
        self._top: list[tuple[float, int, int, Decision]] = []  # (loss, -seq, seq, decision), a min-heap
        self._seq = 0

    def add(self, decisions: Iterable[Decision]) -> None:
        """Take the next decisions (in match order)."""
        for d in decisions:
            if d.kind == "checker" and d.win_after is not None:
                i = len(self.win)
                self.game.append(d.game)
                self.win.append(d.win_after or 0.0)
                self.mwc.append(0.0 if d.mwc_after is None else d.mwc_after)
                self.has_mwc.append(d.mwc_after is not None)
                if d.error_class != "none":
                    self.dots.append((i, d.player, f"game {d.game} move {d.move_number}: {escape(d.player_name)} "
                                                    f"{d.dice} {escape(d.played)} ({d.error_class}, "
                                                    f"{d.equity_loss:.3f})"))
            if d.error_class != "none":
                self.errors += 1
                item = (d.equity_loss, -self._seq, self._seq, d)  # ties: the earlier is kept
                if len(self._top) < self.max_errors:
                    heapq.heappush(self._top, item)
                elif self.max_errors:
                    heapq.heappushpop(self._top, item)
            self._seq += 1

    def shown_errors(self) -> list[Decision]:
        """The errors the report shows (the largest ``max_errors``), in match order."""
        return [d for _, _, _, d in sorted(self._top, key=lambda t: t[2])]


def equity_chart_svg(analysis: Union[MatchAnalysis, ReportData], width: int = 1000, height: int = 280,
                     players: Optional[Sequence[str]] = None) -> str:
    """Inline SVG: the first player's cubeless winning chance (and MWC in match play) after
    each unforced or forced checker play; game boundaries as dashed lines, errors as dots.
    ``players``: the names (default: the analysis')."""
    if isinstance(analysis, MatchAnalysis):
        players = players or analysis.players
        data = ReportData(0)
        data.add(analysis.decisions)
    else:
        data = analysis
    assert players is not None
    ml, mr, mt, mb = 46, 12, 16, 30
    w, h = width - ml - mr, height - mt - mb
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
           f'height="{height}" class="equity-chart" role="img" aria-label="winning chances over the match">',
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>']
    for v in (0.0, 0.25, 0.5, 0.75, 1.0):
        gy = mt + h * (1 - v)
        out.append(f'<line x1="{ml}" y1="{gy:.1f}" x2="{ml + w}" y2="{gy:.1f}" stroke="#ddd"/>'
                   f'<text x="{ml - 6}" y="{gy + 4:.1f}" font-size="11" text-anchor="end" '
                   f'font-family="sans-serif">{int(v * 100)}%</text>')
    n = len(data.win)
    if n == 0:
        out.append(f'<text x="{ml + 10}" y="{mt + h / 2}" font-size="13" font-family="sans-serif">'
                   'no checker plays analysed</text></svg>')
        return "".join(out)

    def x(i: int) -> float:
        return ml + (w * i / (n - 1) if n > 1 else w / 2)

    def y(v: float) -> float:
        return mt + h * (1 - max(0.0, min(1.0, v)))

    last_game = None
    for i, game in enumerate(data.game):
        if game != last_game:
            out.append(f'<line x1="{x(i):.1f}" y1="{mt}" x2="{x(i):.1f}" y2="{mt + h}" stroke="#999" '
                       f'stroke-dasharray="4 3"/><text x="{x(i) + 3:.1f}" y="{mt + h + 14}" font-size="11" '
                       f'font-family="sans-serif">game {game}</text>')
            last_game = game
    win = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(data.win))
    out.append(f'<polyline points="{win}" fill="none" stroke="#2b6cb0" stroke-width="2" class="win-line"/>')
    with_mwc = any(data.has_mwc)
    if with_mwc:
        mwc = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(data.mwc) if data.has_mwc[i])
        out.append(f'<polyline points="{mwc}" fill="none" stroke="#2f855a" stroke-width="2" '
                   f'stroke-dasharray="6 3" class="mwc-line"/>')
    for i, player, title in data.dots:
        colour = "#b00020" if player == 0 else "#c75000"
        out.append(f'<circle cx="{x(i):.1f}" cy="{y(data.win[i]):.1f}" r="3.5" fill="{colour}">'
                   f'<title>{title}</title></circle>')
    name = escape(players[0])
    legend = f'{name}: game winning chance'
    out.append(f'<line x1="{ml + 10}" y1="{mt + 6}" x2="{ml + 30}" y2="{mt + 6}" stroke="#2b6cb0" stroke-width="2"/>'
               f'<text x="{ml + 34}" y="{mt + 10}" font-size="11" font-family="sans-serif">{legend}</text>')
    if with_mwc:
        out.append(f'<line x1="{ml + 260}" y1="{mt + 6}" x2="{ml + 280}" y2="{mt + 6}" stroke="#2f855a" '
                   f'stroke-width="2" stroke-dasharray="6 3"/><text x="{ml + 284}" y="{mt + 10}" font-size="11" '
                   f'font-family="sans-serif">{name}: match winning chance</text>')
    out.append("</svg>")
    return "".join(out)


def _summary_table(a: MatchAnalysis) -> str:
    rows: list[tuple[str, Callable[[Any], str]]] = [("Unforced checker plays", lambda s: str(s.unforced_moves)),
            (f"Checker errors {_ERROR_NAMES}", lambda s: " / ".join(str(s.checker_errors[k]) for k in ERRORS)),
            ("Checker error rate (x1000 per unforced play)", lambda s: f"{1000 * s.checker_error_rate:.1f}"),
            ("Cube decisions (close or actual)", lambda s: str(s.cube_decisions)),
            (f"Cube errors {_ERROR_NAMES}", lambda s: " / ".join(str(s.cube_errors[k]) for k in ERRORS)),
            ("Cube error rate (x1000 per decision)", lambda s: f"{1000 * s.cube_error_rate:.1f}"),
            ("Overall error rate (x1000 per decision)", lambda s: f"{1000 * s.error_rate:.1f}"),
            ("PR (500 x mean loss per decision)", lambda s: f"{s.pr:.1f}"),
            ("Rating", lambda s: escape(s.rating)),
            ("Total luck (normalised)", lambda s: _f(s.luck)),
            ("Result" + (" (MWC gained)" if a.length else " (points)"), lambda s: _f(s.result)),
            ("Luck-adjusted result", lambda s: _f(s.luck_adjusted))]
    for phase in _TABLE_PHASES:
        if any(phase in s.errors_by_phase for s in a.players_summary):
            rows.append((f"Errors in {phase} positions ({_ERROR_NAMES})", _phase_cell(phase)))
    head = "".join(f"<th>{escape(s.name)}</th>" for s in a.players_summary)
    body = "".join(f'<tr><td class="l">{escape(label)}</td>' + "".join(f"<td>{fn(s)}</td>" for s in a.players_summary)
                   + "</tr>" for label, fn in rows)
    return f'<table class="summary"><tr><th class="l"></th>{head}</tr>{body}</table>'


def _games_table(a: MatchAnalysis) -> str:
    p0, p1 = (escape(n) for n in a.players)
    out = [f'<table class="games"><tr><th>Game</th><th>Score</th><th class="l">Winner</th><th>Points</th>'
           f'<th>Luck {p0}</th><th>Luck {p1}</th><th>Loss {p0}</th><th>Loss {p1}</th></tr>']
    for g in a.games:
        winner = "" if g.winner is None else escape(a.players[g.winner])
        out.append(f"<tr><td>{g.game}</td><td>{g.score[0]}-{g.score[1]}</td><td class='l'>{winner}</td>"
                   f"<td>{g.points}</td><td>{_f(g.luck[0])}</td><td>{_f(g.luck[1])}</td>"
                   f"<td>{_f(g.loss[0], sign=False)}</td><td>{_f(g.loss[1], sign=False)}</td></tr>")
    out.append("</table>")
    return "".join(out)


def _error_block(d: Decision, names: tuple[str, str]) -> str:
    from bgtools.analysis.svg import board_svg

    pos = d.position
    cube = d.state.cube
    cls = d.error_class.replace(" ", "-")
    who = (names[d.player], names[1 - d.player])
    title = (f'Game {d.game}, move {d.move_number}: {escape(d.player_name)} '
             f'{"rolls " + d.dice + ", " if d.dice else ""}'
             f'<span class="err-{cls}">{d.error_class}</span> ({d.equity_loss:.3f})')
    parts = [f'<section class="error" id="{escape(d.row_key)}"><h3>{title}</h3><div class="boards">']
    if d.kind == "checker":
        best = d.candidates[0]
        parts.append(f'<figure class="board played">{board_svg(pos, play=d.steps, names=who, cube=cube)}'
                     f'<figcaption>played: {escape(d.played)}</figcaption></figure>')
        parts.append(f'<figure class="board best">{board_svg(pos, play=best.steps, names=who, cube=cube)}'
                     f'<figcaption>best: {escape(best.move)}</figcaption></figure>')
        rows = ['<table class="candidates"><tr><th>#</th><th class="l">Play</th><th>Equity</th><th>Diff</th>'
                '<th>Win</th><th>Ply</th></tr>']
        for k, c in enumerate(d.candidates):
            cls_row = ' class="played"' if k == d.played_index else ""
            rows.append(f"<tr{cls_row}><td>{k + 1}</td><td class='l'>{escape(c.move)}</td><td>{_f(c.equity)}</td>"
                        f"<td>{_f(c.equity - best.equity)}</td><td>{100 * c.probs[0]:.1f}%</td><td>{c.ply}</td></tr>")
        rows.append("</table>")
        parts.append("<div>" + "".join(rows) + "</div>")
    else:
        cu = d.cube
        assert cu is not None
        parts.append(f'<figure class="board cube">{board_svg(pos, names=who, cube=cube)}'
                     f'<figcaption>{escape(d.played)} (proper: {escape(cu.action)} / {escape(cu.response)})'
                     f'</figcaption></figure>')
        parts.append('<div><table class="cube"><tr><th class="l">Action</th><th>Equity</th></tr>'
                     f"<tr><td class='l'>No double</td><td>{_f(cu.nd)}</td></tr>"
                     f"<tr><td class='l'>Double, take</td><td>{_f(cu.dt)}</td></tr>"
                     f"<tr><td class='l'>Double, pass</td><td>{_f(cu.dp)}</td></tr></table>"
                     f"<p class='meta'>Cubeless win {100 * cu.probs[0]:.1f}%, gammon {100 * cu.probs[1]:.1f}%, "
                     f"lose gammon {100 * cu.probs[3]:.1f}% (doubler's view)</p></div>")
    parts.append("</div></section>")
    return "".join(parts)


def html_report(match, analysis: MatchAnalysis, title: Optional[str] = None, max_errors: int = 300,
                data: Optional[ReportData] = None) -> str:
    """The whole report as one HTML document (see the module notes).  ``data``: what it shows of
    the decisions, gathered as they went by (:class:`ReportData`; default: from
    ``analysis.decisions``)."""
    a = analysis
    if data is None:
        data = ReportData(max_errors)
        data.add(a.decisions)
    names = a.players
    what = f"{a.length}-point match" if a.length else "money session"
    title = title or f"{names[0]} vs {names[1]}: {what}"
    s = a.settings
    meta = (f"{escape(a.source)} &middot; {len(a.games)} games &middot; final score "
            f"{match.final_score[0]}-{match.final_score[1]} &middot; evaluator {escape(a.evaluator)}, {s.ply}-ply "
            f"&middot; error classes: {_ERROR_LIMITS} (normalised equity)")
    body = [f"<h1>{escape(title)}</h1><p class='meta'>{meta}</p>",
            "<h2>Summary</h2>", _summary_table(a),
            "<h2>Games</h2>", _games_table(a),
            "<h2>Winning chances</h2>", f'<div class="chart">{equity_chart_svg(data, players=names)}</div>',
            f"<h2>Errors ({data.errors})</h2>"]
    if data.errors > data.max_errors:
        body.append(f"<p class='meta'>The {data.max_errors} largest of {data.errors} errors are shown.</p>")
    errs = data.shown_errors()
    if not errs:
        body.append("<p>No errors.</p>")
    body += [_error_block(d, names) for d in errs]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>"
            + "\n".join(body) + "</body></html>\n")
