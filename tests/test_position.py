"""Position basics: classification against gnubg, counts, text board, immutability."""

import dataclasses

import pytest

from bgtools.core.position import Position, PositionClass

GNUBG_CLASS = {4: PositionClass.BEAROFF, 6: PositionClass.BEAROFF, 8: PositionClass.RACE,
               9: PositionClass.CRASHED, 10: PositionClass.CONTACT}


def test_classification_matches_gnubg(oracle_positions):
    wrong = [r["idx"] for r in oracle_positions
             if Position.from_board(r["board"]).classify() != GNUBG_CLASS[r["gnubg_class"]]]
    assert wrong == []


def test_counts_match_oracle(oracle_positions):
    for r in oracle_positions:
        pos = Position.from_board(r["board"])
        assert list(pos.pips) == r["pips"]


def test_counts_and_swap():
    p = Position.initial()
    assert p.pips == (167, 167) and p.borne_off == (0, 0) and p.on_bar == (0, 0)
    q = Position.from_id("NjuHAAmGYBh4XA")
    assert q.swap().swap() == q and q.swap().on_roll == q.opponent
    assert q.on_bar[0] == 1
    assert Position.from_array(q.to_array()) == q


def test_immutable_and_hashable():
    p = Position.initial()
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.on_roll = p.opponent  # type: ignore[misc]
    assert len({p, Position.initial()}) == 1


def test_ascii_board_shows_checkers_and_bar():
    text = Position.from_id("NjuHAAmGYBh4XA").ascii()
    lines = text.splitlines()
    assert lines[0].startswith(" +13-14-15") and lines[-1].startswith(" +12-11-10")
    assert "BAR" in text and "X" in text and "O" in text
    assert len(lines) == 13
