"""What a rollout does and what it returns: settings, jobs, partial sums and results.

Work is cut into fixed chunks of :data:`CHUNK` trials; each returns a :class:`Partial`
(n, sum, sum of squares per output), and partial results are merged in chunk order, never
averaged, so results do not depend on how the trials were split among processes.

Outputs per trial (:data:`OUTPUTS`): the five cumulative probabilities (gnubg's order),
cubeless money equity, cubeless match winning chance (match only: the cube at its
starting value, never turned), and the cubeful value (money: points in units of the
starting cube; match: match winning chance).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterator, Optional

import numpy as np

from bgtools.base.errors import BgtoolsError
from bgtools.core.position import Position
from bgtools.engine.cubeful.cube import CubeInfo
from bgtools.engine.cubeful.met import CubeStake, MatchEquityTable, load_met

__all__ = ["RolloutSettings", "RolloutResult", "Partial", "Job", "RolloutError", "weights_or_default", "CHUNK", "OUTPUTS", "N_OUTPUTS",
           "MAX_TRIALS", "MAX_TRUNCATE"]

#: trials per unit of work (fixed, so that the merge order never depends on the workers)
CHUNK = 144
OUTPUTS = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon", "equity", "mwc",
           "cubeful")
N_OUTPUTS = len(OUTPUTS)
#: the most trials a rollout takes (a billion: days of work; more is a typo)
MAX_TRIALS = 1_000_000_000
#: the most half-moves ``truncate`` takes (games are far shorter; more is a typo)
MAX_TRUNCATE = 1_000_000


class RolloutError(BgtoolsError, ValueError):
    """A position or setting that cannot be rolled out."""


def weights_or_default(weights):
    """``weights``, or the shipped rollout network's when None (:class:`RolloutError` when none is shipped)."""
    if weights is not None:
        return weights
    from bgtools.engine.nets.nn import load_default_network

    net = load_default_network("rollout")
    if net is None:
        raise RolloutError("no neural network weights: pass some with --weights")
    return net.weights


@dataclass(frozen=True)
class RolloutSettings:
    """What a rollout does.  ``truncate``: stop after that many half-moves (0 = play to the
    end) and evaluate statically; ``bearoff_truncation``: stop once both sides fit the
    two-sided bear-off database (exact there); ``candidates``: how many of the best plays by 0 ply are checked at 1 ply;
    ``pruning``: the shipped pruning net ranks each roll's plays and the net values only the
    best few (:mod:`bgtools.engine.nets.prune`; False: the net values every play).  ``met``: the
    match equity table of match play (None: :func:`~bgtools.engine.cubeful.met.load_met`'s, resolved
    when the settings are made, so that every worker uses this one and the records name it)."""

    trials: int = 1296
    seed: int = 1
    ply: int = 0
    cubeful: bool = False
    truncate: int = 0
    variance_reduction: bool = False
    bearoff_truncation: bool = True
    candidates: int = 4
    pruning: bool = True
    jacoby: Optional[bool] = None  #: money: the Jacoby rule (None: the position's match ID, else on)
    beavers: Optional[bool] = None  #: money: beavers allowed, for the cube action's words (None: on)
    met: Optional[MatchEquityTable] = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not 1 <= self.trials <= MAX_TRIALS:
            raise RolloutError(f"trials must be 1 to {MAX_TRIALS:,}, got {self.trials:,}")
        if not 0 <= self.seed < 2**63:
            raise RolloutError(f"seed must be between 0 and 2**63 - 1, got {self.seed}")
        if self.ply not in (0, 1):
            raise RolloutError(f"checker play at {self.ply} ply is not supported: use 0 or 1")
        if not 0 <= self.truncate <= MAX_TRUNCATE:
            raise RolloutError(f"truncate must be 0 (none) or a number of half-moves up to {MAX_TRUNCATE:,}, "
                               f"got {self.truncate:,}")
        if self.candidates < 1:
            raise RolloutError(f"candidates must be at least 1, got {self.candidates}")
        if self.met is None:
            object.__setattr__(self, "met", load_met())

    @property
    def table(self) -> MatchEquityTable:
        """The match equity table (:attr:`met`, always set once the settings are made)."""
        assert self.met is not None
        return self.met

    def key(self) -> dict:
        """The settings as written into output records (resume compares these)."""
        return {"trials": self.trials, "seed": self.seed, "ply": self.ply, "cubeful": self.cubeful,
                "truncate": self.truncate, "vr": self.variance_reduction,
                "bearoff_truncation": self.bearoff_truncation, "jacoby": self.jacoby, "beavers": self.beavers,
                "pruning": self.pruning, "met": self.table.identity}

    @property
    def n_chunks(self) -> int:
        """How many units of work the trials make."""
        return -(-self.trials // CHUNK)

    def chunk(self, i: int) -> tuple[int, int]:
        """(first trial, count) of unit of work ``i``."""
        first = i * CHUNK
        return first, min(CHUNK, self.trials - first)

    def chunks(self) -> Iterator[tuple[int, int]]:
        """(first trial, count) of each unit of work, in merge order (made as they are asked
        for: memory does not grow with the trials)."""
        return (self.chunk(i) for i in range(self.n_chunks))


@dataclass(frozen=True)
class Partial:
    """(n, sum, sum of squares) per output for some trials; merge, never average."""

    n: int
    sums: np.ndarray
    sumsq: np.ndarray
    plies: int = 0

    @classmethod
    def empty(cls) -> "Partial":
        return cls(0, np.zeros(N_OUTPUTS), np.zeros(N_OUTPUTS), 0)

    def merge(self, other: "Partial") -> "Partial":
        return Partial(self.n + other.n, self.sums + other.sums, self.sumsq + other.sumsq, self.plies + other.plies)

    def mean(self) -> np.ndarray:
        return self.sums / self.n

    def se(self) -> np.ndarray:
        """Standard errors of the means, sqrt(var / n) (conservative with stratified dice)."""
        if self.n < 2:
            return np.full(N_OUTPUTS, math.nan)
        var = (self.sumsq - self.sums * self.sums / self.n) / (self.n - 1)
        return np.sqrt(np.maximum(var, 0.0) / self.n)


@dataclass(frozen=True)
class Job:
    """One position to roll out: the root board (``[1]`` on roll) and its cube, score and money
    rules seen from the player on roll (``info``; beavers name the cube action only)."""

    board: np.ndarray
    info: CubeInfo = CubeInfo()
    first_cube: bool = True  #: the player on roll may double before his first roll

    @classmethod
    def make(cls, position: Position, state=None, jacoby: Optional[bool] = None,
             beavers: Optional[bool] = None, met: Optional[MatchEquityTable] = None) -> "Job":
        """The job of ``position`` at ``state`` (a MatchState; None: money, cube centred).
        Money rules: ``jacoby`` None takes the state's Jacoby flag, else gnubg's default (on);
        ``beavers`` None is gnubg's default (on).  ``met``: the table a match score must fit
        (None: :func:`~bgtools.engine.cubeful.met.load_met`'s)."""
        from bgtools.engine.assess import DEFAULT_BEAVERS, DEFAULT_JACOBY

        if position.is_game_over():
            raise RolloutError("the game is over in this position")
        board = np.ascontiguousarray(position.to_array(), np.int8)
        bea = DEFAULT_BEAVERS if beavers is None else beavers
        if state is None:
            return cls(board, CubeInfo().with_rules(DEFAULT_JACOBY if jacoby is None else jacoby, bea))
        info = CubeInfo.from_state(state)
        if info.money:
            return cls(board, info.with_rules(bool(state.jacoby) if jacoby is None else jacoby, bea))
        away = info.away
        met = met if met is not None else load_met()
        if min(away) < 1:
            raise RolloutError(f"the match is over at score {state.score[0]}-{state.score[1]} of {state.match_length}")
        if max(away) > met.length:
            raise RolloutError(f"{max(away)}-away is beyond the {met.length}-point match equity table")
        return cls(board, info)


@dataclass(frozen=True)
class RolloutResult:
    """Means and standard errors of a rollout, from the player on roll's side.

    ``probs``: win, win gammon, win backgammon, lose gammon, lose backgammon (cumulative).
    ``equity``: cubeless money equity.  ``mwc``: cubeless match winning chance (match
    only).  ``cubeful_equity``: money points per starting cube, or in a match the
    normalised money-equivalent of ``mwc_cubeful``.
    """

    trials: int
    probs: tuple[float, ...]
    probs_se: tuple[float, ...]
    equity: float
    equity_se: float
    settings: RolloutSettings
    cubeful_equity: Optional[float] = None
    cubeful_equity_se: Optional[float] = None
    mwc: Optional[float] = None
    mwc_se: Optional[float] = None
    mwc_cubeful: Optional[float] = None
    mwc_cubeful_se: Optional[float] = None
    plies: int = field(default=0, compare=False)

    @classmethod
    def from_partial(cls, part: Partial, settings: RolloutSettings, job: Job) -> "RolloutResult":
        m, s = part.mean(), part.se()
        f = dict(trials=part.n, probs=tuple(float(v) for v in m[:5]), probs_se=tuple(float(v) for v in s[:5]),
                 equity=float(m[5]), equity_se=float(s[5]), settings=settings, plies=part.plies)
        info = job.info
        if not info.money:
            f.update(mwc=float(m[6]), mwc_se=float(s[6]))
        if settings.cubeful:
            if info.money:
                f.update(cubeful_equity=float(m[7]), cubeful_equity_se=float(s[7]))
            else:
                stake = CubeStake.at(settings.table, info.away[0], info.away[1], info.cube)
                f.update(mwc_cubeful=float(m[7]), mwc_cubeful_se=float(s[7]),
                         cubeful_equity=float(stake.normalise(m[7])), cubeful_equity_se=float(stake.scale * s[7]))
        return cls(**f)  # type: ignore[arg-type]  # the fields are set above by name

    def record(self, evaluator: str = "", digits: int = 6) -> dict:
        """A JSON-ready dict (settings and evaluator included, floats rounded to ``digits``)."""
        def r(v):
            return None if v is None else round(float(v), digits)

        d = dict(self.settings.key())
        d["evaluator"] = evaluator
        d["trials"] = self.trials
        d["probs"] = [r(v) for v in self.probs]
        d["probs_se"] = [r(v) for v in self.probs_se]
        d["equity"] = r(self.equity)
        d["equity_se"] = r(self.equity_se)
        for name in ("cubeful_equity", "cubeful_equity_se", "mwc", "mwc_se", "mwc_cubeful", "mwc_cubeful_se"):
            v = getattr(self, name)
            if v is not None:
                d[name] = r(v)
        return d
