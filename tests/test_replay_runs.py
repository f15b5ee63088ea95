"""The replay's run of kernel-settled plays (``_Replayer._plays``, taken without Steps) reads a
game exactly as the roll-by-roll path (taken with Steps), on records that break the run: a
player rolling twice, a roll after the game was won, and real files with a cell taken out or
a line written twice (issue 16)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from bgtools.formats.read import read_match

DATA = Path(__file__).parent / "data" / "matches"

HEAD = " 1 point match\n\n Game 1\n A : 0                          B : 0\n"

TWICE = HEAD + (
    "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
    "  2) 21: 13/11 6/5\n"
    "  3) 43: 24/20 13/10             61: 13/7 8/7\n"
    "  4) 52: 13/8 13/11              31: 8/5 6/5\n"
)


def _read(text: str, keep: bool):
    """(the match read, the messages of the warnings its reading raised)."""
    with warnings.catch_warnings(record=True) as log:
        warnings.simplefilter("always")
        m = read_match(text, keep_steps=keep)
    return m, [str(w.message) for w in log]


def _same_both_ways(text: str):
    (plain, shown), (kept, shown_kept) = _read(text, False), _read(text, True)
    assert plain.games == kept.games
    assert plain.warnings == kept.warnings and shown == shown_kept
    assert [g.result for g in plain.games] == [g.result for g in kept.games]
    assert [str(e) for e in plain.errors] == [str(e) for e in kept.errors]
    return plain


def test_a_player_rolling_twice_is_reported_and_the_run_goes_on():
    m = _same_both_ways(TWICE)
    assert [e.message for e in m.errors] == ["player 1 rolls twice in a row"]
    assert [e.line for e in m.errors] == [7]
    acts = m.games[0].actions
    assert [a.status for a in acts] == ["play"] * 7
    assert acts[-1].steps == ((8, 5), (6, 5))


def _bearoff_text(extra_roll: bool) -> str:
    # a money session from an XG board edit: A has a checker on each of the 1 and 2 points, B
    # fifteen on its 6 point
    body = (" 0 point match\n\n Game 1\n A : 0                          B : 0\n"
            "; Set Pos=-AA" + "-" * 16 + "o" + "-" * 6 + "/0\n"
            "  1) 21: 2/off 1/off\n")
    if extra_roll:
        body += "  2)                             31: 8/5 6/5\n"
    return body


@pytest.mark.parametrize("extra", [False, True])
def test_a_roll_after_the_game_is_won(extra):
    m = _same_both_ways(_bearoff_text(extra))
    msgs = [e.message for e in m.errors]
    if extra:
        assert "roll after the game was already won by bearing off" in msgs
    else:
        assert not msgs
        assert m.games[0].result is not None and m.games[0].result.how == "bearoff"


def _cut_variants(text: str, n: int):
    """Copies of ``text`` with one move line's right-hand cell taken out (the next roll is
    then the same player's) or one move line doubled, at ``n`` places spread over the file."""
    lines = text.split("\n")
    rows = [i for i, x in enumerate(lines) if ")" in x[:6] and x.count(":") == 2]
    for i in rows[:: max(1, len(rows) // n)]:
        x = lines[i]
        yield "\n".join(lines[:i] + [x[:x.rindex(":") - 2].rstrip()] + lines[i + 1:])
        yield "\n".join(lines[:i + 1] + [x] + lines[i + 1:])


SAMPLES = sorted((DATA / "realmatches").rglob("*.txt"))[:4] + sorted((DATA / "selfplay").rglob("*.mat"))[:2]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name[:30])
def test_broken_runs_in_real_files_read_the_same_both_ways(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    _same_both_ways(text)
    for variant in _cut_variants(text, 12):
        _same_both_ways(variant)


def _unreplayed_rolls(m):
    from bgtools.model.game import Roll

    return [(a.steps, a.status) for g in m.games for a in g.actions if type(a) is Roll]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name[:30])
def test_fresh_rolls_take_their_play_in_place_with_the_same_result(path):
    from bgtools.formats.matfile import parse_mat
    from bgtools.model.replay import finish_match

    text = path.read_text(encoding="utf-8", errors="replace")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        raw = parse_mat(text, str(path))
        before = _unreplayed_rolls(raw)
        plain = finish_match(raw, str(path))  # not fresh: the match given stays as it was
        assert _unreplayed_rolls(raw) == before
        raw2 = parse_mat(text, str(path))
        fresh = finish_match(raw2, str(path), fresh=True)
        read = read_match(path)  # read_match passes its reader's Rolls as fresh
    assert fresh.games == plain.games == read.games
    assert [str(e) for e in fresh.errors] == [str(e) for e in plain.errors] == [str(e) for e in read.errors]
    shared = sum(a is b for g, h in zip(fresh.games, raw2.games) for a, b in zip(g.actions, h.actions))
    assert shared > 0  # the fresh path did take Rolls in place
