"""Match equity table and Janowski cube maths."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgtools.engine.cubeful.cube import CubeInfo, cube_decision, cube_efficiency, cubeful_equity
from bgtools.core.matchstate import MatchState
from bgtools.engine.cubeful.met import load_met
from bgtools.core.position import Position


def test_met_published_values():
    met = load_met()
    # values of the Kazaross-XG2 table (row player's chance)
    assert met.mwc(1, 2) == pytest.approx(0.67736)
    assert met.mwc(2, 4) == pytest.approx(0.6687)
    assert met.mwc(3, 5) == pytest.approx(0.64795)
    assert met.mwc(4, 7) == pytest.approx(0.69924)
    assert met.mwc(2, 1, post_crawford=True) == pytest.approx(0.48803)
    assert met.mwc(1, 1) == 0.5


def test_met_symmetry_and_monotonicity():
    met = load_met()
    for a in range(1, 26):
        for b in range(1, 26):
            assert met.mwc(a, b) + met.mwc(b, a) == pytest.approx(1.0, abs=2e-5)
            if b < 25:
                assert met.mwc(a, b + 1) >= met.mwc(a, b)  # the opponent further away helps


def test_met_after_crawford_logic():
    met = load_met()
    # 2-away vs 3-away, I win 1: 1-away vs 3-away, next game is the Crawford game
    assert met.after(2, 3, 1) == pytest.approx(met.mwc(1, 3))
    # in the Crawford game (1-away vs 3-away) I lose 1: post-Crawford 1-away vs 2-away
    assert met.after(1, 3, -1) == pytest.approx(met.mwc(1, 2, post_crawford=True))
    assert met.after(1, 3, -1) != pytest.approx(met.mwc(1, 2))
    assert met.after(2, 3, 2) == 1.0 and met.after(2, 3, -3) == 0.0
    with pytest.raises(ValueError):
        met.mwc(26, 3)


def test_money_janowski_race_points():
    """No gammons, x = 1: take point 20 %, cash point 80 % (Janowski's live cube)."""
    p = lambda w: np.array([w, 0, 0, 0, 0.0])  # noqa: E731
    d = cube_decision(p(0.8), x=1.0)
    assert d.dt == pytest.approx(d.dp) and d.dp == 1.0
    assert cube_decision(p(0.79), x=1.0).take and not cube_decision(p(0.81), x=1.0).take
    # dead cube (x = 0): cubeful = cubeless
    assert cubeful_equity(p(0.6), x=0.0) == pytest.approx(0.2)


def test_money_actions():
    p = lambda *v: np.array(v, float)  # noqa: E731
    assert cube_decision(p(0.55, 0.1, 0, 0.1, 0)).action == "no double"
    d = cube_decision(p(0.72, 0, 0, 0, 0))
    assert (d.action, d.take) == ("double", True)
    d = cube_decision(p(0.9, 0, 0, 0, 0))
    assert (d.action, d.take) == ("double", False)
    d = cube_decision(p(0.85, 0.6, 0.05, 0.02, 0))
    assert (d.action, d.take) == ("too good", False)
    assert cube_decision(p(0.9, 0, 0, 0, 0), CubeInfo(cube=2, owner=2)).action == "unavailable"
    # owning the cube is worth something; the opponent owning it costs something
    e = p(0.6, 0.15, 0.01, 0.1, 0.01)
    assert cubeful_equity(e, CubeInfo(owner=1)) > cubeful_equity(e) > cubeful_equity(e, CubeInfo(owner=2))


def test_match_cube_rules():
    p = np.array([0.3, 0.1, 0.0, 0.1, 0.0])
    # post-Crawford: the trailer doubles at once, the leader takes
    d = cube_decision(p, CubeInfo(1, 0, (3, 1)))
    assert d.action == "double" and d.take
    # the Crawford game: no cube
    assert cube_decision(p, CubeInfo(1, 0, (3, 1), crawford=True)).action == "unavailable"
    # the 1-away leader has no use for the cube
    assert cube_decision(np.array([0.8, 0.1, 0, 0.05, 0]), CubeInfo(1, 0, (1, 3))).action == "unavailable"
    # a state from a match ID: player 0 on roll, 5-away vs 3-away
    ms = MatchState(match_length=7, score=(2, 4), player_on_roll=0)
    info = CubeInfo.from_state(ms)
    assert info.away == (5, 3) and not info.money
    d = cube_decision(np.array([0.85, 0.3, 0.01, 0.02, 0.0]), ms)
    assert d.dp == pytest.approx(load_met().after(5, 3, 1))


def test_cube_efficiency_classes():
    assert cube_efficiency(Position.initial()) == pytest.approx(0.68)
    home = Position.from_sides([3, 3, 3, 3, 3, 0] + [0] * 19, [3, 3, 3, 3, 3, 0] + [0] * 19)
    assert cube_efficiency(home) == pytest.approx(0.6)


probs = st.tuples(st.floats(0.01, 0.99), st.floats(0, 1), st.floats(0, 1), st.floats(0, 1), st.floats(0, 1)).map(
    lambda t: np.array([t[0], t[0] * t[1], t[0] * t[1] * t[2], (1 - t[0]) * t[3], (1 - t[0]) * t[3] * t[4]]))


@settings(max_examples=150, deadline=None)
@given(probs, st.integers(1, 9), st.integers(1, 9), st.sampled_from([0, 1, 2]))
def test_match_values_are_chances_and_bounded(p, a, b, owner):
    met = load_met()
    info = CubeInfo(1, owner, (a, b))
    v = cubeful_equity(p, info)
    assert 0.0 <= v <= 1.0
    # between the worst and best outcome of this game
    assert met.after(a, b, -3) - 1e-9 <= v <= met.after(a, b, 3) + 1e-9
    d = cube_decision(p, info)
    assert d.nd == pytest.approx(v)


@settings(max_examples=150, deadline=None)
@given(probs)
def test_money_cubeful_monotone_in_wins(p):
    q = p.copy()
    q[0] = min(0.999, p[0] + 0.05)  # more wins; same gammons won, the losses' mix kept
    q[3:] = p[3:] * (1 - q[0]) / (1 - p[0])
    assert cubeful_equity(q) >= cubeful_equity(p) - 1e-12


def test_cube_decision_applies_the_jacoby_rule_it_is_given():
    """Money with Jacoby: while the cube is centred a gammon counts single, so a gammonish
    position is worth less not doubling; once doubled (double/take) gammons count again."""
    from dataclasses import replace

    from bgtools.engine.cubeful.cubeaction import money_cubeful

    p = np.array([0.62, 0.30, 0.02, 0.12, 0.01])
    plain, jac = CubeInfo(), CubeInfo(jacoby=True)
    d0, d1 = cube_decision(p, plain), cube_decision(p, jac)
    assert d1.nd < d0.nd - 0.05  # the gammons (0.30 for, 0.12 against) no longer count centred
    assert d1.nd == pytest.approx(money_cubeful(p, 0, 0.68, True))
    assert d0.nd == pytest.approx(money_cubeful(p, 0, 0.68, False))
    assert d1.dt == pytest.approx(d0.dt) and d1.dp == d0.dp == 1.0  # the opponent owns a turned cube
    assert cubeful_equity(p, jac) == pytest.approx(d1.nd)
    # the same rule read from a money MatchState, and not applied when the cube is owned
    st0 = MatchState()  # money, cube centred
    assert cube_decision(p, replace(st0, jacoby=True)).nd == pytest.approx(d1.nd)
    assert cube_decision(p, replace(st0, jacoby=False)).nd == pytest.approx(d0.nd)
    assert cubeful_equity(p, CubeInfo(owner=1, jacoby=True)) == pytest.approx(cubeful_equity(p, CubeInfo(owner=1)))
