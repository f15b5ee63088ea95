"""Analysis: a match's checker and cube errors, luck and ratings (like gnubg's "analyse match"),
and what shows them: annotated files, the HTML report, board diagrams, the evaluation cache.

Modules: :mod:`~bgtools.analysis.records` (the value types and classes),
:mod:`~bgtools.analysis.analyse` (the analyser), :mod:`~bgtools.analysis.totals` (the
summaries summed as the games go by), :mod:`~bgtools.analysis.sgfout` (the
analysis as gnubg SGF), :mod:`~bgtools.analysis.report` (HTML), :mod:`~bgtools.analysis.svg`
(board diagrams), :mod:`~bgtools.analysis.evalcache` (SQLite cache),
:mod:`~bgtools.analysis.annotate` (files in, files out).
"""

import importlib
from typing import Any

#: name -> the module that defines it, imported on first use (so that a light module of this
#: package, e.g. ``warmup``, does not load the analyser, Numba and the engine with it)
_HOMES = {
    "analyse_match": "analyse", "OUTPUT_FORMATS": "annotate", "FileResult": "annotate", "annotate_file": "annotate",
    "annotate_files": "annotate", "AnnotateTask": "annotate", "output_paths": "annotate", "write_outputs": "annotate", "AnalysisSettings": "records", "Candidate": "records",
    "CubeAnalysis": "records", "Decision": "records", "GameSummary": "records", "MatchAnalysis": "records",
    "PlayerSummary": "records", "error_class": "records", "luck_class": "records", "rating": "records",
    "html_report": "report", "annotated_match": "sgfout", "PlayerTotals": "totals",
}

__all__ = list(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'bgtools.analysis' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"bgtools.analysis.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
