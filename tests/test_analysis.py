"""Match analysis: error classes, invariants of the decisions, luck, cube, agreement with gnubg."""

import gzip
import json
import math
from pathlib import Path

import numpy as np
import pytest

from bgtools.analysis import AnalysisSettings, analyse_match, error_class, luck_class, rating
from bgtools.analysis.analyse import _Analyser
from bgtools.engine.cubeful.cube import CubeInfo
from bgtools.formats import read_match
from bgtools.model import Roll, replay
from bgtools.core.matchstate import MatchState
from bgtools.core.position import Position

DATA = Path(__file__).parent / "data" / "matches"
M002 = DATA / "selfplay" / "002.mat"


@pytest.fixture(scope="module", autouse=True)
def _cache_dir(tmp_path_factory):
    """bgtools' cache folder in a temporary directory (set before the module's fixtures run)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BGTOOLS_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        yield


@pytest.fixture(scope="module")
def m002():
    return read_match(str(M002))


@pytest.fixture(scope="module")
def a002(m002):
    return analyse_match(m002, ply=0, cache=None)


def test_error_classes_follow_gnubg_thresholds():
    assert [error_class(x) for x in (0.0, 0.03, 0.0301, 0.06, 0.0601, 0.12, 0.1201, 2.0)] == [
        "none", "none", "doubtful", "doubtful", "bad", "bad", "very bad", "very bad"]
    assert [luck_class(x) for x in (0.61, 0.31, 0.0, -0.31, -0.61)] == [
        "very lucky", "lucky", "none", "unlucky", "very unlucky"]
    assert rating(0.001) == "Supernatural" and rating(0.010) == "Advanced" and rating(0.5) == "Awful!"


def test_checker_decisions_are_consistent(m002, a002):
    rolls = [s for s in replay(m002) if isinstance(s.action, Roll) and s.action.status in ("play", "dance")]
    checker = [d for d in a002.decisions if d.kind == "checker"]
    assert len(checker) == len(rolls)
    by_key = {f"{m002.source}:{s.game_index + 1}:{s.index}": s for s in rolls}
    for d in checker:
        st = by_key[d.row_key]
        assert d.player == st.action.player and d.dice == f"{max(st.action.dice)}{min(st.action.dice)}"
        if d.forced:
            assert st.legal_plays <= 1 and d.equity_loss == 0.0 and not d.counted
            continue
        assert st.legal_plays > 1 and d.legal_plays == st.legal_plays
        c = d.candidates
        assert d.played == st.play.notation() == c[d.played_index].move
        assert d.best == c[0].move
        assert all(c[0].equity >= x.equity - 1e-12 for x in c)
        assert d.equity_loss == pytest.approx(c[0].equity - c[d.played_index].equity)
        assert d.equity_loss >= 0 and d.error_class == error_class(d.equity_loss)
        assert 0.0 <= d.win_after <= 1.0 and 0.0 <= d.mwc_after <= 1.0
        # match play: the MWC loss has the sign and order of the normalised loss
        assert d.mwc_loss >= 0 and (d.mwc_loss > 0) == (d.equity_loss > 0)


def test_cube_decisions_and_answers(a002):
    cube = [d for d in a002.decisions if d.kind == "cube"]
    doubles = [d for d in cube if d.played == "double"]
    answers = [d for d in cube if d.played in ("take", "pass")]
    assert len(doubles) == 2 and len(answers) == 2  # 002.mat: two doubles, both taken
    for d in doubles:
        c = d.cube
        assert d.equity_loss == pytest.approx(max(c.nd, min(c.dt, c.dp)) - min(c.dt, c.dp))
        assert c.dp == pytest.approx(1.0)  # normalised: a pass wins the cube's worth
    for d in answers:
        c = d.cube
        assert d.played == "take"
        assert d.equity_loss == pytest.approx(c.dt - min(c.dt, c.dp))
        assert d.best == c.response
    for d in cube:
        if d.played == "no double":
            assert d.equity_loss == pytest.approx(max(0.0, min(d.cube.dt, d.cube.dp) - d.cube.nd))
            assert d.counted == (min(d.cube.dt, d.cube.dp) >= d.cube.nd - 0.16 or d.cube.action != "no double")


def test_summaries_count_the_decisions(a002):
    for s in a002.players_summary:
        mine = [d for d in a002.decisions if d.player == s.player]
        moves = [d for d in mine if d.kind == "checker" and not d.forced]
        assert s.unforced_moves == len(moves)
        assert s.checker_loss == pytest.approx(sum(d.equity_loss for d in moves))
        n_err = sum(d.error_class != "none" for d in moves)
        assert sum(s.checker_errors.values()) == n_err
        cubes = [d for d in mine if d.kind == "cube" and d.counted]
        assert s.cube_decisions == len(cubes)
        assert s.pr == pytest.approx(500 * (s.checker_loss + s.cube_loss) / (len(moves) + len(cubes)))
        assert s.luck == pytest.approx(sum(d.luck for d in mine if d.luck is not None))
        assert sum(sum(v.values()) for v in s.errors_by_phase.values()) == n_err + sum(s.cube_errors.values())
    a, b = a002.players_summary
    assert a.result == pytest.approx(-b.result)  # one player's MWC gain is the other's loss
    assert a.luck_adjusted == pytest.approx(a.result - a.luck_mwc)


@pytest.mark.parametrize("match_state", [None, MatchState(match_length=7, score=(2, 4), cube=2, cube_owner=0,
                                                             player_on_roll=0, dice=(3, 1))])
def test_luck_averages_to_zero_over_all_rolls(match_state):
    from bgtools.core.movegen import ROLLS

    an = _Analyser(None, AnalysisSettings(ply=0), None)
    pos = Position.from_id("OFfwATDMTvABMA")
    c = CubeInfo.from_state(match_state)
    lucks = [an.luck(pos, r, c, False) for r in ROLLS]
    w = np.array([1.0 if a == b else 2.0 for a, b in ROLLS]) / 36.0
    assert abs(float(w @ np.array([x for x, _ in lucks]))) < 1e-9
    assert max(x for x, _ in lucks) > 0 > min(x for x, _ in lucks)
    if match_state is not None:
        assert abs(float(w @ np.array([y for _, y in lucks]))) < 1e-9


def test_money_session_losses_are_per_unit_cube():
    m = read_match(str(DATA / "selfplay" / "005.mat"))
    assert m.length == 0
    a = analyse_match(m, ply=0, cache=None)
    assert all(d.mwc_loss is None for d in a.decisions)
    # a candidate's normalised equity = minus the opponent's best cubeful money value after the
    # play (he is on roll, cube seen from him), divided by the cube: recomputed via bgtools.engine.cubeful.cube
    from bgtools.engine.cubeful.cube import CubeInfo, cube_decision, cube_efficiency
    from bgtools.engine.evaluation import invert_probs
    from bgtools.core.movegen import legal_plays

    cubed = [d for d in a.decisions if d.kind == "checker" and not d.forced
             and MatchState.from_match_id(d.match_id).cube > 1]
    assert cubed
    for d in cubed[:4]:
        st = MatchState.from_match_id(d.match_id)
        me = st.player_on_roll
        owner_opp = 0 if st.cube_owner < 0 else (2 if st.cube_owner == me else 1)
        pos = Position.from_id(d.position_id)
        after = {p.notation(): p.after for p in legal_plays(pos, (int(d.dice[0]), int(d.dice[1])))}
        c = d.candidates[0]
        opp = cube_decision(invert_probs(np.array(c.probs)), CubeInfo(st.cube, owner_opp),
                            x=cube_efficiency(after[c.move]))
        v = opp.nd if opp.action == "unavailable" else max(opp.nd, min(opp.dt, opp.dp))
        assert c.equity == pytest.approx(-v / st.cube, abs=1e-9)
    assert a.players_summary[0].result == -a.players_summary[1].result


def test_agrees_with_gnubg_recorded_analysis_at_0_ply():
    """gnubg 0-ply analysed 010 (players with evaluation noise); our 0-ply net should see
    the same big errors: measured 71 % same class, correlation 0.65 with the 200k-game net
    (benchmarks/annotate_vs_gnubg.py)."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from annotate_vs_gnubg import gnubg_move_loss

    text = gzip.decompress((DATA / "selfplay" / "010-analysed.sgf.gz").read_bytes()).decode()
    m = read_match(text, name="010-analysed.sgf")
    a = analyse_match(m, ply=0, cache=None)
    ours, theirs = [], []
    for d in a.decisions:
        if d.kind == "checker" and not d.forced:
            gl = gnubg_move_loss(m.games[d.game - 1].notes[d.action_index])
            assert gl is not None
            ours.append(d.equity_loss)
            theirs.append(gl[0])
    assert len(ours) == 147
    r = float(np.corrcoef(ours, theirs)[0, 1])
    same = np.mean([error_class(x) == error_class(y) for x, y in zip(ours, theirs)])
    assert r > 0.5 and same > 0.55, (r, same)


def test_cache_makes_the_second_run_hit(m002, tmp_path):
    from bgtools.analysis.evalcache import EvalStore

    s = AnalysisSettings(ply=1, cube=False)
    game = type(m002)(m002.players, m002.length, m002.games[:1], source=m002.source)
    with EvalStore(tmp_path / "e.sqlite") as cache:
        first = analyse_match(game, settings=s, cache=cache)
        assert first.cache_misses > 0 and first.cache_hits == 0
        n = len(cache)
    with EvalStore(tmp_path / "e.sqlite") as cache:
        second = analyse_match(game, settings=s, cache=cache)
        assert second.cache_misses == 0 and second.cache_hits == first.cache_misses
        assert len(cache) == n
    assert [(d.row_key, d.kind, d.best, round(d.equity_loss, 12)) for d in first.decisions] == \
        [(d.row_key, d.kind, d.best, round(d.equity_loss, 12)) for d in second.decisions]
    # 1-ply changes the ranking depth: candidates kept by the filter carry ply 1
    assert any(c.ply == 1 for d in first.decisions for c in d.candidates)


def test_rows_join_onto_export(m002, a002):
    from bgtools.export import to_dataframe

    ex = to_dataframe([m002])
    an = a002.to_dataframe()
    assert an["row_key"].is_unique
    j = an.merge(ex, on="row_key", how="left", validate="one_to_one", suffixes=("", "_export"))
    assert j["action"].notna().all()
    rolls = j[j["checker_played"].notna() & (j["checker_played"] != "")]
    assert (rolls["checker_played"] == rolls["move"]).all()
    assert set(j.loc[j["cube_played"] == "double", "action"]) == {"double"}
    assert set(j.loc[j["cube_played"] == "take", "action"]) == {"take"}


def test_json_lines_have_the_documented_fields(a002):
    lines = [json.loads(x) for x in a002.json_lines()]
    assert lines and all({"game", "move_number", "player", "kind", "dice", "played", "best", "equity_loss",
                          "error_class", "row_key"} <= set(x) for x in lines)
    assert {x["kind"] for x in lines} == {"checker", "cube"}
    assert all(x["dice"] is None for x in lines if x["kind"] == "cube")
    assert len(a002.json_lines(all_rows=True)) == len(a002.decisions) > len(lines)
    assert all(not math.isnan(x["equity_loss"]) for x in lines)


def test_money_rules_of_the_file_reach_the_cube_analysis():
    """Jacoby from the file's header: cube decisions with the cube centred count gammons
    single (values equal to the cube formulas with Jacoby on), and they differ from the
    same session read without the rule."""
    from bgtools.engine.cubeful.cube import CENTRED
    from bgtools.engine.cubeful.cubeaction import money_cubeful
    from bgtools.engine.cubeful.cube import cube_efficiency

    text = (DATA / "selfplay" / "005.mat").read_text()
    plain = read_match(text)
    jac = read_match('; [Jacoby "On"]\n' + text)
    assert jac.jacoby and not plain.jacoby
    a_plain = analyse_match(plain, ply=0, cache=None)
    a_jac = analyse_match(jac, ply=0, cache=None)
    centred = [d for d in a_jac.decisions if d.kind == "cube" and d.cube is not None
               and MatchState.from_match_id(d.match_id).cube_owner < 0]
    assert centred
    for d in centred[:6]:
        pos = Position.from_id(d.position_id)
        assert d.cube.nd == pytest.approx(money_cubeful(d.cube.probs, CENTRED, cube_efficiency(pos), jacoby=True))
    by_key = {d.row_key: d for d in a_plain.decisions if d.kind == "cube"}
    assert any(abs(by_key[d.row_key].cube.nd - d.cube.nd) > 1e-6 for d in centred if d.row_key in by_key)


def test_a_take_where_a_beaver_was_right_is_an_error_when_beavers_are_allowed():
    from bgtools.core.matchstate import parse_any_id

    # gnubg 0-ply: "No redouble, beaver"-class position for the doubler (he is a big underdog)
    pos = Position.from_id("bHfAAwKYtwMAbA")
    an = _Analyser(None, AnalysisSettings(ply=0), None)
    _, st = parse_any_id("bHfAAwKYtwMAbA:cAkAAAAAAAAA")  # money, cube centred
    with_b = CubeInfo.from_state(st).with_rules(beavers=True)
    without = CubeInfo.from_state(st).with_rules(beavers=False)
    ca_b = an.cube_analysis(pos, with_b)
    ca = an.cube_analysis(pos, without)
    assert ca.dt < 0.0 and ca.response == "take" and ca.action == "no double"
    assert ca_b.response == "beaver" and ca_b.doubled == pytest.approx(2.0 * ca.dt)
    # the loss of a plain take when the taker could beaver, and none for the beaver
    assert ca_b.answer_value("take") - ca_b.doubled == pytest.approx(-ca.dt)
    assert ca_b.answer_value("beaver") - ca_b.doubled == 0.0
