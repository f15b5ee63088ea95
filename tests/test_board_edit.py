"""Board edits in .mat text, replayed as gnubg 1.07 replays them (issue 16).

Snowie writes an illegal play as ``dd: Illegal play (<Snowie position>)`` and XG a board
set-up as a ``; Set Pos=<XGID letters>/<cube>`` line.  gnubg's ``import mat`` turns the first
into the roll without a play and a board edit, the second into a cube value, a cube owner
and a board edit.  The small files below were written for these tests; the position IDs
beside them are what gnubg 1.07 gave for the same files (``import mat``, then
``gnubg.match()``: the board before each play and double, the mover on roll), and the SGF
lines what its ``save match`` wrote.
"""

from __future__ import annotations

import pytest

from bgtools.formats import read_match
from bgtools.formats.matchjson import format_json, parse_json
from bgtools.formats.matfile import MatWriteError, format_mat, snowie_sides, xg_set_pos
from bgtools.formats.sgf import format_sgf
from bgtools.model.game import Double, Roll, SetBoard
from bgtools.model.replay import finish_match, replay


def _snowie(turn: int, names, mine: dict, theirs: dict) -> str:
    """A Snowie position: ``mine`` positive at the points of the player named first,
    ``theirs`` negative (points from the first player's view)."""
    fields = [3, 0, 0, 0, turn, names[0], names[1], 0, 0, 0, 1, 0, 0]
    fields += [mine.get(p, 0) - theirs.get(p, 0) for p in range(1, 25)]
    fields += [0, 0, 0]
    return ";".join(map(str, fields)) + ";"


ALICE = {24: 2, 13: 4, 8: 2, 6: 4, 5: 2, 3: 1}  # Alice's own points
BOB = {24: 1, 18: 1, 13: 4, 9: 1, 8: 3, 6: 5}  # Bob's own points
AS_ALICE = _snowie(0, ("Alice", "Bob"), ALICE, {25 - q: n for q, n in BOB.items()})
AS_BOB = _snowie(1, ("Bob", "Alice"), BOB, {25 - q: n for q, n in ALICE.items()})
XG = "-a-A-BDaB---dD--ac-e----B-"  # Alice (upper case) as ALICE, Bob as BOB

HEAD = (" 3 point match\n\n Game 1\n Alice : 0                          Bob : 0\n"
        "  1) 31: 8/5 6/5                    64: 24/18 13/9\n")
FILES = {
    # left-hand illegal play, then Bob's roll with no play written (gnubg: a roll only)
    "left": HEAD + f"  2) 11: Illegal play ({AS_ALICE}) 11:\n  3) 52: 13/8 13/11                 43: 13/9 13/10\n",
    # right-hand illegal play; gnubg reads nothing after its ")"
    "right": HEAD + f"  2) 31: 24/21 24/23                11: Illegal play ({AS_BOB}) 11:\n"
                    "  3) 52: 13/8 13/11                 43: 13/9 13/10\n",
    # a play only the edited board allows
    "edited": HEAD + f"  2) 11: Illegal play ({AS_ALICE})   11:\n  3) 52: 18/13 9/7                   43: 13/9 13/10\n",
    "setpos": HEAD + f"; Set Pos={XG}/-1\n  2) 52: 13/8 13/11                 43: 13/9 13/10\n  3)  Doubles => 4\n",
    "setpos_first": " 3 point match\n\n Game 1\n Alice : 0                          Bob : 0\n"
                    f"; Set Pos={XG}/1\n  1) 52: 13/8 13/11                 43: 13/9 13/10\n",
    # indented, it is no edit for gnubg ("Unrecognised move"): a comment
    "indented": HEAD + f"    ; Set Pos={XG}/0\n  2) 52: 13/8 13/11                 43: 13/9 13/10\n",
}
GNUBG = {  # (player, position ID before the play or double) as gnubg 1.07 has them
    "left": [(0, "4HPwATDgc/ABMA"), (1, "sGfwATDgc/ABMA"), (0, "ZM/gATDgc+FBIA"), (1, "4POSQSBkz+ABMA")],
    "right": [(0, "4HPwATDgc/ABMA"), (1, "sGfwATDgc/ABMA"), (0, "4HPhQSCwZ/ABMA"), (0, "ZM/gATDgc+FBIA"),
              (1, "4POSQSBkz+ABMA")],
    "edited": [(0, "4HPwATDgc/ABMA"), (1, "sGfwATDgc/ABMA"), (0, "ZM/gATDgc+FBIA"), (1, "4OvgAyBkz+ABMA")],
    "setpos": [(0, "4HPwATDgc/ABMA"), (1, "sGfwATDgc/ABMA"), (0, "4HPhQSBkz+ABMA"), (1, "ZM+RATDgc+FBIA"),
               (0, "4HOLQSBkz5EBMA")],
    "setpos_first": [(0, "4HPhQSBkz+ABMA"), (1, "ZM+RATDgc+FBIA")],
    "indented": [(0, "4HPwATDgc/ABMA"), (1, "sGfwATDgc/ABMA"), (0, "4HPhQSCwZ/ABMA"), (1, "sOfIATDgc+FBIA")],
}


def _read(name):
    return read_match(FILES[name], name=f"{name}.mat")


@pytest.mark.parametrize("name", sorted(FILES))
def test_positions_are_gnubgs(name):
    m = _read(name)
    assert not m.errors
    ours = [(s.action.player, s.position_id) for s in replay(m)
            if isinstance(s.action, Double) or (isinstance(s.action, Roll) and s.action.status == "play")]
    assert ours == GNUBG[name]


def test_the_records_are_gnubgs():
    acts = _read("left").games[0].actions
    kinds = [(type(a).__name__, a.player, getattr(a, "status", None)) for a in acts]
    assert kinds == [("Roll", 0, "play"), ("Roll", 1, "play"), ("Roll", 0, "rolled"), ("SetBoard", 0, None),
                     ("Roll", 1, "rolled"), ("Roll", 0, "play"), ("Roll", 1, "play")]
    edit = acts[3]
    # gnubg gives player 0 the negative side of a Snowie position written with player 0 on roll
    assert edit.sides == snowie_sides(AS_ALICE) == snowie_sides(AS_BOB)
    assert {i + 1: n for i, n in enumerate(edit.sides[0]) if n} == BOB
    assert (edit.cube, edit.owner, edit.source) == (None, None, "snowie")
    right = _read("right").games[0].actions
    assert [type(a).__name__ for a in right].count("Roll") == 6  # the "11:" after ")" is not read


@pytest.mark.parametrize("cube,want", [("0", (1, -1)), ("-1", (2, 0)), ("1", (2, 1)), ("-3", (8, 0))])
def test_set_pos_cube_as_gnubg_reads_it(cube, want):
    sides, value, owner = xg_set_pos(f"{XG}/{cube}")
    assert (value, owner) == want
    assert {i + 1: n for i, n in enumerate(sides[0]) if n} == ALICE
    assert {i + 1: n for i, n in enumerate(sides[1]) if n} == BOB


def test_set_pos_sets_the_cube_for_the_replay():
    m = _read("setpos")
    edit = next(a for a in m.games[0].actions if isinstance(a, SetBoard))
    assert (edit.player, edit.cube, edit.owner, edit.source) == (0, 2, 0, "xg")
    # Alice owns the cube at 2 after the edit: her double to 4 is no error
    double = [s for s in replay(m) if isinstance(s.action, Double)][0]
    assert (double.state.cube, double.state.cube_owner) == (2, 0)
    bad = read_match(FILES["setpos"].replace("Doubles => 4", "Doubles => 2"))
    assert "double to 2 but the cube is at 2" in str(bad.games[0].errors[0])


def test_only_the_edited_board_allows_the_plays_gnubg_allows():
    # gnubg 1.07 rejects "18/14 9/6" here and accepts "24/21 24/20" (Bob moves next after the
    # edit of Alice's roll: the board is not turned round for him)
    base = HEAD + f"  2) 11: Illegal play ({AS_BOB})\n  3)                                 43: %s\n"
    assert not read_match(base % "24/21 24/20").errors
    errs = read_match(base % "18/14 9/6").errors
    assert len(errs) == 1 and "no checker on 18" in str(errs[0]) and errs[0].line == 7


@pytest.mark.parametrize("name", sorted(FILES))
def test_written_and_read_back(name):
    m = _read(name)
    again = read_match(format_mat(m))
    assert again.games == m.games
    assert finish_match(parse_json(format_json(m))).games == m.games


def test_mat_writer_keeps_the_dialect():
    text = format_mat(_read("left"))
    assert f"  2) 11: Illegal play ({AS_ALICE}) " in text
    assert f"; Set Pos={XG}/-1\n" in format_mat(_read("setpos"))


def test_sgf_as_gnubg_writes_it():
    left = format_sgf(_read("left")).splitlines()
    assert ";PL[W]DI[11]" in left and ";PL[B]DI[11]" in left
    assert (";PL[W]AE[a:y]AW[f][f][f][f][f][h][h][h][i][m][m][m][m][r][x]"
            "AB[v][t][t][s][s][s][s][q][q][l][l][l][l][a][a]") in left
    setpos = format_sgf(_read("setpos")).splitlines()
    i = setpos.index(";CP[w]")
    assert setpos[i + 1:i + 3] == [";CV[2]", ";PL[W]AE[a:y]AW[c][e][e][f][f][f][f][h][h][m][m][m][m][x][x]"
                                             "AB[s][s][s][s][s][q][q][q][p][l][l][l][l][g][a]"]


def test_an_edit_the_mat_text_cannot_hold_is_refused():
    m = _read("setpos")
    g = m.games[0]
    i = next(k for k, a in enumerate(g.actions) if isinstance(a, SetBoard))
    centred4 = SetBoard(0, g.actions[i].sides, 4, -1)
    from dataclasses import replace

    bad = replace(m, games=(replace(g, actions=g.actions[:i] + (centred4,) + g.actions[i + 1:]),))
    with pytest.raises(MatWriteError, match="game 1: a board edit with a centred cube at 4"):
        format_mat(bad)


@pytest.mark.parametrize("text,where,msg", [
    (HEAD + "  2) 11: Illegal play (3;0;0;0;0;A;B;0;0;0;1;0;0;)\n", (6, 6), "has 40 fields"),
    (HEAD + "  2) 11: Illegal play (" + AS_ALICE.replace(";4;", ";x;", 1) + ")\n", (6, 6), "whole numbers"),
    (HEAD + "  2) 11: Illegal play (" + AS_ALICE.replace(";-1;", ";-9;", 1) + ")\n", (6, 6), "checkers"),
    (HEAD + f"; Set Pos={XG[:-1]}Z/0\n", (6, 1), "XG 'Set Pos' board edit"),
    (HEAD + f"; Set Pos={XG}/x\n", (6, 1), "cannot read the cube"),
])
def test_bad_edits_are_one_error_each(text, where, msg):
    m = read_match(text + "  3) 52: 13/8 13/11\n")
    errs = m.errors
    assert len(errs) == 1, errs
    assert (errs[0].line, errs[0].column) == where and msg in errs[0].message
    assert all(a.status == "unchecked" for a in m.games[0].actions[3:] if isinstance(a, Roll))


def test_export_has_a_row_for_the_edit():
    import bgtools.export as ex

    df = ex.to_dataframe([_read("left")], columns=["action", "player", "position_id"])
    assert list(df.action)[:5] == ["roll", "roll", "roll", "set_board", "roll"]
    assert df.position_id.notna().all()
    # XG's Set Pos gives the cube (4 after the double here: the edit put it at 2)
    games = ex.to_dataframe([read_match(FILES["setpos"] + "                                     Takes\n")],
                            level="games")
    assert games.cube.tolist() == [4]


def test_analysis_skips_the_edit():
    from bgtools.analysis.analyse import analyse_match

    m = _read("left")
    a = analyse_match(m, ply=0, cache=None)
    at = {d.action_index for d in a.decisions}
    edit = next(k for k, x in enumerate(m.games[0].actions) if isinstance(x, SetBoard))
    assert edit not in at and edit - 1 not in at  # nor the roll recorded without a play
    assert edit + 2 in at  # Alice's play on the edited board is analysed
    assert all(d.luck is None for d in a.decisions if d.action_index in (edit, edit - 1))


def test_convert_leaves_out_a_game_the_mat_text_cannot_hold(tmp_path):
    from bgtools.formats.convert import convert_one

    m = _read("setpos")
    g = m.games[0]
    i = next(k for k, a in enumerate(g.actions) if isinstance(a, SetBoard))
    centred2 = SetBoard(0, g.actions[i].sides, 2, -1)
    from dataclasses import replace

    bad = replace(g, actions=g.actions[:i] + (centred2,) + g.actions[i + 1:i + 3])
    two = replace(m, games=(bad, replace(_read("left").games[0], number=2)))
    src = tmp_path / "in.json"
    src.write_text(format_json(two))
    res = convert_one(str(src), str(tmp_path / "out.mat"), "mat")
    assert res.written and res.left_out == [1] and res.games == 1
    assert len(res.problems) == 1 and res.problems[0].game == 1 and "centred cube at 2" in str(res.problems[0])
    back = read_match(tmp_path / "out.mat")
    assert [x.number for x in back.games] == [2] and not back.errors
    assert any(isinstance(a, SetBoard) for a in back.games[0].actions)


@pytest.mark.parametrize("name", sorted(FILES))
def test_sgf_board_edits_are_read_back_and_replayed(name):
    """gnubg's setup nodes (``AE[a:y]AW..AB..``, with ``CP``/``CV``) read back as the same board
    edits: the SGF game is replayed to the same positions as the .mat it came from."""
    m = _read(name)
    again = read_match(format_sgf(m), name=f"{name}.sgf")
    assert not again.errors and not again.games[0].props.get("_setup")
    edits = [a for a in m.games[0].actions if isinstance(a, SetBoard)]
    back = [a for a in again.games[0].actions if isinstance(a, SetBoard)]
    assert [(e.player, e.sides, e.cube, e.owner) for e in back] == [(e.player, e.sides, e.cube, e.owner) for e in edits]
    ours = [(s.action.player, s.position_id) for s in replay(again)
            if isinstance(s.action, Double) or (isinstance(s.action, Roll) and s.action.status == "play")]
    assert ours == GNUBG[name]


def test_a_partial_sgf_setup_is_read_on_but_not_replayed():
    text = ("(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[A]PB[B]RU[Crawford]\n;W[31hefe]\n"
            ";AE[f]AW[g]\n;B[64]\n)\n")
    m = read_match(text)
    assert m.games[0].props.get("_setup") and not any(isinstance(a, SetBoard) for a in m.games[0].actions)
