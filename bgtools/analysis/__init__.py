"""Analysis: a match's checker and cube errors, luck and ratings (like gnubg's "analyse match"),
and what shows them: annotated files, the HTML report, board diagrams, the evaluation cache.

Modules: :mod:`~bgtools.analysis.records` (the value types and classes),
:mod:`~bgtools.analysis.analyse` (the analyser), :mod:`~bgtools.analysis.sgfout` (the
analysis as gnubg SGF), :mod:`~bgtools.analysis.report` (HTML), :mod:`~bgtools.analysis.svg`
(board diagrams), :mod:`~bgtools.analysis.evalcache` (SQLite cache),
:mod:`~bgtools.analysis.annotate` (files in, files out).
"""

from bgtools.analysis.analyse import analyse_match
from bgtools.analysis.annotate import OUTPUT_FORMATS, FileResult, annotate_file, output_paths, write_outputs
from bgtools.analysis.records import (AnalysisSettings, Candidate, CubeAnalysis, Decision, GameSummary,
                                      MatchAnalysis, PlayerSummary, error_class, luck_class, rating)
from bgtools.analysis.report import html_report
from bgtools.analysis.sgfout import annotated_match

__all__ = [
    "analyse_match", "OUTPUT_FORMATS", "FileResult", "annotate_file", "output_paths", "write_outputs",
    "AnalysisSettings", "Candidate", "CubeAnalysis", "Decision", "GameSummary", "MatchAnalysis",
    "PlayerSummary", "error_class", "luck_class", "rating", "html_report", "annotated_match",
]
