"""Match records: the model, the replay under the exact rules, errors and readers.

Model (frozen dataclasses; equality ignores where a thing was read from):

* :class:`Match` - ``players`` (first-named = gnubg player 0 = left .mat column = SGF
  White, second-named = player 1), ``length`` (0 = money), rules ``crawford``,
  ``jacoby``, ``beavers``, header ``tags`` and the ``games``.
* :class:`Game` - ``number`` (as written), ``score`` before the game (player 0, player 1),
  ``crawford`` (this is the Crawford game, inferred from the score), ``actions`` and
  ``result`` (:class:`Result`: winner, points, how it ended: ``"bearoff"``, ``"drop"``,
  ``"resign"``; None while the game is unfinished).  ``errors`` lists the
  :class:`MatchProblem` found while reading it.
* Actions: :class:`Roll` (dice as written, the ``steps`` of the play made: single-die
  ``(from, to)`` pairs in the mover's numbering, 25 = bar, 0 = off; ``()`` = no legal
  play; ``None`` = no play recorded), :class:`Double`, :class:`Take`, :class:`Drop`,
  :class:`Beaver`, :class:`Resign` and :class:`Win`.  Every action has ``player``
  (0/1, who acts).

Replay: :func:`replay` (or :meth:`Match.replay`) yields one :class:`Step` per action:
``position`` and ``state`` *before* the action (``position`` seen from
``state.player_on_roll``; ``state.dice`` is set for a roll, ``double_offered`` for an
answer to a double), ``play`` (the :class:`~bgtools.core.movegen.Play` made, with hits
recomputed from the board), ``legal_plays`` (number of legal plays for the roll) and
the IDs ``position_id``, ``match_id``, ``xgid``.

Reading: :func:`read_match` (path, text or bytes -> one :class:`Match`),
:func:`read_matches` (paths, folders -> one Match per file, streamed),
:func:`iter_games` (one game at a time, with the match header).  The format is
sniffed: ``.mat`` text and its dialects (:mod:`bgtools.formats.matfile`), gnubg SGF
(:mod:`bgtools.formats.sgf`), FIBS oldmoves (:mod:`bgtools.formats.oldmoves`), bgtools JSON
(:mod:`bgtools.formats.matchjson`).  Errors (illegal or ambiguous moves, rolls out of turn,
results that contradict the board) are collected on the game; ``strict=True`` raises
:class:`MatchFileError` at the first one instead.

>>> from bgtools.formats import read_match
>>> m = read_match(" 1 point match\\n Game 1\\n A : 0   B : 0\\n  1) 31: 8/5 6/5   42: 8/4 6/4\\n")
>>> m.games[0].actions[0]
Roll(player=0, dice=(3, 1), steps=((8, 5), (6, 5)), status='play')
>>> [s.position_id for s in m.replay()][:2]
['4HPwATDgc/ABMA', 'sGfwATDgc/ABMA']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator, Optional, Sequence

from bgtools.model.game import Game
from bgtools.model.problems import MatchProblem
from bgtools.model.replay import replay

if TYPE_CHECKING:
    from bgtools.model.step import Step

__all__ = ["Match", "match_summary"]


@dataclass(frozen=True)
class Match:
    """A match or money session (see the module docstring)."""

    players: tuple[str, str]
    length: int
    games: tuple[Game, ...] = ()
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    tags: dict = field(default_factory=dict, compare=False)
    source: str = field(default="", compare=False, repr=False)
    format: str = field(default="", compare=False, repr=False)
    file_errors: list = field(default_factory=list, compare=False, repr=False)
    #: what reads but looks wrong across games (:func:`bgtools.model.checks.record_warnings`):
    #: game numbers, score lines against results, games after the match was won
    warnings: list[MatchProblem] = field(default_factory=list, compare=False, repr=False)

    @property
    def errors(self) -> list[MatchProblem]:
        out = list(self.file_errors)
        for g in self.games:
            out.extend(g.errors)
        return out

    @property
    def final_score(self) -> tuple[int, int]:
        return self.games[-1].final_score if self.games else (0, 0)

    @property
    def plays(self) -> int:
        return sum(g.plays for g in self.games)

    @property
    def doubles(self) -> int:
        return sum(g.doubles for g in self.games)

    def replay(self) -> Iterator[Step]:
        return replay(self)


def match_summary(m: Match, warnings: Optional[Sequence[MatchProblem]] = None) -> dict:
    """The per-file record of ``bgtools check --json``; ``warnings``: every warning about the
    file (:attr:`bgtools.formats.read.FileReading.warnings`; default: ``m.warnings``)."""
    errs = m.errors
    warns = m.warnings if warnings is None else warnings
    return {
        "file": m.source,
        "format": m.format,
        "players": list(m.players),
        "length": m.length,
        "games": len(m.games),
        "plays": m.plays,
        "doubles": m.doubles,
        "final_score": list(m.final_score),
        "errors": [{"line": e.line, "column": e.column, "game": e.game, "move": e.move,
                    "message": e.message} for e in errs],
        "warnings": [{"line": w.line, "column": w.column, "game": w.game, "move": w.move, "message": w.message}
                     for w in warns],
    }
