"""Checks across the games of a record (bgtools.model.checks): numbering, scores, games after the end."""

from pathlib import Path

import pytest

from bgtools.formats import read_match
from bgtools.model.checks import record_warnings
from bgtools.model.problems import MatchProblem

DATA = Path(__file__).parent / "data" / "matches"


def mat(length: int, games: list[tuple[int, tuple[int, int], int, int]]) -> tuple[str, list[int]]:
    """A .mat text: ``(number, written score, winner 0/1, points)`` per game; returns the
    text and the line of each ``Game`` header."""
    lines = [f" {length} point match", ""]
    heads = []
    for number, (a, b), winner, points in games:
        lines.append(f" Game {number}")
        heads.append(len(lines))
        lines.append(f" Alice : {a}                      Bob : {b}")
        lines.append("  1) 31: 8/5 6/5                 42: 8/4 6/4")
        win = f"Wins {points} point{'s' if points > 1 else ''}"
        lines.append(("      " if winner == 0 else " " * 39) + win)
        lines.append("")
    return "\n".join(lines) + "\n", heads


def warnings_of(length, games):
    text, heads = mat(length, games)
    m = read_match(text, name="t.mat")
    assert not [e for e in m.errors if not e.is_warning], m.errors  # the games themselves are fine
    return record_warnings(m), heads


def test_a_clean_record_has_no_warnings():
    ws, _ = warnings_of(5, [(1, (0, 0), 0, 1), (2, (1, 0), 1, 2), (3, (1, 2), 0, 3)])
    assert ws == []


def test_games_after_the_match_was_won():
    ws, heads = warnings_of(3, [(1, (0, 0), 0, 1), (2, (1, 0), 0, 2), (3, (3, 0), 1, 1), (4, (3, 1), 1, 1)])
    after = [w for w in ws if "after the match was won" in w.message]
    assert [(w.line, w.game) for w in after] == [(heads[2], 3), (heads[3], 4)]
    assert "won in game 2 (3-0 in a 3-point match)" in after[0].message


def test_duplicated_game_number():
    ws, heads = warnings_of(7, [(1, (0, 0), 0, 1), (2, (1, 0), 1, 1), (2, (1, 1), 0, 1), (3, (2, 1), 0, 1)])
    assert [(w.line, w.message) for w in ws] == [(heads[2], f"game 2 appears twice (first at line {heads[1]})")]


def test_missing_games_and_the_score_that_goes_with_them():
    ws, heads = warnings_of(7, [(1, (0, 0), 0, 1), (4, (1, 2), 0, 1)])
    msgs = {w.line: [] for w in ws}
    for w in ws:
        msgs[w.line].append(w.message)
    assert list(msgs) == [heads[1]]
    assert "games 2 and 3 are missing: game 4 comes after game 1" in msgs[heads[1]]
    assert any("score line says 1-2, but game 1 ended 1-0" in m for m in msgs[heads[1]])


def test_out_of_order_game_numbers():
    ws, heads = warnings_of(7, [(1, (0, 0), 0, 1), (3, (1, 0), 0, 1), (2, (2, 0), 0, 1)])
    assert [w.line for w in ws] == [heads[1], heads[2]]
    assert "game 2 is missing" in ws[0].message and "out of order" in ws[1].message


def test_score_line_that_disagrees_with_the_results():
    # game 2 ended 1-2 (Bob won 2), but game 3 says 2-1: one wrong line, one warning at it
    ws, heads = warnings_of(7, [(1, (0, 0), 0, 1), (2, (1, 0), 1, 2), (3, (2, 1), 0, 1)])
    assert len(ws) == 1
    w = ws[0]
    assert (w.line, w.game, w.file) == (heads[2], 3, "t.mat")
    assert w.message == "the score line says 2-1, but game 2 ended 1-2 (1-0 + 2 for player 2)"
    assert str(w) == f"t.mat:{heads[2]}: warning: game 3: {w.message}"
    assert w.severity == "warning" and w.is_warning and w.to_dict()["severity"] == "warning"


def test_first_game_and_scores_beyond_the_length():
    ws, heads = warnings_of(5, [(1, (2, 1), 0, 1), (2, (3, 1), 0, 2)])
    assert [w.line for w in ws] == [heads[0]]
    assert "game 1 starts at 0-0" in ws[0].message
    ws, heads = warnings_of(5, [(1, (0, 0), 0, 1), (2, (5, 0), 0, 1)])
    assert [w.line for w in ws] == [heads[1], heads[1]]
    assert any("was over before this game" in w.message for w in ws)


def test_money_sessions_have_no_score_checks_but_keep_numbering():
    ws, heads = warnings_of(0, [(1, (0, 0), 0, 1), (2, (0, 0), 1, 1), (2, (0, 0), 1, 1)])
    assert [w.message for w in ws] == [f"game 2 appears twice (first at line {heads[1]})"]


def test_real_records_have_no_warnings():
    for f in ["selfplay/001.mat", "selfplay/007.mat", "realmatches/gnu-gibbon/edited.sgf.gz"]:
        m = read_match(DATA / f)
        assert record_warnings(m) == [], f


def test_severity_is_not_part_of_equality_and_defaults_to_error():
    e = MatchProblem("x", "f", 3)
    w = MatchProblem("x", "f", 3, severity="warning")
    assert e == w and e.severity == "error" and not e.is_warning
    assert "warning" not in str(e) and "severity" not in e.to_dict()
    with pytest.raises(ValueError, match="severity"):
        MatchProblem("x", severity="fatal")


def test_check_reports_the_warnings_of_a_record_on_stderr(tmp_path):
    """`bgtools check` as a user runs it: the record reads (exit 0), the warning names its line."""
    from typer.testing import CliRunner

    from bgtools.cli.app import app

    f = tmp_path / "after.mat"
    f.write_text(" 1 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   42: 8/4 6/4\n"
                 "      Wins 1 point\n Game 2\n A : 1   B : 0\n")
    r = CliRunner().invoke(app, ["check", str(f)])
    assert r.exit_code == 0, r.output
    assert "bgtools: warning: " in r.stderr and "after.mat:6: game 2: game 2 comes after the match was won" in r.stderr
    assert "error" not in r.stderr
    r = CliRunner().invoke(app, ["check", "--json", str(f)])
    import json

    assert json.loads(r.stdout)["warnings"][0]["line"] == 6
