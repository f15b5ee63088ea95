"""Compile (or load from the cache) the Numba kernels of every command before they are needed.

The kernels are compiled on their first use and kept in Numba's on-disk cache (in a folder
keyed by their sources, see :mod:`bgtools.base`): a fresh install, or an upgrade, pays that
once per group of kernels.  :data:`GROUPS` names each group, what it serves, and a small piece of work that
compiles all of its kernels; :func:`warm_group` runs one (in any process, so that different
groups can compile in parallel: each compiles its own kernels, none the same one twice
at the same time, apart from the few small ones they share).
"""

from __future__ import annotations

import time
from typing import Callable, Iterable, Iterator, NamedTuple, Optional

__all__ = ["GROUPS", "KernelGroup", "warm_group", "warm_groups", "group_of", "TINY_MATCH"]

#: a one-game match, enough to reach the replay and analysis kernels
TINY_MATCH = " 1 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   42: 8/4 6/4\n"


def _moves() -> None:
    from bgtools.core.movegen import legal_plays
    from bgtools.core.position import Position

    legal_plays(Position.initial(), (3, 1))


def _matches() -> None:
    from bgtools.formats.read import read_match

    read_match(TINY_MATCH)


def _evaluation() -> None:
    from bgtools.core.matchstate import MatchState
    from bgtools.core.position import Position
    from bgtools.engine.assess import assess_position
    from bgtools.engine.evaluation import default_evaluator, rank_plays
    from bgtools.engine.cubeful.scoreplay import rank_plays_at_score

    ev = default_evaluator()
    pos = Position.initial()
    state = MatchState(match_length=5, score=(1, 2), player_on_roll=1)
    for ply in (0, 1, 2):
        assess_position(pos, None, ply, evaluator=ev)
        assess_position(pos, state, ply, evaluator=ev)
        rank_plays(pos, (3, 1), ply, ev)
        rank_plays_at_score(pos, (3, 1), state, ply, ev)


def _analysis() -> None:
    from bgtools.analysis.analyse import analyse_match
    from bgtools.formats.read import read_match

    analyse_match(read_match(TINY_MATCH), ply=2, cache=None)


def _rollout() -> None:
    from bgtools.rollouts import warm_up

    warm_up()


def _rollout_1ply() -> None:
    from bgtools.rollouts import warm_up

    warm_up(ply=1)


class KernelGroup(NamedTuple):
    """A group of kernels: the commands it serves and the work that compiles it."""

    name: str
    commands: tuple[str, ...]
    work: Callable[[], None]
    seconds: int  #: about how long it takes to compile alone, on one core of a 2-core machine


#: every group, the slowest to compile first
GROUPS = (
    KernelGroup("rollout", ("rollout",), _rollout, 45),
    KernelGroup("rollout 1-ply", (), _rollout_1ply, 40),
    KernelGroup("evaluation", ("eval", "hint", "scoremap"), _evaluation, 25),
    KernelGroup("analysis", ("annotate", "report", "library"), _analysis, 30),
    KernelGroup("match files", ("check", "convert", "export"), _matches, 10),
    KernelGroup("move generation", ("moves", "board"), _moves, 5),
)


def group_of(command: str) -> Optional[KernelGroup]:
    """The group of kernels the command ``command`` uses, or None."""
    return next((g for g in GROUPS if command in g.commands), None)


def warm_group(name: str) -> tuple[str, float]:
    """Compile (or load) the kernels of the group ``name``: (the name, the seconds it took)."""
    for g in GROUPS:
        if g.name == name:
            t0 = time.perf_counter()
            g.work()
            return name, time.perf_counter() - t0
    raise KeyError(name)


def warm_groups(names: Iterable[str], jobs: int = 1) -> Iterator[tuple[str, float]]:
    """:func:`warm_group` of each of ``names``, ``jobs`` at a time in worker processes (1:
    one after the other in this one); yields (name, seconds) as each is done."""
    names = list(names)
    if jobs <= 1 or len(names) <= 1:
        for name in names:
            yield warm_group(name)
        return
    import concurrent.futures as cf
    import multiprocessing as mp

    from bgtools.base.workers import pool_options

    with cf.ProcessPoolExecutor(max_workers=min(jobs, len(names)), mp_context=mp.get_context("spawn"),
                                **pool_options()) as pool:
        futures = [pool.submit(warm_group, name) for name in names]
        for fut in cf.as_completed(futures):
            yield fut.result()
