"""Annotating files: one match file in, its analysis out in each format asked for
(JSON, JSON lines, CSV, Parquet, gnubg SGF, HTML), written atomically."""

from __future__ import annotations

import json
import os
from pathlib import Path
from dataclasses import dataclass
from typing import NamedTuple, Optional, Sequence

from bgtools.analysis.levels import analyse_level
from bgtools.analysis.filecompare import comparison_lines
from bgtools.analysis.records import AnalysisSettings, MatchAnalysis
from bgtools.analysis.report import html_report
from bgtools.analysis.sgfout import annotated_match
from bgtools.analysis.xgpr import attach_xg_pr, counted_xg
from bgtools.base.fileio import atomic_path, atomic_write
from bgtools.formats.matchjson import to_json_dict
from bgtools.formats.outnames import plan_outputs
from bgtools.formats.read import FileReading, FileStream, read_file
from bgtools.formats.sgf import format_sgf

__all__ = ["OUTPUT_FORMATS", "AnnotateTask", "FileResult", "output_paths", "plan_output_paths", "match_json", "write_outputs", "annotate_file"]


OUTPUT_FORMATS = ("json", "jsonl", "csv", "parquet", "sgf", "html")
#: outputs that hold the match itself (the others only its analysis)
_WHOLE_MATCH = frozenset({"json", "sgf", "html"})
_SUFFIX = {"json": ".analysis.json", "jsonl": ".analysis.jsonl", "csv": ".analysis.csv",
           "parquet": ".analysis.parquet", "sgf": ".analysed.sgf", "html": ".report.html"}


@dataclass(frozen=True, slots=True)
class FileResult:
    """What :func:`annotate_file` did: JSON lines (when asked), files written, problems."""

    path: str
    lines: tuple[str, ...] = ()
    written: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    summary: tuple[dict, ...] = ()
    actions: int = 0
    comparison: tuple[str, ...] = ()  #: how our classes agree with the analysis stored in the file
    #: the match's players, length and final score (for a summary without reading the file again)
    players: tuple[str, str] = ("", "")
    length: int = 0
    final_score: tuple[int, int] = (0, 0)
    #: the warnings about the file (``file:line: game: message``), as ``check`` prints them
    warnings: tuple[str, ...] = ()
    #: per player, PR in XG's convention (and XG's own, rebuilt from the file): analysis.xgpr
    xg_pr: tuple[dict, ...] = ()
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


def write_outputs(match, analysis: MatchAnalysis, paths: dict[str, str]) -> list[str]:
    """Write the analysis in each format of ``paths`` (atomically); returns the paths written."""
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
            atomic_write(out, html_report(match, analysis))
        done.append(out)
    return done


class AnnotateTask(NamedTuple):
    """One file to annotate (picklable, for worker processes); a plain tuple in this order works too."""

    path: str
    outputs: dict[str, str]  #: format -> output path (empty: write nothing)
    settings: AnalysisSettings
    use_cache: bool = True
    want_lines: bool = False  #: return the JSON lines
    all_rows: bool = False  #: JSON lines for every decision, not only the errors
    pr: str = "bgtools"  #: "xg": JSON lines say whether XG's PR convention counts each decision


def annotate_file(task: AnnotateTask | tuple) -> FileResult:
    """Analyse one file and write its outputs; problems are returned, never raised."""
    path, outputs, settings, use_cache, want_lines, all_rows, pr = AnnotateTask(*task)
    # outputs of the match itself, or a level's re-valuation (it sums the match again): read it whole
    whole = bool(_WHOLE_MATCH.intersection(outputs)) or settings.level is not None
    stream: Optional[FileStream] = None
    try:  # read as every command reads it (the same verdict, the same warnings)
        if whole:
            r: FileReading = read_file(Path(path), name=path, keep_steps=True)
        else:  # a game at a time, each let go after its analysis
            stream = FileStream(Path(path), name=path, keep_steps=True)
    except (OSError, UnicodeDecodeError, ValueError) as e:
        return FileResult(path, problems=(_located(path, e),))
    if stream is None and r.unreadable:
        return _unreadable(path, r)
    try:
        a = analyse_level(r.match if stream is None else stream, settings,
                          cache="default" if use_cache else None, label=path)
    except (OSError, UnicodeDecodeError, ValueError) as e:  # (a stream reads as it goes)
        if stream is not None and stream.failed:
            return _unreadable(path, stream.reading())
        return FileResult(path, problems=(_located(path, e),), warnings=_warned(r if stream is None else None))
    if stream is not None:
        r = stream.reading()
        if r.unreadable:
            return _unreadable(path, r)
    warned = _warned(r)
    m = r.match
    problems = [str(e) for e in m.errors]
    a = attach_xg_pr(m, a)
    bad = [n for n in a.skipped_games if m.games[n - 1].errors]  # (the others start from an edited
    if bad:  # board: the reading's warning says so)
        problems.append(f"{path}: games {', '.join(map(str, bad))} not analysed (the errors above)")
    written = write_outputs(m, a, outputs) if outputs else []
    lines = tuple(a.json_lines(all_rows, xg_counted=counted_xg if pr == "xg" else None)) if want_lines else ()
    return FileResult(path, lines, tuple(written), tuple(dict.fromkeys(problems)),
                      tuple(p.to_dict() for p in a.players_summary), r.actions,
                      tuple(comparison_lines(a)), (m.players[0], m.players[1]), m.length,
                      (m.final_score[0], m.final_score[1]), warned, a.xg_pr, a.level)


def _warned(r: Optional[FileReading]) -> tuple[str, ...]:
    return tuple(w.plain() for w in r.warnings) if r is not None else ()


def _unreadable(path: str, r: FileReading) -> FileResult:
    return FileResult(path, problems=tuple(str(e) for e in r.errors), warnings=_warned(r))


def _located(path: str, e: Exception) -> str:
    """``path: message``, without repeating a path the message already starts with."""
    text = str(e)
    return text if text.startswith(path) else f"{path}: {text}"
