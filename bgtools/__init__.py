"""bgtools: backgammon analysis for scripts and the shell.

The core value types import cheaply; modules with Numba kernels (move generation,
evaluation, rollouts) are loaded on first use.

>>> import bgtools
>>> pos = bgtools.Position.from_id("4HPwATDgc/ABMA")
>>> plays = bgtools.legal_plays(pos, (3, 1))
>>> len(plays), "8/5 6/5" in [p.notation() for p in plays]
(16, True)
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from bgtools.base import numbacache as _numbacache
from bgtools.base.errors import BgtoolsError
from bgtools.base.version import __version__

_numbacache.configure()  # before any kernel module is imported

from bgtools.core.matchstate import (GameState, MatchIDError, MatchState, parse_any_id,  # noqa: E402
                                     parse_gnubg_id, parse_xgid, to_xgid)
from bgtools.core.position import Position, PositionClass, PositionError  # noqa: E402

# name -> module that defines it; imported lazily so `import bgtools` stays fast
_LAZY = {
    "evaluate": "engine.evaluation",
    "rank_plays": "engine.evaluation",
    "default_evaluator": "engine.evaluation",
    "Evaluator": "engine.evaluation",
    "Evaluation": "engine.evaluation",
    "RankedPlay": "engine.evaluation",
    "load_databases": "engine.bearoff",
    "race_counts": "engine.cubeful.race",
    "legal_plays": "core.movegen",
    "Play": "core.movegen",
    "ROLLS": "core.movegen",
    "parse_play": "core.moveparse",
    "format_play": "core.notation",
    "MoveParseError": "core.moveparse",
    "IllegalMoveError": "core.moveparse",
    "AmbiguousMoveError": "core.moveparse",
    "Match": "model.match",
    "Game": "model.game",
    "read_match": "formats.read",
    "read_matches": "formats.read",
    "to_dataframe": "export.table",
    "analyse_match": "analysis.analyse",
    "MatchAnalysis": "analysis.records",
    "html_report": "analysis.report",
    "iter_games": "formats.read",
    "replay": "model.replay",
    "MatchProblem": "model.match",
    "MatchFileError": "model.problems",
    "MatchWarning": "model.problems",
    "NeuralEvaluator": "engine.nets.nn",
    "load_default_network": "engine.nets.nn",
    "PubevalPlayer": "engine.nets.pubeval",
    "rollout": "rollouts.rollout",
    "RolloutSettings": "rollouts.rollout",
    "RolloutResult": "rollouts.rollout",
    "load_met": "engine.cubeful.met",
    "MatchEquityTable": "engine.cubeful.met",
    "cube_decision": "engine.cubeful.cube",
    "cubeful_equity": "engine.cubeful.cube",
    "CubeDecision": "engine.cubeful.cube",
    "CubeInfo": "engine.cubeful.cube",
    "Library": "library.api",
}

__all__ = [
    "__version__",
    "BgtoolsError",
    "Position",
    "PositionClass",
    "PositionError",
    "MatchState",
    "GameState",
    "MatchIDError",
    "parse_any_id",
    "parse_gnubg_id",
    "parse_xgid",
    "to_xgid",
    *_LAZY,
]


def __getattr__(name: str) -> Any:
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'bgtools' has no attribute {name!r}")
    value = getattr(import_module(f".{mod}", __name__), name)
    globals()[name] = value
    return value
