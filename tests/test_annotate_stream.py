"""annotate a game at a time: the summaries summed as the games go by, the outputs written as they
come, the same bytes as the whole analysis, and memory that does not grow with the file; the
values it carries (positions, match states, problems, summaries) kept as values to the edge."""

from __future__ import annotations

import gc
import re
import tracemalloc
from pathlib import Path

import pytest

from bgtools.analysis.analyse import analyse_match
from bgtools.analysis.annotate import AnnotateTask, annotate_file, annotate_files, write_outputs
from bgtools.analysis.records import AnalysisSettings, PlayerSummary
from bgtools.analysis.report import ReportData
from bgtools.analysis.xgpr import XgPr, attach_xg_pr
from bgtools.core.matchstate import MatchState
from bgtools.core.position import Position
from bgtools.formats import read_match
from bgtools.formats.read import FileStream
from bgtools.model.problems import MatchProblem

ROOT = Path(__file__).resolve().parents[1]
MONEY = ROOT / "samples" / "selfplay-money-beavers.mat"
SEVEN = ROOT / "samples" / "selfplay-7pt.mat"
XG = ROOT / "tests" / "data" / "matches" / "realmatches" / "xg-kevung-gbf" / "test.xg"
S0 = AnalysisSettings(ply=0)


@pytest.fixture(autouse=True)
def _cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("BGTOOLS_CACHE_DIR", str(tmp_path / "cache"))


def _session(path: Path, games: int) -> Path:
    """A money session of ``games`` games, repeating those of the sample session."""
    text = MONEY.read_text(encoding="utf-8")
    parts = re.split(r"(?m)^(?= Game \d+\s*$)", text)
    head, bodies = parts[0], [g.split("\n", 1)[1] for g in parts[1:]]
    path.write_text(head + "".join(f" Game {i + 1}\n" + bodies[i % len(bodies)] for i in range(games)),
                    encoding="utf-8")
    return path


def test_totals_summed_as_the_games_go_by_are_those_of_all_the_decisions():
    for path in (SEVEN, MONEY, XG):
        m = read_match(path, keep_steps=True)
        whole = analyse_match(m, settings=S0, cache=None)
        seen: list = []
        streamed = analyse_match(FileStream(path, keep_steps=True), settings=S0, cache=None, keep=False,
                                 on_game=lambda head, game, ds: seen.extend(ds))
        assert streamed.decisions == ()
        assert tuple(seen) == whole.decisions
        assert streamed.players_summary == whole.players_summary
        assert streamed.games == whole.games
        assert streamed.file_comparison == whole.file_comparison
    assert whole.file_comparison is not None  # (the .xg carries XG's analysis: compared game by game)


def test_decisions_carry_values_and_write_their_ids():
    m = read_match(SEVEN, keep_steps=True)
    a = analyse_match(m, settings=S0, cache=None)
    steps = {(s.game_index + 1, s.index): s for s in m.replay()}
    for d in a.decisions[:40]:
        st = steps[(d.game, d.action_index)]
        assert isinstance(d.position, Position) and isinstance(d.state, MatchState)
        assert d.position == st.position and d.state == st.state
        row = d.to_dict()
        assert (row["position_id"], row["match_id"]) == (st.position_id, st.match_id)
        assert "position" not in row and "state" not in row
        assert d.summary_dict()["match_id"] == st.match_id


def test_streamed_outputs_are_the_bytes_of_the_whole_analysis(tmp_path):
    m = read_match(MONEY, keep_steps=True)
    a = attach_xg_pr(m, analyse_match(m, settings=S0, cache=None, label=str(MONEY)))
    want = {f: tmp_path / f"whole.{f}" for f in ("jsonl", "csv", "html")}
    write_outputs(m, a, {f: str(p) for f, p in want.items()})
    got = {f: tmp_path / f"stream.{f}" for f in want}
    res = annotate_file(AnnotateTask(str(MONEY), {f: str(p) for f, p in got.items()}, S0, use_cache=False,
                                     want_lines=True))
    assert set(res.written) == {str(p) for p in got.values()}
    for f in want:
        assert got[f].read_bytes() == want[f].read_bytes(), f
    assert res.lines == tuple(a.json_lines())
    assert res.summary == a.players_summary and all(isinstance(s, PlayerSummary) for s in res.summary)
    assert res.xg_pr == a.xg_pr and all(isinstance(x, XgPr) for x in res.xg_pr)


def test_json_lines_go_to_emit_not_into_the_result():
    task = AnnotateTask(str(SEVEN), {}, S0, use_cache=False, want_lines=True)
    plain = annotate_file(task)
    got: list[str] = []
    [res] = list(annotate_files([task], emit=got.append))
    assert res.lines == () and tuple(got) == plain.lines and len(got) > 10


def test_problems_and_warnings_are_values_written_one_way(tmp_path):
    bad = tmp_path / "bad.mat"
    bad.write_text(" 3 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   42: 8/4 6/4\n"
                   "  2) 31: 24/21 24/23   42: 13/9 13/11\n\n Game 2\n A : 0   B : 0\n  1) 31: 8/5 6/9\n",
                   encoding="utf-8")
    res = annotate_file(AnnotateTask(str(bad), {}, S0, use_cache=False))
    assert res.problems and all(isinstance(p, MatchProblem) for p in res.problems)
    assert all(p.plain().startswith(f"{bad}:") for p in res.problems)
    missing = annotate_file(AnnotateTask(str(tmp_path / "none.mat"), {}, S0, use_cache=False))
    [p] = missing.problems
    assert p.file == str(tmp_path / "none.mat") and p.plain().startswith(f"{tmp_path / 'none.mat'}: ")


def test_a_problem_names_its_file_once():
    assert MatchProblem("x.mat: cannot read", "x.mat").plain() == "x.mat: cannot read"
    assert MatchProblem("cannot read", "x.mat").plain() == "x.mat: cannot read"
    assert MatchProblem("x.mat: odd", "x.mat", line=3).plain() == "x.mat:3: x.mat: odd"


def test_report_keeps_the_largest_errors_in_match_order():
    m = read_match(SEVEN, keep_steps=True)
    a = analyse_match(m, settings=S0, cache=None)
    errs = a.errors
    assert len(errs) > 4
    data = ReportData(max_errors=3)
    data.add(a.decisions)
    keep = set(id(d) for d in sorted(errs, key=lambda d: -d.equity_loss)[:3])
    assert data.shown_errors() == [d for d in errs if id(d) in keep]
    assert data.errors == len(errs)
    assert len(data.win) == sum(d.kind == "checker" and d.win_after is not None for d in a.decisions)


def _peak(path: Path, keep: bool) -> int:
    """Peak Python memory of the analysis of ``path`` (its decisions kept, or let go). A full collection
    after each game empties the interpreter's free lists (of tuples, floats, frames), which otherwise hold
    from a few to several hundred kB by chance and so blur what the decisions take."""
    tracemalloc.start()
    try:
        a = analyse_match(FileStream(path, keep_steps=True), settings=S0, cache=None, keep=keep,
                          on_game=lambda head, game, decisions: gc.collect())
        assert a.players_summary[0].unforced_moves > 0
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_does_not_grow_with_the_file(tmp_path):
    """Three times the games: kept, their decisions take megabytes more; let go, a small part
    of that (the games' summaries)."""
    small, big = _session(tmp_path / "small.mat", 6), _session(tmp_path / "big.mat", 18)
    analyse_match(FileStream(small, keep_steps=True), settings=S0, cache=None)  # (kernels and imports once)
    kept = _peak(big, True) - _peak(small, True)
    let_go = _peak(big, False) - _peak(small, False)
    assert kept > 2_000_000, kept
    assert let_go < kept / 4, (let_go, kept)


def test_a_decision_keeps_what_its_ids_cannot_say():
    """The beaver rule of a money session is in the decision's state (the deep tier of an analysis
    level values a decision with it), not in its Match ID."""
    a = analyse_match(read_match(MONEY, keep_steps=True), settings=S0, cache=None)
    d = a.decisions[0]
    assert d.state.beavers
    assert not MatchState.from_match_id(d.match_id).beavers
