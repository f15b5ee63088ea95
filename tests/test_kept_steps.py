"""Reading with ``keep_steps``: the Steps kept from the reading replay are the ones a second
replay of the read games gives, so that export and annotate walk each game once (issue 16)."""

from __future__ import annotations

import pickle
import warnings
from dataclasses import replace
from pathlib import Path

import pytest

from bgtools.export import to_dataframe
from bgtools.formats.read import expand_paths, read_match
from bgtools.model.replay import _Replayer, replay_game

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
        assert (g.kept_steps is not None) == (not g.errors)
        got = list(replay_game(kept, g, gi))
        assert got == again


def test_kept_steps_only_for_their_game_index_and_rules():
    m = read_match(Path(FILES[0]), keep_steps=True)
    g = m.games[0]
    kept = g.kept_steps[2]
    assert list(replay_game(m, g, 0)) is not None and list(replay_game(m, g, 0))[0] is kept[0]
    other = list(replay_game(m, g, 3))  # another index: replayed again, with that index
    assert other[0] is not kept[0] and other[0].game_index == 3
    money = replace(m, length=0)
    assert list(replay_game(money, g, 0))[0] is not kept[0]


def test_kept_steps_travel_on_the_game_value():
    """The Steps are on the Game read (no table on the side): they go where it goes, a copy
    (pickled to a worker) hands them over too, and they are no part of the game's value."""
    m = read_match(Path(FILES[0]), keep_steps=True)
    plain = read_match(Path(FILES[0]))
    assert plain.games[0].kept_steps is None and m.games[0].kept_steps is not None
    assert m == plain and m.games[0] == plain.games[0]
    copied = pickle.loads(pickle.dumps(m))
    assert copied.games[0].kept_steps is not None
    assert list(replay_game(copied, copied.games[0], 0)) == list(replay_game(plain, plain.games[0], 0))
    # a game made anew from a read one, with other actions, is replayed, not handed stale Steps
    g = m.games[0]
    shorter = replace(g, actions=g.actions[:3])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = list(replay_game(m, shorter, 0))
        assert len(got) == 3 and got == _fresh(m, shorter, 0)


def test_export_rows_unchanged_by_kept_steps():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = [read_match(Path(p)) for p in FILES[:12]]
        via_paths = to_dataframe(FILES[:12])  # read with keep_steps inside
        via_matches = to_dataframe(plain)  # replayed again from the read games
    assert via_paths.equals(via_matches)
    assert len(via_paths) > 1000
