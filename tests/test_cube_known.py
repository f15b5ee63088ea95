"""The cube model at scores where the right action is known from first principles (issue 35):
the money take point without gammons, the post-Crawford free drop, the dead cube at the end
of a match, and gammons that turn a take into a pass.  Hand-made probabilities through
:func:`bgtools.engine.cubeful.cubeaction.cube_advice` (the code the analysis and ``eval`` use)."""

from __future__ import annotations

import pytest

from bgtools.engine.cubeful.cube import CubeInfo
from bgtools.engine.cubeful.cubeaction import cube_advice
from bgtools.engine.cubeful.met import load_met

XS = (0.0, 0.68, 1.0)  # dead cube, the contact efficiency, a fully live cube


def gammonless(w: float) -> list[float]:
    return [w, 0.0, 0.0, 0.0, 0.0]


# ----------------------------------------------------------------------------- money
@pytest.mark.parametrize("rules", [{}, {"jacoby": True}, {"beavers": True}])
def test_the_money_take_point_without_gammons_is_25_percent_with_a_dead_cube(rules):
    # the taker's cube is dead (x = 0): double/take is worth 2 (2w - 1), the pass 1, equal at w = 0.75
    take = cube_advice(gammonless(0.749), CubeInfo(**rules), x=0.0)
    drop = cube_advice(gammonless(0.751), CubeInfo(**rules), x=0.0)
    assert take.double_take == pytest.approx(2 * (2 * 0.749 - 1)) and take.double_pass == 1.0
    assert take.action == "Double, take" and drop.action == "Double, pass"


@pytest.mark.parametrize("rules", [{}, {"jacoby": True}, {"beavers": True}])
def test_a_live_cube_lowers_the_take_point_to_20_percent(rules):
    # Janowski: the taker owning a fully live cube can take down to 20 % (with a fully live cube
    # the doubler loses nothing by waiting for his cash point, so "No double, take" below it)
    assert cube_advice(gammonless(0.799), CubeInfo(**rules), x=1.0).action.endswith("take")
    assert cube_advice(gammonless(0.801), CubeInfo(**rules), x=1.0).action.endswith("pass")
    a = cube_advice(gammonless(0.5), CubeInfo(**rules), x=0.68, with_take_point=True)
    assert a.take_point is not None and 0.20 < a.take_point < 0.25


def test_a_gammonish_position_is_a_pass_that_would_be_a_take_without_the_gammons():
    # the doubler wins 70 %, half of his wins gammons: the taker risks 1.5 points per game lost to
    # win 1 (2 and 1 doubled), so he needs 1/2.5 = 40 % with a dead cube, and still 1/3 with a fully
    # live one (Janowski: (L - 1/2) / (W + L + 1/2) = 1 / 3): 30 % is a pass whatever the cube is worth
    for x in XS:
        assert cube_advice([0.70, 0.35, 0.0, 0.0, 0.0], CubeInfo(), x=x).action.endswith("pass"), x
        assert cube_advice(gammonless(0.70), CubeInfo(), x=x).action.endswith("take"), x
    # under Jacoby too: once the cube is turned the gammons count
    assert cube_advice([0.70, 0.35, 0.0, 0.0, 0.0], CubeInfo(jacoby=True)).action.endswith("pass")


def test_the_takers_own_gammons_make_a_take_of_fewer_than_25_percent():
    # the taker wins a quarter of his games with a gammon: dead cube, he needs (1 - 1/2) / (1.25 + 1) = 2/9
    a = cube_advice([0.76, 0.0, 0.0, 0.06, 0.0], CubeInfo(), x=0.0)
    assert a.action == "Double, take"


# ----------------------------------------------------------------------------- match play
def test_post_crawford_free_drop_at_2_away():
    """Trailer 2-away, leader 1-away after the Crawford game.  Taken, the doubled game decides the
    match (the leader's cube is dead, gammons count for nothing): double/take is worth exactly
    the trailer's winning chance; passed, the score is 1-away/1-away, worth 1/2.  The leader
    takes exactly when he wins half the games or more (the free drop: passing costs him no more
    than losing the game would).  Without gammons the trailer doubles at once: waiting, he gets
    at best min(w_t, 1/2) when he doubles later (or 1/2 for a single win), and E[min(w_t, 1/2)]
    <= min(w, 1/2) by concavity.  (With gammons, a gammon at cube 1 wins him the match, and
    playing on can be right.)"""
    for w in (0.30, 0.45, 0.49, 0.51, 0.55, 0.70):
        for p in (gammonless(w), [w, 0.25 * w, 0.0, 0.2 * (1 - w), 0.0]):
            for x in XS:
                a = cube_advice(p, CubeInfo(away=(2, 1)), x=x)
                assert a.mwc is not None
                assert a.mwc[1] == pytest.approx(w, abs=1e-12)  # double/take: the game for the match
                assert a.mwc[2] == pytest.approx(0.5)  # double/pass: double match point
                assert a.action.endswith("take" if w < 0.5 else "pass"), (w, x, a.action)
                if p[1] == 0.0:  # without gammons the trailer cannot gain by waiting (see above)
                    assert a.action.startswith(("Double", "Optional double")), (w, x, a.action)


def test_post_crawford_the_leader_cannot_double_and_the_crawford_game_has_no_cube():
    p = [0.6, 0.2, 0.0, 0.1, 0.0]
    assert not cube_advice(p, CubeInfo(away=(1, 2))).available  # the leader needs 1: his cube is dead
    assert not cube_advice(p, CubeInfo(away=(1, 4))).available
    assert not cube_advice(p, CubeInfo(away=(4, 1), crawford=True)).available
    assert cube_advice(p, CubeInfo(away=(4, 1))).available


def test_the_dead_cube_at_two_away_two_away():
    """At 2-away/2-away a double makes the game decide the match: the taker's cube is dead (he
    would need no more than the 2 the cube already gives) and gammons count for nothing.  So
    double/take is exactly the doubler's winning chance, whatever the cube efficiency, and the
    taker takes while he wins at least 1 - MWC(1-away, 2-away Crawford).  Without gammons, not
    doubling is worth less than doubling as soon as the doubler is the favourite (both are
    worth w with a fully live cube; a dead one scores 1-away/2-away vs 2-away/1-away linearly,
    which is below w above 1/2): he doubles with any advantage and holds with none."""
    met = load_met()
    dp = met.mwc(1, 2)
    for w in (0.40, 0.49, 0.51, 0.60, 0.68, 0.75):
        for x in (0.3, 0.68, 0.9):
            a = cube_advice(gammonless(w), CubeInfo(away=(2, 2)), x=x)
            assert a.mwc is not None
            assert a.mwc[1] == pytest.approx(w, abs=1e-12)
            assert a.mwc[2] == pytest.approx(dp)
            doubles = a.action.startswith(("Double", "Optional double"))
            assert doubles == (w > 0.5), (w, x, a.action)
            if doubles:
                assert a.action.endswith("take" if w < dp else "pass"), (w, x, a.action)
    # the doubler's gammons count at cube 1 (a gammon wins the match) but not once doubled
    g = cube_advice([0.60, 0.25, 0.0, 0.0, 0.0], CubeInfo(away=(2, 2)))
    plain = cube_advice(gammonless(0.60), CubeInfo(away=(2, 2)))
    assert g.mwc is not None and plain.mwc is not None
    assert g.mwc[1] == pytest.approx(plain.mwc[1]) and g.mwc[0] > plain.mwc[0]


def test_a_redouble_that_would_kill_the_cube_for_the_taker():
    # 3-away/3-away, the player on roll owns the 2-cube: redoubled to 4 the game decides the
    # match (the taker cannot use the cube), so double/take is his winning chance exactly;
    # passed, he wins 2 points: 1-away/3-away Crawford
    met = load_met()
    for w in (0.5, 0.7, 0.9):
        for x in XS:
            a = cube_advice([w, 0.3 * w, 0.0, 0.1 * (1 - w), 0.0], CubeInfo(cube=2, owner=1, away=(3, 3)), x=x)
            assert a.mwc is not None
            assert a.mwc[1] == pytest.approx(w, abs=1e-12) and a.mwc[2] == pytest.approx(met.mwc(1, 3))
            assert a.action.endswith("take" if w < met.mwc(1, 3) else "pass"), (w, x, a.action)
