"""The rollout workers' caches: exact keys, values the same however they were reached, and
rollout results that do not depend on what the caches held before."""

import gzip
import json
from pathlib import Path

import numba as nb
import numpy as np
import pytest
from conftest import compiled_choose

from bgtools.core.matchstate import MatchState
from bgtools.core.position import Position
from bgtools.engine import bearoff as bo
from bgtools.core.movegen import generate_boards, is_contact
from bgtools.engine.chooser import (chooser_buffers_with, make_chooser, new_chooser_buffers, set_siblings,
                                    sibling_value, static_value, swap_into)
from bgtools.engine.evalcache import (cache_find, cache_put, choice_find, choice_put, new_choice_cache,
                                      new_eval_cache)
from bgtools.engine.nets.nn import load_default_network
from bgtools.engine.nets.prune import load_default_pruning
from bgtools.rollouts import Job, RolloutSettings, executors, run_chunk

W = load_default_network("rollout").weights
DATA = Path(__file__).parent / "data"


def _oracle_boards(n=None):
    with gzip.open(DATA / "oracle_positions.jsonl.gz", "rt") as f:
        boards = [np.array(json.loads(line)["board"], np.int8) for line in f]
    return boards[:n] if n else boards


def test_a_slot_holds_one_board_and_a_different_board_or_tag_misses():
    c = new_eval_cache(1)  # two slots: boards share them, none is ever taken for another
    boards = _oracle_boards(40)
    out = np.zeros(5)
    for i, b in enumerate(boards):
        slot = cache_find(c, b, out)
        if slot >= 0:
            cache_put(c, slot, np.full(5, float(i)))
    for i, b in enumerate(boards):
        if cache_find(c, b, out) == -1:  # a hit is this board's own value
            assert out[0] == i
        assert cache_find(c, b, out, 3) >= 0 or out[0] != i  # another tag: another key
    assert new_eval_cache(0).used.shape[0] == 0
    assert cache_find(new_eval_cache(0), boards[0], out) == -2


def test_choice_cache_round_trip():
    cc = new_choice_cache(6)
    b = Position.initial().to_array()
    after = np.zeros((2, 25), np.int8)
    out = np.zeros(5)
    code = choice_find(cc, b, 5, after, out)
    assert code <= -2
    played = b.copy()
    played[1, 5] -= 1
    played[1, 2] += 1
    choice_put(cc, code, played, True, np.arange(5.0))
    assert choice_find(cc, b, 5, after, out) == 1
    assert (after == played).all() and list(out) == [0, 1, 2, 3, 4]
    assert choice_find(cc, b, 6, after, out) <= -2  # another roll
    code = choice_find(cc, b, 6, after, out)
    choice_put(cc, code, b, False, np.zeros(5))
    assert choice_find(cc, b, 6, after, out) == 0


def _choices(boards, ch, buf, rolls):
    pick = compiled_choose(ch)  # (not a kernel of our own around ``choose``: tests/conftest.py)
    idx = np.zeros((boards.shape[0], rolls.shape[0]), np.int64)
    after = np.zeros((boards.shape[0], rolls.shape[0], 2, 25), np.int8)
    bp = np.zeros(5)
    for i in range(boards.shape[0]):
        for r in range(rolls.shape[0]):
            k = pick(boards[i], int(rolls[r, 0]), int(rolls[r, 1]), ch, buf, bp)
            idx[i, r] = k
            if k >= 0:
                after[i, r] = buf.mine.boards[k]
    return idx, after


@pytest.mark.parametrize("ply", [0, 1])
def test_choices_with_a_cache_are_the_choices_without(ply):
    db = bo.load_databases()
    ch = make_chooser(W.arrays(), ply, 2, db.tables(), pruning=load_default_pruning("rollout"))
    boards = np.array(_oracle_boards(30 if ply else 150))
    rolls = np.array([(6, 5), (3, 1), (2, 2), (6, 6), (4, 2)], np.int64)
    plain = _choices(boards, ch, new_chooser_buffers(ch.net), rolls)
    buf = chooser_buffers_with(ch.net, new_eval_cache(12), new_choice_cache(0))
    cold = _choices(boards, ch, buf, rolls)
    warm = _choices(boards, ch, buf, rolls)  # now mostly from the cache
    assert buf.cache.stats[0] > 0
    for got in (cold, warm):
        assert ((got[0] >= 0) == (plain[0] >= 0)).all()
        same = (got[1] == plain[1]).all(axis=(2, 3))
        assert same.mean() > 0.99  # a near tie may fall the other way (float32 rounding)
    assert (warm[1] == cold[1]).all() and (warm[0] == cold[0]).all()


@nb.njit
def _sibling_vs_static(boards, ch, buf, rolls):
    """Largest difference between a sibling's value through ``buf`` and its static value,
    over the plays out of contact of every board and roll."""
    worst = 0.0
    p = np.zeros(5)
    q = np.zeros(5)
    n_out = 0
    for i in range(boards.shape[0]):
        for r in range(rolls.shape[0]):
            n = generate_boards(boards[i], rolls[r, 0], rolls[r, 1], buf.mine)
            swap_into(boards[i], buf.opp)
            set_siblings(buf.opp, ch, buf, n)
            for k in range(n):
                swap_into(buf.mine.boards[k], buf.sw)
                if is_contact(buf.sw):
                    continue
                n_out += 1
                sibling_value(buf.sw, ch, buf, p)
                static_value(buf.sw, ch, buf.ev, q)
                for o in range(5):
                    worst = max(worst, abs(p[o] - q[o]))
    return worst, n_out


def test_cached_values_are_the_full_pass():
    """Out of contact a sibling valued through a cache gets the full pass (or the exact
    value), not the incremental one, so a cached value is the same whichever search stored it."""
    db = bo.load_databases()
    ch = make_chooser(W.arrays(), 0, 2, db.tables())
    boards = np.array(_oracle_boards(400))
    rolls = np.array([(6, 5), (2, 1), (4, 4)], np.int64)
    worst, n = _sibling_vs_static(boards, ch, chooser_buffers_with(ch.net, new_eval_cache(10), new_choice_cache(0)), rolls)
    assert n > 300 and worst == 0.0
    worst, n = _sibling_vs_static(boards, ch, chooser_buffers_with(ch.net, new_eval_cache(10), new_choice_cache(0)), rolls)  # warm
    assert worst == 0.0
    inc, _ = _sibling_vs_static(boards, ch, new_chooser_buffers(ch.net), rolls)
    assert inc < 1e-5  # without a cache: the incremental sums, equal up to float32 rounding


RACE = "HQAA4L8HAIIAAA"  # a short race: the caches hold nearly every position of it


@pytest.mark.parametrize("vr,ply,cubeful", [(False, 0, False), (True, 0, False), (False, 1, False), (True, 0, True)])
def test_rollout_results_do_not_depend_on_what_the_caches_held(vr, ply, cubeful):
    s = RolloutSettings(trials=144, seed=3, variance_reduction=vr, ply=ply, bearoff_truncation=False, truncate=12,
                        cubeful=cubeful)
    jobs = [Job.make(Position.from_id(RACE)), Job.make(Position.from_id("4HPwATDgc/ABMA"))]
    if cubeful:  # and a job at a match score between them
        jobs.insert(1, Job.make(Position.from_id(RACE), MatchState(match_length=5, score=(2, 3))))
    n = 144 if ply == 0 else 36
    for k in ("cache", "cache_for", "choices"):
        executors._WORKER.pop(k, None)
    cold = [run_chunk(j, s, 0, n, W) for j in jobs]
    # other work first (other trials, the other job first), then the same chunks again
    for j in reversed(jobs):
        run_chunk(j, s, n, n, W)
    warm = [run_chunk(j, s, 0, n, W) for j in reversed(jobs)][::-1]
    assert executors._WORKER["cache"].stats[0] > 0
    for a, b in zip(cold, warm):
        assert a.plies == b.plies
        assert (a.sums == b.sums).all() and (a.sumsq == b.sumsq).all()
