"""eXtreme Gammon binary files (``.xg`` matches, ``.xgp`` positions) -> the match model.

Layout (see ``docs/formats-binary.md``): an 8,232-byte header (magic ``RGMH``), a JPEG
thumbnail, then a zlib archive: compressed members, a compressed index of 532-byte
entries, a 36-byte trailer with a CRC-32 over data and index.  The member ``temp.xg`` is a
run of 2,560-byte little-endian records (byte 8 = type: 0 match header, 1 game header,
2 cube, 3 move, 4 game footer, 5 match footer); ``temp.xgc`` holds RTF comments.

:func:`parse_xg` returns a Match (not yet replayed).  Damage to the archive (magic, CRCs,
index, a member past the end, a decompression bomb) raises a one-line
:class:`~bgtools.model.problems.MatchFileError`; a truncated archive or a bad record keeps
the games read before the damage and reports it in ``file_errors`` (strict: raises).
"""

from __future__ import annotations

import re
import struct
import zlib
from dataclasses import dataclass, field
from typing import Optional

from bgtools.base.errors import BgtoolsError
from bgtools.formats.metadata import delphi_datetime, with_standard
from bgtools.model.fileanalysis import Candidate, FileAnalysis
from bgtools.model.game import Action, Beaver, Double, Drop, Game, Resign, Roll, Take, Win
from bgtools.model.match import Match
from bgtools.model.problems import MatchFileError, MatchProblem

__all__ = ["parse_xg", "is_xg", "inflate_bounded", "TruncatedStream", "record_counts", "read_archive", "xg_level", "XG_MAGIC",
           "RECORD_SIZE", "MAX_MEMBER", "MAX_RATIO", "MAX_RECORDS", "MAX_TOTAL", "READ_MEMBERS"]

XG_MAGIC = b"RGMH"
HEADER_SIZE = 8232
TRAILER_SIZE = 36
INDEX_ENTRY = 532
RECORD_SIZE = 2560
MAX_MEMBER = 256 * 1024 * 1024  #: a member inflating past this is refused (decompression bomb)
MAX_RATIO = 1000  #: ... and so is one growing past this many times its compressed size
MAX_TOTAL = MAX_MEMBER  #: ... and the members read, together, past this (many members each under the limits)
#: the members the reader needs: the game records and their comments; the others are never inflated
READ_MEMBERS = ("temp.xg", "temp.xgc")
MAX_RECORDS = 100_000  #: records of temp.xg read at most
MAX_MEMBERS = 64
NOT_ANALYSED = -1000.0

_R = struct.Struct


def is_xg(data: bytes) -> bool:
    """Content test: the eXtreme Gammon file magic."""
    return data[:4] == XG_MAGIC


class TruncatedStream(BgtoolsError, ValueError):
    """A compressed stream that ends early; ``partial`` holds what inflated before the end."""

    def __init__(self, what: str, partial: bytes):
        super().__init__(f"{what}: compressed data cut short")
        self.partial = partial


def inflate_bounded(data: bytes, what: str, expected: Optional[int] = None, wbits: int = 15, *,
                    budget: Optional[int] = None, concatenated: bool = False) -> bytes:
    """Inflate ``data`` (zlib; ``wbits=31`` gzip), refusing output past :data:`MAX_MEMBER`,
    :data:`MAX_RATIO` times the input or ``budget`` bytes (what is left of a bound on several
    streams together): a decompression bomb.  ``concatenated``: streams one after the other
    (a gzip file of several members), bounded together.

    Raises ValueError (bomb, corrupt stream) or :class:`TruncatedStream` (stream cut short).
    """
    limit = min(MAX_MEMBER, max(len(data), 1) * MAX_RATIO)
    if budget is not None:
        limit = min(limit, max(budget, 0))
    if expected is not None and expected > limit:
        raise ValueError(f"{what}: declared size {expected} bytes is over the limit "
                         f"({limit} bytes): refused as a decompression bomb")
    d = zlib.decompressobj(wbits)
    out = bytearray()
    buf = data
    try:
        while buf:
            chunk = d.decompress(buf, 1 << 20)
            out += chunk
            if len(out) > limit:
                raise ValueError(f"{what}: inflates past {limit} bytes: refused as a decompression bomb")
            buf = d.unconsumed_tail
            if d.eof:
                if not (concatenated and d.unused_data):
                    break
                buf = d.unused_data
                d = zlib.decompressobj(wbits)
    except zlib.error as e:
        raise ValueError(f"{what}: corrupt compressed data ({e})") from None
    if not d.eof:
        raise TruncatedStream(what, bytes(out))
    return bytes(out)


def _shortstr(b: bytes) -> str:
    n = min(b[0], len(b) - 1) if b else 0
    return b[1:1 + n].decode("cp1252", errors="replace")


def _utf16(b: bytes) -> str:
    return b.decode("utf-16-le", errors="replace").split("\0", 1)[0]


@dataclass
class _Archive:
    members: dict = field(default_factory=dict)
    problems: list = field(default_factory=list)


def read_archive(data: bytes, names: tuple[str, ...] = READ_MEMBERS) -> _Archive:
    """The members ``names`` of the XG zlib archive, their CRCs checked (ValueError on damage).

    Only those are inflated, :data:`MAX_TOTAL` bytes at most together (the other members are
    checked to lie inside the archive, whose CRC covers them, and left compressed); a name
    to read that the index gives twice is damage.
    """
    if len(data) < HEADER_SIZE:
        raise ValueError(f"truncated: {len(data)} bytes, shorter than the {HEADER_SIZE}-byte XG header")
    if not is_xg(data):
        raise ValueError("not an eXtreme Gammon file (no RGMH magic)")
    thumb = _R("<i").unpack_from(data, 20)[0]
    start = HEADER_SIZE + thumb
    if thumb < 0 or start > len(data):
        raise ValueError(f"thumbnail size {thumb} runs past the end of the file")
    arc = _Archive()
    end = len(data) - TRAILER_SIZE
    ok = end >= start
    if ok:
        crc, count, _ver, regsize, arcsize, creg = _R("<Iiiiii").unpack_from(data, end)
        istart = end - regsize
        dstart = istart - arcsize
        ok = 0 < count <= MAX_MEMBERS and regsize > 0 and arcsize >= 0 and dstart == start
    if not ok:
        # trailer missing or wrong: the archive was cut short; salvage the first member
        try:
            arc.members["temp.xg"] = inflate_bounded(data[start:], "temp.xg")
        except TruncatedStream as e:
            arc.members["temp.xg"] = e.partial
        arc.problems.append("archive truncated or its trailer damaged (no valid index at the end)")
        return arc
    if zlib.crc32(data[dstart:end]) != crc:
        raise ValueError("archive CRC mismatch: the file is damaged")
    index = data[istart:end]
    if creg:
        try:
            index = inflate_bounded(index, "archive index", count * INDEX_ENTRY)
        except TruncatedStream:
            raise ValueError("archive index is cut short") from None
    if len(index) < count * INDEX_ENTRY:
        raise ValueError(f"archive index holds {len(index) // INDEX_ENTRY} entries, the trailer says {count}")
    wanted: list[tuple[str, int, int, int, int, bool]] = []
    for k in range(count):
        ent = index[k * INDEX_ENTRY:(k + 1) * INDEX_ENTRY]
        name = _shortstr(ent[:256])
        osize, csize, mstart, mcrc = _R("<iiiI").unpack_from(ent, 512)
        if mstart < 0 or csize < 0 or osize < 0 or mstart + csize > arcsize:
            raise ValueError(f"index entry {name!r} points past the archive data")
        if name in names:
            if any(w[0] == name for w in wanted):
                raise ValueError(f"member {name!r} appears twice in the archive index")
            wanted.append((name, osize, csize, mstart, mcrc, ent[528] == 0))
    declared = sum(w[1] for w in wanted)
    if declared > MAX_TOTAL:
        raise ValueError(f"members {', '.join(repr(w[0]) for w in wanted)} declare {declared} bytes in all, over "
                         f"the limit ({MAX_TOTAL} bytes): refused as a decompression bomb")
    left = MAX_TOTAL
    for name, osize, csize, mstart, mcrc, compressed in wanted:
        raw = data[dstart + mstart:dstart + mstart + csize]
        if compressed:
            try:
                body = inflate_bounded(raw, name, osize, budget=left)
            except TruncatedStream:
                raise ValueError(f"member {name!r} is cut short") from None
        else:
            body = raw
        if len(body) != osize:
            raise ValueError(f"member {name!r} has {len(body)} bytes, the index says {osize}")
        if zlib.crc32(body) != mcrc:
            raise ValueError(f"member {name!r} CRC mismatch: the file is damaged")
        arc.members[name] = body
        left -= len(body)
    if "temp.xg" not in arc.members:
        raise ValueError("archive has no temp.xg member (no game records)")
    return arc


# ----------------------------------------------------------------------------- levels
_LEVELS = {100: "rollout", 998: "book", 999: "book", 1000: "XG Roller", 1001: "XG Roller+",
           1002: "XG Roller++"}


def xg_level(code: int) -> str:
    """XG analysis-level code -> name: 0..6 = 1..7-ply, 100 rollout, 998/999 book, 1000-1002 XG Roller."""
    if 0 <= code <= 6:
        return f"{code + 1}-ply"
    return _LEVELS.get(code, "")


def _err(v: float) -> Optional[float]:
    return None if v <= NOT_ANALYSED + 1 or v != v else abs(v)


def _steps(raw) -> Optional[tuple[tuple[int, int], ...]]:
    """XG (from, to) pairs (0-based, mover's frame, 24 = bar, < 0 = off; -1 from ends) -> steps."""
    if all(v == 0 for v in raw):
        return None  # no play recorded (a roll before a resignation)
    out = []
    for k in range(0, len(raw) - 1, 2):
        a, b = raw[k], raw[k + 1]
        if a < 0:
            break
        if a > 24 or b > 23:
            raise _BadRecord(f"move point out of range ({a}, {b})")
        out.append((a + 1, b + 1 if b >= 0 else 0))
    return tuple(out)


class _BadRecord(Exception):
    pass


# ----------------------------------------------------------------------------- comments
def _rtf_text(rtf: str) -> str:
    s = rtf.replace("\x01\x02", "")
    s = re.sub(r"\{\\(?:fonttbl|colortbl|\*)[^{}]*(?:\{[^{}]*\}[^{}]*)*\}", "", s)
    s = re.sub(r"\\'([0-9a-fA-F]{2})", lambda m: bytes([int(m.group(1), 16)]).decode("cp1252", "replace"), s)
    s = re.sub(r"\\u(-?\d+) ?\??", lambda m: chr(int(m.group(1)) % 65536), s)
    s = re.sub(r"\\par\b ?", "\n", s)
    s = re.sub(r"\\[a-zA-Z]+-?\d* ?", "", s)
    s = s.replace("{", "").replace("}", "")
    return s.strip()


def _comments(data: bytes) -> list[str]:
    text = data.decode("cp1252", errors="replace")
    return [_rtf_text(line) for line in text.split("\r\n") if line.strip()]


# ----------------------------------------------------------------------------- records
def _move_analysis(rec: bytes, level_code: int, comment: str) -> FileAnalysis:
    n = max(0, min(32, _R("<i").unpack_from(rec, 188)[0]))
    played_raw = _R("<8i").unpack_from(rec, 68)
    cands = []
    for c in range(n):
        mv = _R("<8b").unpack_from(rec, 1024 + 8 * c)
        lev = _R("<h").unpack_from(rec, 1280 + 4 * c)[0]
        ev = _R("<7f").unpack_from(rec, 1408 + 28 * c)  # lose bg, lose g, lose, win, win g, win bg, equity
        try:
            st = _steps(mv) or ()
        except _BadRecord:
            st = ()
        probs = tuple(round(float(ev[i]), 6) for i in (3, 4, 5, 1, 0))
        cands.append(Candidate(st, round(float(ev[6]), 6), xg_level(lev), probs))
    err, luck = _R("<dd").unpack_from(rec, 2312)
    want = sorted(_steps(played_raw) or ()) if any(played_raw) else None
    played = next((k for k, c in enumerate(cands) if sorted(c.steps) == want), -1)
    return FileAnalysis("xg", xg_level(level_code), "equity", _err(err), None if luck <= NOT_ANALYSED + 1 else luck,
                        tuple(cands), played, comment=comment)


def _cube_analysis(rec: bytes, comment: str) -> Optional[FileAnalysis]:
    level = _R("<i").unpack_from(rec, 232)[0]
    if level < 0:
        return None
    nd, dt, dp = _R("<fff").unpack_from(rec, 152)
    err_cube = _R("<d").unpack_from(rec, 200)[0]
    err_take = _R("<d").unpack_from(rec, 216)[0]
    return FileAnalysis("xg", xg_level(level), "equity", no_double=round(float(nd), 6),
                        double_take=round(float(dt), 6), double_pass=round(float(dp), 6),
                        cube_error=_err(err_cube), cube_level=xg_level(level), take_error=_err(err_take),
                        comment=comment)


@dataclass
class _GameBuilder:
    number: int
    score: tuple[int, int]
    actions: list = field(default_factory=list)
    cube: int = 1
    pending_cube: Optional[FileAnalysis] = None
    moves: int = 0
    comment: str = ""
    setup: bool = False  #: starts from an edited position (an .xgp file)


#: the starting position as XG stores it (index = point, + = player 1's checkers)
XG_START = (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0)


def _comment(comments: list[str], idx: int) -> str:
    return comments[idx] if 0 <= idx < len(comments) else ""


def _cube_record(g: _GameBuilder, rec: bytes, comments: list[str]) -> None:
    active, double, take, beaver_r = _R("<iiii").unpack_from(rec, 12)
    p = 0 if active == 1 else 1
    an = _cube_analysis(rec, _comment(comments, _R("<i").unpack_from(rec, 292)[0]))
    if double != 1:
        g.pending_cube = an
        return
    g.pending_cube = None
    g.cube *= 2
    mv = g.moves + 1
    g.actions.append(Double(p, g.cube, move_no=mv, analysis=an))
    answer = None if an is None else FileAnalysis("xg", an.level, "equity", no_double=an.no_double,
                                                  double_take=an.double_take, double_pass=an.double_pass,
                                                  take_error=an.take_error)
    if take == 1:
        g.actions.append(Take(1 - p, move_no=mv, analysis=answer))
    elif take == 0:
        g.actions.append(Drop(1 - p, move_no=mv, analysis=answer))
    elif take == 2:
        g.cube *= 2
        g.actions.append(Beaver(1 - p, g.cube, move_no=mv, analysis=answer))
        if beaver_r == 2:
            g.cube *= 2
            g.actions.append(Beaver(p, g.cube, move_no=mv))
    else:
        raise _BadRecord(f"cube record with an unknown answer {take}")


def _move_record(g: _GameBuilder, rec: bytes, comments: list[str]) -> None:
    active = _R("<i").unpack_from(rec, 64)[0]
    raw = _R("<8i").unpack_from(rec, 68)
    d1, d2 = _R("<ii").unpack_from(rec, 100)
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise _BadRecord(f"dice {d1}{d2} out of range")
    g.moves += 1
    steps = _steps(raw)
    an = _move_analysis(rec, _R("<i").unpack_from(rec, 2472)[0],
                        _comment(comments, _R("<i").unpack_from(rec, 2524)[0]))
    cube = g.pending_cube
    if cube is not None:
        an = FileAnalysis(an.source, an.level, an.unit, an.error, an.luck, an.candidates, an.played,
                          cube.no_double, cube.double_take, cube.double_pass, cube.cube_error,
                          cube.cube_level, None, an.comment or cube.comment)
    g.pending_cube = None
    p = 0 if active == 1 else 1
    if steps is None:
        g.actions.append(Roll(p, (d1, d2), None, "rolled", move_no=g.moves, analysis=an))
    else:
        g.actions.append(Roll(p, (d1, d2), steps, move_no=g.moves, analysis=an))


def _footer(g: _GameBuilder, rec: bytes) -> None:
    winner, points, term = _R("<iii").unpack_from(rec, 24)
    w = 0 if winner == 1 else 1
    if term >= 1000:
        pass  # settlement: only the points
    elif term >= 100:
        g.actions.append(Resign(1 - w, max(1, min(3, term - 100)), move_no=g.moves))
    g.actions.append(Win(w, points, move_no=g.moves))


def _match_header(rec: bytes) -> tuple[dict, int]:
    version = _R("<i").unpack_from(rec, 552)[0]
    p1, p2 = _shortstr(rec[9:50]), _shortstr(rec[50:91])
    tags = {"Event": _shortstr(rec[136:265]), "Place": _shortstr(rec[283:412]), "Round": _shortstr(rec[417:546])}
    if version >= 24:
        p1 = _utf16(rec[880:1138]) or p1
        p2 = _utf16(rec[1138:1396]) or p2
        tags.update(Event=_utf16(rec[622:880]) or tags["Event"], Place=_utf16(rec[1396:1654]) or tags["Place"],
                    Round=_utf16(rec[1654:1912]) or tags["Round"])
    if version >= 30:
        tags["Transcriber"] = _utf16(rec[1960:2218])
    length = _R("<i").unpack_from(rec, 92)[0]
    elo1, elo2, exp1, exp2, days = _R("<ddiid").unpack_from(rec, 104)
    date, time = delphi_datetime(days)
    std = {"date": date, "time": time, "event": tags["Event"], "round": tags["Round"], "site": tags["Place"],
           "rating0": f"{elo1:.2f}/{exp1}", "rating1": f"{elo2:.2f}/{exp2}"}
    head = {"players": (p1, p2), "length": 0 if length >= 99999 else length, "crawford": bool(rec[100]),
            "jacoby": bool(rec[101]), "beavers": bool(rec[102]),
            "tags": with_standard({k: v for k, v in tags.items() if v} | {"XG version": str(version)}, std)}
    return head, version


def parse_xg(data: bytes, file: str = "", strict: bool = False) -> Match:
    """Read an ``.xg``/``.xgp`` file's bytes into a :class:`Match` (not yet replayed)."""
    try:
        arc = read_archive(data)
    except ValueError as e:
        raise MatchFileError(MatchProblem(str(e), file)) from None
    problems = [MatchProblem(p, file) for p in arc.problems]
    recs = arc.members["temp.xg"]
    comments = _comments(arc.members.get("temp.xgc", b""))
    nrec = len(recs) // RECORD_SIZE
    if len(recs) % RECORD_SIZE and not problems:
        problems.append(MatchProblem(f"temp.xg ends inside a record ({len(recs)} bytes is not a "
                                     f"multiple of {RECORD_SIZE})", file))
    if nrec > MAX_RECORDS:
        problems.append(MatchProblem(f"temp.xg holds {nrec} records, over the limit of {MAX_RECORDS}", file))
        nrec = MAX_RECORDS
    if nrec == 0 or recs[8] != 0:
        raise MatchFileError(MatchProblem("temp.xg does not start with a match header record", file))
    head, _version = _match_header(recs[:RECORD_SIZE])
    games: list[Game] = []
    g: Optional[_GameBuilder] = None
    positions = False
    for k in range(1, nrec):
        rec = recs[k * RECORD_SIZE:(k + 1) * RECORD_SIZE]
        t = rec[8]
        try:
            if t == 1:
                if g is not None:
                    raise _BadRecord("game header before the previous game's footer")
                s1, s2 = _R("<ii").unpack_from(rec, 12)
                number = _R("<i").unpack_from(rec, 48)[0]
                pos = _R("<26b").unpack_from(rec, 21)
                g = _GameBuilder(number if number > 0 else len(games) + 1, (s1, s2),
                                 comment=_comment(comments, _R("<i").unpack_from(rec, 56)[0]),
                                 setup=any(pos) and pos != XG_START)
                positions = positions or g.setup
            elif t in (2, 3, 4):
                if g is None:
                    raise _BadRecord("game record outside a game")
                if not g.actions and g.moves == 0 and not g.setup:
                    # the first record's position: not the start = an edited position (.xgp)
                    pos = _R("<26b").unpack_from(rec, 36 if t == 2 else 9)
                    g.setup = any(pos) and pos != XG_START
                    positions = positions or g.setup
                if t == 2:
                    _cube_record(g, rec, comments)
                elif t == 3:
                    _move_record(g, rec, comments)
                else:
                    _footer(g, rec)
                    games.append(_finish(g, g.setup))
                    g = None
            elif t == 5:
                break
            else:
                raise _BadRecord(f"unknown record type {t}")
        except _BadRecord as e:
            problems.append(MatchProblem(f"temp.xg record {k}: {e}; games before it kept", file,
                                         game=g.number if g else 0, move=g.moves if g else 0))
            g = None
            break
    if g is not None and not problems:
        games.append(_finish(g, g.setup))  # a game in progress, or the one position of an .xgp
    if strict and problems:
        raise MatchFileError(problems[0])
    tags = dict(head.pop("tags"))
    if positions:
        tags["XG position"] = "1"
    return Match(head["players"], head["length"], tuple(games), head["crawford"], head["jacoby"],
                 head["beavers"], tags=tags, source=file, format="xg", file_errors=problems)


def _finish(g: _GameBuilder, setup: bool = False) -> Game:
    props: dict = {}
    if g.comment:
        props["GC"] = [g.comment]  # the game's comment, as an SGF root property
    if setup:
        props["_setup"] = ["1"]
    actions: tuple[Action, ...] = tuple(g.actions)
    return Game(g.number, g.score, actions, props=props)


def record_counts(data: bytes) -> dict[str, int]:
    """How many records of each type ``temp.xg`` holds, and the match footer's final score."""
    recs = read_archive(data).members["temp.xg"]
    names = ("header_match", "header_game", "cube", "move", "footer_game", "footer_match")
    out = dict.fromkeys(names, 0)
    for k in range(min(len(recs) // RECORD_SIZE, MAX_RECORDS)):
        b = k * RECORD_SIZE
        t = recs[b + 8]
        if t < len(names):
            out[names[t]] += 1
        if t == 5:
            out["final_1"], out["final_2"] = _R("<ii").unpack_from(recs, b + 12)
    return out
