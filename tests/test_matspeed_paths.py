"""Reading speed (issue 16): the garbage collector paused while a match is read and replayed,
pool workers that leave what they inherit out of the collector's sight, and move lines the
coarse MOVE_ROWS token used to split wrongly."""

from __future__ import annotations

import gc
import warnings
from pathlib import Path

import pytest

from bgtools.base.parallel import ordered_map
from bgtools.formats import read_match
from bgtools.formats.matfile import parse_mat
from bgtools.model import Double, Roll, Take
from bgtools.base.collector import gc_paused
from bgtools.model.replay import finish_match

DATA = Path(__file__).parent / "data" / "matches"


@pytest.mark.parametrize("enabled", [True, False])
def test_gc_paused_restores_the_collector_as_it_was(enabled):
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        with gc_paused():
            assert not gc.isenabled()
            with gc_paused():
                assert not gc.isenabled()
            assert not gc.isenabled()  # the inner one leaves the outer pause alone
        assert gc.isenabled() is enabled
        with pytest.raises(ZeroDivisionError):
            with gc_paused():
                1 / 0
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_reading_leaves_the_collector_on_and_reads_the_same_with_it_off():
    p = next(DATA.rglob("*.mat"))
    assert gc.isenabled()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = read_match(p)
        assert gc.isenabled()
        gc.disable()
        try:
            again = read_match(p)
        finally:
            gc.enable()
    assert m == again and m.games and [str(e) for e in m.errors] == [str(e) for e in again.errors]


def _frozen(_x: int) -> int:
    return gc.get_freeze_count()


def test_pool_workers_freeze_what_they_inherit():
    gc.collect()
    assert gc.get_freeze_count() == 0  # not here: only in the workers
    counts = list(ordered_map(_frozen, iter(range(4)), jobs=2))
    assert len(counts) == 4 and min(counts) > 1000
    assert gc.get_freeze_count() == 0


@pytest.mark.parametrize("line, cells", [
    ("  1)31: 8/5 6/5            64: 24/18 13/9", [("roll", 0, (3, 1), "8/5 6/5"), ("roll", 1, (6, 4), "24/18 13/9")]),
    ("  1) 31: 8/5 6/5  64: Cannot Move", [("roll", 0, (3, 1), "8/5 6/5"), ("roll", 1, (6, 4), "")]),
    ("  1) 31: 8/5 6/5            Doubles => 2", [("roll", 0, (3, 1), "8/5 6/5"), ("double", 1, 2, None)]),
    ("  1)  Doubles => 2          Takes", [("double", 0, 2, None), ("take", 1, None, None)]),
])
def test_move_lines_read_inside_the_coarse_token(line, cells):
    m = parse_mat(f" 3 point match\n\n Game 1\n A : 0                     B : 0\n{line}\n")
    assert not m.errors
    got = []
    for a in m.games[0].actions:
        if isinstance(a, Roll):
            got.append(("roll", a.player, a.dice, a.text))
        elif isinstance(a, Double):
            got.append(("double", a.player, a.cube, None))
        elif isinstance(a, Take):
            got.append(("take", a.player, None, None))
    assert got == cells
    first = finish_match(m).games[0].actions[0]
    assert cells[0][0] != "roll" or first.steps == ((8, 5), (6, 5))
