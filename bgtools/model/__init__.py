"""The match model: matches, games, actions, the problems found in them, and the replay.

Imports only the rules core (:mod:`bgtools.core`).  Readers of file formats build these
values (:mod:`bgtools.formats`); nothing here knows about any format.
"""

from bgtools.model.game import Action, Beaver, Double, Drop, Game, Resign, Result, Roll, Take, Win, crawford_flags
from bgtools.model.match import Match, match_summary
from bgtools.model.problems import MatchError, MatchFileError, MatchProblem
from bgtools.model.replay import apply_steps, check_game, finish_match, replay, replay_game
from bgtools.model.step import Step

__all__ = [
    "Action", "Beaver", "Double", "Drop", "Game", "Resign", "Result", "Roll", "Take", "Win",
    "Match", "match_summary", "MatchError", "MatchFileError", "MatchProblem",
    "Step", "apply_steps", "check_game", "crawford_flags", "finish_match", "replay", "replay_game",
]
