"""bgtools: backgammon analysis for scripts and the shell.

The core value types import cheaply; modules with Numba kernels (move generation,
evaluation, rollouts) are loaded on first use.

>>> import bgtools
>>> pos = bgtools.Position.from_id("4HPwATDgc/ABMA")
>>> [p.notation() for p in bgtools.legal_plays(pos, (3, 1))][:1]
['8/5 6/5']
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .matchstate import GameState, MatchIDError, MatchState, parse_any_id, parse_gnubg_id, parse_xgid, to_xgid
from .position import Position, PositionClass, PositionError

__version__ = "0.1.0"

# name -> module that defines it; imported lazily so `import bgtools` stays fast
_LAZY = {
    "evaluate": "evaluation",
    "rank_plays": "evaluation",
    "default_evaluator": "evaluation",
    "Evaluator": "evaluation",
    "Evaluation": "evaluation",
    "RankedPlay": "evaluation",
    "load_databases": "bearoff",
    "race_counts": "race",
    "legal_plays": "movegen",
    "Play": "movegen",
    "ROLLS": "movegen",
    "parse_play": "notation",
    "format_play": "notation",
    "MoveParseError": "notation",
    "IllegalMoveError": "notation",
    "AmbiguousMoveError": "notation",
    "Match": "match",
    "Game": "match",
    "read_match": "match",
    "read_matches": "match",
    "to_dataframe": "export",
    "analyse_match": "analysis",
    "MatchAnalysis": "analysis",
    "html_report": "report",
    "iter_games": "match",
    "replay": "match",
    "MatchError": "match",
    "MatchFileError": "match",
    "NeuralEvaluator": "nn",
    "load_default_network": "nn",
    "PubevalPlayer": "pubeval",
    "rollout": "rollout",
    "RolloutSettings": "rollout",
    "RolloutResult": "rollout",
    "load_met": "met",
    "MatchEquityTable": "met",
    "cube_decision": "cube",
    "cubeful_equity": "cube",
    "CubeDecision": "cube",
    "CubeInfo": "cube",
}

__all__ = [
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
