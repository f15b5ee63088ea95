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
