"""The match file's own analysis (eXtreme Gammon, BGBlitz) beside bgtools': per decision and
how often the two agree.

:func:`file_figures` gives, for each of our decisions whose action carries the file's
analysis (:class:`~bgtools.model.fileanalysis.FileAnalysis`), a :class:`FileFigure`: the
file's equity loss, its error class (gnubg 1.07 thresholds, as ours), its evaluation level
and whether the two classes agree.  :func:`agreement` sums them up per kind (checker, cube):
decisions compared, same class, both call it an error (doubtful or worse), only we do,
only the file does.  :func:`attach_file_figures` puts both on a
:class:`~bgtools.analysis.records.MatchAnalysis` (``Decision.file`` and
``MatchAnalysis.file_comparison``), so that ``annotate`` writes them beside its own figures.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Optional, Sequence

from bgtools.analysis.records import Decision, MatchAnalysis, error_class

if TYPE_CHECKING:
    from bgtools.model.match import Match

__all__ = ["FileFigure", "game_figures", "file_figures", "agreement", "attach_file_figures", "comparison_lines"]


@dataclass(frozen=True, slots=True)
class FileFigure:
    """The file's figure for one of our decisions."""

    row_key: str
    kind: str  #: "checker" or "cube"
    source: str  #: "xg" or "bgblitz"
    level: str
    file_loss: float
    file_class: str
    our_loss: float
    our_class: str

    @property
    def agree(self) -> bool:
        return self.file_class == self.our_class

    def to_dict(self) -> dict:
        d = asdict(self)
        d["file_loss"] = round(self.file_loss, 6)
        d["our_loss"] = round(self.our_loss, 6)
        d["agree"] = self.agree
        return d


def _file_loss(actions: Sequence, d: Decision) -> Optional[tuple[float, str, str]]:
    from bgtools.model.game import Beaver, Drop, Roll, Take

    try:
        a = actions[d.action_index]
    except IndexError:
        return None
    an = getattr(a, "analysis", None)
    if an is None:
        return None
    if d.kind == "checker":
        if not isinstance(a, Roll) or an.error is None:
            return None
        return an.error, an.level, an.source
    loss = an.take_error if isinstance(a, (Take, Drop, Beaver)) else an.cube_error
    if loss is None:
        return None
    return loss, an.cube_level or an.level, an.source


def game_figures(game, decisions: Sequence[Decision]) -> list[tuple[int, FileFigure]]:
    """(index into ``decisions``, figure) for every decision of ``game`` (its actions) the
    file has a figure for."""
    out = []
    for i, d in enumerate(decisions):
        if d.forced:
            continue
        got = _file_loss(game.actions, d)
        if got is None:
            continue
        loss, level, source = got
        out.append((i, FileFigure(d.row_key, d.kind, source, level, loss, error_class(loss),
                                  d.equity_loss, d.error_class)))
    return out


def file_figures(match: Match, decisions: Sequence[Decision]) -> list[tuple[int, FileFigure]]:
    """(index into ``decisions``, figure) for every decision the file has a figure for."""
    out = []
    for i, d in enumerate(decisions):
        if 0 < d.game <= len(match.games):
            out += [(i, f) for _, f in game_figures(match.games[d.game - 1], (d,))]
    return out


def agreement(figures: Sequence[FileFigure]) -> dict:
    """Per kind (``checker``, ``cube``, ``all``): compared, same_class, both_errors, ours_only,
    file_only, and ``rate`` = same_class / compared."""
    out = {}
    for kind in ("checker", "cube", "all"):
        fs = [f for f in figures if kind == "all" or f.kind == kind]
        ours = [f.our_class != "none" for f in fs]
        theirs = [f.file_class != "none" for f in fs]
        same = sum(f.agree for f in fs)
        out[kind] = {"compared": len(fs), "same_class": same,
                     "both_errors": sum(a and b for a, b in zip(ours, theirs)),
                     "ours_only": sum(a and not b for a, b in zip(ours, theirs)),
                     "file_only": sum(b and not a for a, b in zip(ours, theirs)),
                     "rate": round(same / len(fs), 4) if fs else None}
    return out


def attach_file_figures(match: Match, analysis: MatchAnalysis) -> MatchAnalysis:
    """``analysis`` with ``Decision.file`` set where the file has a figure, and the summary in
    ``file_comparison`` (unchanged when the match carries no analysis of its own)."""
    figs = file_figures(match, analysis.decisions)
    if not figs:
        return analysis
    decisions = list(analysis.decisions)
    for i, f in figs:
        decisions[i] = replace(decisions[i], file=f.to_dict())
    summary = agreement([f for _, f in figs])
    summary["source"] = figs[0][1].source
    return replace(analysis, decisions=tuple(decisions), file_comparison=summary)


def comparison_lines(analysis: MatchAnalysis) -> list[str]:
    """A short text: how often our error classes agree with the file's."""
    fc = analysis.file_comparison
    if not fc:
        return []
    who = {"xg": "eXtreme Gammon", "bgblitz": "BGBlitz"}.get(fc.get("source", ""), "the file")
    lines = []
    for kind in ("checker", "cube"):
        s = fc[kind]
        if s["compared"]:
            lines.append(f"{kind} decisions vs {who}: {s['same_class']}/{s['compared']} same class "
                         f"({100 * s['rate']:.0f}%), both errors {s['both_errors']}, only ours {s['ours_only']}, "
                         f"only the file's {s['file_only']}")
    return lines
