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
