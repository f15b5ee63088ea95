"""Bear-ins: the plays of a roll that all leave the side on roll home and the mover near home, out of contact, are
valued by the mover's next two rolls played out against the side on roll's exact distributions (issue 37's race)."""

from functools import lru_cache

import numpy as np
import pytest

from bgtools.core.dice import ROLL_WEIGHTS, ROLLS
from bgtools.core.movegen import generate_boards, new_move_buffers
from bgtools.engine import bearin as BI
from bgtools.engine import bearoff as B
from bgtools.engine.evaluation import equity, evaluate_plays, static_probs
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import NeuralEvaluator
import test_far_race
from test_far_race import HOME, board

db = test_far_race.db  # the far races' fixture: the databases in a cache folder of the test's own
ACE5 = {1: 5}  # five checkers on his ace point (ten off): off in two rolls with a double among them, else three


def test_bear_in_says_which_boards():
    assert BI.bear_in(board(ACE5, {13: 1, 12: 1, 6: 3, 5: 2, 4: 4, 3: 2, 2: 2}))  # 2 outside, 13 pips
    assert BI.bear_in(board(HOME, {8: 2, 6: 13}))
    assert BI.bear_in(board(HOME, {8: 6, 6: 9})) and BI.bear_in(board(HOME, {18: 2, 6: 13}))  # 6 checkers, 24 pips
    assert not BI.bear_in(board(HOME, {8: 7, 6: 8}))  # seven checkers outside: more than three rolls' dice
    assert not BI.bear_in(board(HOME, {18: 1, 17: 1, 8: 1, 6: 12}))  # 12 + 11 + 2 = 25 pips outside
    assert not BI.bear_in(board(HOME, HOME))  # both home: the one-sided database's own case
    assert not BI.bear_in(board({6: 13, 9: 2}, HOME))  # the side on roll outside: a far race
    assert not BI.bear_in(board({1: 14, 20: 1}, {8: 2, 6: 13}))  # his 20 point is the mover's 5: contact
    assert BI.outside_pips(board(HOME, {13: 1, 12: 1, 6: 13})[0]) == 13  # 7 + 6


def _children(side: tuple[int, ...]) -> list[list[tuple[int, ...]]]:
    buf = new_move_buffers()
    mb = np.zeros((2, 25), np.int8)
    mb[1] = side
    out = []
    for r in range(21):
        n = generate_boards(mb, ROLLS[r, 0], ROLLS[r, 1], buf)
        out.append([tuple(int(x) for x in buf.boards[i, 1]) for i in range(n)] or [side])
    return out


def _saved(side: tuple[int, ...], both_left: float) -> float:
    """P(the mover saves the gammon), by brute force: the side on roll (``ACE5``) is off at his second roll with a
    double among his two rolls, else at his third; the mover saves it with a checker off at his first roll, or at his
    second when the side on roll needs three (``both_left``); each roll played for the best chance."""

    @lru_cache(None)
    def off_next(s: tuple[int, ...]) -> float:  # P(a checker off with his next roll), best play
        return sum(float(ROLL_WEIGHTS[r]) * max(float(sum(c) < 15) for c in ch) for r, ch in enumerate(_children(s)))

    return sum(float(ROLL_WEIGHTS[r]) * max(1.0 if sum(c) < 15 else both_left * off_next(c) for c in ch)
               for r, ch in enumerate(_children(side)))


def _mover_equity(out: np.ndarray) -> float:
    """The mover's cubeless equity from the five outputs of the side on roll."""
    return -float(equity(out))


@pytest.mark.parametrize("moved", [
    {13: 1, 12: 1, 6: 3, 5: 2, 4: 4, 3: 2, 2: 2},
    {8: 2, 7: 1, 6: 3, 5: 2, 4: 3, 3: 2, 2: 2},
    {11: 1, 9: 1, 7: 2, 6: 3, 5: 3, 4: 3, 3: 1, 2: 1},
])
def test_gammon_saving_values_are_exact(db, moved):
    # the side on roll is off within three rolls, so the mover's next two rolls are all that matter: the
    # bear-in's values are exact, and the brute force over every roll and play says the same
    b = board(ACE5, moved)
    assert BI.bear_in(b) and sum(moved.values()) == 15
    f = db.os_rolls[B.bearoff_index(b[1])]
    assert f[2] + f[3] == pytest.approx(1.0) and f[2] == pytest.approx(11 / 36, abs=1e-4)  # (stored quantised)
    out = np.zeros(5)
    BI.bear_in_probs_into(db.tables(), b, (new_move_buffers(), new_move_buffers()), BI.new_memo(), out)
    saved = _saved(tuple(int(x) for x in b[0]), float(f[3]))
    assert 0.0 < saved < 1.0
    assert out[0] == pytest.approx(1.0, abs=1e-9)  # the mover cannot win (the stored tails end near 0)
    assert out[1] == pytest.approx(1.0 - saved, abs=1e-9)  # gammoned unless saved
    assert out[2] == 0.0 and out[3] == 0.0 and out[4] == 0.0
    assert _mover_equity(out) == pytest.approx(-2.0 + saved, abs=1e-9)


def test_the_engine_ranks_a_gammon_save_by_the_exact_values(db):
    # the mover (checkers on his 13, 12 and 11 points) rolls 65 against five checkers on the ace point: the
    # engine's 0-ply values of the roll's plays are the brute force's, best first (gnubg's 2 ply ranks 13/8 12/6
    # first here, which the brute force puts 5 millipoints behind 12/6 11/6)
    from bgtools.core.movegen import legal_plays
    from bgtools.core.position import Position

    pos = Position.from_id("HwAAwNsbUAEAAA")
    plays = legal_plays(pos, (6, 5))
    after = np.stack([p.after.to_array() for p in plays])
    eq = equity(evaluate_plays(after, 0, None, np.zeros(len(plays), np.int64)))
    f = db.os_rolls[B.bearoff_index(after[0, 1])]
    exact = np.array([-2.0 + _saved(tuple(int(x) for x in a[0]), float(f[3])) for a in after])
    np.testing.assert_allclose(eq, exact, atol=1e-9)
    assert plays[int(np.argmax(eq))].notation() == "12/6 11/6"


def test_a_roll_is_valued_all_by_bear_ins_or_all_by_the_net(db):
    net = NeuralEvaluator(load_weights(None))
    near = board(HOME, {8: 2, 6: 13})
    far = board(HOME, {8: 7, 6: 8})  # seven outside: not a bear-in
    both = np.stack([near, far])
    by_net = net.evaluate_boards(both)
    # in one roll: the net values both (mixing the two valuations in a roll picks badly)
    np.testing.assert_allclose(static_probs(both, net, rolls_of=np.zeros(2, np.int64)), by_net, atol=1e-6)
    # in two rolls: the bear-in is valued on its own
    own = static_probs(both, net, rolls_of=np.arange(2))
    np.testing.assert_allclose(own[1], by_net[1], atol=1e-6)
    assert np.abs(own[0] - by_net[0]).max() > 1e-4
    # bear_ins off: the net, as the rollouts' chooser
    np.testing.assert_allclose(static_probs(both, net, rolls_of=np.arange(2), bear_ins=False), by_net, atol=1e-6)
    # with both sides home after another play of the roll: the database's combination is the same sum, so the
    # bear-in keeps its value
    home = board(HOME, {6: 15})
    mixed = static_probs(np.stack([near, home]), net, rolls_of=np.zeros(2, np.int64))
    np.testing.assert_allclose(mixed[0], own[0], atol=1e-12)
    np.testing.assert_allclose(mixed[1], B.one_sided_probs(db.os_rolls, db.os_gammon, home), atol=1e-12)


def test_race_values_hold_together(db):
    # a close race, the mover's two checkers on his 8 point: probabilities, gammons within wins, a win chance
    # between those of his worst and best next positions (bear-ins never contradict the databases)
    b = board({1: 2, 2: 2, 3: 3, 4: 2, 5: 2, 6: 2}, {8: 2, 6: 3, 5: 3, 4: 3, 3: 2, 2: 2})
    assert BI.bear_in(b)
    out = np.zeros(5)
    BI.bear_in_probs_into(db.tables(), b, (new_move_buffers(), new_move_buffers()), BI.new_memo(), out)
    assert 0.0 < out[0] < 1.0 and 0.0 <= out[1] <= out[0] and 0.0 <= out[3] <= 1.0 - out[0]
    assert out[2] == 0.0 and out[4] == 0.0
    # the mover's next position, whatever the roll, is at best all home with the checkers on his 6 point and at
    # worst as he is: the side on roll's win chance lies between the database's values of those (he rolls first)
    best = board({1: 2, 2: 2, 3: 3, 4: 2, 5: 2, 6: 2}, {6: 5, 5: 3, 4: 3, 3: 2, 2: 2})
    lo = B.one_sided_probs(db.os_rolls, db.os_gammon, best)[0]
    assert lo < out[0]
