"""Paired rollouts: several jobs on the same dice, with the standard error of each difference.

Trial ``t`` of every job uses the dice of (seed, ``t``) (:mod:`bgtools.rollouts.dice`), so
the jobs' results move together and the difference of two means is measured far more
precisely than either mean.  Its standard error comes from the per-trial differences,
which the kernel's per-chunk (n, sum, sum of squares) cannot give; so the trials run as
one-trial units of :func:`~bgtools.rollouts.rollout.rollout_many` (still many to a kernel
call) and, per :data:`~bgtools.rollouts.settings.CHUNK`-trial chunk, :class:`PairedSums`
keeps for each job the sums and sums of squares of every output, added trial by trial in
trial order (the kernel's own order, so they equal a plain rollout's chunk sums bit for
bit), and for each pair of jobs the sum of the squared differences of one output.  Chunks
merge in chunk order, never averaged; stopping rules are checked at chunk boundaries only,
so neither the results nor where a rollout stops depend on the number of processes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

import numpy as np

from bgtools.rollouts.executors import make_executor, weights_or_default
from bgtools.rollouts.rollout import rollout_many
from bgtools.rollouts.settings import CHUNK, N_OUTPUTS, Job, Partial, RolloutError, RolloutSettings

__all__ = ["PairedSums", "run_paired", "stop_rule", "STAGE_CHUNKS"]

#: the most chunks rolled out per call of rollout_many (per-trial values of every job are
#: held for a stage: 1.2 KB per trial and job at most, 2.4 MB per job)
STAGE_CHUNKS = 256


@dataclass(frozen=True)
class PairedSums:
    """(n, sums, sums of squares) per job and output, and per pair of jobs the sum of the
    squared per-trial differences of output ``out``, each job's value multiplied by its
    ``scale`` (the options of a decision are valued in the same unit); merge, never average."""

    n: int
    out: int  #: the output whose differences are kept
    scale: np.ndarray  #: float64[jobs]
    sums: np.ndarray  #: float64[jobs, N_OUTPUTS]
    sumsq: np.ndarray  #: float64[jobs, N_OUTPUTS]
    dsq: np.ndarray  #: float64[jobs, jobs]
    plies: np.ndarray  #: int64[jobs]

    @classmethod
    def empty(cls, jobs: int, out: int, scale: np.ndarray) -> "PairedSums":
        return cls(0, out, np.asarray(scale, np.float64), np.zeros((jobs, N_OUTPUTS)), np.zeros((jobs, N_OUTPUTS)),
                   np.zeros((jobs, jobs)), np.zeros(jobs, np.int64))

    @classmethod
    def of_trials(cls, values: np.ndarray, plies: np.ndarray, out: int, scale: np.ndarray) -> "PairedSums":
        """The sums of consecutive trials: ``values`` float64[jobs, trials, N_OUTPUTS] and
        ``plies`` int64[jobs, trials], added in trial order."""
        jobs, n, _ = values.shape
        s = cls.empty(jobs, out, scale)
        sums, sumsq, dsq = s.sums, s.sumsq, s.dsq
        for t in range(n):
            x = values[:, t, :]
            sums += x
            sumsq += x * x
            v = s.scale * x[:, out]
            d = v[:, None] - v[None, :]
            dsq += d * d
        return cls(n, out, s.scale, sums, sumsq, dsq, plies.sum(axis=1).astype(np.int64))

    def merge(self, other: "PairedSums") -> "PairedSums":
        return PairedSums(self.n + other.n, self.out, self.scale, self.sums + other.sums, self.sumsq + other.sumsq,
                          self.dsq + other.dsq, self.plies + other.plies)

    @property
    def jobs(self) -> int:
        return int(self.sums.shape[0])

    def partial(self, j: int) -> Partial:
        """Job ``j``'s sums, as a plain rollout of it gives them."""
        return Partial(self.n, self.sums[j].copy(), self.sumsq[j].copy(), int(self.plies[j]))

    def diff_se(self, i: int, j: int) -> float:
        """Standard error of (mean of job ``i`` - mean of job ``j``) of output :attr:`out`,
        from the per-trial differences (NaN below two trials; 0 for a job with itself)."""
        if i == j:
            return 0.0
        if self.n < 2:
            return math.nan
        d = self.scale[i] * self.sums[i, self.out] - self.scale[j] * self.sums[j, self.out]
        var = (self.dsq[i, j] - d * d / self.n) / (self.n - 1)
        return math.sqrt(max(var, 0.0) / self.n)

    def values(self) -> np.ndarray:
        """Each job's mean of output :attr:`out` times its scale."""
        return self.scale * self.sums[:, self.out] / self.n

    def to_json(self) -> dict:
        """Exact JSON (Python writes floats so that they read back bit for bit)."""
        return {"n": self.n, "out": self.out, "sums": self.sums.tolist(), "sumsq": self.sumsq.tolist(),
                "dsq": self.dsq.tolist(), "plies": [int(p) for p in self.plies]}

    @classmethod
    def from_json(cls, d: dict, scale: np.ndarray) -> "PairedSums":
        """Read :meth:`to_json` back for jobs of ``scale``; :class:`RolloutError` when it does
        not fit them."""
        jobs = len(scale)
        try:
            s = cls(int(d["n"]), int(d["out"]), np.asarray(scale, np.float64), np.array(d["sums"], np.float64),
                    np.array(d["sumsq"], np.float64), np.array(d["dsq"], np.float64), np.array(d["plies"], np.int64))
        except (KeyError, TypeError, ValueError, AttributeError):
            raise RolloutError("the record's rollout sums are damaged") from None
        shapes = (s.sums.shape, s.sumsq.shape, s.dsq.shape, s.plies.shape)
        if shapes != ((jobs, N_OUTPUTS), (jobs, N_OUTPUTS), (jobs, jobs), (jobs,)) or s.n < 0 or s.n % CHUNK:
            raise RolloutError("the record's rollout sums do not fit its plays")
        return s


def stop_rule(until_se: Optional[float], stop_sigma: Optional[float]) -> Optional[Callable[[PairedSums], bool]]:
    """The stopping rule (either holding stops; None when neither is given): ``until_se``,
    every job's standard error of its difference from the best job is below it;
    ``stop_sigma``, the best leads every other job by more than that many of them."""
    if until_se is None and stop_sigma is None:
        return None

    def stop(sums: PairedSums) -> bool:
        if sums.n < 2:
            return False
        v = sums.values()
        best = int(np.argmax(v))
        others = [i for i in range(len(v)) if i != best]
        se = [sums.diff_se(i, best) for i in others]
        if any(math.isnan(s) for s in se):
            return False
        if until_se is not None and all(s < until_se for s in se):
            return True
        return stop_sigma is not None and all(v[best] - v[i] > stop_sigma * s for i, s in zip(others, se))

    return stop


def run_paired(positions: Sequence[Job], settings: RolloutSettings, out: int, scale: np.ndarray, weights=None,
               jobs: int = 1, dask=None, start: Optional[PairedSums] = None,
               stop: Optional[Callable[[PairedSums], bool]] = None,
               on_chunk: Optional[Callable[[int, int], None]] = None) -> tuple[PairedSums, PairedSums]:
    """Roll out ``positions`` on the same dice up to ``settings.trials`` trials each, continuing
    after ``start`` (the sums of the first ``start.n`` trials, a whole number of chunks);
    ``scale``: each job's value per unit of output ``out``; ``stop(sums so far)``, asked at
    each chunk boundary, ends it early.  Returns (the sums of the whole chunks, the sums of
    every trial): the first is where a longer rollout of the same positions would go on from."""
    full = start if start is not None else PairedSums.empty(len(positions), out, scale)
    if full.jobs != len(positions) or full.out != out or full.n % CHUNK or not np.array_equal(full.scale, scale):
        raise RolloutError("the stored rollout sums do not fit these jobs")
    stage = STAGE_CHUNKS if stop is None else max(1, jobs)
    if full.n // CHUNK >= settings.n_chunks:
        return full, full
    weights = weights_or_default(weights)
    executor = make_executor(weights, jobs, dask, settings.ply)  # one pool for every stage
    try:
        return _stages(positions, settings, out, full, weights, executor, stage, stop, on_chunk)
    finally:
        executor[0].close()


def _stages(positions, settings, out, full, weights, executor, stage, stop, on_chunk):
    """The stages of :func:`run_paired`, on one executor."""
    total = full
    chunk = full.n // CHUNK
    while chunk < settings.n_chunks:  # the rule is first asked after a chunk of this run
        last = min(settings.n_chunks, chunk + stage)
        first_trial = chunk * CHUNK
        units = [(t, 1) for t in range(first_trial, min(settings.trials, last * CHUNK))]
        values = np.zeros((len(positions), len(units), N_OUTPUTS))
        plies = np.zeros((len(positions), len(units)), np.int64)

        def keep(j: int, u: int, part: Partial) -> None:
            values[j, u] = part.sums
            plies[j, u] = part.plies

        for _ in rollout_many(positions, settings, weights, on_chunk=on_chunk, units=units, on_part=keep,
                              executor=executor):
            pass
        for c in range(chunk, last):
            lo, hi = c * CHUNK - first_trial, min(settings.trials, (c + 1) * CHUNK) - first_trial
            total = total.merge(PairedSums.of_trials(values[:, lo:hi], plies[:, lo:hi], out, full.scale))
            if hi - lo == CHUNK:
                full = total
            if stop is not None and stop(total):
                return full, total
        chunk = last
        stage = min(STAGE_CHUNKS, 2 * stage)
    return full, total
