"""The analysis' cube decisions at 2 ply: close ones are valued by the cubeful lookahead that
``bgtools eval`` uses, others by the cube formula on the 2-ply cubeless probabilities (issue 35:
the formula alone doubled where XG and gnubg hold)."""

import pytest

from bgtools.analysis import AnalysisSettings
from bgtools.analysis.analyse import LOOKAHEAD_WINDOW, _Analyser
from bgtools.core.matchstate import parse_any_id
from bgtools.engine.cubeful.cube import CubeInfo, cube_efficiency
from bgtools.engine.cubeful.cubeaction import cube_advice
from bgtools.engine.cubeful.cubesearch import cube_advice_at

# 7-point match, 7-away 5-away: XG 4-ply ND +0.321 DT +0.188, gnubg 2-ply ND +0.315 DT +0.184
CLOSE = "sOvBADQc3y4AQA:MAHqAAAAEAAE"


def _analyse(gid, lookahead):
    pos, st = parse_any_id(gid)
    an = _Analyser(None, AnalysisSettings(ply=2, cube_lookahead=lookahead), None)
    return pos, st, an.cube_analysis(pos, CubeInfo.from_state(st))


def test_a_close_decision_takes_the_lookahead_values_of_eval():
    pos, st, ca = _analyse(CLOSE, True)
    ev = cube_advice_at(pos, st, 2)
    assert ca.ply == 2
    assert (ca.nd, ca.dt, ca.dp) == pytest.approx((ev.no_double, ev.double_take, ev.double_pass), abs=1e-9)
    assert ca.mwc == pytest.approx(ev.mwc, abs=1e-12)
    assert ca.action == ("double" if ev.action.startswith(("Double", "Redouble")) else "no double")


def test_without_the_lookahead_the_formula_on_2_ply_probabilities():
    pos, st, ca = _analyse(CLOSE, False)
    f = cube_advice(ca.probs, CubeInfo.from_state(st), x=cube_efficiency(pos))
    assert (ca.nd, ca.dt, ca.dp) == pytest.approx((f.no_double, f.double_take, f.double_pass), abs=1e-9)
    # the formula puts this decision inside the window where the lookahead decides
    assert min(abs(ca.nd - min(ca.dt, ca.dp)), abs(ca.nd - ca.dp), abs(ca.dt - ca.dp)) < LOOKAHEAD_WINDOW


def test_a_clear_decision_keeps_the_formula():
    gid = "4HPwATDgc/ABMA:MAGgAAAAAAAE"  # the starting position, 5-point match, 0-0
    pos, st, ca = _analyse(gid, True)
    f = cube_advice(ca.probs, CubeInfo.from_state(st), x=cube_efficiency(pos))
    assert (ca.nd, ca.dt, ca.dp) == pytest.approx((f.no_double, f.double_take, f.double_pass), abs=1e-9)
    assert ca.action == "no double"


# XG (4-ply, in Squire-Jorgensen-Harmand-Unger 7 point match 18-08-2024.xg): too good, ND +1.150.  The player on
# roll (cube 2, his; 3-away, 4-away) has four checkers on his ace point, the opponent none off: a double now
# (1/6) wins a gammon, 4 points, the match; any other roll leaves two checkers, the opponent bears one off, and
# the game is won single, 2 points.  So the no-double MWC is exactly 5/6 MWC(+2) + 1/6.
GAMMON_IN_ONE = "3z0lAAAPAAAAAA:UQn3ADAAIAAE"


@pytest.mark.parametrize("depth", [2, 3])
def test_a_game_that_ends_inside_the_lookahead_is_scored_there(depth):
    import numpy as np

    from bgtools.engine.cubeful.cubesearch import CubeSearch

    pos, st = parse_any_id(GAMMON_IN_ONE)
    info = CubeInfo.from_state(st)
    search = CubeSearch()
    board = np.asarray(pos.to_array(), np.int8).reshape(1, 2, 25)
    cash = search._dp(info)  # the opponent passes the redouble: 2 points
    nd = float(search.no_double(board, info, depth)[0])
    # before the fix the game over after a double was played on and won single: nd == cash
    assert nd == pytest.approx(5 / 6 * cash + 1 / 6, abs=1e-6)
    adv = cube_advice_at(pos, st, 2)
    assert adv.no_double == pytest.approx(1.1495, abs=5e-4)  # XG: +1.150
    assert adv.action.startswith("Too good")
