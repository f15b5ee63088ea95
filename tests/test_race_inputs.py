"""Race inputs and post-net race corrections (bgtools.engine.nets.raceinputs): hand-made
positions, and the corrections checked against our own bear-off databases."""

from __future__ import annotations

import numpy as np
import pytest

from bgtools.engine import bearoff as bo
from bgtools.engine.nets import raceinputs as ri
from handboards import board, side




@pytest.fixture(scope="module")
def db():
    return bo.load_databases()


def test_checkers_off_units_and_crossovers():
    me = side(p20=3, p10=4, p3=3)  # 5 off; quadrants to cross: 3 x 3 + 4 x 1 + 0
    opp = side(p5=15)
    out = np.zeros(2 * ri.N_RACE_EXTRA_SIDE, np.float32)
    ri.encode_race_extra(board(me, opp), out)
    n = ri.N_RACE_EXTRA_SIDE
    assert ri.crossovers(me) == 13
    assert out[:15].tolist() == [1.0 if k == 5 else 0.0 for k in range(15)]
    assert out[15] == pytest.approx(1.3)
    assert out[n:n + 15].tolist() == [1.0] + [0.0] * 14  # nothing off
    assert out[n + 15] == 0.0  # all home
    assert ri.crossovers(side(bar=1, p12=2)) == 4 + 2 * 2


def test_roll_bounds():
    assert ri.min_rolls(side(p5=15)) == 4  # 90 pips: 4 rolls of 24; 15 checkers: 4 rolls of 4
    assert ri.min_rolls(side(p0=9)) == 3  # 9 pips fit one roll, 9 checkers need 3
    assert ri.min_first_off(side(p7=15)) == 2  # 2 pips x 15 to come home, 6 more for one off: 36 pips
    assert ri.min_first_off(side(p5=14)) == 0  # one is off already


def test_sure_win_and_gammon(db):
    # one checker on my 1-point: I am off with this roll; he has 15 on his 6-point
    y = np.full(5, 0.5)
    assert ri.race_correct(board(side(p0=1), side(p5=15)), y, db.os_rolls, db.os_gammon)
    assert y.tolist() == [1.0, 1.0, 0.0, 0.0, 0.0]


def test_sure_loss_and_gammon(db):
    # he bears his last checker off with his first roll; my 15 on my 8-point cannot bear one off
    # before that (36 pips needed)
    y = np.array([0.3, 0.1, 0.05, 0.2, 0.1])
    assert ri.race_correct(board(side(p7=15), side(p0=1)), y, db.os_rolls, db.os_gammon)
    assert y.tolist() == [0.0, 0.0, 0.0, 1.0, 0.0]  # no backgammon: none of mine in his home board
    # from my 6-point any roll with a 6 takes one off first: the gammon is not forced
    y = np.array([0.3, 0.1, 0.05, 0.2, 0.1])
    ri.race_correct(board(side(p5=15), side(p0=1)), y, db.os_rolls, db.os_gammon)
    assert y.tolist() == [0.0, 0.0, 0.0, 0.2, 0.0]


def test_backgammon_outputs_and_non_races(db):
    # he still has a checker in my home board (his 20-point): backgammon stays possible
    y = np.full(5, 0.2)
    ri.race_correct(board(side(p2=15), side(p19=1, p8=14)), y, db.os_rolls, db.os_gammon)
    assert y[2] == 0.2 and y[4] == 0.0
    start = board(side(p5=5, p7=3, p12=5, p23=2), side(p5=5, p7=3, p12=5, p23=2))
    y = np.full(5, 0.2)
    assert not ri.race_correct(start, y, db.os_rolls, db.os_gammon)
    assert y.tolist() == [0.2] * 5


def _random_home_side(rng, n_max) -> np.ndarray:
    s = np.zeros(25, np.int8)
    for _ in range(int(rng.integers(1, n_max + 1))):
        s[int(rng.integers(0, 6))] += 1
    return s


def test_corrections_never_contradict_the_two_sided_database(db):
    """Both sides home with up to 6 checkers: the database's P(win) is exact (optimal play).
    Whatever the net said, a forced win is a database win, a forced loss a database loss, and
    no gammon or backgammon is left (9+ checkers are off on each side)."""
    rng = np.random.default_rng(5)
    boards = np.stack([board(_random_home_side(rng, 6), _random_home_side(rng, 6)) for _ in range(4000)])
    probs = rng.random((boards.shape[0], 5))
    out, mask = ri.race_correct_batch(boards, probs, db.os_rolls, db.os_gammon)
    assert mask.all()
    pwin = np.array([bo.ts_lookup(db.ts, b)[0] for b in boards])
    won = out[:, 0] == 1.0
    lost = out[:, 0] == 0.0
    assert won.sum() > 100 and lost.sum() > 100  # the rule does decide many of them
    assert (pwin[won] > 1 - 1e-4).all()
    assert (pwin[lost] < 1e-4).all()
    assert (out[:, 1:] == 0).all()


def test_corrections_never_contradict_the_one_sided_database(db):
    """Both sides home (up to 15 checkers): forced outcomes agree with the one-sided
    database's distributions (gnubg's one-sided estimate, exact when a side's finish is sure)."""
    rng = np.random.default_rng(6)
    boards = np.stack([board(_random_home_side(rng, 15), _random_home_side(rng, 15)) for _ in range(4000)])
    for b in boards[:50]:  # some with all fifteen on the board, for the gammon rules
        for s in range(2):
            if rng.random() < 0.5:
                b[s, :6] = np.bincount(rng.integers(0, 6, 15), minlength=6)
    probs = rng.random((boards.shape[0], 5))
    out, _ = ri.race_correct_batch(boards, probs, db.os_rolls, db.os_gammon)
    est = np.stack([bo.one_sided_probs(db.os_rolls, db.os_gammon, b) for b in boards])
    for k in (0, 1, 3):  # win, win gammon, lose gammon
        ones = out[:, k] == 1.0
        zeros = out[:, k] == 0.0
        assert (est[ones, k] > 1 - 1e-4).all(), k
        assert (est[zeros, k] < 1e-4).all(), k
    assert (out[:, 0] == 1.0).sum() > 50 and (out[:, 0] == 0.0).sum() > 50
