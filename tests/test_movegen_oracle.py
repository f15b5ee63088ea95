"""Differential test of the legal-move generator against gnubg 1.07's hint lists."""

import numpy as np

from bgtools.core.movegen import ROLLS, count_plays_batch, legal_plays
from bgtools.core.moveparse import parse_play
from bgtools.core.position import Position


def test_oracle_has_all_rolls(oracle_positions):
    assert len(oracle_positions) == 1376
    assert sum(len(r["moves"]) for r in oracle_positions) == 28896


def test_every_roll_gives_gnubgs_set_of_positions(oracle_positions):
    mismatches = []
    strings_differ = 0
    nplays = 0
    for r in oracle_positions:
        pos = Position.from_board(r["board"])
        assert pos.position_id() == r["position_id"]
        for roll, expected in r["moves"].items():
            dice = (int(roll[0]), int(roll[1]))
            plays = legal_plays(pos, dice)
            ours = {p.after_id: p for p in plays}
            theirs = dict(expected)
            nplays += len(plays)
            if set(ours) != set(theirs):
                mismatches.append((r["idx"], roll))
                continue
            for aid, play in ours.items():
                text = play.notation()
                strings_differ += text != theirs[aid]
                # our string resolves back to the same play
                assert parse_play(pos, dice, text, plays).after_id == aid, (r["idx"], roll, text)
    assert mismatches == []
    assert nplays == 546096
    # our notation is gnubg's, string for string
    assert strings_differ == 0


def test_batch_kernel_counts_match(oracle_positions):
    boards = np.array([r["board"] for r in oracle_positions[:200]], dtype=np.int8)
    rolls = np.array(ROLLS, dtype=np.int64)
    expected = sum(len(v) for r in oracle_positions[:200] for v in r["moves"].values())
    assert count_plays_batch(boards, rolls) == expected


def test_no_play_rolls(oracle_positions):
    empty = sum(1 for r in oracle_positions for v in r["moves"].values() if not v)
    assert empty == 2563
    r = next(r for r in oracle_positions if r["idx"] == 40)
    pos = Position.from_board(r["board"])
    assert legal_plays(pos, (6, 6)) == []
    assert sorted(p.notation() for p in legal_plays(pos, (4, 2))) == sorted(m for _, m in r["moves"]["42"])


def test_kernel_contact_test_agrees_with_position(oracle_positions):
    """movegen.is_contact (the kernels') says what Position.is_contact says, on every oracle
    position and on finished games with the loser's checker on the bar (no contact once a
    side has borne off all)."""
    from bgtools.core.movegen import is_contact

    boards = [r["board"] for r in oracle_positions]
    off = [0] * 25
    boards += [[[0] * 24 + [1], off], [off, [0] * 24 + [2]], [[3] + [0] * 23 + [1], off]]
    for b in boards:
        arr = np.array(b, np.int8)
        assert is_contact(arr) == Position.from_board(b).is_contact(), b
    assert not is_contact(np.array([[0] * 24 + [1], off], np.int8))
