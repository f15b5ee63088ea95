"""The cube decision by rollout: one cubeful rollout per cube branch, as gnubg does.

The *no double* branch rolls the position out with the cube as it stands (the player on
roll does not double on this turn; both sides double and take by the cube rules afterwards,
as in a plain cubeful rollout, where the player on roll may also double at once);
the *double/take* branch with the cube doubled and owned by the opponent.  Both branches use
the same dice (the same seed and trial numbers), so their difference is measured far more
precisely than either value.  Double/pass is the cube's worth, exactly.  Values are per unit
of the current cube (match play: gnubg's normalised equity, the match winning chances beside).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

from bgtools.core.position import Position
from bgtools.engine.cubeaction import NOT_AVAILABLE, proper_action
from bgtools.engine.met import CubeStake
from bgtools.rollouts.rollout import rollout_many
from bgtools.rollouts.settings import Job, RolloutError, RolloutSettings

__all__ = ["CubeRollout", "cube_rollout", "cube_rollout_job"]


@dataclass(frozen=True)
class CubeRollout:
    """No double / double-take / double-pass by rollout, with standard errors, and the action."""

    action: str
    no_double: float
    no_double_se: float
    double_take: Optional[float]
    double_take_se: Optional[float]
    double_pass: Optional[float]
    trials: int
    mwc: Optional[tuple[float, float, float]] = None

    def to_dict(self) -> dict:
        d = {"action": self.action, "no_double": self.no_double, "no_double_se": self.no_double_se,
             "double_take": self.double_take, "double_take_se": self.double_take_se,
             "double_pass": self.double_pass, "trials": self.trials}
        if self.mwc is not None:
            d["mwc"] = {"no_double": self.mwc[0], "double_take": self.mwc[1], "double_pass": self.mwc[2]}
        return d


def _available(job: Job) -> bool:
    if job.owner == 1:
        return False
    return job.money or (not job.crawford and job.away[0] > job.cube)


def cube_rollout(position: Position, state=None, settings: Optional[RolloutSettings] = None, weights=None,
                 jobs: int = 1, dask=None) -> CubeRollout:
    """Roll out both cube branches of ``position`` (player on roll before his roll)."""
    s = settings or RolloutSettings()
    return cube_rollout_job(Job.make(position, state, s.jacoby, s.beavers, s.table), s, weights, jobs, dask)


def cube_rollout_job(nd_job: Job, settings: Optional[RolloutSettings] = None, weights=None, jobs: int = 1,
                     dask=None) -> CubeRollout:
    """:func:`cube_rollout` of a prepared :class:`~bgtools.rollouts.settings.Job`."""
    settings = replace(settings or RolloutSettings(), cubeful=True)
    if not _available(nd_job):
        res = next(rollout_many([nd_job], settings, weights, jobs, dask))
        assert res.cubeful_equity is not None and res.cubeful_equity_se is not None
        return CubeRollout(NOT_AVAILABLE, res.cubeful_equity, res.cubeful_equity_se, None, None, None, res.trials)
    nd_job = replace(nd_job, first_cube=False)  # the branch fixes the first cube action
    dt_job = replace(nd_job, cube=2 * nd_job.cube, owner=1)
    nd, dt = rollout_many([nd_job, dt_job], settings, weights, jobs, dask)
    if nd.cubeful_equity is None or dt.cubeful_equity is None:
        raise RolloutError("a cubeful rollout gave no cubeful value")
    assert nd.cubeful_equity_se is not None and dt.cubeful_equity_se is not None
    win_gammon = nd.probs[1] > 0.0
    centred = nd_job.owner == -1
    if nd_job.money:
        v_nd, s_nd = nd.cubeful_equity, nd.cubeful_equity_se
        v_dt, s_dt = 2.0 * dt.cubeful_equity, 2.0 * dt.cubeful_equity_se  # per cube of the branch -> per current
        action = proper_action(v_nd, v_dt, 1.0, win_gammon=win_gammon, match=False, centred=centred,
                               jacoby=nd_job.jacoby, beavers=nd_job.beavers)
        return CubeRollout(action, v_nd, s_nd, v_dt, s_dt, 1.0, nd.trials)
    met = settings.table
    am, ao = nd_job.away
    stake = CubeStake.at(met, am, ao, nd_job.cube)
    assert nd.mwc_cubeful is not None and dt.mwc_cubeful is not None
    assert nd.mwc_cubeful_se is not None and dt.mwc_cubeful_se is not None
    v_nd, v_dt = float(stake.normalise(nd.mwc_cubeful)), float(stake.normalise(dt.mwc_cubeful))
    action = proper_action(v_nd, v_dt, 1.0, win_gammon=win_gammon, match=True, centred=centred)
    return CubeRollout(action, v_nd, stake.scale * nd.mwc_cubeful_se, v_dt, stake.scale * dt.mwc_cubeful_se, 1.0,
                       nd.trials, (nd.mwc_cubeful, dt.mwc_cubeful, stake.win))
