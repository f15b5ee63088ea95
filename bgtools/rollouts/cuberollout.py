"""The cube decision by rollout: one cubeful rollout per cube branch, as gnubg does.

The *no double* branch rolls the position out with the cube as it stands (the player on
roll does not double on this turn; both sides double and take by the cube rules afterwards,
as in a plain cubeful rollout, where the player on roll may also double at once);
the *double/take* branch with the cube doubled and owned by the opponent.  Both branches use
the same dice (the same seed and trial numbers), so their difference is measured far more
precisely than either value: they run as a pair (:func:`~bgtools.rollouts.paired.run_paired`,
each branch's sums bit for bit those of its plain rollout), which gives the standard error of
the difference (``diff_se``) and the exact sums (``sums``) that
:func:`~bgtools.rollouts.candidates.extend_record` goes on from.  Double/pass is the cube's
worth, exactly.  Values are per unit of the current cube (match play: gnubg's normalised equity, the match winning chances beside).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

import numpy as np

from bgtools.core.position import Position
from bgtools.engine.cubeful.cube import CENTRED
from bgtools.engine.cubeful.cubeaction import NOT_AVAILABLE, CubeAction, proper_action
from bgtools.engine.cubeful.met import CubeStake
from bgtools.rollouts.paired import PairedSums, run_paired, stop_rule
from bgtools.rollouts.settings import Job, RolloutError, RolloutResult, RolloutSettings

__all__ = ["CubeRollout", "cube_rollout", "cube_rollout_job"]


@dataclass(frozen=True)
class CubeRollout:
    """No double / double-take / double-pass by rollout, with standard errors, and the action."""

    action: CubeAction
    no_double: float
    no_double_se: float
    double_take: Optional[float]
    double_take_se: Optional[float]
    double_pass: Optional[float]
    trials: int
    mwc: Optional[tuple[float, float, float]] = None
    #: the standard error of double/take minus no double (the same dice in both)
    diff_se: Optional[float] = None
    #: the exact sums of the whole chunks (:meth:`~bgtools.rollouts.paired.PairedSums.to_json`)
    sums: Optional[dict] = None

    def to_dict(self) -> dict:
        d = {"action": self.action, "no_double": self.no_double, "no_double_se": self.no_double_se,
             "double_take": self.double_take, "double_take_se": self.double_take_se,
             "double_pass": self.double_pass, "trials": self.trials}
        if self.mwc is not None:
            d["mwc"] = {"no_double": self.mwc[0], "double_take": self.mwc[1], "double_pass": self.mwc[2]}
        if self.diff_se is not None:
            d["diff_se"] = self.diff_se
        if self.sums is not None:
            d["sums"] = self.sums
        return d


def cube_rollout(position: Position, state=None, settings: Optional[RolloutSettings] = None, weights=None,
                 jobs: int = 1, dask=None) -> CubeRollout:
    """Roll out both cube branches of ``position`` (player on roll before his roll)."""
    s = settings or RolloutSettings()
    return cube_rollout_job(Job.make(position, state, s.jacoby, s.beavers, s.table), s, weights, jobs, dask)


def cube_rollout_job(nd_job: Job, settings: Optional[RolloutSettings] = None, weights=None, jobs: int = 1,
                     dask=None, start: Optional[dict] = None, until_se: Optional[float] = None,
                     stop_sigma: Optional[float] = None) -> CubeRollout:
    """:func:`cube_rollout` of a prepared :class:`~bgtools.rollouts.settings.Job`, going on
    from the sums ``start`` of an earlier one (its ``sums``) when given; ``until_se`` /
    ``stop_sigma`` stop it early (:func:`~bgtools.rollouts.paired.stop_rule`, on double/take
    against no double)."""
    settings = replace(settings or RolloutSettings(), cubeful=True)
    available = nd_job.info.can_double
    if available:
        nd_job = replace(nd_job, first_cube=False)  # the branch fixes the first cube action
        branches = [nd_job, replace(nd_job, info=nd_job.info.doubled())]
    else:
        branches = [nd_job]
    # the values compared: money points per current cube (the double/take branch's are per
    # doubled cube), or match winning chances
    scale = np.array([1.0, 2.0][:len(branches)] if nd_job.info.money else [1.0] * len(branches))
    first = None if start is None else PairedSums.from_json(start, scale)
    full, total = run_paired(branches, settings, 7, scale, weights, jobs, dask, first, stop_rule(until_se, stop_sigma))
    state = full.to_json()
    done = replace(settings, trials=total.n)
    res = [RolloutResult.from_partial(total.partial(j), done, job) for j, job in enumerate(branches)]
    if not available:
        nd = res[0]
        assert nd.cubeful_equity is not None and nd.cubeful_equity_se is not None
        return CubeRollout(NOT_AVAILABLE, nd.cubeful_equity, nd.cubeful_equity_se, None, None, None, nd.trials,
                           sums=state)
    nd, dt = res
    info = branches[0].info
    if nd.cubeful_equity is None or dt.cubeful_equity is None:
        raise RolloutError("a cubeful rollout gave no cubeful value")
    assert nd.cubeful_equity_se is not None and dt.cubeful_equity_se is not None
    win_gammon = nd.probs[1] > 0.0
    centred = info.owner == CENTRED
    if info.money:
        v_nd, s_nd = nd.cubeful_equity, nd.cubeful_equity_se
        v_dt, s_dt = 2.0 * dt.cubeful_equity, 2.0 * dt.cubeful_equity_se  # per cube of the branch -> per current
        action = proper_action(v_nd, v_dt, 1.0, win_gammon=win_gammon, match=False, centred=centred,
                               jacoby=info.jacoby, beavers=info.beavers)
        return CubeRollout(action, v_nd, s_nd, v_dt, s_dt, 1.0, nd.trials, diff_se=total.diff_se(1, 0), sums=state)
    met = settings.table
    am, ao = info.away
    stake = CubeStake.at(met, am, ao, info.cube)
    assert nd.mwc_cubeful is not None and dt.mwc_cubeful is not None
    assert nd.mwc_cubeful_se is not None and dt.mwc_cubeful_se is not None
    v_nd, v_dt = float(stake.normalise(nd.mwc_cubeful)), float(stake.normalise(dt.mwc_cubeful))
    action = proper_action(v_nd, v_dt, 1.0, win_gammon=win_gammon, match=True, centred=centred)
    return CubeRollout(action, v_nd, stake.scale * nd.mwc_cubeful_se, v_dt, stake.scale * dt.mwc_cubeful_se, 1.0,
                       nd.trials, (nd.mwc_cubeful, dt.mwc_cubeful, stake.win), stake.scale * total.diff_se(1, 0), state)
