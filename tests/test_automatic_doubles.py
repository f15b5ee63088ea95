"""Automatic doubles (money play): a game that starts with the cube turned, as gnubg's SGF ``CV[n]``
in the game's root records it (gnubg 1.07 reads the record below as cube 2 at the start, a
double to 4 and a resignation worth 4)."""

from __future__ import annotations

import pytest

from bgtools.export import to_dataframe
from bgtools.formats import read_match
from bgtools.formats.matchjson import format_json
from bgtools.formats.matfile import MatWriteError, format_mat
from bgtools.formats.sgf import format_sgf
from bgtools.model import replay_game

AUTO = ("(;FF[4]GM[6]CA[UTF-8]AP[test]MI[length:0][game:0][ws:0][bs:0]PW[Ann]PB[Bob]RU[Jacoby]CV[2]RE[W+4R]\n"
        ";W[31hefe]\n;B[double]\n;W[take]\n;B[42lpln]\n)\n"
        "(;FF[4]GM[6]CA[UTF-8]AP[test]MI[length:0][game:1][ws:4][bs:0]PW[Ann]PB[Bob]RU[Jacoby]RE[B+1]\n"
        ";W[31hefe]\n;B[double]\n;W[drop]\n)\n")


def test_the_game_starts_with_the_cube_turned():
    m = read_match(AUTO)
    g1, g2 = m.games
    assert g1.initial_cube == 2 and g2.initial_cube == 1
    assert not g1.errors and not g2.errors
    assert [a.cube for a in g1.actions if type(a).__name__ == "Double"] == [4]
    assert g1.result.points == 4 and g2.result.points == 1
    steps = list(replay_game(m, g1, 0))
    assert steps[0].state.cube == 2 and steps[0].state.cube_owner == -1  # centred at 2 before the first roll


def test_without_the_cv_the_same_record_is_read_with_a_cube_of_one():
    m = read_match(AUTO.replace("CV[2]", "", 1))
    assert m.games[0].initial_cube == 1
    assert [a.cube for a in m.games[0].actions if type(a).__name__ == "Double"] == [2]


def test_automatic_doubles_in_a_match_are_an_error():
    m = read_match(AUTO.replace("length:0", "length:7"))
    assert any("automatic doubles are for money play only" in e.message for e in m.games[0].errors)


def test_sgf_and_json_keep_the_starting_cube():
    m = read_match(AUTO)
    text = format_sgf(m)
    roots = [t for t in text.split("(;")[1:]]
    assert "CV[2]" in roots[0] and "CV[" not in roots[1]
    again = read_match(text)
    assert [g.initial_cube for g in again.games] == [2, 1] and not any(g.errors for g in again.games)
    j = read_match(format_json(m))
    assert [g.initial_cube for g in j.games] == [2, 1]


def test_the_mat_text_cannot_hold_it_and_says_so():
    with pytest.raises(MatWriteError, match="starts with the cube at 2 .automatic doubles."):
        format_mat(read_match(AUTO))


def test_export_counts_the_cube_from_its_start():
    third = ("(;FF[4]GM[6]CA[UTF-8]AP[test]MI[length:0][game:2][ws:4][bs:1]PW[Ann]PB[Bob]CV[4]RE[B+4R]\n"
             ";W[31hefe]\n)\n")
    df = to_dataframe([read_match(AUTO + third)], level="games")
    assert list(df["cube"]) == [4, 1, 4]  # a double to 4 taken; a dropped double; cube 4 from the start
