"""Annotating files: one match file in, its analysis out in each format asked for
(JSON, JSON lines, CSV, Parquet, gnubg SGF, HTML), written atomically.

A ``.mat`` file is read, analysed and let go a game at a time (``formats.read.FileStream``):
the JSON lines and CSV of each game are written as it is done and the summaries summed as
the games go by, so that memory does not grow with the file.  The outputs that hold the whole
match (JSON, SGF) and an analysis level (it re-values the match's decisions) read the file
whole; Parquet and HTML keep the decisions until the end.
"""

from __future__ import annotations

import json
import os
import tempfile
from contextlib import ExitStack, closing
from pathlib import Path
from dataclasses import dataclass, replace
from typing import IO, Any, Callable, Generator, NamedTuple, Optional, Sequence

from bgtools.analysis.levels import analyse_level
from bgtools.analysis.filecompare import comparison_lines
from bgtools.analysis.records import AnalysisSettings, Decision, MatchAnalysis, PlayerSummary, decisions_frame, json_lines
from bgtools.analysis.report import ReportData, html_report
from bgtools.analysis.sgfout import annotated_match
from bgtools.analysis.xgpr import XgPr, XgTally, attach_xg_pr, counted_xg
from bgtools.base.fileio import atomic_path, atomic_write
from bgtools.base.parallel import ordered_map
from bgtools.formats.matchjson import to_json_dict
from bgtools.formats.outnames import plan_outputs
from bgtools.formats.read import FileReading, FileStream, read_file
from bgtools.formats.sgf import format_sgf
from bgtools.model.problems import MatchFileError, MatchProblem

__all__ = ["OUTPUT_FORMATS", "AnnotateTask", "FileResult", "output_paths", "plan_output_paths", "match_json",
           "write_outputs", "annotate_file", "annotate_files"]

OUTPUT_FORMATS = ("json", "jsonl", "csv", "parquet", "sgf", "html")
#: outputs that hold the match itself with its actions (the others only its analysis)
_WHOLE_MATCH = frozenset({"json", "sgf"})
#: outputs written from every decision at the end (JSON lines and CSV are written a game at a
#: time; HTML at the end from what :class:`~bgtools.analysis.report.ReportData` keeps)
_KEPT = frozenset({"parquet"})
#: outputs written at the end
_AT_END = frozenset({"parquet", "html"})
_SUFFIX = {"json": ".analysis.json", "jsonl": ".analysis.jsonl", "csv": ".analysis.csv",
           "parquet": ".analysis.parquet", "sgf": ".analysed.sgf", "html": ".report.html"}


@dataclass(frozen=True, slots=True)
class FileResult:
    """What :func:`annotate_file` did: JSON lines (when asked), files written, problems."""

    path: str
    lines: tuple[str, ...] = ()
    written: tuple[str, ...] = ()
    problems: tuple[MatchProblem, ...] = ()  #: the file's errors, and why it was not (all) analysed
    summary: tuple[PlayerSummary, ...] = ()  #: per player (empty: nothing analysed)
    actions: int = 0
    comparison: tuple[str, ...] = ()  #: how our classes agree with the analysis stored in the file
    #: the match's players, length and final score (for a summary without reading the file again)
    players: tuple[str, str] = ("", "")
    length: int = 0
    final_score: tuple[int, int] = (0, 0)
    warnings: tuple[MatchProblem, ...] = ()  #: the warnings about the file, as ``check`` gives them
    #: per player, PR in XG's convention (and XG's own, rebuilt from the file): analysis.xgpr
    xg_pr: tuple[XgPr, ...] = ()
    level: Optional[dict] = None  #: the analysis level's tiers (analysis.levels)


def output_paths(path: str, outdir: str, formats: Sequence[str], stem: Optional[str] = None) -> dict[str, str]:
    """Output file per format for the match file ``path`` alone (no other input to clash with)."""
    if stem is not None:
        return {f: os.path.join(outdir, stem + _SUFFIX[f]) for f in formats}
    return plan_output_paths([path], outdir, formats)[0]


def plan_output_paths(paths: Sequence[str], outdir: str, formats: Sequence[str]) -> list[dict[str, str]]:
    """Output file per format for each match file, named by the one rule of
    :mod:`bgtools.formats.outnames` (``convert`` names its outputs by it too)."""
    plan = plan_outputs(paths, outdir, [_SUFFIX[f] for f in formats])
    return [dict(zip(formats, p.outputs)) for p in plan.pairs]


def match_json(match, analysis: MatchAnalysis) -> str:
    """The match model (``bgtools.formats.matchjson``) with the analysis under ``"analysis"``."""
    d = to_json_dict(match)
    d["analysis"] = analysis.to_dict()
    return json.dumps(d, ensure_ascii=False, indent=1) + "\n"


def write_outputs(match, analysis: MatchAnalysis, paths: dict[str, str], report: Optional[ReportData] = None) -> list[str]:
    """Write the analysis in each format of ``paths`` (atomically); returns the paths written.
    ``report``: what the HTML report shows, gathered as the games went by (default: from the
    analysis' decisions)."""
    done = []
    for fmt, out in paths.items():
        if fmt == "json":
            atomic_write(out, match_json(match, analysis))
        elif fmt == "jsonl":
            atomic_write(out, "".join(line + "\n" for line in analysis.json_lines()))
        elif fmt == "csv":
            atomic_write(out, analysis.to_dataframe().to_csv(index=False))
        elif fmt == "parquet":
            with atomic_path(out) as tmp:
                analysis.to_dataframe().to_parquet(tmp, index=False)
        elif fmt == "sgf":
            atomic_write(out, format_sgf(annotated_match(match, analysis)))
        elif fmt == "html":
            atomic_write(out, html_report(match, analysis, data=report))
        done.append(out)
    return done


class AnnotateTask(NamedTuple):
    """One file to annotate (picklable, for worker processes)."""

    path: str
    outputs: dict[str, str]  #: format -> output path (empty: write nothing)
    settings: AnalysisSettings
    use_cache: bool = True
    want_lines: bool = False  #: return the JSON lines
    all_rows: bool = False  #: JSON lines for every decision, not only the errors
    pr: str = "bgtools"  #: "xg": JSON lines say whether XG's PR convention counts each decision


class _Stop(Exception):
    """The file cannot be (further) analysed: ``result`` says why (the outputs begun are dropped)."""

    def __init__(self, result: FileResult) -> None:
        super().__init__(result.path)
        self.result = result


class _GameWriter:
    """Writes the outputs made a game at a time (JSON lines, CSV) and keeps the JSON lines asked
    for and the XG PR sums, as each game's decisions come (``analyse_match``'s ``on_game``)."""

    def __init__(self, task: AnnotateTask, files: dict[str, IO[str]], spool: Optional[IO[str]] = None) -> None:
        self.task = task
        self.files = files
        self.spool = spool  # the JSON lines asked for go here (a temporary file), else to ``lines``
        self.lines: list[str] = []
        self.tally = XgTally()
        self.report = ReportData() if "html" in task.outputs else None
        if "csv" in files:
            files["csv"].write(decisions_frame(()).to_csv(index=False))  # the header

    def __call__(self, head, game, decisions: list[Decision]) -> None:
        t = self.task
        self.tally.add_decisions(decisions)
        self.tally.add_game(game)
        if "jsonl" in self.files:
            self.files["jsonl"].write("".join(line + "\n" for line in json_lines(decisions)))
        if "csv" in self.files and decisions:
            self.files["csv"].write(decisions_frame(decisions).to_csv(index=False, header=False))
        if self.report is not None:
            self.report.add(decisions)
        if t.want_lines:
            lines = json_lines(decisions, t.all_rows, xg_counted=counted_xg if t.pr == "xg" else None)
            if self.spool is not None:
                self.spool.write("".join(line + "\n" for line in lines))
            else:
                self.lines += lines


def annotate_file(task: AnnotateTask, emit: Optional[Callable[[str], None]] = None) -> FileResult:
    """Analyse one file and write its outputs; problems are returned, never raised.

    ``emit``: the JSON lines asked for (``want_lines``) are given to it once the file is done,
    not returned (those of a file read a game at a time wait in a temporary file meanwhile)."""
    outputs = task.outputs
    whole = bool(_WHOLE_MATCH.intersection(outputs)) or task.settings.level is not None
    try:
        with ExitStack() as stack:
            files: dict[str, IO[str]] = {}
            if not whole:  # the outputs written a game at a time
                for fmt in ("jsonl", "csv"):
                    if fmt in outputs:
                        tmp = stack.enter_context(atomic_path(outputs[fmt]))
                        files[fmt] = stack.enter_context(open(tmp, "w", encoding="utf-8", newline=""))
            spool = None
            if emit is not None and task.want_lines and not whole:
                spool = stack.enter_context(tempfile.TemporaryFile("w+", encoding="utf-8", newline=""))
            res = _annotate(task, whole, _GameWriter(task, files, spool))
            for fh in files.values():
                fh.close()  # (before the temporary files take their names)
            if emit is not None:
                if spool is not None:
                    spool.seek(0)
                    for line in spool:
                        emit(line[:-1])
                for line in res.lines:
                    emit(line)
                res = replace(res, lines=())
        return res
    except _Stop as stop:
        return stop.result


def annotate_files(tasks: Sequence[AnnotateTask], *, jobs: int = 1, dask: Any = None,
                   emit: Optional[Callable[[str], None]] = None) -> Generator[FileResult, None, None]:
    """:func:`annotate_file` of each task, in order, in ``jobs`` processes or on a Dask
    scheduler (``base.parallel.ordered_map``).  ``emit``: each file's JSON lines are given to
    it before its result comes (in this process, without holding them all in memory)."""
    if jobs <= 1 and dask is None:
        for t in tasks:
            yield annotate_file(t, emit)
        return
    with closing(ordered_map(annotate_file, tasks, jobs=jobs, dask=dask)) as results:
        for res in results:
            if emit is not None:
                for line in res.lines:
                    emit(line)
                res = replace(res, lines=())
            yield res


def _annotate(task: AnnotateTask, whole: bool, writer: _GameWriter) -> FileResult:
    path, outputs, settings = task.path, task.outputs, task.settings
    stream: Optional[FileStream] = None
    try:  # read as every command reads it (the same verdict, the same warnings)
        if whole:
            r: FileReading = read_file(Path(path), name=path, keep_steps=True)
        else:  # a game at a time, each let go after its analysis
            stream = FileStream(Path(path), name=path, keep_steps=True)
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise _Stop(FileResult(path, problems=(_problem(path, e),)))
    if stream is None and r.unreadable:
        raise _Stop(_unreadable(path, r))
    keep = whole or bool(_KEPT.intersection(outputs))
    try:
        a = analyse_level(r.match if stream is None else stream, settings, cache="default" if task.use_cache else None,
                          label=path, on_game=None if whole else writer, keep=keep)
    except (OSError, UnicodeDecodeError, ValueError) as e:  # (a stream reads as it goes)
        if stream is not None and stream.failed:
            raise _Stop(_unreadable(path, stream.reading()))
        raise _Stop(FileResult(path, problems=(_problem(path, e),), warnings=_warned(r if stream is None else None)))
    if stream is not None:
        r = stream.reading()
        if r.unreadable:
            raise _Stop(_unreadable(path, r))
    m = r.match
    problems = list(m.errors)
    if whole:
        a = attach_xg_pr(m, a)
        lines = json_lines(a.decisions, task.all_rows, xg_counted=counted_xg if task.pr == "xg" else None) \
            if task.want_lines else []
    else:
        a = replace(a, xg_pr=writer.tally.rows(a.players))
        lines = writer.lines
    bad = [n for n in a.skipped_games if m.games[n - 1].errors]  # (the others start from an edited
    if bad:  # board: the reading's warning says so)
        problems.append(MatchProblem(f"games {', '.join(map(str, bad))} not analysed (the errors above)", path))
    kept = {f: p for f, p in outputs.items() if whole or f in _AT_END}
    written = write_outputs(m, a, kept, None if whole else writer.report) if kept else []
    written = [p for p in outputs.values() if p in written or (not whole and p not in kept.values())]
    return FileResult(path, tuple(lines), tuple(written), tuple(dict.fromkeys(problems)), a.players_summary,
                      r.actions, tuple(comparison_lines(a)), (m.players[0], m.players[1]), m.length,
                      (m.final_score[0], m.final_score[1]), tuple(r.warnings), a.xg_pr, a.level)


def _warned(r: Optional[FileReading]) -> tuple[MatchProblem, ...]:
    return tuple(r.warnings) if r is not None else ()


def _unreadable(path: str, r: FileReading) -> FileResult:
    return FileResult(path, problems=tuple(r.errors), warnings=_warned(r))


def _problem(path: str, e: Exception) -> MatchProblem:
    """The problem of a file that could not be read or analysed: the reader's own, where it says
    one, else the exception's text about ``path``."""
    if isinstance(e, MatchFileError) and e.error.file:
        return e.error
    text = str(e)
    prefix = f"{path}: "
    return MatchProblem(text[len(prefix):] if text.startswith(prefix) else text, path)
