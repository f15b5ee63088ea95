"""XG's PR convention (bgtools.analysis.xgpr, ``annotate --pr xg``): XG's PR rebuilt from an analysed
.xg file against the same figure counted here from XG's stored equities, and bgtools' PR in XG's
convention on a hand-made analysis."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.analysis import xgpr
from bgtools.analysis.records import AnalysisSettings, Candidate, CubeAnalysis, Decision, MatchAnalysis
from bgtools.cli.app import app
from bgtools.core.matchstate import MatchState
from bgtools.core.position import Position
from bgtools.formats import read_match
from bgtools.model.game import Beaver, Double, Drop, Roll, Take

XG = Path(__file__).parent / "data" / "matches" / "realmatches" / "xg-kevung-gbf" / \
    "charlot1-charlot2_7p_2025-11-08-2305.xg"


def _counted_here(match) -> list[list]:
    """XG's PR per player from the file, written out here from the spec's rules
    (../shared/spec/xg-analysis.md), action by action: [total loss, decisions, checker, cube]."""
    out = [[0.0, 0, 0, 0], [0.0, 0, 0, 0]]
    for g in match.games:
        for a in g.actions:
            an = a.analysis if hasattr(a, "analysis") else None
            if an is None:
                continue
            row = out[a.player]
            if isinstance(a, Roll) and an.error is not None and len(an.candidates) > 1:
                eqs = sorted((c.equity for c in an.candidates), reverse=True)
                if eqs[0] - eqs[-1] >= 0.0001:
                    row[0] += an.candidates[0].equity - an.candidates[an.played].equity if an.played >= 0 \
                        else an.error
                    row[1] += 1
                    row[2] += 1
            if isinstance(a, (Roll, Double)) and None not in (an.no_double, an.double_take, an.double_pass,
                                                               an.cube_error):
                nd, dt, dp = an.no_double, an.double_take, an.double_pass
                trivial = abs(nd - min(dt, dp)) < 0.001 or nd - dt > 0.2 or nd - dp > 0.2 or max(nd, dt) < -0.9
                if not trivial or an.cube_error >= 0.001:
                    row[0] += an.cube_error
                    row[1] += 1
                    row[3] += 1
            if isinstance(a, (Take, Drop, Beaver)) and None not in (an.take_error, an.double_take, an.double_pass):
                if abs(an.double_take - an.double_pass) >= 0.001:
                    row[0] += an.take_error
                    row[1] += 1
                    row[3] += 1
    return out


def test_xgs_pr_rebuilt_from_an_analysed_xg_file():
    m = read_match(str(XG))
    here = _counted_here(m)
    got = xgpr.xg_file_pr(m)
    for p in (0, 1):
        assert got[p][1] == here[p][1]
        assert got[p][0] == pytest.approx(here[p][0], abs=1e-9)
        # obvious decisions are left out: fewer counted than the file's analysed actions
        analysed = sum(getattr(a, "analysis", None) is not None and a.player == p for g in m.games for a in g.actions)
        assert 0 < got[p][1] < analysed
        assert here[p][2] > 0 and here[p][3] > 0  # both kinds are counted
    # this match's XG PRs (a strong pair: well under 1) from its stored equities
    assert [round(xgpr.pr_of(t), 2) for t in got] == [round(500 * t / n, 2) for t, n, *_ in here]
    assert all(xgpr.pr_of(t) < 1.0 for t in got)


def _cand(move: str, eq: float) -> Candidate:
    return Candidate(move, (0.5, 0.1, 0.0, 0.1, 0.0), eq, None, 2)


def _decision(i: int, player: int, kind: str, played: str, loss: float, **kw) -> Decision:
    base = dict(row_key=f"m:1:{i}", game=1, action_index=i, move_number=i, player=player, player_name=f"p{player}",
                kind=kind, dice="31" if kind == "checker" else None, played=played, best=played,
                equity_loss=loss, error_class="none", phase="contact", position=Position.from_id("4HPwATDgc/ABMA"),
                state=MatchState.from_match_id("cAkAAAAAAAAA"))
    base.update(kw)
    return Decision(**base)  # type: ignore[arg-type]


def test_our_pr_in_xgs_convention_on_a_hand_made_analysis():
    ds = (
        # player 0: a play with spread candidates, 0.04 lost: counted
        _decision(0, 0, "checker", "b", 0.04, candidates=(_cand("a", 0.10), _cand("b", 0.06)), played_index=1),
        # player 0: candidates within 1e-4: left out by XG (counted by bgtools)
        _decision(1, 0, "checker", "a", 0.0, candidates=(_cand("a", 0.10), _cand("b", 0.09995)), played_index=0),
        # player 0: a forced play: never counted
        _decision(2, 0, "checker", "a", 0.0, forced=True, counted=False),
        # player 1: a no double far from doubling (ND - DT 0.5), nothing lost: trivial, left out
        _decision(3, 1, "cube", "no double", 0.0,
                  cube=CubeAnalysis((), 0.3, -0.2, 1.0, "no double", "take")),
        # player 1: a close no double, nothing lost: counted
        _decision(4, 1, "cube", "no double", 0.0, cube=CubeAnalysis((), 0.5, 0.45, 1.0, "no double", "take")),
        # player 0: a wrong double of the same kind of trivial position: counted (0.5 lost)
        _decision(5, 0, "cube", "double", 0.5, cube=CubeAnalysis((), 0.3, -0.2, 1.0, "no double", "take")),
        # player 1: a take with DT and DP apart: counted; one with them within 0.001: left out
        _decision(6, 1, "cube", "take", 0.0, cube=CubeAnalysis((), 0.3, 0.8, 1.0, "double", "take")),
        _decision(7, 1, "cube", "take", 0.0, cube=CubeAnalysis((), 0.3, 0.9995, 1.0, "double", "take")),
    )
    a = MatchAnalysis("m", ("p0", "p1"), 7, ds, (), (), AnalysisSettings(), "test")
    assert [xgpr.counted_xg(d) for d in ds] == [True, False, False, False, True, True, True, False]
    (t0, n0), (t1, n1) = xgpr.pr_xg_convention(a)
    assert (n0, n1) == (2, 2)
    assert t0 == pytest.approx(0.54) and t1 == 0.0
    assert xgpr.pr_of((t0, n0)) == pytest.approx(135.0)
    assert xgpr.pr_of((0.0, 0)) is None


def test_annotate_pr_xg_shows_both_conventions(tmp_path):
    r = CliRunner().invoke(app, ["annotate", str(XG), "--pr", "xg", "--level", "fast", "--no-cache"])
    assert r.exit_code == 0, r.output
    m = read_match(str(XG))
    file_pr = [xgpr.pr_of(t) for t in xgpr.xg_file_pr(m)]
    lines = [x for x in r.output.splitlines() if "PR in XG's convention" in x]
    assert len(lines) == 2
    for line, pr in zip(lines, file_pr):
        assert f"XG's own PR rebuilt from the file {pr:.1f}" in line
    assert "level fast" in r.output
    r = CliRunner().invoke(app, ["annotate", str(XG), "--pr", "XG"])
    assert r.exit_code == 2 and "--pr XG" in r.output
    r = CliRunner().invoke(app, ["annotate", str(XG), "--json", "--pr", "xg", "--ply", "0", "--no-cache"])
    assert r.exit_code == 0 and '"xg_counted": ' in r.output
