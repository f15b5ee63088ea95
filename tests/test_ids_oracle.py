"""Position ID, Match ID and XGID against 1000 states recorded from gnubg 1.07."""

import pytest

from bgtools.core.matchstate import GameState, MatchIDError, MatchState, parse_any_id, parse_gnubg_id, parse_xgid, to_xgid
from bgtools.core.position import Position, PositionError, encode_position_key


def _fields(ms: MatchState) -> dict:
    return {
        "cube": ms.cube,
        "cube_owner": ms.cube_owner,
        "move": ms.player_on_roll,
        "crawford": int(ms.crawford),
        "gamestate": int(ms.game_state),
        "turn": ms.turn,
        "doubled": int(ms.double_offered),
        "resigned": ms.resigned,
        "dice": list(ms.dice),
        "match_to": ms.match_length,
        "score": list(ms.score),
    }


def test_every_state_decodes_and_encodes(oracle_ids):
    assert len(oracle_ids) == 1000
    for r in oracle_ids:
        g = r["gnubg"]
        pos = Position.from_id(g["position_id"])
        assert [list(pos.opponent), list(pos.on_roll)] == g["board"]
        assert pos.position_id() == g["position_id"]
        ms = MatchState.from_match_id(g["match_id"])
        dec = dict(r["decoded_match_id"])
        bit66 = dec.pop("jacoby_bit66_not_in_use")
        assert _fields(ms) == dec, r["k"]
        assert ms.jacoby == (dec["match_to"] == 0 and bit66 == 0)
        # cross-check with what gnubg's own API said
        assert ms.cube == g["cubeinfo"]["cube"] and ms.cube_owner == g["cubeinfo"]["cubeowner"]
        assert ms.player_on_roll == g["cubeinfo"]["move"] and ms.turn == g["posinfo"]["turn"]
        assert ms.resigned == g["posinfo"]["resigned"] and ms.double_offered == bool(g["posinfo"]["doubled"])
        assert sorted(ms.dice) == sorted(g["posinfo"]["dice"])
        if ms.match_length:
            assert ms.jacoby is False and ms.score == tuple(g["cubeinfo"]["score"])
        else:
            assert ms.jacoby == bool(g["cubeinfo"]["jacoby"])
        # encode back
        assert ms.match_id() == g["match_id"]
        rebuilt = MatchState(**{
            "cube": dec["cube"], "cube_owner": dec["cube_owner"], "player_on_roll": dec["move"],
            "crawford": bool(dec["crawford"]), "game_state": GameState(dec["gamestate"]), "turn": dec["turn"],
            "double_offered": bool(dec["doubled"]), "resigned": dec["resigned"], "dice": tuple(dec["dice"]),
            "match_length": dec["match_to"], "score": tuple(dec["score"]), "jacoby": ms.jacoby})
        assert rebuilt.match_id() == g["match_id"]
        assert to_xgid(pos, ms) == r["xgid"], r["k"]
        p2, m2 = parse_gnubg_id(g["gnubg_id"])
        assert p2 == pos and m2 == ms


def test_xgid_imports_like_gnubg(oracle_ids):
    checked = 0
    for r in oracle_ids:
        rt = r["xgid_roundtrip"]
        pos, ms = parse_xgid(r["xgid"])
        # the XGID always carries the board with the player whose turn it is on roll
        assert pos.position_id() == r["gnubg"]["position_id"]
        if isinstance(rt, dict):
            assert rt["equal"]
            assert pos.position_id() == rt["position_id"]
            assert ms.match_id() == rt["match_id"], r["k"]
            assert to_xgid(pos, ms) == r["xgid"]
            checked += 1
    assert checked == 907


@pytest.mark.parametrize("bad, message", [
    ("4HPwATDgc/ABM", "14"),
    ("4HPwATDgc/AB!A", "base64"),
    ("//////////////", "truncated"),
    (encode_position_key([16] + [0] * 24, [0] * 25), "16 checkers"),
    ("AAAAAAAAAAAAAA", "both players"),
])
def test_bad_position_ids(bad, message):
    with pytest.raises(PositionError, match=message):
        Position.from_id(bad)


def _patched(value: int, mask: int) -> str:
    """A valid Match ID with the bits under ``mask`` replaced by ``value``."""
    import base64

    bits = int.from_bytes(base64.b64decode(MatchState(match_length=7).match_id()), "little")
    bits = (bits & ~mask) | value
    return base64.b64encode(bits.to_bytes(9, "little")).decode()


@pytest.mark.parametrize("bad, message", [
    ("cAkAAAAAAAA", "12"),
    ("cAkAAAAAAA!A", "base64"),
    (_patched(2 << 4, 3 << 4), "cube owner"),
    (_patched((7 << 15) | (1 << 18), 0x3F << 15), "dice"),
    (_patched(1 << 15, 0x3F << 15), "dice"),
    (_patched(5 << 8, 7 << 8), "game state"),
])
def test_bad_match_ids(bad, message):
    with pytest.raises(MatchIDError, match=message):
        MatchState.from_match_id(bad)


@pytest.mark.parametrize("bad", [
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0",
    "XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:79:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----Bz:0:0:1:00:0:0:0:0:10",
    "XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10",
])
def test_bad_xgids(bad):
    with pytest.raises(MatchIDError):
        parse_xgid(bad)


def test_impossible_positions_rejected():
    side = list(Position.initial().on_roll)
    with pytest.raises(PositionError, match="16 checkers"):
        Position.from_sides(side[:5] + [6] + side[6:], side)
    clash = [0] * 25
    clash[0] = 1  # on-roll point 1 = opponent's point 24, where the opponent has two checkers
    with pytest.raises(PositionError, match="same point"):
        Position.from_sides(clash, side)
    with pytest.raises(PositionError, match="-1 checkers"):
        Position.from_sides([-1] + [0] * 24, side)


def test_parse_any_id_forms():
    p, m = parse_any_id("4HPwATDgc/ABMA")
    assert p == Position.initial() and m is None
    p, m = parse_any_id("4HPwATDgc/ABMA:cAkAAAAAAAAA")
    assert m.match_length == 0 and m.player_on_roll == 1
    p, m = parse_any_id("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10")
    assert p == Position.initial()
    # the worked example of the spec: score 2-4 in a 9-point match, player 0 owns a 2-cube, player 1 rolled 52
    ms = MatchState.from_match_id("QYkqASAAIAAA")
    assert (ms.cube, ms.cube_owner, ms.player_on_roll, ms.dice, ms.match_length, ms.score) == (2, 0, 1, (5, 2), 9, (2, 4))


# -- impossible states (issue 13): each refused with a one-line MatchIDError naming the field --------
_XG0 = "XGID=-b----E-C---eE---c-e----B-"


@pytest.mark.parametrize("state, field", [
    (dict(match_length=9, score=(12, 3)), "score field"),
    (dict(match_length=9, score=(9, 3)), "score field"),
    (dict(match_length=9, score=(3, 9)), "score field"),
    (dict(match_length=0, crawford=True), "Crawford field"),
    (dict(match_length=9, score=(2, 3), crawford=True), "Crawford field"),
    (dict(match_length=9, score=(8, 8), crawford=True), "Crawford field"),
    (dict(match_length=1, crawford=True), "Crawford field"),
    (dict(match_length=9, score=(8, 3), crawford=True, cube=2, cube_owner=1), "cube field"),
    (dict(match_length=9, score=(8, 3), crawford=True, cube=1, cube_owner=0), "cube field"),
    (dict(match_length=9, score=(8, 3), crawford=True, double_offered=True, turn=0), "double field"),
    (dict(cube=8192, cube_owner=0), "cube field"),
    (dict(cube=32768, cube_owner=1), "cube field"),
])
def test_impossible_match_ids_refused(state, field):
    mid = MatchState(**state).match_id()  # the encoder writes what it is given
    with pytest.raises(MatchIDError, match=field) as e:
        MatchState.from_match_id(mid)
    assert "\n" not in str(e.value) and mid in str(e.value)
    with pytest.raises(MatchIDError, match=field):
        parse_any_id("4HPwATDgc/ABMA:" + mid)


@pytest.mark.parametrize("state", [
    dict(cube=4096, cube_owner=0),  # the largest cube gnubg accepts
    dict(match_length=9, score=(8, 3), crawford=True),  # the Crawford game
    dict(match_length=9, score=(8, 3), cube=4, cube_owner=0),  # post-Crawford: the cube is back
    dict(match_length=9, score=(8, 8), cube=2, cube_owner=1),
    dict(match_length=9, score=(8, 3), crawford=True, cube=1, cube_owner=-1, dice=(6, 5)),
])
def test_possible_edge_states_still_read(state):
    ms = MatchState(**state)
    assert MatchState.from_match_id(ms.match_id()) == ms
    pos = Position.initial()
    p2, m2 = parse_xgid(to_xgid(pos, ms))
    assert (m2.cube, m2.cube_owner, m2.score, m2.crawford) == (ms.cube, ms.cube_owner, ms.score, ms.crawford)


@pytest.mark.parametrize("xgid, field", [
    (_XG0 + ":0:0:1:00:0:0:0:0", "9 fields"),
    (_XG0 + ":0:0:1:00:0:0:0:0:10:3", "11 fields"),
    (_XG0 + ":0:0:1:00:0:0:0:0:10:", "11 fields"),
    (_XG0 + ":0:0:1:00:3:12:0:9:10", "score field"),
    (_XG0 + ":0:0:1:00:9:0:0:9:10", "score field"),
    (_XG0 + ":0:0:1:00:3:2:1:9:10", "Crawford field"),
    (_XG0 + ":1:1:1:00:3:8:1:9:10", "cube field"),
    (_XG0 + ":13:1:1:00:0:0:0:0:10", "cube field"),
    (_XG0 + ":15:1:1:00:0:0:0:0:10", "cube field"),
    (_XG0 + ":0:0:1:00:0:0:2:9:10", "rules field"),
    (_XG0 + ":0:0:1:00:0:0:4:0:10", "rules field"),
    (_XG0 + ":0:0:1:00:0:0:0:0:16", "max cube field"),
    (_XG0 + ":0:0:1:00:0:0:0:0:x", "not a number"),
])
def test_impossible_xgids_refused(xgid, field):
    with pytest.raises(MatchIDError, match=field) as e:
        parse_any_id(xgid)
    assert "\n" not in str(e.value)


def test_crawford_xgid_reads():
    pos, ms = parse_xgid(_XG0 + ":0:0:1:00:3:8:1:9:10")
    assert ms.crawford and ms.score == (8, 3) and ms.match_length == 9


def test_non_strict_decoding_keeps_what_a_damaged_record_made():
    ms = MatchState(match_length=9, score=(12, 3), cube=8192, cube_owner=0)
    with pytest.raises(MatchIDError):
        MatchState.from_match_id(ms.match_id())
    back = MatchState.from_match_id(ms.match_id(), strict=False)
    assert back == ms and back.impossibility().startswith("cube field")
