"""The bgtools JSON form of a match (schema: ``docs/match-json.md``), read and write.

>>> from bgtools.formats import read_match
>>> m = read_match(" 1 point match\\n Game 1\\n A : 0   B : 0\\n  1) 31: 8/5 6/5\\n")
>>> parse_json(format_json(m)) == m
True
"""

from __future__ import annotations

import json

from bgtools.base.fileio import atomic_write
from bgtools.model.game import Beaver, Double, Drop, Game, Resign, Roll, SetBoard, Take, Win
from bgtools.model.match import Match
from bgtools.model.problems import MatchFileError, MatchProblem

__all__ = ["to_json_dict", "format_json", "parse_json", "write_json", "atomic_write", "SCHEMA_VERSION"]

SCHEMA_VERSION = 1


# atomic_write lives in bgtools.base.fileio; it is re-exported here for existing callers
def _action(a) -> dict:
    if isinstance(a, Roll):
        d = {"type": "roll", "player": a.player, "dice": list(a.dice), "status": a.status}
        if a.steps is not None:
            d["steps"] = [list(s) for s in a.steps]
        if a.text and a.steps is None:
            d["text"] = a.text
        return d
    if isinstance(a, (Double, Beaver)):
        return {"type": "double" if isinstance(a, Double) else "beaver", "player": a.player, "cube": a.cube}
    if isinstance(a, Take):
        return {"type": "take", "player": a.player}
    if isinstance(a, Drop):
        return {"type": "drop", "player": a.player}
    if isinstance(a, Resign):
        return {"type": "resign", "player": a.player, "level": a.level}
    if isinstance(a, Win):
        return {"type": "win", "player": a.player, "points": a.points}
    if isinstance(a, SetBoard):
        d = {"type": "set_board", "player": a.player, "sides": [list(a.sides[0]), list(a.sides[1])]}
        if a.cube is not None:
            d["cube"], d["owner"] = a.cube, a.owner
        if a.source:
            d["source"], d["text"] = a.source, a.text
        return d
    raise TypeError(f"not an action: {a!r}")


def to_json_dict(m: Match) -> dict:
    """The match as plain JSON-ready data."""
    games = []
    for g in m.games:
        gd = {"number": g.number, "score": list(g.score), "crawford": g.crawford,
              "actions": [_action(a) for a in g.actions],
              "result": None if g.result is None else {"winner": g.result.winner, "points": g.result.points,
                                                       "how": g.result.how}}
        if g.initial_cube != 1:
            gd["initial_cube"] = g.initial_cube
        if g.errors:
            gd["errors"] = [e.to_dict() for e in g.errors]
        games.append(gd)
    return {"format": "bgtools-match", "version": SCHEMA_VERSION, "players": list(m.players),
            "length": m.length, "rules": {"crawford": m.crawford, "jacoby": m.jacoby, "beavers": m.beavers},
            "tags": dict(m.tags), "final_score": list(m.final_score), "games": games}


def format_json(m: Match, indent: int | None = 1) -> str:
    return json.dumps(to_json_dict(m), ensure_ascii=False, indent=indent) + "\n"


def write_json(m: Match, path) -> None:
    atomic_write(path, format_json(m))


def _int(v, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"{what} must be an integer, got {v!r}")
    return v


def _player(v, what: str) -> int:
    p = _int(v, what)
    if p not in (0, 1):
        raise ValueError(f"{what} must be 0 or 1, got {p}")
    return p


def _parse_action(d: dict, where: str):
    if not isinstance(d, dict):
        raise ValueError(f"{where}: an action must be an object")
    t = d.get("type")
    p = _player(d.get("player"), f"{where}.player")
    if t == "roll":
        dice = d.get("dice")
        if not (isinstance(dice, list) and len(dice) == 2 and all(isinstance(x, int) and 1 <= x <= 6
                                                                   for x in dice)):
            raise ValueError(f"{where}.dice must be two numbers 1..6")
        steps = d.get("steps")
        if steps is not None:
            if not isinstance(steps, list) or not all(
                    isinstance(s, list) and len(s) == 2 and all(isinstance(x, int) and 0 <= x <= 25 for x in s)
                    for s in steps) or len(steps) > 4:
                raise ValueError(f"{where}.steps must be up to four [from, to] pairs of points 0..25")
            steps = tuple((s[0], s[1]) for s in steps)
        status = d.get("status", "play")
        if status not in ("play", "dance", "rolled", "illegal", "unchecked"):
            raise ValueError(f"{where}.status {status!r} is not play, dance, rolled, illegal or unchecked")
        text = d.get("text", "")
        if not isinstance(text, str):
            raise ValueError(f"{where}.text must be a string")
        return Roll(p, (dice[0], dice[1]), steps, status, text)
    if t in ("double", "beaver"):
        cube = _int(d.get("cube"), f"{where}.cube")
        return (Double if t == "double" else Beaver)(p, cube)
    if t == "take":
        return Take(p)
    if t == "drop":
        return Drop(p)
    if t == "resign":
        return Resign(p, _int(d.get("level"), f"{where}.level"))
    if t == "win":
        return Win(p, _int(d.get("points"), f"{where}.points"))
    if t == "set_board":
        return _parse_set_board(d, p, where)
    raise ValueError(f"{where}.type {t!r} is not roll, double, beaver, take, drop, resign, win or set_board")


def _parse_set_board(d: dict, p: int, where: str) -> SetBoard:
    sides = d.get("sides")
    if not (isinstance(sides, list) and len(sides) == 2 and all(
            isinstance(s, list) and len(s) == 25 and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 15
                                                         for x in s) for s in sides)):
        raise ValueError(f"{where}.sides must be two lists of 25 checker counts 0..15")
    cube = d.get("cube")
    owner = d.get("owner")
    if cube is not None:
        cube = _int(cube, f"{where}.cube")
        if cube < 1 or cube & (cube - 1):
            raise ValueError(f"{where}.cube must be a power of 2, got {cube}")
        owner = _int(owner, f"{where}.owner")
        if owner not in (-1, 0, 1):
            raise ValueError(f"{where}.owner must be -1 (centred), 0 or 1, got {owner}")
    source, text = d.get("source", ""), d.get("text", "")
    if not isinstance(source, str) or not isinstance(text, str):
        raise ValueError(f"{where}.source and .text must be strings")
    a = SetBoard(p, (tuple(sides[0]), tuple(sides[1])), cube, None if cube is None else owner, source=source, text=text)
    try:
        a.position(0)
    except ValueError as e:  # PositionError: an impossible board
        raise ValueError(f"{where}.sides: {e}") from None
    return a


def parse_json(text: str, file: str = "", strict: bool = False) -> Match:
    """Read the JSON form back into an (unreplayed) :class:`Match`; raises MatchFileError."""
    try:
        d = json.loads(text)
    except json.JSONDecodeError as e:
        raise MatchFileError(MatchProblem(f"not valid JSON: {e.msg}", file, e.lineno, e.colno)) from None
    try:
        if not isinstance(d, dict) or d.get("format") != "bgtools-match":
            raise ValueError('not a bgtools match: "format" must be "bgtools-match"')
        players = d.get("players")
        if not (isinstance(players, list) and len(players) == 2 and all(isinstance(x, str) for x in players)):
            raise ValueError("players must be two strings")
        length = _int(d.get("length"), "length")
        rules = d.get("rules") or {}
        games = []
        for gi, gd in enumerate(d.get("games") or []):
            where = f"games[{gi}]"
            if not isinstance(gd, dict):
                raise ValueError(f"{where} must be an object")
            score = gd.get("score")
            if not (isinstance(score, list) and len(score) == 2 and all(
                    isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in score)):
                raise ValueError(f"{where}.score must be two non-negative integers")
            acts = tuple(_parse_action(a, f"{where}.actions[{i}]") for i, a in enumerate(gd.get("actions") or []))
            games.append(Game(_int(gd.get("number", gi + 1), f"{where}.number"), (score[0], score[1]), acts,
                              initial_cube=_int(gd.get("initial_cube", 1), f"{where}.initial_cube")))
        tags = d.get("tags") or {}
        if not isinstance(tags, dict):
            raise ValueError("tags must be an object")
        return Match((players[0], players[1]), length, tuple(games), crawford=bool(rules.get("crawford", True)),
                     jacoby=bool(rules.get("jacoby", False)), beavers=bool(rules.get("beavers", False)),
                     tags={str(k): str(v) for k, v in tags.items()}, source=file, format="json")
    except ValueError as e:
        raise MatchFileError(MatchProblem(str(e), file)) from None
