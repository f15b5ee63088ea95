"""A :class:`Step` of a replayed game: one action with the position and match state before it
(what :func:`bgtools.model.replay.replay` yields and what export and annotate walk)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from bgtools.core.matchstate import MatchState, to_xgid
from bgtools.core.movegen import Play
from bgtools.core.position import Position
from bgtools.model.game import Action

__all__ = ["Step"]


@dataclass(frozen=True, slots=True)
class Step:
    """One action of a replayed game with the position and match state before it."""

    game_index: int  #: 0-based index of the game in the match
    game_number: int  #: game number as written
    index: int  #: 0-based index of the action in the game
    action: Action
    position: Position  #: before the action, seen from ``state.player_on_roll``
    state: MatchState  #: before the action
    play: Optional[Play] = None  #: the movegen.Play made (rolls only)
    legal_plays: int = 0  #: number of legal plays for the roll (0 for other actions)

    @property
    def position_id(self) -> str:
        return self.position.position_id()

    @property
    def match_id(self) -> str:
        return self.state.match_id()

    @property
    def xgid(self) -> str:
        return to_xgid(self.position, self.state)

    @property
    def player(self) -> int:
        return self.action.player
