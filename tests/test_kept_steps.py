"""Reading with ``keep_steps``: the Steps kept from the reading replay are the ones a second
replay of the read games gives, so that export and annotate walk each game once (issue 16)."""

from __future__ import annotations

import gc
import importlib
import warnings
from pathlib import Path

import pytest

from bgtools.export import to_dataframe
from bgtools.formats.read import expand_paths, read_match
from bgtools.model.replay import _Replayer, replay_game

replay_mod = importlib.import_module("bgtools.model.replay")  # bgtools.model.replay is also a function

DATA = Path(__file__).parent / "data" / "matches"
FILES = sorted(expand_paths([DATA]))


def _fresh(m, g, gi):
    return _Replayer(m, g, want_steps=True, game_index=gi).run()[3]


@pytest.mark.parametrize("path", FILES, ids=lambda p: Path(p).name[:40])
def test_kept_steps_equal_a_second_replay(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = read_match(Path(path))
        kept = read_match(Path(path), keep_steps=True)
    # the reading itself is the same with and without the Steps
    assert kept.games == plain.games
    assert [str(e) for e in kept.errors] == [str(e) for e in plain.errors]
    assert kept.warnings == plain.warnings
    for gi, g in enumerate(kept.games):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            again = _fresh(kept, g, gi)
        assert (id(g) in replay_mod._KEPT) == (not g.errors)
        got = list(replay_game(kept, g, gi))
        assert got == again


def test_kept_steps_only_for_their_game_index_and_rules():
    m = read_match(Path(FILES[0]), keep_steps=True)
    g = m.games[0]
    kept = replay_mod._KEPT[id(g)][2]
    assert list(replay_game(m, g, 0)) is not None and list(replay_game(m, g, 0))[0] is kept[0]
    other = list(replay_game(m, g, 3))  # another index: replayed again, with that index
    assert other[0] is not kept[0] and other[0].game_index == 3
    from dataclasses import replace

    money = replace(m, length=0)
    assert list(replay_game(money, g, 0))[0] is not kept[0]


def test_kept_steps_go_with_their_game():
    m = read_match(Path(FILES[0]), keep_steps=True)
    keys = [id(g) for g in m.games]
    assert all(k in replay_mod._KEPT for k in keys)
    del m
    gc.collect()
    assert not any(k in replay_mod._KEPT for k in keys)


def test_export_rows_unchanged_by_kept_steps():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = [read_match(Path(p)) for p in FILES[:12]]
        via_paths = to_dataframe(FILES[:12])  # read with keep_steps inside
        via_matches = to_dataframe(plain)  # replayed again from the read games
    assert via_paths.equals(via_matches)
    assert len(via_paths) > 1000
