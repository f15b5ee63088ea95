"""Running totals of an analysis: a player's summary and a game's, summed as the decisions go by.

:class:`PlayerTotals` takes one player's decisions in match order (:meth:`PlayerTotals.add`)
and gives his :class:`~bgtools.analysis.records.PlayerSummary` at the end, so that
:func:`~bgtools.analysis.analyse.analyse_match` can let each game's decisions go once the game
is done (the memory of a game, whatever the file's size).  Sums are made in the order the
decisions come, as ``sum()`` over them in match order would.

>>> t = PlayerTotals()
>>> t.moves, t.checker_loss
(0, 0)
"""

from __future__ import annotations

from typing import Iterable, Optional

from bgtools.analysis.records import ERRORS, Decision, GameSummary, PlayerSummary

__all__ = ["PlayerTotals", "game_summary", "player_summaries"]


def _zero() -> dict:
    return {k: 0 for k in ERRORS}


class PlayerTotals:
    """One player's totals over the decisions :meth:`add` is given (definitions in
    ``docs/analysis.md``): unforced checker plays and counted cube decisions, their losses,
    error classes and phases, and the luck of his rolls."""

    __slots__ = ("moves", "checker_loss", "cubes", "cube_loss", "checker_errors", "cube_errors", "move_phases",
                 "cube_phases", "luck", "luck_points", "luck_mwc", "move_mwc_loss", "cube_mwc_losses")

    def __init__(self) -> None:
        self.moves = 0
        self.checker_loss: float = 0
        self.cubes = 0
        self.cube_loss: float = 0
        self.checker_errors = _zero()
        self.cube_errors = _zero()
        self.move_phases: dict[str, dict] = {}  #: phase -> error class -> count, in the order first met
        self.cube_phases: dict[str, dict] = {}
        self.luck: float = 0
        self.luck_points: float = 0
        self.luck_mwc: float = 0
        self.move_mwc_loss: float = 0
        #: the counted cube decisions' MWC losses (added after the plays', as the summary always summed them)
        self.cube_mwc_losses: list[float] = []

    def add(self, d: Decision) -> None:
        """Count one decision of this player (in match order)."""
        if d.kind == "checker":
            if not d.forced:
                self.moves += 1
                self.checker_loss += d.equity_loss
                self._count(d, self.checker_errors, self.move_phases)
                self.move_mwc_loss += d.mwc_loss or 0.0
            if d.luck is not None:
                self.luck += d.luck or 0.0
                self.luck_points += (d.luck or 0.0) * d.state.cube
                self.luck_mwc += d.luck_mwc or 0.0
        elif d.counted:
            self.cubes += 1
            self.cube_loss += d.equity_loss
            self._count(d, self.cube_errors, self.cube_phases)
            self.cube_mwc_losses.append(d.mwc_loss or 0.0)

    @staticmethod
    def _count(d: Decision, classes: dict, phases: dict) -> None:
        if d.error_class in classes:
            classes[d.error_class] += 1
        if d.error_class != "none":
            phases.setdefault(d.phase, _zero())[d.error_class] += 1

    def summary(self, match, p: int, name: str, met, length_ok: bool) -> PlayerSummary:
        """Player ``p``'s summary in ``match`` (its header and games' results and scores; the
        decisions are those added)."""
        by_phase: dict = {}
        for phases in (self.move_phases, self.cube_phases):
            for phase, counts in phases.items():
                mine = by_phase.setdefault(phase, _zero())
                for k, n in counts.items():
                    mine[k] += n
        mwc_loss: Optional[float] = None
        luck_mwc: Optional[float] = None
        if match.length and length_ok:
            luck_mwc = self.luck_mwc
            mwc_loss = self.move_mwc_loss
            for x in self.cube_mwc_losses:
                mwc_loss += x
            result = _mwc_result(match, p, met)
            adjusted = result - luck_mwc
        else:
            result = float(sum((g.result.points if g.result.winner == p else -g.result.points)
                               for g in match.games if g.result is not None))
            adjusted = result - self.luck_points
        return PlayerSummary(p, name, self.moves, self.checker_loss, self.cubes, self.cube_loss,
                             dict(self.checker_errors), dict(self.cube_errors), by_phase, float(self.luck),
                             self.luck_points, luck_mwc, result, adjusted, mwc_loss)


def _mwc_result(match, p: int, met) -> float:
    """The match result of player ``p`` minus his MWC at the start (match play)."""
    fs = match.final_score
    start = met.mwc(match.length - match.games[0].score[p], match.length - match.games[0].score[1 - p]) \
        if match.games and max(match.games[0].score) < match.length else 0.5
    if fs[p] >= match.length:
        end = 1.0
    elif fs[1 - p] >= match.length:
        end = 0.0
    else:
        try:
            end = met.mwc(match.length - fs[p], match.length - fs[1 - p],
                          post_crawford=1 in (match.length - fs[0], match.length - fs[1])
                          and any(g.crawford for g in match.games))
        except ValueError:
            end = 0.5
    return end - start


def player_summaries(match, names: tuple[str, str], decisions: Iterable[Decision], met,
                     length_ok: bool) -> tuple[PlayerSummary, PlayerSummary]:
    """Both players' summaries of ``decisions`` (all of them at once)."""
    totals = (PlayerTotals(), PlayerTotals())
    for d in decisions:
        totals[d.player].add(d)
    return (totals[0].summary(match, 0, names[0], met, length_ok),
            totals[1].summary(match, 1, names[1], met, length_ok))


def game_summary(gi: int, game, decisions: list[Decision]) -> GameSummary:
    """The summary of game ``gi`` (0-based) from its decisions."""
    res = game.result
    return GameSummary(
        gi + 1, game.number, tuple(game.score),
        tuple(sum(d.luck or 0.0 for d in decisions if d.player == p) for p in (0, 1)),
        tuple(sum(d.equity_loss for d in decisions if d.player == p and d.counted and not d.forced) for p in (0, 1)),
        None if res is None else res.winner, 0 if res is None else res.points)
