""".mat dialects read as gnubg 1.07 reads them, and the reader driven by Lark and mat.lark.

The small match texts here are written for these tests (the positions were found with
bgtools' move generator: after the moves of game 1 below, 53 has exactly one legal play).
"""

from __future__ import annotations

import inspect
import os
import warnings

import lark
import pytest

from bgtools.formats import read_match
from bgtools.formats import matfile, matgrammar
from bgtools.formats.matfile import format_mat, parse_mat
from bgtools.formats.matgrammar import build_parser, grammar_text, parse_lines
from bgtools.model import MatchFileError, Resign, Roll, Win
from bgtools.model.replay import MatchWarning

#: names ending at the colon with no space before it (a family of exports)
NO_SPACE = """ 5 point match

 Game 1
 Iris09: 0                  Jade1: 0
  1) 64: 24/18 13/9         31: 24/21 6/5
  2) 11: 8/7 6/4* 6/5       Doubles => 2
  3)  Drops
                            Wins 1 point
 Game 2
 Iris09: 0                  Jade1: 1
  1) 31: 8/5 6/5            42: 8/4 6/4
  2)  Doubles => 2           Drops
      Wins 1 point
 Game 3
 Iris09:1                   Jade1:1
  1)                        21: 13/11 6/5
"""


def _read(text: str, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("error", MatchWarning)  # none expected unless a test says so
        return read_match(text, **kw)


def test_score_line_without_space_before_the_colon():
    m = _read(NO_SPACE)
    assert m.players == ("Iris09", "Jade1")
    assert [g.score for g in m.games] == [(0, 0), (0, 1), (1, 1)]
    assert [g.final_score for g in m.games] == [(0, 1), (1, 1), (1, 1)]
    assert m.errors == []
    assert m.games[0].actions[0].player == 0 and m.games[2].actions[0].player == 1


def test_score_line_with_spaces_in_names_and_ratings_either_way():
    m = _read(" 1 point match\n Game 1\n Ann Lee,1811: 0     Bo Ek, 1700 : 0\n  1) 31: 8/5 6/5\n")
    assert m.players == ("Ann Lee", "Bo Ek") and m.errors == []


# A: 64 24/18 13/9, B: 31 24/21 6/5, A: 11 8/7 6/4* 6/5, B: 64 bar/21* 13/7*: now A's 53 has
# one legal play (bar/22 bar/20*), B's 21 has ten.
UNKNOWN = """ 5 point match

 Game 1
 Ann : 0                         Bob : 0
  1) 64: 24/18 13/9              31: 24/21 6/5
  2) 11: 8/7 6/4* 6/5            64: 25/21* 13/7*
  3) 53: ????                    21: ???
  4)                             Concedes
      Wins 1 point
"""


def test_unknown_move_with_one_legal_play_is_that_play_several_is_roll_and_warning():
    with pytest.warns(MatchWarning, match=r":7:34: game 1, move 3: the play of 21 is not written .* 10 plays"):
        m = read_match(UNKNOWN)
    acts = m.games[0].actions
    forced, several = acts[4], acts[5]
    assert (forced.player, forced.status, forced.steps) == (0, "play", ((25, 20), (25, 22)))
    assert (several.player, several.status, several.steps) == (1, "rolled", None)
    assert m.errors == [] and m.plays == 5  # the forced play counts, as gnubg counts it
    # the positions go on from the forced play: B's 21 is rolled on the board after bar/22 bar/20*
    steps = list(m.replay())
    assert steps[5].position == steps[4].play.after
    # written back, the forced play is written out and reads back the same
    with pytest.warns(MatchWarning, match="the play of 21 is not written"):
        again = read_match(format_mat(m))
    assert again == m


def test_unknown_move_with_no_legal_play_is_a_dance():
    # B's 66 from the bar: A's 6-point is made, so no checker can enter
    text = (" 3 point match\n Game 1\n A : 0                 B : 0\n"
            "  1) 43: 8/5 6/2             43: 24/20* 13/10\n"
            "  2) 41: 25/21 2/1*          66: ???\n")
    m = _read(text)
    r = m.games[0].actions[3]
    assert (r.player, r.status, r.steps) == (1, "dance", ())
    assert m.errors == [] and m.plays == 3


def test_concedes_is_a_resignation_by_that_player():
    m = _read(UNKNOWN.replace("21: ???", "Concedes").replace("  4)                             Concedes\n", ""))
    g = m.games[0]
    assert [type(a).__name__ for a in g.actions[-2:]] == ["Resign", "Win"]
    res, win = g.actions[-2:]
    assert isinstance(res, Resign) and (res.player, res.level) == (1, 1)
    assert isinstance(win, Win) and win.player == 0
    assert g.result.how == "resign" and g.result.winner == 0 and m.errors == []


@pytest.mark.parametrize("word", ["Concedes", "Resigns", "resigned", "CONCEDE"])
def test_resignation_words_and_level_from_the_result(word):
    body = (" Game 1\n A : 0                          B : 0\n"
            "  1) 31: 8/5 6/5                 Doubles => 2\n"
            "  2)  Takes                      42: 8/4 6/4\n"
            f"  3) 21: 13/11 6/5               {word}\n"
            "      Wins 4 points\n")
    m = _read(" 7 point match\n\n" + body)
    res = m.games[0].actions[-2]
    assert isinstance(res, Resign) and (res.player, res.level) == (1, 2)  # 4 points = gammon on a 2-cube
    assert m.games[0].result.points == 4 and m.errors == []


def test_resigner_written_as_winner_is_an_error():
    body = (" Game 1\n A : 0                          B : 0\n"
            "  1) 31: 8/5 6/5                 Concedes\n"
            "                                 Wins 1 point\n")
    m = read_match(" 7 point match\n\n" + body)
    assert len(m.errors) == 1 and "resigns but is written as the winner" in m.errors[0].message
    assert m.errors[0].line == 5


# ----------------------------------------------------------------------------- Lark
def test_matfile_reads_no_regular_expressions_out_of_the_grammar():
    src = inspect.getsource(matfile) + inspect.getsource(matgrammar)
    assert "import re\n" not in src and "re.compile" not in src and "_terminal_patterns" not in src
    assert isinstance(matgrammar.mat_parser(), lark.Lark)
    assert matgrammar.mat_parser().options.parser == "lalr"


def test_a_new_keyword_in_the_grammar_is_picked_up_by_the_reader():
    text = (" 3 point match\n Game 1\n A : 0                 B : 0\n"
            "  1) 31: 8/5 6/5           Doubles => 2\n"
            "  2)  Nimmt                42: 8/4 6/4\n")
    m = parse_mat(text)  # the shipped grammar does not know the word
    assert len(m.errors) == 1 and m.errors[0].line == 5 and m.errors[0].column == 7
    assert "Nimmt" in m.errors[0].message
    old = "TAKES.1: /(?i:takes?|accepts?)/"
    assert old in grammar_text()
    parser = build_parser(grammar_text().replace(old, "TAKES.1: /(?i:takes?|accepts?|nimmt)/"), cache=False)
    m = parse_mat(text, parser=parser)
    assert m.errors == [] and [type(a).__name__ for a in m.games[0].actions] == ["Roll", "Double", "Take", "Roll"]


@pytest.mark.parametrize("lexer", matgrammar.LEXERS)
def test_both_lexers_read_the_same(lexer):
    p = build_parser(lexer=lexer, cache=False)
    lines = matfile.mat_lines(UNKNOWN + NO_SPACE)
    assert parse_lines(lines, p) == parse_lines(lines)


def test_grammar_cache_on_disk_and_unwritable_cache_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("BGTOOLS_CACHE_DIR", str(tmp_path / "c"))
    p1 = build_parser()
    files = list((tmp_path / "c" / "lark").glob("mat-*"))
    assert len(files) == 1 and files[0].stat().st_size > 1000
    p2 = build_parser()  # loaded from the cache file
    lines = matfile.mat_lines(NO_SPACE)
    assert parse_lines(lines, p1) == parse_lines(lines, p2) == parse_lines(lines)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("BGTOOLS_CACHE_DIR", str(blocker / "sub"))  # cannot be created
    assert matgrammar._cache_file(grammar_text(), "contextual") is None
    assert parse_lines(lines, build_parser()) == parse_lines(lines)
    if os.geteuid() != 0:  # a read-only folder (root can write anyway)
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        monkeypatch.setenv("BGTOOLS_CACHE_DIR", str(ro))
        assert parse_lines(lines, build_parser()) == parse_lines(lines)


def test_recovery_each_bad_line_is_one_error_and_reading_goes_on():
    text = ("junk before the match line: skipped\n 7 point match\n\n Game 1\n A : 0      B : 0\n"
            "  1) 31: 8/5 6/5 bogus\n"
            "  2) 42: 8/4 6/4     Doubles =>\n"
            "  3) 53: 8/3 6/3     64: 24/18 13/9\n"
            "      Wins 1 point\n Game 2\n A : 1      B : 0\n  1) 31: 8/5 6/5\n")
    m = read_match(text)
    assert [(e.line, e.column, e.game) for e in m.errors] == [(6, 18, 1), (7, 32, 1)]  # 32: where the line ends
    assert "bogus" in m.errors[0].message and "ends too early" in m.errors[1].message
    assert len(m.games) == 2 and m.games[1].actions[0].steps == ((8, 5), (6, 5))
    with pytest.raises(MatchFileError, match=":6:18:"):
        read_match(text, strict=True)


# ----------------------------------------------------------------------------- against gnubg
GNUBG = __import__("shutil").which("gnubg") or __import__("shutil").which("gnubg", path="/usr/games")
DANCE = (" 3 point match\n Game 1\n A : 0                 B : 0\n"
         "  1) 43: 8/5 6/2             43: 24/20* 13/10\n"
         "  2) 41: 25/21 2/1*          66: ???\n")
GNUBG_SCRIPT = """
import gnubg, json
out = []
for f in json.load(open(%r)):
    gnubg.command('import mat "%%s"' %% f)
    m = gnubg.match()
    out.append([m['match-info']['X']['name'], m['match-info']['O']['name'],
                [[[a['action'], a.get('move')] for a in g['game']]
                 + [[g['info'].get('winner'), g['info'].get('points-won')]] for g in m['games']]])
json.dump(out, open(%r, 'w'))
"""


@pytest.mark.gnubg
@pytest.mark.skipif(GNUBG is None, reason="gnubg is not installed")
def test_dialect_files_read_as_gnubg_reads_them(tmp_path):
    import json
    import subprocess

    texts = [NO_SPACE, UNKNOWN, DANCE]
    paths = []
    for i, t in enumerate(texts):
        paths.append(str(tmp_path / f"d{i}.mat"))
        (tmp_path / f"d{i}.mat").write_text(t)
    (tmp_path / "f.json").write_text(json.dumps(paths))
    (tmp_path / "s.py").write_text(GNUBG_SCRIPT % (str(tmp_path / "f.json"), str(tmp_path / "o.json")))
    subprocess.run([GNUBG, "-t", "-q", "-p", str(tmp_path / "s.py")], check=True, capture_output=True, timeout=120,
                   env=dict(os.environ, HOME=str(tmp_path)))
    got = json.loads((tmp_path / "o.json").read_text())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MatchWarning)
        ours = [read_match(t) for t in texts]
    for (x, o, games), m in zip(got, ours):
        assert (x, o) == m.players
        assert len(games) == len(m.games)
        for gg, g in zip(games, m.games):
            plays = [sorted(map(tuple, mv)) for act, mv in gg[:-1] if act == "move" and mv]
            assert plays == [sorted(a.steps) for a in g.actions if isinstance(a, Roll) and a.is_play]
            winner, points = gg[-1]
            if winner is None:
                assert g.result is None
            else:
                assert (g.result.winner, g.result.points) == ("XO".index(winner), points)
