"""Property tests of the legal-move generator (hypothesis)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bgtools.core.movegen import legal_plays
from bgtools.core.moveparse import parse_play
from bgtools.core.position import Position
from reference_movegen import reference_plays


def _random_position(seed: int) -> Position:
    rng = random.Random(seed)
    me = [0] * 25
    opp = [0] * 25
    style = rng.random()
    for side, other in ((me, opp), (opp, me)):
        n = rng.randint(1, 15) if style > 0.2 else 15
        home_only = rng.random() < 0.25
        for _ in range(n):
            for _attempt in range(50):
                slot = rng.randrange(6) if home_only else (24 if rng.random() < 0.05 else rng.randrange(24))
                if slot == 24 or other[23 - slot] == 0:
                    side[slot] += 1
                    break
    return Position.from_sides(me, opp)


positions = st.integers(0, 2**32 - 1).map(_random_position)
dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=400, deadline=None)
@given(positions, dice)
def test_invariants(pos, roll):
    plays = legal_plays(pos, roll)
    ref = reference_plays(pos.board, max(roll), min(roll))
    # the same set of resulting positions as a plain independent generator
    ours = {(p.after.on_roll, p.after.opponent) for p in plays}
    assert ours == set(ref)
    pips_me, pips_opp = pos.pips
    n_used = {len(p.steps) for p in plays}
    assert len(n_used) <= 1  # no play leaves a die unused when a fuller play exists
    if plays and roll[0] != roll[1] and n_used == {1}:
        # only one die could be used: it must be the larger one if that one can be played
        assert all(ref[k][2] == 1 for k in ref)
    for p in plays:
        mover_after, opp_after = p.after.opponent, p.after.on_roll
        # checkers are conserved
        assert sum(mover_after) + (15 - sum(mover_after)) == 15
        assert sum(opp_after) == sum(pos.opponent)
        assert 15 - sum(mover_after) >= 15 - sum(pos.on_roll)
        # pips drop by exactly the steps moved; a step is one die except bear-offs from below
        moved = sum(a - b for a, b in p.steps)
        assert pips_me - Position.from_sides(mover_after, opp_after).pips[0] == moved
        die_total = sum(roll) if roll[0] != roll[1] else roll[0] * len(p.steps)
        bear_offs = any(b == 0 for _, b in p.steps)
        if len(p.steps) == (2 if roll[0] != roll[1] else 4) and not bear_offs:
            assert moved == die_total
        # hits send blots to the bar and add their distance to the opponent's count
        assert Position.from_sides(opp_after, mover_after).pips[0] - pips_opp == sum(p.hits)
        # notation round-trips
        assert parse_play(pos, roll, p.notation(), plays).after == p.after


@settings(max_examples=200, deadline=None)
@given(positions, dice)
def test_dice_order_does_not_matter(pos, roll):
    a = {p.after_id for p in legal_plays(pos, roll)}
    b = {p.after_id for p in legal_plays(pos, roll[::-1])}
    assert a == b
