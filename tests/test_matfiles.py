"""Match files: the real and self-play corpora against what gnubg rebuilt, dialects, round trips."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest

from bgtools import MatchWarning
from bgtools.formats import read_match, read_matches

from bgtools.model import Match, MatchFileError, Roll, match_summary, replay
from bgtools.formats.matchjson import format_json, parse_json
from bgtools.formats.matfile import format_mat, mat_lines, mat_parser
from bgtools.formats.matgrammar import parse_lines
from bgtools.formats.sgf import format_sgf

from gnubg_import import KNOWN

DATA = Path(__file__).parent / "data" / "matches"

#: XG's "???" rolls with several legal plays warn (tests/test_mat_dialects.py checks that)
pytestmark = pytest.mark.filterwarnings("ignore::bgtools.model.replay.MatchWarning")


def _corpus() -> list[tuple[Path, dict]]:
    out = []
    for folder in ("realmatches", "selfplay"):
        for line in (DATA / folder / "gnubg_counts.jsonl").read_text().splitlines():
            rec = json.loads(line)
            p = DATA / folder / rec["file"]
            if p.suffix == ".sgf":
                p = p.with_name(p.name + ".gz")
            out.append((p, rec))
    return out


CORPUS = _corpus()
IDS = [str(p.relative_to(DATA)) for p, _ in CORPUS]

#: Files whose moves break the rules; gnubg warns (or, for dance.mat, silently accepts a 21 played
#: as 24/23 6/5, which uses the 1 twice).  line = where bgtools reports the illegal move.
ILLEGAL = {
    "cube_take.mat": 10,
    "doubles_hit_bearoff.mat": 8,
    "dance.mat": 8,
}


@lru_cache(maxsize=None)
def _read(path: Path) -> Match:
    return read_match(path)


@pytest.mark.parametrize("path,want", CORPUS, ids=IDS)
def test_corpus_matches_gnubg(path, want):
    m = _read(path)
    s = match_summary(m)
    got = {k: s[k] for k in ("games", "plays", "doubles", "final_score")}
    exp = {k: want[k] for k in ("games", "plays", "doubles", "final_score")}
    if "via" in want:  # an XG / BGBlitz file: gnubg read bgtools' .mat of it (tests/test_check_as_gnubg.py)
        diff, errors = KNOWN.get(path.name, ({}, 0))
        assert got == {k: diff.get(k, v) for k, v in exp.items()} and m.length == want["length"]
        assert len(m.errors) == errors
        return
    if path.name == "dance.mat":
        exp["plays"] -= 1  # gnubg counts the dice-inconsistent 24/23 6/5 as a play
    assert got == exp
    assert m.length == want["length"]
    if path.name in ILLEGAL:
        assert len(m.errors) == 1
        e = m.errors[0]
        assert e.line == ILLEGAL[path.name] and e.game == 1 and e.move == (4 if "cube_take" in path.name else 2)
        assert "legal" in e.message or "no checker" in e.message
        # the rest of the file is still read: the result line after the illegal move is there
        assert m.games[-1].result is not None
    else:
        assert m.errors == [], [str(e) for e in m.errors]


def test_corpus_folders_streamed():
    seen = list(read_matches([DATA / "realmatches" / "halheinrich-bgmatchformat"]))
    assert len(seen) == 15 and all(isinstance(m, Match) for m in seen)


# ----------------------------------------------------------------------------- grammar
MAT_FILES = [p for p, _ in CORPUS if p.suffix in (".mat", ".txt")]


def test_every_corpus_line_is_parsed_by_lark_as_a_known_kind():
    """The whole-text parse and the one-line-at-a-time parse give the same lines."""
    parser = mat_parser()
    n = 0
    for p in MAT_FILES:
        lines = mat_lines(p.read_bytes().decode("utf-8-sig"))
        whole = parse_lines(lines, parser)
        assert all(k != "error" for k, _, _ in whole), p.name
        one = []
        for i, ln in enumerate(lines):
            one += parser.parse("\n" * i + ln + "\n", start="file")
        assert whole == one, p.name
        n += len(whole)
    assert n > 5000


def test_grammar_file_parse_and_rejects_garbage():
    parser = mat_parser()
    got = parser.parse(" 3 point match\n\n Game 1\n A : 0    B : 0\n  1) 31: 8/5 6/5   42: 8/4 6/4\n", start="file")
    assert [k for k, _, _ in got] == ["match_line", "game_line", "score_line", "move_line"]
    assert got[3] == ("move_line", 5, (1, 4, [(5, "roll", ("31:", ["8/5", "6/5"]), 5),
                                              (19, "roll", ("42:", ["8/4", "6/4"]), 5)]))
    import lark

    with pytest.raises(lark.exceptions.LarkError):
        parser.parse("  1) 31: 8/5 blah", start="line")


# ----------------------------------------------------------------------------- dialects
def _m(body: str, length: int = 7, header: str = "") -> Match:
    return read_match(header + f" {length} point match\n\n" + body)


def test_dialect_xg_cannot_move_unknown_bar_off_and_repeats():
    text = ("\ufeff; [Site \"Backgammon Studio\"]\r\n; [Player 1 \"K\u00e9vin\"]\r\n\r\n5 point match\r\n\r\n Game 1\r\n"
            " K\u00e9vin Unger : 0                 Maxence Job : 0\r\n"
            "  1) 31: 8/5 6/5                       64: 24/18 13/9\r\n"
            "  2) 44: 24/16* 8/4(2)                 66: Cannot Move\r\n"
            "  3) 21: ???\r\n"
            "                                        Wins 1 point\r\n")
    m = read_match(text.encode("utf-8"))
    assert m.players == ("K\u00e9vin Unger", "Maxence Job") and m.tags["Site"] == "Backgammon Studio"
    g = m.games[0]
    kinds = [(type(a).__name__, getattr(a, "status", "")) for a in g.actions]
    assert kinds == [("Roll", "play"), ("Roll", "play"), ("Roll", "play"), ("Roll", "dance"), ("Roll", "rolled"),
                     ("Resign", ""), ("Win", "")]
    assert g.actions[2].steps == ((24, 20), (20, 16), (8, 4), (8, 4))
    assert g.result.how == "resign" and g.result.winner == 1 and m.errors == []


def test_dialect_unsorted_dice_unmarked_hits_ratings_and_result_at_column_one():
    m = _m(" Game 1\n Al,1811 : 0      Bo,1700 : 0\n  1) 13: 8/5 6/5       46: 24/18 13/9\n"
           "  2) 35: 13/8 6/3\n Wins 1 point\n", length=3)
    assert m.players == ("Al", "Bo")
    r = m.games[0].actions[1]
    assert r.dice == (4, 6) and r.player == 1
    assert m.games[0].result.winner == 0 and m.errors == []


def test_cube_beaver_take_implied_and_drop():
    body = (" Game 1\n A : 0                          B : 0\n"
            "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
            "  2)  Doubles => 2                Beavers => 4\n"
            "  3) 21: 13/11 6/5                 Doubles => 8\n"
            "  4)  Drops                       Wins 4 points\n")
    m = _m(body, length=0, header='; [Jacoby "On"]\n')
    g = m.games[0]
    assert [type(a).__name__ for a in g.actions] == ["Roll", "Roll", "Double", "Beaver", "Take", "Roll", "Double",
                                                     "Drop", "Win"]
    assert g.actions[4].implied and m.beavers and m.jacoby
    assert g.result.how == "drop" and g.result.points == 4 and m.errors == []
    states = [s.state for s in replay(m)]
    assert states[6].cube == 4 and states[6].cube_owner == 1  # the beaverer owns the 4-cube
    assert states[7].double_offered


def test_wrong_drop_value_is_counted_as_gnubg_counts_it_and_warned():
    # (issue 38: both programs score the cube before the double, so this is a warning, not an error)
    body = (" Game 1\n A : 0                          B : 0\n"
            "  1) 31: 8/5 6/5                  Doubles => 2\n"
            "  2)  Drops                       Wins 2 points\n")
    with pytest.warns(MatchWarning, match="dropped cube gives 1") as got:
        m = _m(body)
    assert m.errors == [] and got[0].message.problem.line == 6
    assert m.final_score == (0, 1)


def test_crawford_inferred_from_score_and_double_in_crawford_is_error():
    body = (" Game 1\n A : 2                          B : 0\n  1) 31: 8/5 6/5\n      Wins 1 point\n"
            " Game 2\n A : 3                          B : 0\n  1) 31: 8/5 6/5                  Doubles => 2\n"
            "  2)  Drops                       Wins 1 point\n")
    m = _m(body, length=4)
    assert [g.crawford for g in m.games] == [False, True]
    assert len(m.errors) == 1 and "Crawford" in m.errors[0].message and m.errors[0].game == 2


def test_starts_mid_match_and_comments_inside_games():
    body = (" Game 7\n A : 6                          B : 3\n; a stray comment\n  1) 31: 8/5 6/5\n"
            "      Wins 2 points and the match\n")
    m = _m(body, length=9)
    assert m.games[0].number == 7 and m.final_score == (8, 3) and m.errors == []


def test_bad_line_is_error_with_location_and_next_game_read():
    body = (" Game 1\n A : 0      B : 0\n  1) 31: 8/5 6/5 bogus\n      Wins 1 point\n"
            " Game 2\n A : 1      B : 0\n  1) 31: 8/5 6/5\n")
    m = _m(body)
    assert len(m.games) == 2 and len(m.errors) == 1
    e = m.errors[0]
    assert (e.line, e.column, e.game) == (5, 18, 1) and "bogus" in e.message
    with pytest.raises(MatchFileError):
        read_match(" 7 point match\n\n" + body, strict=True)


def test_not_a_match_file():
    with pytest.raises(MatchFileError):
        read_match("hello\nworld\n")


# ----------------------------------------------------------------------------- round trips
ROUND = [p for p, _ in CORPUS if p.name not in ILLEGAL and KNOWN.get(p.name, ({}, 0))[1] == 0]


@pytest.mark.parametrize("path", ROUND, ids=[str(p.relative_to(DATA)) for p in ROUND])
def test_round_trips(path):
    m = _read(path)
    via_mat = read_match(format_mat(m), format="mat")
    assert via_mat.games == m.games and via_mat.players == m.players and via_mat.length == m.length
    assert via_mat == m
    via_sgf = read_match(format_sgf(m), format="sgf")
    assert via_sgf == m
    via_json = read_match(format_json(m), format="json")
    assert via_json == m
    assert read_match(format_mat(via_sgf), format="mat") == m


def test_round_trip_keeps_illegal_text():
    m = _read(DATA / "realmatches/halheinrich-bgmatchformat/cube_take.mat")
    again = read_match(format_mat(m))
    assert again == m and again.errors[0].line == m.errors[0].line


def test_replay_steps_ids():
    m = _read(DATA / "selfplay/001.mat")
    steps = list(replay(m))
    assert len(steps) == len(m.games[0].actions)
    first = steps[0]
    assert first.position_id == "4HPwATDgc/ABMA" and first.state.dice == (3, 2) and first.legal_plays > 1
    from bgtools.core.matchstate import MatchState, parse_xgid

    for s in steps[:10]:
        pos, st = parse_xgid(s.xgid)
        assert pos == s.position and st.score == s.state.score
        assert MatchState.from_match_id(s.match_id) == s.state
    # every roll's play leads to the next roll's position (seen from the other side)
    rolls = [s for s in steps if isinstance(s.action, Roll) and s.play is not None]
    for a, b in zip(rolls, rolls[1:]):
        if b.action.player != a.action.player:
            assert a.play.after == b.position


def test_json_schema_errors():
    with pytest.raises(MatchFileError):
        parse_json('{"format": "bgtools-match", "players": ["a"], "length": 1}')
    with pytest.raises(MatchFileError):
        parse_json("{not json")


# ----------------------------------------------------------------------------- compiled replay
def test_compiled_replay_agrees_with_the_python_replay(monkeypatch):
    """Every corpus file (and the illegal goldens) replays the same with and without the kernel."""
    import warnings

    from bgtools.formats.read import decode_bytes
    from bgtools.formats.matfile import parse_mat
    from bgtools.model.replay import _Replayer, finish_match

    import gzip

    from bgtools.formats.sgf import parse_sgf

    sgfs = [p for p, _ in CORPUS if p.suffix == ".gz"]
    unreplayed = [parse_mat(decode_bytes(p.read_bytes()), str(p)) for p in MAT_FILES]
    unreplayed += [parse_sgf(decode_bytes(gzip.decompress(p.read_bytes())), str(p)) for p in sgfs]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fast = [finish_match(m) for m in unreplayed]
        monkeypatch.setattr(_Replayer, "_fast", lambda self, idx, a, pos: None)
        monkeypatch.setattr(_Replayer, "_plays", lambda self, idx: 0)  # (the kernel's run of plays too)
        slow = [finish_match(m) for m in unreplayed]
    n = 0
    assert len(sgfs) > 10
    for p, f, s in zip(MAT_FILES + sgfs, fast, slow):
        assert f == s, p.name
        for gf, gs in zip(f.games, s.games):
            assert gf.actions == gs.actions and gf.result == gs.result, p.name
            assert [str(e) for e in gf.errors] == [str(e) for e in gs.errors], p.name
            n += sum(1 for a in gf.actions if isinstance(a, Roll))
    assert n > 15000
