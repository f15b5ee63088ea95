"""Settle a decision by rollout: the best few plays of a roll (or every play, or the two cube
branches) rolled out on the same dice, each with its difference from the best and the
standard error of that difference.

Every option is a :class:`~bgtools.rollouts.settings.Job` and all run through
:func:`~bgtools.rollouts.paired.run_paired`: trial ``t`` of each option uses the same dice,
so the differences are measured from per-trial differences (common random numbers).  A
play is rolled out from the position after it, the opponent on roll; its values are turned
to the mover's side.  The options are compared on cubeless money equity, or with
``cubeful`` on cubeful equity (money points per starting cube; at a match score gnubg's
normalised equity).

Stopping rules are asked at every chunk boundary (:data:`~bgtools.rollouts.settings.CHUNK`
trials): ``until_se`` stops once every option's standard error of its difference from the
best is below it, ``stop_sigma`` once the best leads every other by that many standard
errors of the difference.  A record (:meth:`Settled.record`) carries the exact sums of its
whole chunks, so that :func:`extend_record` can add trials and give byte for byte the
record of one longer rollout; cube decisions (:mod:`bgtools.rollouts.cuberollout`) too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional, Sequence

import numpy as np

from bgtools.core.position import Position
from bgtools.engine.cubeful.met import CubeStake
from bgtools.engine.outputs import invert_probs
from bgtools.rollouts.batch import json_records
from bgtools.rollouts.paired import PairedSums, run_paired, stop_rule
from bgtools.rollouts.settings import Job, RolloutError, RolloutSettings

__all__ = ["Options", "Settled", "play_options", "options_of", "settle", "settle_id", "extend_record",
           "extend_file", "read_records", "settings_of_record", "KIND"]

#: the ``kind`` of a candidate-set record
KIND = "candidates"
EQUITY, CUBEFUL = 5, 7  # the outputs compared (settings.OUTPUTS)


@dataclass(frozen=True)
class Options:
    """The options of one decision, each a job rolled out on the same dice: ``labels`` (the
    plays' notation), ``ids`` (the Position ID after each play, opponent on roll), the
    mover's value of option i = ``scale[i]`` x (mean of output ``out``) + ``shift``;
    ``flip``: the jobs are the opponent's (their probabilities are turned round);
    ``ranked_by``: what chose them (the ranking evaluator, with its pruning, and its ply), None
    when they were given."""

    labels: tuple[str, ...]
    ids: tuple[str, ...]
    jobs: tuple[Job, ...]
    scale: tuple[float, ...]
    shift: float
    out: int
    flip: bool = True
    ranked_by: Optional[dict] = None


def _opponent_job(root: Job, board: np.ndarray) -> Job:
    """The job of ``board`` (after the root player's play, the opponent on roll)."""
    return replace(root, board=np.ascontiguousarray(board, np.int8), info=root.info.flipped(), first_cube=True)


def _play_values(root: Job, settings: RolloutSettings, n: int) -> tuple[tuple[float, ...], float, int]:
    """(scale, shift, output) turning the opponent's mean into the mover's value."""
    if not settings.cubeful:
        return (-1.0,) * n, 0.0, EQUITY
    if root.info.money:
        return (-1.0,) * n, 0.0, CUBEFUL
    # the mover's normalised equity is minus the opponent's (the stakes are symmetric)
    theirs = CubeStake.at(settings.table, root.info.away[1], root.info.away[0], root.info.cube)
    return (-theirs.scale,) * n, theirs.scale * 0.5 * (theirs.win + theirs.lose), CUBEFUL


def options_of(root: Job, settings: RolloutSettings, labels: Sequence[str], ids: Sequence[str],
               ranked_by: Optional[dict] = None) -> Options:
    """The :class:`Options` of the plays whose resulting positions are ``ids`` (chosen as
    ``ranked_by`` says, when they were)."""
    jobs = tuple(_opponent_job(root, Position.from_id(i).to_array()) for i in ids)
    scale, shift, out = _play_values(root, settings, len(jobs))
    return Options(tuple(labels), tuple(ids), jobs, scale, shift, out, ranked_by=ranked_by)


def play_options(text: str, dice: Optional[tuple[int, int]], count: Optional[int], settings: RolloutSettings,
                 evaluator=None, rank_ply: int = 0) -> tuple[Job, tuple[int, int], Options]:
    """The root job, the roll and the best ``count`` plays (None: every play) of ``dice``
    (None: the dice of the ID) in ``text`` (an ID), ranked by ``evaluator`` at ``rank_ply``
    (cubeful at the score when the rollout is cubeful or the ID a match score)."""
    from bgtools.core.matchstate import parse_any_id
    from bgtools.engine.evaluation import default_evaluator, evaluator_setting, rank_plays
    from bgtools.engine.cubeful.scoreplay import rank_plays_at_score

    try:
        pos, ms = parse_any_id(text)
    except ValueError as e:
        raise RolloutError(f"{text}: {e}") from None
    if dice is None:
        if ms is None or tuple(ms.dice) == (0, 0):
            raise RolloutError(f"{text}: no dice: give --dice")
        dice = (int(ms.dice[0]), int(ms.dice[1]))
    root = Job.make(pos, ms, settings.jacoby, settings.beavers, settings.table)
    if ms is not None and (settings.cubeful or not ms.is_money):
        ranked = rank_plays_at_score(pos, dice, ms, rank_ply, evaluator, met=settings.table)
    else:
        ranked = rank_plays(pos, dice, rank_ply, evaluator)
    if not ranked:
        raise RolloutError(f"{text}: no legal play with {dice[0]}{dice[1]}")
    chosen = ranked if count is None else ranked[:count]
    ranked_by = {"evaluator": evaluator_setting(evaluator or default_evaluator()), "ply": int(rank_ply)}
    opts = options_of(root, settings, [r.play.notation() for r in chosen], [r.play.after_id for r in chosen],
                      ranked_by)
    return root, dice, opts


def _values(opts: Options, sums: PairedSums) -> np.ndarray:
    means = sums.sums[:, opts.out] / sums.n
    return np.array(opts.scale) * means + opts.shift


@dataclass(frozen=True)
class Settled:
    """A decision rolled out: the options, the sums of every trial (``total``) and of the
    whole chunks (``full``, where an extension goes on from)."""

    label: str
    dice: Optional[tuple[int, int]]
    options: Options
    total: PairedSums
    full: PairedSums
    settings: RolloutSettings

    @property
    def trials(self) -> int:
        return self.total.n

    def values(self) -> np.ndarray:
        return _values(self.options, self.total)

    def ses(self) -> np.ndarray:
        """Each option's own standard error (of its value)."""
        se = [self.total.partial(j).se()[self.options.out] for j in range(self.total.jobs)]
        return np.abs(np.array(self.options.scale)) * np.array(se)

    @property
    def best(self) -> int:
        return int(np.argmax(self.values()))

    def diff_ses(self) -> list[float]:
        """The standard error of each option's difference from the best."""
        return [self.total.diff_se(i, self.best) for i in range(self.total.jobs)]

    def probs(self, j: int) -> list[float]:
        """Option ``j``'s probabilities (win, gammons, backgammons) for the mover."""
        p = self.total.sums[j, :5] / self.total.n
        if not self.options.flip:
            return [float(x) for x in p]
        return [float(x) for x in invert_probs(p)]

    def ranking(self) -> list[int]:
        """The options best first."""
        v = self.values()
        return sorted(range(len(v)), key=lambda i: (-v[i], i))

    def record(self, evaluator: str) -> dict:
        """A JSON-ready record: settings, each play's equity, difference from the best and
        its standard error, and the exact sums to extend it (:func:`extend_record`)."""
        v, se, dse = self.values(), self.ses(), self.diff_ses()
        best = self.best
        plays = [{"move": self.options.labels[j], "position_id": self.options.ids[j], "equity": float(v[j]),
                  "equity_se": float(se[j]), "diff": float(v[j] - v[best]), "diff_se": float(dse[j]),
                  "probs": self.probs(j)} for j in range(len(v))]
        dice = None if self.dice is None else f"{self.dice[0]}{self.dice[1]}"
        ranked = {} if self.options.ranked_by is None else {"ranked_by": self.options.ranked_by}
        return {"id": self.label, "kind": KIND, "dice": dice, **self.settings.key(), "trials": self.trials,
                "evaluator": evaluator, **ranked, "best": self.options.labels[best], "plays": plays,
                "sums": self.full.to_json()}


def settle(label: str, dice: Optional[tuple[int, int]], opts: Options, settings: RolloutSettings, weights=None,
           jobs: int = 1, dask=None, until_se: Optional[float] = None, stop_sigma: Optional[float] = None,
           start: Optional[PairedSums] = None, on_chunk=None) -> Settled:
    """Roll out the options of a decision on the same dice, up to ``settings.trials`` each
    (fewer when a stopping rule holds), going on from ``start`` when given."""
    rule = stop_rule(until_se, stop_sigma)
    full, total = run_paired(opts.jobs, settings, opts.out, np.array(opts.scale), weights, jobs, dask, start,
                             rule, on_chunk)
    return Settled(label, dice, opts, total, full, replace(settings, trials=max(1, total.n)))


def settings_of_record(rec: dict, trials: int, met=None) -> RolloutSettings:
    """The rollout settings of a stored record, with ``trials`` trials, under ``met`` (the
    table of this run, None: the default); :class:`RolloutError` when it is not the record's."""
    try:
        s = RolloutSettings(trials=trials, seed=int(rec["seed"]), ply=int(rec["ply"]), cubeful=bool(rec["cubeful"]),
                            truncate=int(rec["truncate"]), variance_reduction=bool(rec["vr"]),
                            bearoff_truncation=bool(rec["bearoff_truncation"]), jacoby=rec.get("jacoby"),
                            beavers=rec.get("beavers"), pruning=bool(rec.get("pruning", True)), met=met)
    except (KeyError, TypeError, ValueError) as e:
        raise RolloutError(f"not a rollout record with its settings ({e})") from None
    if rec.get("met") != s.table.identity:
        raise RolloutError(f"rolled out under the match equity table {rec.get('met')}, not {s.table.identity}: "
                           "give it with --met")
    return s


def extend_record(rec: dict, more: int, evaluator: str, weights=None, jobs: int = 1, dask=None, met=None,
                  until_se: Optional[float] = None, stop_sigma: Optional[float] = None) -> dict:
    """The record ``rec`` (a candidate set or a cube decision, as ``rollout -o`` writes them)
    rolled out ``more`` trials further: the same record as one rollout of the total length."""
    if rec.get("evaluator") != evaluator:
        raise RolloutError(f"rolled out by the evaluator {rec.get('evaluator')}, not {evaluator}: give its --weights")
    if "sums" not in rec:
        raise RolloutError("holds no rollout sums to go on from: only candidate sets and cube decisions "
                           "(rollout --candidates, --cube-decision with -o) can be extended")
    try:
        trials = int(rec["trials"]) + more
    except (KeyError, TypeError, ValueError):
        raise RolloutError("not a rollout record (no trials)") from None
    settings = settings_of_record(rec, trials, met)
    label = str(rec.get("id", ""))
    if rec.get("cube_decision"):
        from bgtools.rollouts.batch import record_of
        from bgtools.rollouts.cuberollout import cube_rollout_job

        root = _root_job(label, settings)
        cube = cube_rollout_job(root, settings, weights, jobs, dask, start=rec["sums"], until_se=until_se,
                                stop_sigma=stop_sigma)
        return {"id": label, **record_of(cube, settings, evaluator)}
    if rec.get("kind") != KIND:
        raise RolloutError("not a candidate set or cube decision record")
    try:
        plays = rec["plays"]
        labels, ids = [str(p["move"]) for p in plays], [str(p["position_id"]) for p in plays]
        dice = (int(rec["dice"][0]), int(rec["dice"][1]))
        ranked_by = rec.get("ranked_by")
        if ranked_by is not None and not isinstance(ranked_by, dict):
            raise ValueError("ranked_by is not an object")
        opts = options_of(_root_job(label, settings), settings, labels, ids, ranked_by)
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise RolloutError(f"damaged candidate record ({e})") from None
    start = PairedSums.from_json(rec["sums"], np.array(opts.scale))
    res = settle(label, dice, opts, settings, weights, jobs, dask, until_se, stop_sigma, start)
    return res.record(evaluator)


def _root_job(label: str, settings: RolloutSettings) -> Job:
    from bgtools.core.matchstate import parse_any_id

    try:
        pos, ms = parse_any_id(label)
    except ValueError as e:
        raise RolloutError(f"{label}: {e}") from None
    return Job.make(pos, ms, settings.jacoby, settings.beavers, settings.table)



def settle_id(text: str, dice: Optional[tuple[int, int]], count: Optional[int], settings: RolloutSettings,
              weights=None, evaluator=None, jobs: int = 1, dask=None, until_se: Optional[float] = None,
              stop_sigma: Optional[float] = None) -> Settled:
    """:func:`play_options` of the ID ``text`` (ranked by ``evaluator``, at the rollout's
    checker-play ply), then :func:`settle` them."""
    _, dice, opts = play_options(text, dice, count, settings, evaluator, settings.ply)
    return settle(text, dice, opts, settings, weights, jobs, dask, until_se, stop_sigma)


def read_records(source: str) -> list[tuple[int, dict]]:
    """(line number, record) of a JSON-lines file of rollout records (``-`` = stdin)."""
    import sys

    try:
        text = sys.stdin.read() if source == "-" else open(source, encoding="utf-8").read()
    except OSError as e:
        raise RolloutError(f"{source}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise RolloutError(f"{source}: not a text file of rollout records") from None
    try:
        out = json_records(text, source)
    except RolloutError as e:
        raise RolloutError(f"{e} (only JSON-lines records can be extended)") from None
    if not out:
        raise RolloutError(f"{source}: holds no rollout records")
    return out


def extend_file(source: str, target: str, more: int, evaluator: str, weights=None, jobs: int = 1, dask=None,
                met=None, until_se: Optional[float] = None, stop_sigma: Optional[float] = None) -> list[dict]:
    """Every record of ``source`` rolled out ``more`` trials further (:func:`extend_record`),
    written to ``target`` as one output (atomically; ``-`` = stdout; it may be ``source``)."""
    from bgtools.base import jsonout
    from bgtools.base.fileio import atomic_write, check_output

    check_output(target)
    done = []
    for n, rec in read_records(source):
        try:
            done.append(extend_record(rec, more, evaluator, weights, jobs, dask, met, until_se, stop_sigma))
        except RolloutError as e:
            raise RolloutError(f"{source}: line {n}: {e}") from None
    atomic_write(target, "".join(jsonout.dumps(r) + "\n" for r in done))
    return done
