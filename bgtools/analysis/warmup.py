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

__all__ = ["GROUPS", "KernelGroup", "warm_group", "warm_groups", "group_of", "start_helper", "TINY_MATCH"]

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
    rank_plays(Position.from_id("HwAAwNsbUAEAAA"), (6, 5), 0, ev)  # a bear-in (compiled when first needed)


def _search_callees() -> None:
    """The kernels a 1- or 2-ply search calls that no net's type shapes (every play of every roll, the pruning
    net's ranking, the best reply), compiled in the order opposite to a search's: a helper process takes them
    while the command's own process compiles the move generator and the net's encoder, which it needs first."""
    import numpy as np

    from bgtools.core.position import Position
    from bgtools.engine.children import best_children, expand_children
    from bgtools.engine.nets.prune import load_default_pruning, prune_children_values, prune_select

    b = np.ascontiguousarray(Position.initial().to_array()[None], np.int8)
    children, offsets = expand_children(b)
    pruning = load_default_pruning()
    if pruning is not None:
        values = prune_children_values(b, children, offsets, pruning.net)
        prune_select(values, offsets, pruning.keep)
    best_children(np.zeros(children.shape[0]), offsets)


def _analysis() -> None:
    from bgtools.analysis.analyse import analyse_match
    from bgtools.formats.read import read_match

    analyse_match(read_match(TINY_MATCH), ply=2, cache=None)


def _rollout() -> None:
    from bgtools.rollouts import warm_up

    warm_up()


def _analysis_callees() -> None:
    """The search's callees (:func:`_search_callees`), then the rollout kernels: an analysis at 2 ply settles the
    close plays of short late-game positions by rollouts (``AnalysisSettings.endgame_trials``)."""
    _search_callees()
    _rollout()


def _rollout_1ply() -> None:
    from bgtools.rollouts import warm_up

    warm_up(ply=1)


class KernelGroup(NamedTuple):
    """A group of kernels: the commands it serves and the work that compiles it."""

    name: str
    commands: tuple[str, ...]
    work: Callable[[], None]
    seconds: int  #: about how long it takes to compile alone, on one core of a 2-core machine
    #: part of ``work`` a helper process may compile at the same time as a command's first run (None: none)
    helper: Optional[Callable[[], None]] = None


#: every group, the slowest to compile first
GROUPS = (
    KernelGroup("rollout", ("rollout",), _rollout, 45),
    KernelGroup("rollout 1-ply", (), _rollout_1ply, 40),
    KernelGroup("evaluation", ("eval", "hint", "scoremap"), _evaluation, 30, _search_callees),
    KernelGroup("analysis", ("annotate", "report", "library"), _analysis, 35, _analysis_callees),
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


def _helper_main(work: Callable[[], None], options: dict) -> None:
    try:
        options["initializer"](*options["initargs"])  # ends with its parent
        work()
    except BaseException:  # noqa: BLE001 - stopped or failed: its kernels are left to the command, nothing printed
        pass


def start_helper(group: KernelGroup) -> Optional[Callable[[], None]]:
    """Start a helper process that compiles ``group``'s :attr:`KernelGroup.helper` kernels while this process
    compiles the rest (a first run: on two cores the wait is shorter, the kernels the same, each kernel going
    to the cache once from whichever process compiles it first); returns the call that ends the helper when
    the command is done (a helper still at work is stopped: what it compiled is in the cache, what it did not
    is compiled when a command needs it), or None: the group has no helper part, there is no second core,
    there is no kernel cache to share, or no process could be started (this one then compiles alone)."""
    from numba.core import config

    from bgtools.base.workers import pool_options, usable_cores

    if group.helper is None or usable_cores() < 2 or not getattr(config, "CACHE_DIR", ""):
        return None
    import multiprocessing as mp

    try:
        proc = mp.get_context("spawn").Process(target=_helper_main, args=(group.helper, pool_options()), daemon=True)
        proc.start()
    except Exception:  # noqa: BLE001 - no process to start (limits, a frozen program): compiling alone, as before
        return None

    def close() -> None:
        proc.join(timeout=0.2)
        if proc.is_alive():
            proc.terminate()
            proc.join()

    return close
