"""Far races: the plays of a roll that all leave the mover home and the other side outside, out of contact, are
valued from the mover's exact one-sided distributions against the other side's estimate (issue 37's race)."""

import math

import numpy as np
import pytest
from conftest import isolated_cache

from bgtools.core.movegen import generate_boards, legal_plays, new_move_buffers
from bgtools.core.position import Position
from bgtools.engine import bearoff as B
from bgtools.engine import farrace as F
from bgtools.engine.chooser import choose0, make_chooser, new_chooser_buffers, swap_into
from bgtools.engine.evaluation import equity, evaluate_boards, evaluate_plays, invert_probs
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import NeuralEvaluator


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    with isolated_cache(tmp_path_factory.getbasetemp() / "bgtools-cache"):
        yield B.load_databases()


def board(on_roll: dict[int, int], moved: dict[int, int]) -> np.ndarray:
    """int8[2, 25]: ``[1]`` the side on roll, ``[0]`` the side that has just moved; points 1-24 (25 = bar), each side's own."""
    b = np.zeros((2, 25), np.int8)
    for side, pts in ((1, on_roll), (0, moved)):
        for p, n in pts.items():
            b[side, p - 1] = n
    return b


HOME = {1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 6: 2}  # 15 checkers home


def test_far_race_says_which_boards():
    assert F.far_race(board({6: 12, 9: 2, 12: 1}, HOME))  # on roll outside, the mover home, no contact
    assert F.far_race(board({6: 13, 9: 2}, {6: 15}))  # his 9 point is the mover's 16: they have passed
    assert not F.far_race(board({6: 14, 20: 1}, HOME))  # a checker on his 20 point (the mover's 5): contact
    assert not F.far_race(board(HOME, HOME))  # both home: the one-sided database's own case
    assert not F.far_race(board({6: 12, 9: 3}, {6: 12, 8: 3}))  # the mover outside
    assert not F.far_race(board({6: 12, 25: 3}, HOME))  # on the bar
    assert not F.far_race(board({6: 12, 9: 3}, {}))  # the mover has borne off all: the game is over


def reference(db, b: np.ndarray) -> np.ndarray:
    """The five outputs written out with numpy: the far side as a discretised normal over 40 rolls."""
    k = 40
    mv = B.bearoff_index(b[0].astype(np.int64))
    ry, gy = np.zeros(k), np.zeros(k)
    ry[:32], gy[:32] = db.os_rolls[mv], db.os_gammon[mv]
    m, v, g, gv = F.race_side_moments(b[1].astype(np.int64), db.os_moments)

    def normal(mean, var):
        sd = math.sqrt(max(var, 0.05) + 1 / 12)
        cdf = np.array([0.5 * (1 + math.erf((i + 0.5 - mean) / (sd * math.sqrt(2)))) for i in range(k)])
        p = np.diff(np.concatenate([[0.0], cdf]))
        p[-1] += 1 - p.sum()
        p[1] += p[0]  # a side outside needs a roll at least
        p[0] = 0.0
        return p

    rx, gx = normal(m, v), normal(g, gv)
    at_least = lambda p: 1 - np.concatenate([[0.0], np.cumsum(p)[:-1]])  # noqa: E731
    win = float((rx * at_least(ry)).sum())
    wg = float((rx * at_least(gy)).sum()) if int(b[0].sum()) == 15 else 0.0
    lg = float((ry[:-1] * (1 - np.cumsum(gx)[:-1])).sum()) if int(b[1].sum()) == 15 else 0.0
    return np.array([win, min(wg, win), 0.0, min(lg, 1 - win), 0.0])


@pytest.mark.parametrize("on_roll, moved", [
    ({6: 10, 8: 3, 13: 2}, HOME),  # 15 each: gammons both ways possible
    ({6: 4, 5: 4, 10: 1}, {1: 2, 2: 5, 3: 1}),  # checkers off on both sides
    ({4: 5, 7: 1}, {6: 7, 5: 5, 4: 3}),  # one checker just outside against a full home board
])
def test_the_kernel_is_the_formula(db, on_roll, moved):
    b = board(on_roll, moved)
    assert F.far_race(b)
    out = np.zeros(5)
    F.far_race_probs_into(db.tables(), b, out)
    np.testing.assert_allclose(out, reference(db, b), atol=1e-12)
    assert 0.0 <= out[1] <= out[0] <= 1.0 and 0.0 <= out[3] <= 1.0 - out[0] and out[2] == out[4] == 0.0


@pytest.mark.parametrize("on_roll, moved", [
    ({7: 1, 1: 1}, {1: 1}),
    ({7: 1, 1: 1}, {1: 2, 3: 1, 6: 2}),
    ({7: 1, 1: 14}, HOME),  # 15 checkers each: gammons both ways
    ({7: 1, 1: 14}, {2: 5, 4: 5, 6: 5}),
])
def test_the_mass_on_0_rolls_is_the_mass_on_1(db, on_roll, moved):
    """The normal's estimate puts mass below half a roll (one checker on the 7 point, the rest on the 1: more than
    1 %), which a side outside cannot take; he rolls first and the mover needs a roll at least, so moving it to 1
    roll changes no value (the bear-in leaves, where the side outside rolls second, must move it)."""
    b = board(on_roll, moved)
    assert F.far_race(b)
    dist = np.zeros((2, F.FAR_ROLLS))
    F.far_side_into(db.tables(), b[1].astype(np.int64), dist)
    assert dist[:, 0].max() > 0.01  # to bear off (two checkers), or to take the first checker off (fifteen)
    shifted = dist.copy()
    shifted[:, 1] += shifted[:, 0]
    shifted[:, 0] = 0.0
    a, c = np.zeros(5), np.zeros(5)
    F.far_probs_with(db.tables(), b, dist, a)
    F.far_probs_with(db.tables(), b, shifted, c)
    np.testing.assert_allclose(a, c, atol=1e-15)
    assert a[0] > 0.0 and (a[1] > 0.0 or a[3] > 0.0 or sum(moved.values()) < 15 > sum(on_roll.values()))


def test_a_better_bear_off_is_worth_more(db):
    """The side on roll's chances fall as the mover's home board improves (fewer checkers, lower points)."""
    on_roll = {6: 10, 8: 3, 13: 2}
    worse, better = np.zeros(5), np.zeros(5)
    F.far_race_probs_into(db.tables(), board(on_roll, {6: 5, 5: 5, 4: 5}), worse)
    F.far_race_probs_into(db.tables(), board(on_roll, {1: 5, 2: 5, 3: 5}), better)
    assert better[0] < worse[0]


def after_boards(pos: Position, dice) -> tuple[list, np.ndarray]:
    plays = legal_plays(pos, dice)
    return plays, np.stack([p.after.to_array() for p in plays]).astype(np.int8)


# the mover (on roll) home with 13 checkers, the other side with two checkers outside: every 5-3 keeps him home
FAR = Position.from_array(board({6: 4, 5: 3, 4: 2, 3: 2, 2: 1, 1: 1}, {6: 9, 8: 2, 11: 2, 4: 2}))


def test_every_play_of_a_far_roll_is_valued_from_the_database(db):
    plays, after = after_boards(FAR, (5, 3))
    assert len(plays) > 3 and all(F.far_race(a) or a[0].sum() == 0 for a in after)
    mine = new_move_buffers()
    n = generate_boards(FAR.to_array(), 5, 3, mine)
    assert n == len(plays) and F.far_race_roll(FAR.to_array(), mine.boards, n)
    net = NeuralEvaluator(load_weights(None))
    got = evaluate_plays(after, 0, net)
    for i, a in enumerate(after):
        want = np.zeros(5)
        F.far_race_probs_into(db.tables(), a, want)
        np.testing.assert_allclose(invert_probs(got[i:i + 1])[0], want, atol=1e-12)
    # the same boards valued one by one (positions, not the plays of a roll) keep the net's values
    alone = evaluate_boards(after, 0, net)
    assert np.abs(alone - invert_probs(got)).max() > 1e-3


def test_a_roll_that_leaves_the_mover_outside_keeps_the_net(db):
    """With a checker on his 8 point, a 2-1 may leave it outside: no play of that roll is valued from the database,
    though some of them are far races (mixing the two valuations in one roll picks badly)."""
    pos = Position.from_array(board({8: 1, 6: 4, 5: 3, 4: 2, 3: 2, 2: 1, 1: 1}, {6: 9, 8: 2, 11: 2, 4: 2}))
    plays, after = after_boards(pos, (2, 1))
    assert any(F.far_race(a) for a in after) and not all(F.far_race(a) for a in after)
    net = NeuralEvaluator(load_weights(None))
    np.testing.assert_allclose(evaluate_plays(after, 0, net), invert_probs(evaluate_boards(after, 0, net)), atol=0)


def test_the_chooser_picks_the_far_race_best(db):
    """The rollouts' chooser (with the databases) picks the play the far-race values rank first."""
    # the rollout net, as rollouts play: its chooser's type is the one other tests compile ``choose0`` for
    ch = make_chooser(load_weights(None, "rollout").arrays(), 0, tables=db.tables())
    buf = new_chooser_buffers(ch.net)
    best_p = np.zeros(5)
    for dice in ((5, 3), (6, 6), (2, 1), (4, 4)):
        plays, after = after_boards(FAR, dice)
        want = equity(evaluate_plays(after, 0, NeuralEvaluator(load_weights(None))))
        i = choose0(FAR.to_array(), dice[0], dice[1], ch, buf, best_p)
        sw = np.zeros((2, 25), np.int8)
        swap_into(buf.mine.boards[i], sw)
        chosen = next(k for k, a in enumerate(after) if np.array_equal(a, sw))
        assert want[chosen] == pytest.approx(want.max(), abs=1e-12), dice


# the side on roll outside (two checkers on his 8 and 11 points), the other side home with 13: each of his replies
# ... and, seen from the other side, a board whose every reply roll by the home side is a far race
REPLIES_FROM = Position.from_array(board({6: 9, 8: 2, 11: 2, 4: 2}, {6: 4, 5: 3, 4: 2, 3: 2, 2: 1, 1: 1}))


def test_the_search_takes_the_far_race_pick_and_values_it_on_its_own(db):
    """At 1 ply the home side answers every roll with the play the far-race values rank first, and the value passed
    up is that position's own (the net's): the plays above differ in the side the estimate sees coarsely."""
    from bgtools.engine.children import expand_children
    from bgtools.engine.evaluation import best_replies, static_probs

    net = NeuralEvaluator(load_weights(None))
    # the home side on roll: the position after one of the outside side's plays, turned round
    b = np.stack([REPLIES_FROM.to_array()[1], REPLIES_FROM.to_array()[0]])[None].astype(np.int8)
    assert F.far_race(np.stack([b[0, 1], b[0, 0]]))  # (seen before his roll: he is home, the other side outside)
    chosen, p = best_replies(b, net)
    children, offsets = expand_children(b)
    differ = 0
    for r in range(21):
        kids = children[offsets[r]:offsets[r + 1]]
        far = np.array([F.far_race(k) for k in kids])
        assert far.all()
        vals = np.zeros((len(kids), 5))
        for i, k in enumerate(kids):
            F.far_race_probs_into(db.tables(), k, vals[i])
        pick = int(np.argmin(equity(vals)))  # the home side's best: the side on roll after it fares worst
        assert np.array_equal(chosen[r], kids[pick]), r
        np.testing.assert_allclose(p[r], static_probs(kids[pick:pick + 1], net)[0], atol=1e-12)
        differ += pick != int(np.argmin(equity(static_probs(kids, net))))
    assert differ >= 3  # (7 of the 21 rolls: the net alone would answer otherwise)
