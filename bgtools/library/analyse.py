"""``library analyse``: every match of the library not yet analysed at a ply (or analysed
with another evaluator) is analysed as ``annotate`` does (:func:`bgtools.analysis.analyse.analyse_match`)
and each of its decisions stored.

The matches are read again from the first of their paths that still holds the same match
(same :func:`~bgtools.library.ingest.content_key`).  Each match is written in its own
transaction (its decisions and its ``analyses`` row together), so a run stopped at any
moment, even by SIGKILL, loses at most the matches under way, and the next run goes on
from there; a run with nothing left to do does nothing.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from typing import Callable, NamedTuple, Optional

import sqlalchemy as sa

from bgtools.analysis.records import AnalysisSettings, Decision
from bgtools.core.tags import position_tags, tags_for_step
from bgtools.library.ingest import content_key, match_paths, read_match_at
from bgtools.library.store import Store, analyses, decisions, matches

__all__ = ["AnalyseTask", "MatchResult", "AnalyseReport", "current_evaluator", "met_setting", "pending_matches", "analyse_one",
           "analyse_library", "decision_row"]


def current_evaluator(settings: AnalysisSettings) -> str:
    """The name and version of the evaluator an analysis with ``settings`` uses (as
    ``MatchAnalysis.evaluator`` records it): a library analysed with another is analysed again."""
    from bgtools.engine.evaluation import default_evaluator, evaluator_setting, with_pruning

    ev = default_evaluator()
    name = evaluator_setting(ev if settings.prune else with_pruning(ev, None))  # as the analyser does
    return name + met_setting(settings)


def met_setting(settings: AnalysisSettings) -> str:
    """What the key of a finished analysis says of its match equity table: nothing for the
    shipped one (the libraries analysed before the key said it stay done), else the table's
    name and digest, so that a library analysed under one table is analysed again under another."""
    from bgtools.engine.cubeful.met import load_met

    if settings.met is None or settings.met == load_met():
        return ""
    return f"; met {settings.met.identity}"


class AnalyseTask(NamedTuple):
    """One match to analyse (picklable): its key, the paths it was read from, the settings."""

    key: str
    paths: tuple[str, ...]
    settings: AnalysisSettings
    use_cache: bool = True


@dataclass(frozen=True)
class MatchResult:
    """What analysing one match gave: its rows, or why it could not be analysed."""

    key: str
    path: str = ""
    evaluator: str = ""
    rows: tuple[dict, ...] = ()
    skipped_games: tuple[int, ...] = ()
    error: str = ""


def _num(x: Optional[float]) -> Optional[float]:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def decision_row(d: Decision, tags: str = "") -> dict:
    """The stored columns (:data:`~bgtools.library.store.DECISION_COLUMNS`) of one decision."""
    c = d.cube if d.kind == "cube" else None
    return {"game": d.game, "move_number": d.move_number, "action_index": d.action_index, "side": d.player,
            "kind": d.kind, "phase": d.phase, "forced": bool(d.forced), "counted": bool(d.counted),
            "dice": d.dice or "", "position_id": d.position_id, "match_id": d.match_id, "played": d.played,
            "best": d.best, "equity_loss": float(d.equity_loss), "mwc_loss": _num(d.mwc_loss),
            "error": d.error_class, "luck": _num(d.luck),
            "cube_nd": None if c is None else float(c.nd), "cube_dt": None if c is None else float(c.dt),
            "cube_dp": None if c is None else float(c.dp), "cube_action": "" if c is None else c.action,
            "cube_response": "" if c is None else c.response, "tags": tags}


def _read_same(key: str, paths: tuple[str, ...]):
    """(match, path): the first path that still reads as the match ``key``; (None, reason) else."""
    reasons = []
    for p in paths:
        m, why = read_match_at(p)
        if m is None:
            reasons.append(why)
            continue
        if content_key(m) == key:
            return m, p
        reasons.append(f"{p}: the file changed since it was added (run library add again)")
    return None, "; ".join(reasons) or f"match {key[:12]}: no file left to read it from"


def analyse_one(task: AnalyseTask) -> MatchResult:
    """Read and analyse one match (for worker processes: problems returned, never raised)."""
    from bgtools.analysis.analyse import analyse_match

    key = task.key
    m, path = _read_same(key, tuple(task.paths))
    if m is None:
        return MatchResult(key, error=path)
    try:
        a = analyse_match(m, settings=task.settings, cache="default" if task.use_cache else None, label=path)
    except ValueError as e:
        return MatchResult(key, path, error=f"{path}: {e}")
    steps = {(s.game_index + 1, s.index): s for s in m.replay()}
    rows = []
    for d in a.decisions:
        st = steps.get((d.game, d.action_index))
        if st is None:
            tags = ""
        elif d.kind == "cube":  # decided before the roll: the position's plans, not what the roll did
            tags = ",".join(position_tags(st.position))
        else:
            tags = tags_for_step(st)
        rows.append(decision_row(d, tags))
    return MatchResult(key, path, a.evaluator, tuple(rows), tuple(a.skipped_games))


def pending_matches(store: Store, ply: int, evaluator: str) -> list[str]:
    """Keys of the matches without an analysis at ``ply`` by ``evaluator``, oldest first."""
    done = sa.select(analyses.c.match_key).where(analyses.c.ply == ply, analyses.c.evaluator == evaluator)
    q = sa.select(matches.c.match_key).where(matches.c.match_key.not_in(done)).order_by(matches.c.added,
                                                                                         matches.c.match_key)
    with store.engine.begin() as conn:
        return [k for (k,) in conn.execute(q)]


def store_result(store: Store, res: MatchResult, ply: int, settings: AnalysisSettings) -> None:
    """Replace the match's decisions at ``ply`` and record its analysis, in one transaction."""
    rows = [{"match_key": res.key, "ply": ply, "seq": i, **r} for i, r in enumerate(res.rows)]
    with store.engine.begin() as conn:
        conn.execute(decisions.delete().where(decisions.c.match_key == res.key, decisions.c.ply == ply))
        if rows:
            conn.execute(decisions.insert(), rows)
        conn.execute(analyses.delete().where(analyses.c.match_key == res.key, analyses.c.ply == ply))
        conn.execute(analyses.insert().values(
            match_key=res.key, ply=ply, evaluator=res.evaluator + met_setting(settings), settings=json.dumps(settings.to_dict()),
            decisions=len(rows), skipped_games=json.dumps(list(res.skipped_games)), analysed=time.time()))


@dataclass
class AnalyseReport:
    """What one ``library analyse`` did."""

    analysed: int = 0
    decisions: int = 0
    failed: int = 0
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        return f"{self.analysed} analysed ({self.decisions} decisions), {self.failed} not analysed"


def analyse_library(store: Store, *, settings: AnalysisSettings, jobs: int = 1, dask=None, use_cache: bool = True,
                    on_total: Optional[Callable[[int], None]] = None,
                    progress: Optional[Callable[[int], None]] = None) -> AnalyseReport:
    """Analyse the pending matches (:func:`pending_matches`) and store each as it is done.

    ``on_total(n)`` is told how many there are, ``progress(1)`` after each."""
    from bgtools.base.parallel import ordered_map

    keys = pending_matches(store, settings.ply, current_evaluator(settings))
    report = AnalyseReport()
    if on_total:
        on_total(len(keys))
    if not keys:
        return report
    paths = match_paths(store, set(keys))
    tasks = [AnalyseTask(k, tuple(paths.get(k, ())), settings, use_cache) for k in keys]
    for res in ordered_map(analyse_one, tasks, jobs=max(1, min(jobs, len(tasks))), dask=dask):
        if res.error:
            report.failed += 1
            report.problems.append(res.error)
        else:
            try:
                store_result(store, res, settings.ply, settings)
                report.analysed += 1
                report.decisions += len(res.rows)
            except sa.exc.IntegrityError:  # another run sharing the library stored this match meanwhile
                pass
        if progress:
            progress(1)
    return report
