"""Records gnubg reads that bgtools used to reject (issue 38, items 1-3): resignations written
as the points the winner needed, a score line with an empty player name, a move line whose
right-hand column repeats the move number.

Each file is small and written here in the shape of the real ones (Backgammon Galaxy's
columns); what gnubg 1.07 rebuilt from each (``import mat``) is stored beside it and, where
gnubg is installed, checked against gnubg itself.
"""

from __future__ import annotations

import warnings

import pytest

from bgtools.formats import read_match
from bgtools import MatchWarning
from bgtools.model import match_summary
from bgtools.model.game import Resign

from gnubg_import import GNUBG, gnubg_counts

HEAD = ('; [Site "BackgammonGalaxy"]\n; [Player 1 "klara"]\n; [Player 2 "lasse"]\n\n{n} point match\n\n'
        " Game 1\n klara : {a}                       lasse : {b}\n"
        "  1)                             41: 13/9 24/23\n"
        "  2) 44: 24/20 20/16 6/2 6/2     65: 25/20\n")
DOUBLE = "  3)                              Doubles => 2\n  4)  Takes\n"


def _file(n: int, a: int, b: int, body: str) -> str:
    return HEAD.format(n=n, a=a, b=b) + body


#: name -> (text, gnubg's (winner, points) of each game, final score, what bgtools says about the
#: result line: None = nothing, else a word of the warning).  Winner 0/1 = first/second named.
RESIGNATIONS = {
    # Galaxy: "Wins 3 point and the match" with the cube at 2 and 3 points needed: a gammon (4)
    "needed_3_cube_2": (_file(5, 0, 2, DOUBLE + "                                  Wins 3 point and the match\n"),
                        [(1, 4)], [0, 6], None),
    # the points needed, not a multiple of the cube, and not the match: read up to a backgammon
    "5_on_cube_2": (_file(9, 0, 0, DOUBLE + "                                  Wins 5 point\n"), [(1, 6)], [0, 6],
                    "backgammon"),
    "7_on_cube_2": (_file(9, 0, 0, DOUBLE + "                                  Wins 7 point\n"), [(1, 6)], [0, 6],
                    "backgammon"),
    "1_on_cube_2": (_file(9, 0, 0, DOUBLE + "                                  Wins 1 point\n"), [(1, 2)], [0, 2],
                    "single"),
    # "wins 4 point(s) by resignation ... cube (1)" on an "and the match" line: 4 needed, gnubg
    # reads a backgammon (3): the match is left at 6-0 of 7, as gnubg leaves it
    "4_and_the_match_cube_1": (_file(7, 0, 3, "                                  Wins 4 point and the match\n"),
                               [(1, 3)], [0, 6], "backgammon"),
    "4_on_cube_1": (_file(7, 0, 0, "                                  Wins 4 point\n"), [(1, 3)], [0, 3],
                    "backgammon"),
    # written as the points needed and a multiple of the cube: nothing to say
    "needed_1_match": (_file(5, 0, 4, "                                  Wins 1 point and the match\n"),
                       [(1, 1)], [0, 5], None),
    "needed_2_match": (_file(5, 0, 3, "                                  Wins 2 point and the match\n"),
                       [(1, 2)], [0, 5], None),
}


def _read(text: str):
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        m = read_match(text)
    return m, [str(w.message) for w in got if issubclass(w.category, MatchWarning)]


@pytest.mark.parametrize("name", sorted(RESIGNATIONS))
def test_resignation_points_read_as_gnubg_does(name):
    text, results, final, warn = RESIGNATIONS[name]
    m, warned = _read(text)
    assert m.errors == [], [str(e) for e in m.errors]
    assert [(g.result.winner, g.result.points) for g in m.games] == results
    assert list(m.final_score) == final
    g = m.games[-1]
    res = [a for a in g.actions if isinstance(a, Resign)]
    assert len(res) == 1 and res[0].player == 0 and res[0].level * (2 if DOUBLE in text else 1) == results[-1][1]
    if warn is None:
        assert warned == []
    else:
        assert len(warned) == 1 and warn in warned[0] and "by resignation" in warned[0], warned
        assert f":{13 if DOUBLE in text else 11}:" in warned[0]  # the result line


def test_bearoff_points_written_otherwise_is_a_warning_not_an_error():
    # the board says a single (1 point), the file says 2: gnubg scores the board, and so does
    # bgtools, so both agree on the score; the written number is reported, not an error
    body = [" 3 point match", "", " Game 1", " A : 0                        B : 0"]
    # a bear-off race set up with an XG board edit: A has one checker left on the 1-point
    body.append("; Set Pos=-A" + "-" * 17 + "bbbbcc-/0")
    body.append("  1) 21: 1/off                   ")
    body.append("      Wins 2 points")
    m, warned = _read("\n".join(body) + "\n")
    assert m.errors == [], [str(e) for e in m.errors]
    assert (m.games[0].result.winner, m.games[0].result.points) == (0, 1)
    assert len(warned) == 1 and "board and the cube give 1" in warned[0]


def test_points_written_otherwise_after_a_drop_is_a_warning_not_an_error():
    # a double dropped at 1: the file says 2, gnubg (and bgtools) count the cube before the double
    text = (" 5 point match\n\n Game 1\n Alice : 0                          Bob : 0\n"
            "  1) 31: 8/5 6/5                    64: 24/18 13/9\n"
            "  2)  Doubles => 2                   Drops\n"
            "      Wins 2 points\n")
    m, warned = _read(text)
    assert m.errors == [] and (m.games[0].result.winner, m.games[0].result.points) == (0, 1)
    assert len(warned) == 1 and "dropped cube gives 1" in warned[0] and ":7:" in warned[0]


def _names_file(first: str, second: str) -> str:
    return ('; [Site "BackgammonGalaxy"]\n\n3 point match\n\n'
            f" Game 1\n {first} : 0                        {second} : 0\n"
            "  1) 31: 8/5 6/5                 64: 24/18 13/9\n"
            "                                  Wins 1 point\n\n"
            f" Game 2\n {first} : 0                        {second} : 1\n"
            "  1) 31: 8/5 6/5                 64: 24/18 13/9\n")


def test_score_line_with_an_empty_player_name():
    # Galaxy writes " someone : 0                        : 0" for a deleted account
    m = read_match(_names_file("someone", ""))
    assert m.errors == [], [str(e) for e in m.errors]
    assert m.players == ("someone", "")
    assert [g.score for g in m.games] == [(0, 0), (0, 1)]
    assert match_summary(m)["final_score"] == [0, 1] and len(m.games) == 2 and m.plays == 4
    # the first name empty too (gnubg itself stops on that one)
    m = read_match(_names_file("", "other"))
    assert m.errors == [] and m.players == ("", "other") and [g.score for g in m.games] == [(0, 0), (0, 1)]


REPEATED = ('; [Site "BackgammonGalaxy"]\n\n5 point match\n\n'
            " Game 1\n klara : 0                       lasse : 0\n"
            "  1)                             41: 13/9 24/23\n"
            " 2) 43: 13/9 13/10   2)  Losses 1 point\n"
            "                                  Wins 1 point\n")


def test_right_column_repeating_the_move_number_keeps_the_left_play_and_warns():
    m, warned = _read(REPEATED)
    assert m.errors == [], [str(e) for e in m.errors]
    g = m.games[0]
    rolls = [a for a in g.actions if a.__class__.__name__ == "Roll"]
    assert [(r.player, r.dice, r.steps) for r in rolls] == [(1, (4, 1), ((13, 9), (24, 23))),
                                                            (0, (4, 3), ((13, 9), (13, 10)))]
    assert (g.result.winner, g.result.points, g.result.how) == (1, 1, "resign")
    assert len(warned) == 1 and ":8:" in warned[0] and "2) and a 'Losses' cell" in warned[0], warned


@pytest.mark.gnubg
@pytest.mark.skipif(GNUBG is None, reason="gnubg is not installed")
def test_these_files_as_gnubg_itself_reads_them(tmp_path):
    files = {name: t for name, (t, *_rest) in RESIGNATIONS.items()}
    files["empty_second_name"] = _names_file("someone", "")
    files["repeated"] = REPEATED
    paths = {}
    for name, text in files.items():
        p = tmp_path / f"{name}.mat"
        p.write_text(text)
        paths[name] = str(p)
    got = gnubg_counts(list(paths.values()))
    for name, p in paths.items():
        g = got[p]
        assert "error" not in g, (name, g)
        m, _ = _read(files[name])
        s = match_summary(m)
        # (not the doubles: gnubg's record of a resignation after a take on a line of its own
        # holds a second "double" action, which is no double in the file)
        assert [g[k] for k in ("games", "plays", "final_score")] == \
               [s[k] for k in ("games", "plays", "final_score")], name
        assert [(0 if w == "X" else 1, pts) for w, pts, *_ in g["results"] if w] == \
               [(x.result.winner, x.result.points) for x in m.games if x.result], name
