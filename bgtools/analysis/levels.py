"""Analysis levels: a screen of every decision, then more depth only where it matters.

A level (``annotate --level``, :data:`~bgtools.analysis.records.LEVELS`) is a plan of tiers:

============  =========================================================================
``fast``      the screen at 0 ply (the net alone)
``strong``    the screen at 2 ply (what ``--ply 2`` gives; the default)
``deep``      ``strong``, then 3 ply for the close decisions: checker plays whose two best
              candidates are within :data:`CLOSE_CHECKER`, and cube decisions near a boundary
              (no double within :data:`CLOSE_CUBE` of doubling, or take within it of pass),
              valued by the 3-ply cubeful lookahead
``rollout``   ``deep``, then a rollout of every decision the tiers before call an error
              (doubtful or worse) or close: cubeful, variance reduction, truncated after
              ``settings.rollout_truncate`` half-moves, ``settings.rollout_trials`` trials
============  =========================================================================

Rollouts use the rollout engine: the candidates of a checker play (those within
:data:`ROLLOUT_MARGIN` of the best, at most :data:`ROLLOUT_CANDIDATES`, and the play made)
are rolled out together on the same dice by :func:`bgtools.rollouts.candidates.settle`
(common dice: each candidate's difference from the best has its own standard error, from
the per-trial differences, far smaller than each value's); a cube decision by
:func:`bgtools.rollouts.cuberollout.cube_rollout_job` (both branches on the same dice).  Each
rolled-out value keeps its standard error and its trials (``Candidate.se``,
``Candidate.diff_se``, ``Candidate.trials``, ``CubeAnalysis.se``).

Every decision records what valued it: ``Decision.tier`` (``"screen"``, ``"deep"``,
``"rollout"``) and ``Decision.method`` (``"2-ply"``, ``"3-ply"``, ``"rollout"``), and
``MatchAnalysis.level`` holds, per tier, the decisions it re-valued, their share of the
decisions and the CPU seconds it took.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Callable, Optional, Union

from bgtools.analysis.analyse import DecisionValuer, analyse_match, resummarise
from bgtools.analysis.records import AnalysisSettings, Candidate, CubeAnalysis, Decision, MatchAnalysis, error_class
from bgtools.engine.cubeful.cube import Doubling
from bgtools.engine.nets.networks import evaluator_name
from bgtools.formats.read import FileStream
from bgtools.model.game import Game
from bgtools.model.match import Match

if TYPE_CHECKING:
    from bgtools.analysis.evalcache import EvalStore
    from bgtools.engine.evaluation import Evaluator

__all__ = ["TIERS", "CLOSE_CHECKER", "CLOSE_CUBE", "ROLLOUT_MARGIN", "ROLLOUT_CANDIDATES", "analyse_level",
           "is_close"]

#: level -> (screen ply, deep tier?, rollout tier?)
TIERS = {"fast": (0, False, False), "strong": (2, False, False), "deep": (2, True, False),
         "rollout": (2, True, True)}
#: a checker play is close when its two best candidates are within this (normalised equity)
CLOSE_CHECKER = 0.03
#: a cube decision is near a boundary when no double is within this of doubling, or take of pass
CLOSE_CUBE = 0.06
#: the rollout tier rolls out the candidates within this of the best (and the play made) ...
ROLLOUT_MARGIN = 0.08
#: ... at most this many of them besides the play made
ROLLOUT_CANDIDATES = 3


def is_close(d: Decision) -> bool:
    """Is ``d`` close: a checker play whose two best candidates are within :data:`CLOSE_CHECKER`,
    or a cube decision near a boundary (:data:`CLOSE_CUBE`)?"""
    if d.forced:
        return False
    if d.kind == "checker":
        return len(d.candidates) >= 2 and d.candidates[0].equity - d.candidates[1].equity < CLOSE_CHECKER
    c = d.cube
    if c is None:
        return False
    return abs(c.nd - min(c.dt, c.dp)) < CLOSE_CUBE or abs(c.dt - c.dp) < CLOSE_CUBE


def _settled(d: Decision) -> bool:
    """Was ``d`` settled by rollouts already (a late-game play, ``AnalysisSettings.endgame_trials``)?  The deep and
    rollout tiers leave it as it is: its rollouts are played to the end, theirs are shallower or truncated."""
    return d.kind == "checker" and bool(d.candidates) and d.candidates[0].trials > 0


def _dice(d: Decision) -> tuple[int, int]:
    assert d.dice is not None
    return int(d.dice[0]), int(d.dice[1])


def _play(d: Decision):
    """(position, state, the legal play made) of a checker decision."""
    from bgtools.core.movegen import legal_plays
    from bgtools.model.resolve import apply_steps

    pos = d.position
    target = apply_steps(pos, d.steps)[0].to_array().tobytes()
    play = next(p for p in legal_plays(pos, _dice(d)) if p.after.to_array().tobytes() == target)
    return pos, d.state, play


def _checker_decision(d: Decision, cands: tuple[Candidate, ...], pi: int, tier: str) -> Decision:
    """``d`` with new candidates (best first) and the losses they give."""
    loss = max(0.0, cands[0].equity - cands[pi].equity)
    m0, mp = cands[0].mwc, cands[pi].mwc
    mloss = None if m0 is None or mp is None else max(0.0, m0 - mp)
    return replace(d, candidates=cands, played_index=pi, best=cands[0].move, equity_loss=loss, mwc_loss=mloss,
                   error_class=error_class(loss), tier=tier)


def _cube_decision(d: Decision, ca: CubeAnalysis, tier: str) -> Decision:
    """``d`` with a new cube valuation: the proper action and the loss of the action taken
    (as :func:`~bgtools.analysis.analyse.analyse_match` counts it)."""
    best = "double" if ca.action == "double" else ca.action
    if d.played == "no double":
        loss = max(0.0, ca.doubled - ca.nd)
        mloss = None if ca.mwc is None else max(0.0, min(ca.mwc[1], ca.mwc[2]) - ca.mwc[0])
    elif d.played == "double":
        loss = max(0.0, max(ca.nd, ca.doubled) - ca.doubled)
        mloss = None if ca.mwc is None else max(0.0, max(ca.mwc[0], min(ca.mwc[1], ca.mwc[2]))
                                                 - min(ca.mwc[1], ca.mwc[2]))
    else:
        best = ca.response
        loss = max(0.0, ca.answer_value(d.played) - ca.doubled)
        took = d.played != "pass"
        mloss = None if ca.mwc is None else max(0.0, (ca.mwc[1] if took else ca.mwc[2]) - min(ca.mwc[1], ca.mwc[2]))
    return replace(d, cube=ca, best=best, equity_loss=loss, mwc_loss=mloss, error_class=error_class(loss), tier=tier)


def _cube_key(d: Decision) -> tuple:
    """Decisions on one cube position (a double and its answer) share one valuation."""
    return (d.game, d.move_number) if d.played not in ("no double",) else (d.game, d.move_number, d.action_index)


def _revalue(decisions: list[Decision], pick, value_checker, value_cube, tier: str) -> int:
    """Re-value in place the decisions ``pick`` selects; returns how many were re-valued."""
    done = 0
    cubes: dict[tuple, Optional[CubeAnalysis]] = {}
    # an answer is valued from its double's position (the doubler on roll)
    doubles = {_cube_key(d): d for d in decisions if d.kind == "cube" and d.played == "double"}
    for i, d in enumerate(decisions):
        if d.forced or not pick(d):
            continue
        if d.kind == "checker" and d.candidates:
            got = value_checker(d)
            if got is not None:
                decisions[i] = _checker_decision(d, got[0], got[1], tier)
                done += 1
        elif d.kind == "cube" and d.cube is not None:
            key = _cube_key(d)
            if key not in cubes:
                cubes[key] = value_cube(doubles.get(key, d))
            ca = cubes[key]
            if ca is not None:
                decisions[i] = _cube_decision(d, ca, tier)
                done += 1
    # an answer shares its double's position: valued with it, even when only one was picked
    for i, d in enumerate(decisions):
        key = _cube_key(d)
        if d.kind == "cube" and d.tier != tier and key in cubes and cubes[key] is not None:
            decisions[i] = _cube_decision(d, cubes[key], tier)  # type: ignore[arg-type]
            done += 1
    return done


# ----------------------------------------------------------------------------- the deep tier
def _deep(decisions: list[Decision], settings: AnalysisSettings, evaluator, cache) -> int:
    valuer = DecisionValuer(replace(settings, ply=3), evaluator, cache, cube_ply=3)

    def checker(d: Decision):
        pos, state, play = _play(d)
        cands, pi, _ = valuer.checker(pos, _dice(d), play, state)
        return cands, pi

    def cube(d: Decision) -> Optional[CubeAnalysis]:
        return valuer.cube(d.position, d.state)

    return _revalue(decisions, lambda d: is_close(d) and not _settled(d), checker, cube, "deep")


# ----------------------------------------------------------------------------- the rollout tier
def _rollout_settings(settings: AnalysisSettings):
    from bgtools.rollouts import RolloutSettings

    return RolloutSettings(trials=settings.rollout_trials, seed=1, cubeful=True, variance_reduction=True,
                           truncate=settings.rollout_truncate, pruning=settings.prune, met=settings.met)


def _rollout(decisions: list[Decision], settings: AnalysisSettings, weights) -> int:
    from bgtools.model.resolve import apply_steps
    from bgtools.rollouts import Job
    from bgtools.rollouts.candidates import options_of, settle
    from bgtools.rollouts.cuberollout import cube_rollout_job

    rs = _rollout_settings(settings)

    def job_of(d: Decision) -> Job:
        return Job.make(d.position, d.state, rs.jacoby, rs.beavers, rs.table)

    def checker(d: Decision):
        pos = d.position
        best = d.candidates[0].equity
        pick = [i for i, c in enumerate(d.candidates[:ROLLOUT_CANDIDATES]) if c.equity >= best - ROLLOUT_MARGIN]
        if d.played_index is not None and d.played_index not in pick:
            pick.append(d.played_index)
        if len(pick) < 2:
            return None
        # the position after each candidate (the opponent on roll), all on the same dice
        ids = [apply_steps(pos, d.candidates[i].steps)[0].position_id() for i in pick]
        opts = options_of(job_of(d), rs, [d.candidates[i].move for i in pick], ids)
        got = settle(d.position_id, _dice(d), opts, rs, weights)
        values, ses, dses = got.values(), got.ses(), got.diff_ses()
        new = list(d.candidates)
        for k, i in enumerate(pick):
            mwc = None if opts.jobs[k].info.money else 1.0 - float(got.total.sums[k, opts.out] / got.total.n)
            new[i] = replace(new[i], equity=float(values[k]), mwc=mwc, se=float(ses[k]), diff_se=float(dses[k]),
                             trials=got.trials)
        order = sorted(range(len(new)), key=lambda i: (-new[i].trials, -new[i].equity))
        cands = tuple(new[i] for i in order)
        return cands, order.index(d.played_index if d.played_index is not None else 0)

    def cube(d: Decision) -> Optional[CubeAnalysis]:
        old = d.cube
        assert old is not None
        job = job_of(d)
        r = cube_rollout_job(job, rs, weights)
        if r.double_take is None or r.double_pass is None or r.double_take_se is None:
            return None
        nd, dt, dp = r.no_double, r.double_take, r.double_pass
        action = Doubling.of(nd, dt, dp)
        response = "beaver" if job.info.money and job.info.beavers and dt < 0.0 else ("take" if dt <= dp else "pass")
        ca = CubeAnalysis(old.probs, nd, dt, dp, action, response, r.mwc, old.ply, (r.no_double_se, r.double_take_se),
                          r.trials)
        if action is Doubling.DOUBLE and ca.doubled <= ca.nd:
            ca = replace(ca, action=Doubling.NO_DOUBLE)
        return ca

    def pick(d: Decision) -> bool:
        return (d.error_class != "none" or is_close(d)) and not _settled(d)

    return _revalue(decisions, pick, checker, cube, "rollout")


# ----------------------------------------------------------------------------- the plan
def analyse_level(match: Union[Match, FileStream], settings: AnalysisSettings, evaluator: Optional[Evaluator] = None, *,
                  cache: Union[str, EvalStore, None] = "default", label: Optional[str] = None,
                  on_game: Optional[Callable[[Match, Game, list[Decision]], None]] = None,
                  keep: bool = True) -> MatchAnalysis:
    """Analyse ``match`` at ``settings.level`` (None: :func:`analyse_match` at ``settings.ply``,
    which also takes a :class:`~bgtools.formats.read.FileStream`, ``on_game`` and ``keep``; a
    level needs the match whole, and keeps its decisions)."""
    if settings.level is None:
        return analyse_match(match, settings=settings, evaluator=evaluator, cache=cache, label=label,
                             on_game=on_game, keep=keep)
    if not isinstance(match, Match):
        raise TypeError("an analysis level re-sums the match: give the Match, not a stream")
    screen_ply, deep, roll = TIERS[settings.level]
    s = replace(settings, ply=screen_ply)
    t = time.process_time()
    a = analyse_match(match, settings=s, evaluator=evaluator, cache=cache, label=label)
    decisions = [d if d.forced else replace(d, tier="screen") for d in a.decisions]
    seconds = {"screen": time.process_time() - t}
    counts = {"screen": sum(not d.forced for d in decisions)}
    settled = sum(_settled(d) for d in decisions)  # late-game plays the screen settled by rollouts (analysis.endgame)
    rollout_weights = _rollout_net(evaluator) if roll else None
    if deep or roll:
        from bgtools.analysis.evalcache import EvalStore

        own = isinstance(cache, str)
        db = EvalStore() if isinstance(cache, str) else cache
        try:
            if deep:
                t = time.process_time()
                counts["deep"] = _deep(decisions, s, evaluator, db)
                seconds["deep"] = time.process_time() - t
            if roll:
                t = time.process_time()
                counts["rollout"] = _rollout(decisions, s, rollout_weights)
                seconds["rollout"] = time.process_time() - t
        finally:
            if own and db is not None:
                db.close()
    n = counts["screen"]
    level = {"name": settings.level, "screen_ply": screen_ply, "decisions": n, "revalued": counts,
             "share": {k: round(v / n, 4) if n else 0.0 for k, v in counts.items()},
             "cpu_seconds": {k: round(v, 2) for k, v in seconds.items()}, "endgame_settled": settled,
             "endgame_trials": settings.endgame_trials}
    if rollout_weights is not None:  # (a rollout tier ran) the screen's values name the evaluator, the rolled-out ones this net
        level.update(rollout_trials=settings.rollout_trials, rollout_truncate=settings.rollout_truncate,
                     rollout_net=evaluator_name(rollout_weights))
    return _resummarise(match, a, decisions, level)


def _rollout_net(evaluator):
    """The weights the rollout tier plays: the evaluator's ``rollout_weights`` (the shipped evaluator's: the shipped
    rollout net), or the shipped rollout net."""
    from bgtools.rollouts.executors import weights_or_default

    return weights_or_default(getattr(evaluator, "rollout_weights", None))


def _resummarise(match: Match, a: MatchAnalysis, decisions: list[Decision], level: dict) -> MatchAnalysis:
    """``a`` with re-valued ``decisions``: its totals and file figures made again."""
    from bgtools.analysis.filecompare import attach_file_figures

    plain = [d if d.file is None else replace(d, file=None) for d in decisions]
    return attach_file_figures(match, replace(resummarise(match, a, plain), level=level, file_comparison=None))
