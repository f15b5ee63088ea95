"""BGBlitz binary match files (``.bgf``) -> the match model.

Line 1 is a JSON header (``{"format":"BGF",...,"compress":true,"useSmile":true}``); the rest
is the match as gzip-compressed Smile (binary JSON, :mod:`bgtools.formats.smile`), or plain
JSON when the header says so.  Players: ``nameGreen`` is player 0 (BGBlitz player -1),
``nameRed`` player 1 (+1).  A game is a list of entries; an entry whose first die is 7 is a
special action coded by the second: 1 double, 2 take, 3 pass, 4 game won, 5 no legal play
(the dice are in ``from[0]``/``to[0]``), 9 an end-of-game marker without a move (skipped).
Points are in the mover's numbering (25 bar, 0 off), as in the model.

Not to be confused with gnubg's ``.bgf`` (BGRoom text); :func:`is_bgf` tests the header.
"""

from __future__ import annotations

import json
from typing import Any, Optional

from bgtools.formats.metadata import iso_date, with_standard
from bgtools.formats.smile import SmileError, loads
from bgtools.formats.xg import TruncatedStream, inflate_bounded
from bgtools.model.fileanalysis import Candidate, FileAnalysis
from bgtools.model.game import Action, Double, Drop, Game, Resign, Roll, Take, Win, resign_level
from bgtools.model.match import Match
from bgtools.model.problems import MatchFileError, MatchProblem

__all__ = ["parse_bgf", "is_bgf", "load_bgf_tree", "MAX_ENTRIES"]

MAX_ENTRIES = 100_000  #: entries of all games read at most
_NO = -99.0  # BGBlitz's "not applicable" error


def is_bgf(data: bytes) -> bool:
    """Content test: a first line that is the BGBlitz JSON header."""
    head = data[:512].split(b"\n", 1)[0].strip()
    return head.startswith(b"{") and b'"format"' in head and b'"BGF"' in head


def load_bgf_tree(data: bytes) -> Any:
    """The match as Python values (dicts, lists); ValueError with the reason on damage."""
    nl = data.find(b"\n")
    if nl < 0:
        raise ValueError("no line break after the JSON header")
    try:
        header = json.loads(data[:nl].decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ValueError("line 1 is not a JSON header") from None
    if not isinstance(header, dict) or header.get("format") != "BGF":
        raise ValueError("line 1 is not a BGBlitz header (format is not \"BGF\")")
    body = data[nl + 1:]
    if header.get("compress", True):
        try:
            body = inflate_bounded(body, "BGF body", wbits=31)
        except TruncatedStream:
            raise ValueError("the gzip body is cut short (truncated file)") from None
    if header.get("useSmile", True):
        try:
            return loads(body)
        except SmileError as e:
            raise ValueError(str(e)) from None
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise ValueError(f"body is not JSON: {e}") from None


def _num(v: Any) -> Optional[float]:
    if v is None or isinstance(v, bool):
        return None
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return None if x != x or x <= _NO + 0.5 else x


def _loss(v: Any) -> Optional[float]:
    x = _num(v)
    return None if x is None else abs(x)


def _pairs(entry: dict) -> tuple[tuple[int, int], ...]:
    fr, to = entry.get("from") or [], entry.get("to") or []
    out = []
    for a, b in zip(fr, to):
        if not isinstance(a, int) or not isinstance(b, int) or a < 0:
            continue
        if not (1 <= a <= 25 and 0 <= b <= 24):
            raise ValueError(f"point out of range ({a}/{b})")
        out.append((a, b))
    return tuple(out)


def _cube_part(entry: dict) -> tuple[dict, str]:
    eq = entry.get("equity") or {}
    cd = eq.get("cubeDecision") if isinstance(eq, dict) else None
    unit = "mwc" if isinstance(eq, dict) and eq.get("useMatchEquity") else "equity"
    return (cd if isinstance(cd, dict) else {}), unit


def _analysis(entry: dict, kind: str) -> Optional[FileAnalysis]:
    """``kind``: "move" (a checker play), "double", "answer"."""
    cd, unit = _cube_part(entry)
    pr = entry.get("pr") or {}
    ply = entry.get("ply")
    level = f"{ply}-ply" if isinstance(ply, int) and ply > 0 else ""
    nd, dt, dp = _num(cd.get("eqNoDouble")), _num(cd.get("eqDoubleTake")), _num(cd.get("eqDoublePass"))
    cube_err = _loss(pr.get("cubeError"))
    if kind == "answer":
        return FileAnalysis("bgblitz", level, unit, no_double=nd, double_take=dt, double_pass=dp,
                            take_error=cube_err, cube_level=level if cd else "")
    if kind == "double":
        return FileAnalysis("bgblitz", level, unit, no_double=nd, double_take=dt, double_pass=dp,
                            cube_error=cube_err, cube_level=level if cd else "")
    cands, played = [], -1
    for k, ma in enumerate(entry.get("moveAnalysis") or []):
        if not isinstance(ma, dict):
            continue
        try:
            st = _pairs(ma.get("move") or {})
        except ValueError:
            st = ()
        eqd = ma.get("eq") or {}
        e = _num(eqd.get("equity"))
        p = ma.get("ply")
        probs = tuple(_num(eqd.get(k)) for k in ("myWins", "myGammon", "myBackGammon", "oppGammon", "oppBackGammon"))
        cands.append(Candidate(st, 0.0 if e is None else e, f"{p}-ply" if isinstance(p, int) and p > 0 else "",
                               () if None in probs else probs))  # type: ignore[arg-type]
        if ma.get("played"):
            played = len(cands) - 1
    luck = entry.get("luck") or {}
    comment = entry.get("comment")
    return FileAnalysis("bgblitz", level, unit, _loss(pr.get("checkerError")), _num(luck.get("luckPlain")),
                        tuple(cands), played, nd, dt, dp, cube_err, level if cd else "",
                        comment=comment if isinstance(comment, str) else "")


def _game(gd: dict, number: int, file: str, budget: list[int]) -> tuple[Game, Optional[MatchProblem]]:
    score = (int(gd.get("scoreGreen") or 0), int(gd.get("scoreRed") or 0))
    actions: list[Action] = []
    cube = int((gd.get("initial") or {}).get("cube") or 1)
    moves = 0
    problem = None
    for k, e in enumerate(gd.get("moves") or []):
        budget[0] -= 1
        if budget[0] < 0:
            problem = MatchProblem(f"more than {MAX_ENTRIES} entries: the rest is not read", file, game=number, move=moves)
            break
        try:
            if not isinstance(e, dict):
                raise ValueError("entry is not an object")
            side = e.get("player")
            if side not in (1, -1):
                raise ValueError(f"player {side!r} is not +1/-1")
            p = 0 if side == -1 else 1
            d1, d2 = e.get("green"), e.get("red")
            if not isinstance(d1, int) or not isinstance(d2, int):
                raise ValueError("dice are not numbers")
            if d1 == 7:
                if d2 == 1:
                    cube *= 2
                    actions.append(Double(p, cube, move_no=moves + 1, analysis=_analysis(e, "double")))
                elif d2 == 2:
                    actions.append(Take(p, move_no=moves + 1, analysis=_analysis(e, "answer")))
                elif d2 == 3:
                    actions.append(Drop(p, move_no=moves + 1, analysis=_analysis(e, "answer")))
                elif d2 == 4:
                    pts = int(gd.get("wonPoints") or 0)
                    if pts <= 0:
                        continue  # an abandoned game (a money session stopped): left open
                    if gd.get("wasResignation"):
                        actions.append(Resign(1 - p, resign_level(pts, cube), move_no=moves))
                    actions.append(Win(p, pts, move_no=moves))
                elif d2 == 5:
                    moves += 1
                    fr, to = (e.get("from") or [0])[0], (e.get("to") or [0])[0]
                    if not (isinstance(fr, int) and isinstance(to, int) and 1 <= fr <= 6 and 1 <= to <= 6):
                        raise ValueError("no-play entry without its dice")
                    actions.append(Roll(p, (fr, to), (), move_no=moves, analysis=_analysis(e, "move")))
                elif d2 == 9:
                    continue
                else:
                    raise ValueError(f"unknown action code 7/{d2}")
                continue
            if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
                raise ValueError(f"dice {d1}{d2} out of range")
            moves += 1
            actions.append(Roll(p, (d1, d2), _pairs(e), move_no=moves, analysis=_analysis(e, "move")))
        except (ValueError, TypeError) as err:
            problem = MatchProblem(f"entry {k + 1}: {err}; the rest of the game is not read", file,
                                   game=number, move=moves)
            break
    return Game(number, score, tuple(actions)), problem


def _rating(value: Any) -> str:
    """A BGBlitz rating as written; ``""`` for none (BGBlitz writes 0)."""
    return "" if value in (None, "", 0, 0.0) else str(value)


def parse_bgf(data: bytes, file: str = "", strict: bool = False) -> Match:
    """Read a BGBlitz ``.bgf`` file's bytes into a :class:`Match` (not yet replayed)."""
    try:
        tree = load_bgf_tree(data)
    except ValueError as e:
        raise MatchFileError(MatchProblem(str(e), file)) from None
    if not isinstance(tree, dict) or not isinstance(tree.get("games"), list):
        raise MatchFileError(MatchProblem("the BGF body holds no list of games", file))
    players = (str(tree.get("nameGreen") or ""), str(tree.get("nameRed") or ""))
    try:
        length = int(tree.get("matchlen") or 0)
    except (TypeError, ValueError):
        raise MatchFileError(MatchProblem("match length is not a number", file)) from None
    games, problems = [], []
    budget = [MAX_ENTRIES]
    for i, gd in enumerate(tree["games"]):
        if not isinstance(gd, dict):
            problems.append(MatchProblem(f"game {i + 1} is not an object; games before it kept", file))
            break
        try:
            g, prob = _game(gd, i + 1, file, budget)
        except (TypeError, ValueError) as e:
            problems.append(MatchProblem(f"game {i + 1}: {e}; games before it kept", file, game=i + 1))
            break
        games.append(g)
        if prob is not None:
            problems.append(prob)
            break
    if strict and problems:
        raise MatchFileError(problems[0])
    tags = {k: str(tree[t]) for k, t in (("Event", "event"), ("Place", "location"), ("Round", "round"),
                                          ("Site", "site"), ("Date", "date"), ("Match ID", "extMatchID"))
            if tree.get(t)}
    std = {"date": iso_date(str(tree.get("date") or "")), "event": tags.get("Event"), "round": tags.get("Round"),
           "site": tags.get("Site") or tags.get("Place"), "place": tags.get("Place"),
           "rating0": _rating(tree.get("ratingGreen")), "rating1": _rating(tree.get("ratingRed"))}
    return Match(players, max(0, length), tuple(games), bool(tree.get("useCrawford", True)),
                 bool(tree.get("useJacoby", False)), bool(tree.get("useBeaver", False)), tags=with_standard(tags, std),
                 source=file, format="bgf", file_errors=problems)
