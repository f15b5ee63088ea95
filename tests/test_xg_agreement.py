"""benchmarks/xg_agreement.py: its measures on a hand-made match whose XG analysis and
bgtools analysis are written out here (neither the net nor the shared files are needed)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from bgtools.analysis import xgpr
from bgtools.analysis.records import AnalysisSettings, Candidate, CubeAnalysis, Decision, MatchAnalysis
from bgtools.core.matchstate import MatchState
from bgtools.core.position import Position
from bgtools.model.fileanalysis import Candidate as XGCandidate
from bgtools.model.fileanalysis import FileAnalysis
from bgtools.model.game import Double, Roll, Take

ROOT = Path(__file__).resolve().parents[1]


def _module():
    sys.path.insert(0, str(ROOT))
    spec = importlib.util.spec_from_file_location("xg_agreement", ROOT / "benchmarks" / "xg_agreement.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


xa = _module()
START = Position.initial()
P = (0.5, 0.1, 0.0, 0.1, 0.0)


STATE = MatchState.from_match_id("cAkAAAAAAAAA")


def _cand(move, steps, eq):
    return Candidate(move, P, eq, None, 2, steps)


def _checker(i, dice, cands, player=0, loss=0.0, played=0):
    return Decision(f"m:1:{i}", 1, i, i + 1, player, "AB"[player], "checker", dice, cands[played].move, cands[0].move,
                    loss, "none", "contact", START, STATE, candidates=tuple(cands),
                    played_index=played, legal_plays=len(cands) + 10)


def _cube(i, played, nd, dt, dp, player=0, loss=0.0):
    ca = CubeAnalysis(P, nd, dt, dp, "no double", "take")
    return Decision(f"m:1:{i}", 1, i, i + 1, player, "AB"[player], "cube", None, played, "no double", loss, "none",
                    "contact", START, STATE, cube=ca)


def _xg(cands, played=0, error=0.0, **cube):
    return FileAnalysis("xg", "4-ply", candidates=tuple(XGCandidate(s, e) for s, e in cands), played=played,
                        error=error, **cube)


def _hand_made():
    """Four plays from the starting position (their positions are what counts, not legality
    of the sequence) and a double answered by a take."""
    r31 = [((8, 5), (6, 5)), ((24, 23), (13, 10)), ((13, 10), (6, 5))]
    r42 = [((8, 4), (6, 4)), ((24, 20), (13, 11)), ((13, 9), (13, 11))]
    actions = [
        # XG and we agree; XG's gap 0.01
        Roll(0, (3, 1), r31[0], analysis=_xg([(r31[0], 0.15), (r31[1], 0.14)])),
        # XG's first is our second; ours is XG's second, 0.03 worse (and the player made ours)
        Roll(1, (4, 2), r42[0], analysis=_xg([(r42[1], 0.10), (r42[0], 0.07), (r42[2], 0.02)], played=1)),
        # XG does not list our best; the player made it and XG counts 0.08 for it
        Roll(0, (3, 1), r31[2], analysis=_xg([(r31[1], 0.20), (r31[0], 0.19)], played=-1, error=0.08)),
        # a no double before a roll that XG counts, and a play it leaves out (its candidates within 1e-4)
        Roll(1, (4, 2), r42[0], analysis=_xg([(r42[0], 0.3), (r42[1], 0.29995)], no_double=0.50, double_take=0.60,
                                               double_pass=1.0, cube_error=0.10)),
        Double(0, 2, analysis=FileAnalysis("xg", "4-ply", no_double=0.40, double_take=0.30, double_pass=1.0,
                                           cube_error=0.10)),
        Take(1, analysis=FileAnalysis("xg", "4-ply", no_double=0.40, double_take=0.30, double_pass=1.0,
                                      take_error=0.0)),
    ]
    match = SimpleNamespace(length=7, games=[SimpleNamespace(actions=actions)])
    decisions = [
        _checker(0, "31", [_cand("8/5 6/5", r31[0], 0.2), _cand("24/23 13/10", r31[1], 0.1)]),
        _checker(1, "42", [_cand("8/4 6/4", r42[0], 0.2), _cand("24/20 13/11", r42[1], 0.15)], player=1),
        _checker(2, "31", [_cand("13/10 6/5", r31[2], 0.3), _cand("8/5 6/5", r31[0], 0.25)], loss=0.05, played=0),
        # we hold (ND 0.60 > DT 0.55) where XG doubles (DT 0.6 > ND 0.5); then we double where XG holds
        _cube(3, "no double", 0.60, 0.55, 1.0, player=1),
        _checker(3, "42", [_cand("8/4 6/4", r42[0], 0.2), _cand("24/20 13/11", r42[1], 0.19995)], player=1),
        _cube(4, "double", 0.50, 0.70, 1.0, loss=0.0),
        _cube(5, "take", 0.50, 0.70, 1.0, player=1),
    ]
    analysis = MatchAnalysis("m.xg", ("A", "B"), 7, tuple(decisions), (), (), AnalysisSettings(), "net")
    return match, analysis


def test_cube_actions_costs_and_xgs_counting_rules():
    assert xgpr.cube_action(0.5, 0.7, 1.0) == "double/take"
    assert xgpr.cube_action(0.5, 1.2, 1.0) == "double/pass"
    assert xgpr.cube_action(1.1, 1.4, 1.0) == "too good"
    assert xgpr.cube_action(0.5, 0.4, 1.0) == "no double"
    # XG's cost of an action by XG's equities: the doubler's loss plus the taker's
    assert xgpr.cube_cost("double/take", 0.6, 0.4, 1.0) == pytest.approx(0.2)
    assert xgpr.cube_cost("no double", 0.5, 0.7, 1.0) == pytest.approx(0.2)
    assert xgpr.cube_cost("double/take", 0.5, 1.2, 1.0) == pytest.approx(0.2)  # a wrong take: 1.2 - 1.0
    assert xgpr.cube_cost("double/pass", 0.5, 0.7, 1.0) == pytest.approx(0.3)  # a wrong pass
    assert xgpr.cube_cost("too good", 1.1, 1.4, 1.0) == 0.0
    assert not xgpr.counts_doubling(0.5, 0.5005, 1.0, 0.0)  # ND within 0.001 of doubling, nothing lost
    assert xgpr.counts_doubling(0.5, 0.5005, 1.0, 0.002)  # the same, but a loss counts
    assert not xgpr.counts_doubling(0.2, -0.3, 1.0, 0.0)  # far from doubling
    assert not xgpr.counts_doubling(-0.95, -0.99, 1.0, 0.0)  # hopeless
    assert xgpr.counts_doubling(0.5, 0.45, 1.0, 0.0)
    assert xgpr.counts_answer(0.9, 1.0) and not xgpr.counts_answer(0.9995, 1.0)
    assert [xa.gap_bucket(g) for g in (0.0, 0.005, 0.03, 0.05, 1.0)] == ["< 0.005", "0.005-0.02", "0.02-0.05",
                                                                          ">= 0.05", ">= 0.05"]


def test_checker_rows_same_play_gap_and_xgs_cost_of_our_play():
    match, analysis = _hand_made()
    rows = xa.checker_rows(match, analysis)
    assert [r["same"] for r in rows] == [True, False, False, True]
    assert [r["bucket"] for r in rows] == ["0.005-0.02", "0.02-0.05", "0.005-0.02", "< 0.005"]
    assert rows[0]["xg_cost"] == 0.0
    assert rows[1]["xg_cost"] == pytest.approx(0.03) and rows[1]["xg_best"] == "24/20 13/11"
    assert rows[2]["xg_cost"] is None  # XG does not list 13/10 6/5
    s = xa.checker_summary(rows)
    assert s["plays"] == 4 and s["same"] == 2 and s["listed"] == 3
    assert s["advice_pr"] == pytest.approx(500 * 0.03 / 3)
    assert s["by_gap"]["0.005-0.02"] == (1, 2)


def test_cube_rows_compare_the_doublers_decisions_xg_counts():
    match, analysis = _hand_made()
    rows = xa.cube_rows(match, analysis)
    assert [r["played"] for r in rows] == ["no double", "double"]  # the take shares the double's position
    nd_row, dbl = rows
    assert nd_row["xg_action"] == "double/take" and nd_row["our_action"] == "no double" and not nd_row["same"]
    assert nd_row["xg_cost"] == pytest.approx(0.1) and nd_row["counted"]
    assert dbl["xg_action"] == "no double" and dbl["our_action"] == "double/take"
    assert dbl["xg_cost"] == pytest.approx(0.1)
    s = xa.cube_summary(rows)["match"]
    assert s["counted"] == 2 and s["same"] == 0
    assert s["we_double_xg_holds"] == (1, 1) and s["we_hold_xg_doubles"] == (1, 1)
    assert xa.cube_summary(rows)["money"]["counted"] == 0


def test_xgs_pr_rebuilt_from_the_file_and_ours_in_its_convention():
    match, analysis = _hand_made()
    # player 0: the 31 (0 lost), the second 31 (XG's stored error 0.08: its play is not listed), the
    # double (0.10); player 1: the 42 (0.03 by XG's list), the no double (0.10), the take (0)
    # and not the last 42 (XG's candidates within 1e-4)
    (t0, n0), (t1, n1) = xgpr.xg_file_pr(match)
    assert (n0, n1) == (3, 3)
    assert t0 == pytest.approx(0.18) and t1 == pytest.approx(0.13)
    assert xgpr.pr_of((t0, n0)) == pytest.approx(500 * 0.18 / 3)
    (o0, m0), (o1, m1) = xgpr.pr_xg_convention(analysis)
    assert (m0, m1) == (3, 3)  # player 1's last 42 spans 5e-5: left out; his no double (ND-DT 0.05) counts
    assert o0 == pytest.approx(0.05) and o1 == 0.0
    lines = xa.report([{"file": "m.xg", "length": 7, "checker": xa.checker_rows(match, analysis),
                        "cube": xa.cube_rows(match, analysis),
                        "players": xa.file_result(match, analysis)["players"]}], top=3)
    assert any(line.startswith("same best checker play:  50.0% (2/4)") for line in lines)
