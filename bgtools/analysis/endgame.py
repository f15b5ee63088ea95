"""Late-game checker plays settled by rollouts (``AnalysisSettings.endgame_trials``; docs/analysis.md, "Late-game
plays settled by rollouts").

In a race or a crashed position whose games are short (neither side more than :data:`ENDGAME_PIPS` pips from home)
the net is at its weakest, no database holds the position, and a rollout costs little.  There, at 2 and 3 ply, a
checker play whose two best candidates at the analysis ply are within :data:`ENDGAME_MARGIN` is settled by rolling
out those within it (at most :data:`ENDGAME_CANDIDATES`, and the play made) to the end, together on the same dice:
cubeful at the score, variance reduction, the rollout net, stopping at a chunk boundary once every candidate's
difference from the best has a standard error below :data:`ENDGAME_UNTIL_SE` or the best leads each by
:data:`ENDGAME_SIGMA` of them.  The rollouts are kept in the evaluation cache under the decision.

>>> from bgtools.core.position import Position
>>> is_endgame(Position.initial())
False
>>> is_endgame(Position.from_id("RgAA6LYNAAAAAA"))  # bearing off against a checker on the bar
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import numpy as np

from bgtools.core.position import PositionClass
from bgtools.engine.cubeful.cube import CubeInfo
from bgtools.engine.nets.networks import evaluator_name

if TYPE_CHECKING:
    from bgtools.analysis.records import AnalysisSettings
    from bgtools.engine.cubeful.met import MatchEquityTable
    from bgtools.engine.nets.networks import Weights

__all__ = ["ENDGAME_CLASSES", "ENDGAME_PIPS", "ENDGAME_MARGIN", "ENDGAME_CANDIDATES", "ENDGAME_UNTIL_SE",
           "ENDGAME_SIGMA", "is_endgame", "cube_state", "EndgameRollouts"]

ENDGAME_CLASSES = (PositionClass.RACE, PositionClass.CRASHED)
ENDGAME_PIPS = 100
ENDGAME_MARGIN = 0.08
ENDGAME_CANDIDATES = 3
ENDGAME_UNTIL_SE = 0.006
ENDGAME_SIGMA = 2.5


def is_endgame(position) -> bool:
    """Is ``position`` one whose close plays are settled by rollouts: a race or crashed position with neither side
    more than :data:`ENDGAME_PIPS` pips from home?"""
    return position.classify() in ENDGAME_CLASSES and max(position.pips) <= ENDGAME_PIPS


def cube_state(c: CubeInfo, met: "MatchEquityTable") -> str:
    """The whole cube state of ``c`` as the evaluation cache names it (with the match equity table's identity in
    match play)."""
    if c.money:
        return f"money cube={c.cube} owner={c.owner} jacoby={int(c.jacoby)} beavers={int(c.beavers)}"
    return f"away={c.away[0]},{c.away[1]} cube={c.cube} owner={c.owner} crawford={int(c.crawford)} met={met.digest}"


class EndgameRollouts:
    """The rollouts of one analysis: its evaluator (whose rollout net plays them), settings, match equity table,
    evaluation cache (None: none) and the evaluator's cache name."""

    def __init__(self, evaluator, settings: "AnalysisSettings", met: "MatchEquityTable", cache, ev_name: str) -> None:
        self.ev, self.s, self.met, self.cache, self.ev_name = evaluator, settings, met, cache, ev_name
        self._weights: Optional[Weights] = None  # the rollout net, loaded when first needed

    def revalue(self, position, dice, plays, played: int, norm: np.ndarray, raw: Optional[np.ndarray],
                searched: np.ndarray, c: CubeInfo) -> dict[int, np.ndarray]:
        """Settle the close plays among ``plays`` (``searched``: those valued at the analysis ply; ``norm``, ``raw``:
        their normalised equities and MWCs, set in place to the rolled-out ones): {play index: its row of
        :meth:`settle`}, empty when fewer than two are within :data:`ENDGAME_MARGIN` of the best."""
        deep = [i for i in sorted(range(len(plays)), key=lambda i: -norm[i]) if searched[i]]
        close = [i for i in deep if norm[i] >= norm[deep[0]] - ENDGAME_MARGIN][:ENDGAME_CANDIDATES]
        if len(close) < 2:
            return {}
        if played not in close:
            close.append(played)
        rows = self.settle(position, dice, [plays[i] for i in close], c)
        for k, i in enumerate(close):
            norm[i] = rows[k, 0]
            if raw is not None:
                raw[i] = rows[k, 1]
        return {i: rows[k] for k, i in enumerate(close)}

    def settle(self, position, dice, plays, c: CubeInfo) -> np.ndarray:
        """The plays ``plays`` of ``dice`` in ``position`` rolled out together to the end: float64[n, 5] rows of
        normalised equity, MWC (NaN for money), its standard error, that of its difference from the best, trials.
        Kept in the SQLite cache, where there is one, under the decision (the position, the roll, the analysis'
        evaluator and settings) and the cube state."""
        from bgtools.rollouts import Job, RolloutSettings
        from bgtools.rollouts.candidates import options_of, settle
        from bgtools.rollouts.executors import weights_or_default

        s = self.s
        boards = np.stack([p.after.to_array() for p in plays]).astype(np.int8)
        if self._weights is None:
            self._weights = weights_or_default(getattr(self.ev, "rollout_weights", None))
        weights = self._weights
        setting = (f"{evaluator_name(weights)}|endgame rollout trials={s.endgame_trials} se={ENDGAME_UNTIL_SE} "
                   f"sigma={ENDGAME_SIGMA} margin={ENDGAME_MARGIN} of={ENDGAME_CANDIDATES}|{cube_state(c, self.met)}|"
                   f"{position.position_id()} {dice[0]}{dice[1]}|{self.ev_name}|"
                   f"{s.ply},{s.keep},{s.threshold},{s.keep1},{s.threshold1},{int(s.prune)}")
        if self.cache is not None:
            got = self.cache.get(setting, boards)
            if all(v is not None for v in got):
                return np.stack(got)
        rs = RolloutSettings(trials=s.endgame_trials, seed=1, cubeful=True, variance_reduction=True, truncate=0,
                             pruning=s.prune, met=self.met)
        opts = options_of(Job(np.ascontiguousarray(position.to_array(), np.int8), c), rs,
                          [p.notation() for p in plays], [p.after.position_id() for p in plays])
        r = settle(position.position_id(), (int(dice[0]), int(dice[1])), opts, rs, weights,
                   until_se=ENDGAME_UNTIL_SE, stop_sigma=ENDGAME_SIGMA)
        rows = np.empty((len(plays), 5), np.float64)
        rows[:, 0] = r.values()
        rows[:, 1] = np.nan if c.money else 1.0 - r.total.sums[:, opts.out] / r.total.n
        rows[:, 2] = r.ses()
        rows[:, 3] = r.diff_ses()
        rows[:, 4] = r.trials
        if self.cache is not None:
            self.cache.put(setting, boards, rows)
        return rows
