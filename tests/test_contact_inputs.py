"""The candidate contact/crashed inputs (bgtools.engine.nets.contactinputs) on hand-made positions.

Each expected value is worked out by hand in the comments beside it (our point ``i`` is the
other side's ``23 - i``; the other side moves from high to low indices in his own numbering).
"""

from __future__ import annotations

import numpy as np
import pytest

from bgtools.core.movegen import generate, new_move_buffers
from bgtools.core.position import Position
from bgtools.engine.nets import contactinputs as ci
from bgtools.engine.nets.features import N_SIDE_CONTACT, NET_CONTACT, encode
from bgtools.engine.nets.hitstats import hit_stats_exact
from handboards import board, side




BUF = new_move_buffers()


def extra(me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    out = np.zeros(2 * ci.N_EXTRA_SIDE, np.float32)
    ci.encode_extra(board(me, opp), out, BUF)
    return out[:ci.N_EXTRA_SIDE]


def col(name: str) -> int:
    return ci.EXTRA_NAMES.index(name)


def test_checkers_off_in_thirds():
    me = side(p0=8)  # 7 off: 5 in the first third, 2 of 5 in the second
    x = extra(me, side(p20=2, p18=13))
    assert ci.checkers_off(me) == 7
    assert x[col("off_1")] == pytest.approx(1.0)
    assert x[col("off_2")] == pytest.approx(0.4)
    assert x[col("off_3")] == 0.0


def test_break_contact():
    opp = side(p20=1)  # his rearmost on his 21-point = our point 3
    me = side(p9=1, p8=1, p0=13)
    # past our point 3 means on point 2 or lower: 9 -> 2 is 7 pips, 8 -> 2 is 6, the 13 on 0 are past
    assert ci.break_contact(me, opp) == 13
    assert extra(me, opp)[col("break_contact")] == pytest.approx(0.13)
    # his checker on the bar counts as on his 24-point (our 1-point): every checker must bear off
    assert ci.break_contact(me, side(bar=1)) == 10 + 9 + 13


def test_back_checker_and_anchors():
    me = side(p22=1, p20=2, p15=2, p12=3, p5=7)
    assert ci.back_checker(me) == 22
    assert ci.back_anchor(me) == 20
    assert ci.forward_anchor(me) == 12
    x = extra(me, side(p5=15))
    assert x[col("back_checker")] == pytest.approx(23 / 25)
    assert x[col("back_anchor")] == pytest.approx(21 / 24)
    assert x[col("forward_anchor")] == pytest.approx(1.0)
    assert ci.forward_anchor(side(p5=15)) == -1 and ci.back_anchor(side(p5=1)) == -1


def test_hits_one_blot_six_away():
    # our blot on point 9 = his point 14; his only checker on his point 20: 6 pips away.
    me, opp = side(p9=1, p0=14), side(p20=1)
    # rolls with a 6: 11; 5-1 and 4-2: 2 each; 3-3 and 2-2 (6 = 3+3 = 2+2+2): 1 each -> 17
    h1, h2, lost = ci.hit_stats(me, opp, BUF)
    assert (h1, h2) == (17, 0)
    assert lost == 17 * (24 - 9)  # a checker hit on point 9 loses 15 pips
    x = extra(me, opp)
    assert x[col("hit")] == pytest.approx(17 / 36)
    assert x[col("pips_lost")] == pytest.approx(17 * 15 / 360)


def test_hits_two_blots_and_double_hit():
    # blots on our points 9 and 8 (his 14 and 15): 6 and 5 pips from his checker on 20
    me, opp = side(p9=1, p8=1, p0=13), side(p20=1)
    # any hit: rolls with a 5 or a 6 (20), 4-1, 3-2, 4-2 (2 each), 3-3, 2-2 (1 each) = 28
    # both: only 5-1 played 5 then 1 (2 rolls), losing 16 + 15 = 31 pips
    # most pips lost per roll: 5-1: 31 (x2); other rolls with a 5: 16 (x9); with a 6, no 5: 15 (x9);
    # 4-1, 3-2: 16 (x2 each); 4-2: 15 (x2); 3-3, 2-2: 15 (x1 each)
    h1, h2, lost = ci.hit_stats(me, opp, BUF)
    assert (h1, h2) == (28, 2)
    assert lost == 31 * 2 + 16 * 9 + 15 * 9 + 16 * 4 + 15 * 2 + 15 * 2
    assert extra(me, opp)[col("hit_twice")] == pytest.approx(2 / 36)


def test_hits_from_the_bar():
    # his checker on the bar enters with die d on his point 24 - d; our blot on point 2 is his 21:
    # rolls with a 3 (11), 2-1 (2), 1-1 (1); 2-2 would need his 18 = our point 5, which we hold
    me, opp = side(p2=1, p5=14), side(bar=1)
    assert ci.hit_stats(me, opp, BUF) == (14, 0, 14 * 22)
    assert ci.hit_stats(side(p5=15), opp, BUF) == (0, 0, 0)  # no blot: nothing to hit


def test_dance_and_entering_loss():
    opp = side(p0=2, p1=2, p2=2, p12=9)  # his points 1, 2, 3 closed: dice 1, 2, 3 do not enter
    assert ci.dance(opp) == pytest.approx(0.25)
    # both dice closed: 2-1, 3-1, 3-2 lose 3, 4, 5 pips (2 ways each) = 24; 1-1, 2-2, 3-3 lose 4, 8, 12
    assert ci.enter_loss(opp) == 24 + 24
    x = extra(side(p20=2, bar=1, p5=12), opp)
    assert x[col("dance")] == pytest.approx(0.25)
    assert x[col("enter_loss")] == pytest.approx(48 / 360)
    assert ci.dance(side(p0=2, p1=2, p2=2, p3=2, p4=2, p5=2)) == 1.0


def test_escapes_and_containment():
    one = side(p9=2)  # he holds his point 9 = our point 14 (his other 13 are off)
    mask = ci.held_mask(one)
    assert mask == 1 << 14
    # from 20 (6 pips away) a roll escapes if it moves 7+ pips without stopping on 14:
    # non-doubles summing to 7+ (6-1 .. 4-3: 9 of them, 2 ways each) = 18; 4-4, 5-5 = 2
    # (2-2, 3-3 and 6-6 stop on 14)
    assert ci.escapes(mask, 20) == 20
    prime = side(p4=2, p5=2, p6=2, p7=2, p8=2, p9=2)  # our points 14..19: a full prime
    assert ci.escapes(ci.held_mask(prime), 20) == 0
    assert ci.escapes(0, 20) == 36
    # containment only up to our rearmost checker: on 17 the worst point is 17 itself
    # (3 pips before 14: all rolls with a 4, 5 or 6 (24), 3-1, 3-2 (4); 2-2, 4-4, 5-5, 6-6 = 32)
    assert ci.containment(side(p17=1, p0=14), one) == 32
    assert ci.containment(side(p20=1, p0=14), one) == 20
    assert ci.containment(side(p10=1, p0=14), one) == 36  # nothing left to contain
    x = extra(side(p17=1, p0=14), one)
    assert x[col("contain")] == pytest.approx(32 / 36)
    assert x[col("contain2")] == pytest.approx((32 / 36) ** 2)


def test_mobility():
    # he holds our point 1 (his 22); two checkers on our 3: dice 1 and 3 land on 2 and 0, 2 is
    # held, 4+ leave the board -> 2 each; one checker on 10: all six land on open points -> 6
    me, opp = side(p3=2, p10=1, p0=12), side(p22=2, p12=13)
    # the twelve on point 0 cannot move on the board
    assert ci.mobility(me, opp) == 2 * 2 + 6
    assert extra(me, opp)[col("mobility")] == pytest.approx(10 / 90)


def test_second_moment_timing_backbone():
    start = side(p5=5, p7=3, p12=5, p23=2)
    mean = (5 * 6 + 3 * 8 + 5 * 13 + 2 * 24) / 15  # pips 167
    var = (5 * 6 ** 2 + 3 * 8 ** 2 + 5 * 13 ** 2 + 2 * 24 ** 2) / 15 - mean ** 2
    assert ci.moment2(start) == pytest.approx(var)
    # spares on the 6-point: 3 x 5 pips; 8-point 3 x 7; mid-point 5 x 12; back 2 x 23
    assert ci.timing(start) == 15 + 21 + 60 + 46
    x = extra(start, start)
    assert x[col("moment2")] == pytest.approx(var / 100)
    assert x[col("timing")] == pytest.approx(1.42)
    # points 4, 5, 7, 8, 10 and 15 held: at most 4 of them in 6 consecutive points
    assert ci.backbone(side(p4=2, p5=2, p7=2, p8=2, p10=2, p15=2, p0=3)) == 4
    assert ci.backbone(start) == 2


def random_boards(n: int, seed: int) -> np.ndarray:
    """Boards with every checker on a point (no shared points), a few on the bar."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        b = np.zeros((2, 25), np.int8)
        for s in range(2):
            for _ in range(int(rng.integers(5, 16))):
                while True:
                    i = int(rng.integers(0, 25)) if rng.random() < 0.97 else 24
                    if i == 24 or b[1 - s, 23 - i] == 0:
                        b[s, i] += 1
                        break
        out.append(b)
    return np.stack(out)


def test_swapping_the_board_swaps_the_halves():
    boards = random_boards(50, 1)
    x = ci.encode_extra_batch(boards)
    y = ci.encode_extra_batch(boards[:, ::-1].copy())
    n = ci.N_EXTRA_SIDE
    assert np.array_equal(x[:, :n], y[:, n:]) and np.array_equal(x[:, n:], y[:, :n])
    assert x.min() >= 0.0 and np.isfinite(x).all()


def test_escapes_agree_with_the_shipped_encoder():
    """The shipped inputs' escapes of the rearmost checker and containment over 12..23 use the
    same rule (a table there, a direct count here)."""
    checked = 0
    out = np.zeros(2 * N_SIDE_CONTACT, np.float32)
    for b in random_boards(300, 2):
        if encode(b, out) != NET_CONTACT:
            continue
        me, opp = b[1], b[0]
        mask = ci.held_mask(opp)
        back = ci.back_checker(me)
        assert out[101 + 2] == pytest.approx(ci.escapes(mask, back) / 36)
        assert out[101 + 3] == pytest.approx(min(ci.escapes(mask, p) for p in range(12, 24)) / 36)
        checked += 1
    assert checked > 100


def test_hit_kernel_matches_every_legal_play():
    """hit_stats (which skips the rolls that cannot reach a blot) against every legal play of all
    21 rolls from the Python move list, on random positions."""
    from bgtools.core.dice import ROLLS, ROLL_WAYS
    from bgtools.core.movegen import legal_plays
    from bgtools.core.position import Position

    doubles = 0
    for b in random_boards(25, 3):
        me, opp = b[1], b[0]
        pos = Position.from_array(np.stack([me, opp]))  # the other side on roll
        pips0 = int(((np.arange(25) + 1) * me).sum())
        h1 = h2 = lost = 0
        for (d1, d2), w in zip(ROLLS.tolist(), ROLL_WAYS.tolist()):
            most_hit = most_lost = 0
            for p in legal_plays(pos, (d1, d2)):
                victim = np.array(p.after.to_array()[1])  # after his play we are on roll
                most_hit = max(most_hit, int(victim[24] - me[24]))
                most_lost = max(most_lost, int(((np.arange(25) + 1) * victim).sum()) - pips0)
            h1 += w * (most_hit >= 1)
            h2 += w * (most_hit >= 2)
            lost += w * most_lost
        assert ci.hit_stats(me, opp, BUF) == (h1, h2, lost)
        doubles += h2 > 0
    assert doubles >= 3  # positions with double hits were among them


def varied_boards(n: int, seed: int) -> np.ndarray:
    """Legal-looking boards of many kinds: spread, primes, bearing in and off, crashed sides,
    checkers on the bar, extra blots far back."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        b = np.zeros((2, 25), np.int8)
        style = int(rng.integers(0, 5))
        bearer = int(rng.integers(0, 2))
        for s in range(2):
            other = b[1 - s]
            total = 15 - (int(rng.integers(0, 15)) if rng.random() < 0.3 else 0)
            placed = 0
            if style == 1 and rng.random() < 0.7:  # a prime of 3 to 6 points
                k = int(rng.integers(3, 7))
                lo = int(rng.integers(0, 25 - k))
                for i in range(lo, lo + k):
                    if other[23 - i] == 0 and placed + 2 <= total:
                        b[s, i] = 2
                        placed += 2
            nbar = min(int(rng.integers(1, 4)) if rng.random() < 0.2 else 0, total - placed)
            b[s, 24] += nbar
            placed += nbar
            hi = 24
            if style == 2 and s == bearer:
                hi = 6  # bearing in or off
            elif style == 3 and rng.random() < 0.6:
                hi = int(rng.integers(2, 8))  # crashed onto the low points
            w = rng.random(hi) ** 3
            for _ in range(200):
                if placed == total:
                    break
                i = int(rng.choice(hi, p=w / w.sum()))
                if other[23 - i] == 0:
                    b[s, i] += 1
                    placed += 1
            if style == 4:  # blots far back
                for _ in range(int(rng.integers(1, 3))):
                    i = int(rng.integers(12, 24))
                    if other[23 - i] == 0 and b[s].sum() < 15:
                        b[s, i] += 1
        if b[0].sum() and b[1].sum():
            out.append(b)
    return np.stack(out)


def random_play_boards(games: int, seed: int) -> np.ndarray:
    """The positions (side on roll as ``[1]``) of games of random legal plays."""
    rng = np.random.default_rng(seed)
    buf = new_move_buffers()
    out = []
    for _ in range(games):
        b = Position.initial().to_array()
        while b[0].sum() and b[1].sum():
            out.append(b)
            d1, d2 = sorted(int(x) for x in rng.integers(1, 7, 2))[::-1]
            n = generate(b, d1, d2, buf)
            after = buf.boards[int(rng.integers(0, n))] if n else b
            b = np.ascontiguousarray(after[::-1])
    return np.stack(out)


def assert_hits_exact(boards: np.ndarray) -> int:
    """The bit-mask hit kernel equals the move generator's figures for both sides of every
    board, and so do ``encode_extra``'s hit inputs, bit for bit; returns the boards with a
    double hit."""
    x = ci.encode_extra_batch(boards)
    n = ci.N_EXTRA_SIDE
    k = col("hit")
    doubles = 0
    for i, b in enumerate(boards):
        for half, (me, opp) in enumerate(((b[1], b[0]), (b[0], b[1]))):
            want = hit_stats_exact(me, opp, BUF)
            assert ci.hit_stats(me, opp, BUF) == want, (b.tolist(), half)
            h1, h2, lost = want
            got = x[i, half * n + k:half * n + k + 3]
            assert got.tobytes() == np.array([h1 / 36.0, h2 / 36.0, lost / 360.0], np.float32).tobytes()
            doubles += h2 > 0
    return doubles


def test_hits_equal_the_generator_on_varied_boards():
    boards = varied_boards(4000, 37)
    assert (boards[:, :, 24] > 0).any(axis=1).sum() > 500  # many with checkers on the bar
    assert assert_hits_exact(boards) > 500


def test_hits_equal_the_generator_in_random_games():
    boards = random_play_boards(60, 38)
    assert len(boards) > 2000
    assert assert_hits_exact(boards) > 50


def test_containment_and_mobility_tables_follow_the_direct_rules():
    """containment's escape table and mobility's bit count against the rules read directly."""
    for b in varied_boards(1000, 39):
        for me, opp in ((b[1], b[0]), (b[0], b[1])):
            mask = ci.held_mask(opp)
            back = ci.back_checker(me)
            assert ci.containment(me, opp) == min([ci.escapes(mask, p) for p in range(12, back + 1)] + [36])
            want = sum(int(me[i]) for i in range(25) for d in range(1, 7) if i - d >= 0 and not (mask >> (i - d)) & 1)
            assert ci.mobility(me, opp) == want
