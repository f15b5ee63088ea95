"""Reading match records: format detection, files, folders and globs, streaming.

:func:`read_match` (path, text or bytes -> one replayed :class:`~bgtools.model.match.Match`),
:func:`read_matches` (paths, folders -> one Match per file, streamed), :func:`iter_games`
(one game at a time, with the match header), :func:`read_file` (one file as every command
reads it: a :class:`FileReading` with the verdict and the warnings; :class:`FileStream` the
same a game at a time).  The format is sniffed from the content and
the name: ``.mat`` text and its dialects, gnubg SGF, FIBS oldmoves, bgtools JSON, and the
binary eXtreme Gammon (``.xg``/``.xgp``) and BGBlitz (``.bgf``) files, sniffed from the bytes.
"""

from __future__ import annotations

import os
import re
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable, Iterator, Optional, Union

from bgtools.base.collector import gc_paused
from bgtools.core.matchstate import MAX_MATCH_LENGTH, MatchIDError
from bgtools.formats.bgf import is_bgf, parse_bgf
from bgtools.formats.matchjson import parse_json
from bgtools.formats.matfile import iter_mat, parse_mat
from bgtools.formats.oldmoves import parse_oldmoves
from bgtools.formats.sgf import parse_sgf
from bgtools.formats.xg import inflate_bounded, is_xg, parse_xg
from bgtools.model.game import Game, crawford_flags
from bgtools.model.match import Match
from bgtools.model.problems import MatchFileError, MatchProblem, MatchWarning
from bgtools.model.checks import record_warnings
from bgtools.model.replay import check_game, finish_match

__all__ = ["read_match", "read_matches", "read_file", "FileReading", "FileStream", "iter_games", "GameReader",
           "expand_paths", "detect_format", "detect_binary", "decode_bytes", "length_problem", "MAX_MATCH_LENGTH",
           "MATCH_SUFFIXES", "Source"]

Source = Union[str, bytes, os.PathLike]

#: format name -> reader of its text: ``parse(text, file_name, strict=...) -> Match`` (not replayed)
PARSERS = {"mat": parse_mat, "sgf": parse_sgf, "oldmoves": parse_oldmoves, "json": parse_json}
#: binary formats, sniffed from the bytes: ``parse(data, file_name, strict=...) -> Match``
BINARY_PARSERS = {"xg": parse_xg, "bgf": parse_bgf}


def detect_format(text: str, name: str = "") -> str:
    """Guess the format of a match record: ``mat``, ``sgf``, ``oldmoves`` or ``json``."""
    suffix = Path(name).suffix.lower() if name else ""
    head = text.lstrip("\ufeff \t\r\n")[:4096]
    if head.startswith("(;") or suffix == ".sgf":
        return "sgf"
    if head.startswith("{") or suffix == ".json":
        return "json"
    if "Score is " in head and " is X - " in head or suffix == ".oldmoves":
        return "oldmoves"
    return "mat"


def decode_bytes(data: bytes) -> str:
    """UTF-8 (BOM stripped), falling back to Latin-1 for old single-byte files."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def detect_binary(data: bytes, name: str = "") -> Optional[str]:
    """``"xg"`` (eXtreme Gammon archive magic) or ``"bgf"`` (BGBlitz JSON header line), else None."""
    if is_xg(data):
        return "xg"
    if is_bgf(data):
        return "bgf"
    suffix = Path(name).suffix.lower() if name else ""
    if suffix in (".xg", ".xgp"):
        return "xg"  # named as XG but without its magic: the XG reader says what is wrong
    return None


def _load_raw(source: Source) -> tuple[Union[str, bytes], str]:
    """(bytes of a path or bytes, or the text itself; name)."""
    if isinstance(source, bytes):
        return source, ""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source
                                           and len(source) < 4096 and os.path.exists(source)):
        p = Path(source)
        try:
            data = p.read_bytes()
            if p.suffix.lower() == ".gz":
                try:  # bounded as the binary formats' archives are (a decompression bomb)
                    data = inflate_bounded(data, "gzip", wbits=31, concatenated=True)
                except ValueError as e:
                    raise MatchFileError(MatchProblem(f"not a readable gzip file: {e}", str(source))) from None
                return data, str(source)[:-3]
            return data, str(source)
        except OSError as e:
            raise MatchFileError(MatchProblem(f"cannot read: {e.strerror or e}", str(source))) from None
    return str(source), ""


def read_match(source: Source, *, format: Optional[str] = None, strict: bool = False,
               name: str = "", keep_steps: bool = False) -> Match:
    """Read and replay one match from a path, text or bytes.

    Errors are collected on the games (``match.errors``); ``strict=True`` raises
    :class:`MatchFileError` at the first one.  A file that holds no match at all raises
    MatchFileError too.  ``keep_steps``: keep the replay's positions, so that walking the
    games (:meth:`Match.replay <bgtools.model.match.Match.replay>`,
    :func:`~bgtools.model.replay.replay_game`) does not replay them again.
    """
    raw, fname = _load_raw(source)
    fmt = format or (detect_binary(raw, fname) if isinstance(raw, bytes) else None)
    if fmt in BINARY_PARSERS:
        return _read_binary(raw, fmt, name or fname, strict, keep_steps)
    text = decode_bytes(raw) if isinstance(raw, bytes) else raw
    fmt = fmt or detect_format(text, fname)
    fname = name or fname
    parse = PARSERS.get(fmt)
    if parse is None:
        raise ValueError(f"unknown match format {fmt!r}")
    with gc_paused():  # one pause for parsing and replay (each pauses too): one collector pass after both
        m = parse(text, fname, strict=strict)  # (the .mat reader's Rolls are its own: fresh)
        m = finish_match(m, fname, strict, keep_steps=keep_steps, fresh=fmt == "mat")
    m = replace(m, source=fname, format=fmt)
    return replace(m, warnings=record_warnings(m))


def length_problem(m: Match) -> Optional[MatchProblem]:
    """A problem when the match is longer than a Match ID can hold (its positions then have
    no Match ID or XGID, so it cannot be exported or analysed), else None."""
    if 0 <= m.length <= MAX_MATCH_LENGTH:
        return None
    return MatchProblem(f"match length {m.length}: over {MAX_MATCH_LENGTH}, the longest match a Match ID "
                        "can hold", m.source)


@dataclass(frozen=True)
class FileReading:
    """One file as every command reads it (:func:`read_file`): the match, whether it could
    be read at all, and every warning about it.

    ``unreadable``: nothing of the file can be used (it holds no match, no game could be read,
    or its length is beyond a Match ID); ``match`` then holds no games and the reason in
    ``file_errors``.  ``warnings``: what reads but may not be what was meant, in file order:
    those found while replaying (:class:`~bgtools.model.problems.MatchWarning`) and across
    the games (``match.warnings``).  ``verdict``: ``"unreadable"``, ``"errors"`` or ``"ok"``.
    ``counts``: (actions, plays, doubles) of a file read a game at a time (:class:`FileStream`),
    whose ``match`` holds the games' summaries without their actions; :attr:`plays`,
    :attr:`doubles` and :attr:`actions` are the file's either way.
    """

    match: Match
    unreadable: bool = False
    warnings: tuple[MatchProblem, ...] = ()
    counts: Optional[tuple[int, int, int]] = field(default=None, compare=False)

    @property
    def errors(self) -> list[MatchProblem]:
        return self.match.errors

    @property
    def verdict(self) -> str:
        return "unreadable" if self.unreadable else "errors" if self.match.errors else "ok"

    @property
    def actions(self) -> int:
        return self.counts[0] if self.counts is not None else sum(len(g.actions) for g in self.match.games)

    @property
    def plays(self) -> int:
        return self.counts[1] if self.counts is not None else self.match.plays

    @property
    def doubles(self) -> int:
        return self.counts[2] if self.counts is not None else self.match.doubles


def read_file(source: Source, *, name: str = "", strict: bool = False, keep_steps: bool = False,
              stream: bool = False) -> FileReading:
    """Read one match file (a path, or its bytes with ``name``) as every command reads it.

    Never raises for a bad record: a file that cannot be read gives an ``unreadable``
    :class:`FileReading` with the reason.  Warnings are collected in the result, not
    issued.  ``strict``: stop at the first error (the file is unreadable only if it cannot be
    read at all).  ``stream``: read it a game at a time (:class:`FileStream`; without
    ``strict``), keeping the games' summaries and the counts: the same verdict, errors and
    warnings in the memory of one game.
    """
    if stream and not strict:
        fs = FileStream(source, name=name, keep_steps=keep_steps)
        for _ in fs:
            pass
        return fs.reading()
    fname = _file_name(source, name)

    def read(s: bool, steps: bool = keep_steps) -> Match:
        return read_match(_as_path(source), name=fname, strict=s, keep_steps=steps)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", MatchWarning)
        try:
            m = read(strict)
        except MatchFileError as e:
            err = e.error if e.error.file else replace(e.error, file=fname)
            unreadable = True
            if strict:
                try:
                    unreadable = not read(False).games
                except MatchFileError:
                    pass
            return FileReading(Match(("", ""), 0, source=fname, file_errors=[err]), unreadable)
        except MatchIDError:  # the steps of a match longer than a Match ID holds: refused below
            if not keep_steps:
                raise
            m = read(strict, False)
            if length_problem(m) is None:
                raise
    return _reading(m, _caught(caught), fname)


def _file_name(source: Source, name: str) -> str:
    return name or (str(source) if isinstance(source, (str, os.PathLike)) else "")


def _as_path(source: Source) -> Union[bytes, os.PathLike]:
    """A source as :func:`read_file` takes it: a string is a path."""
    return Path(source) if isinstance(source, str) else source


def _caught(caught: list) -> list[MatchProblem]:
    """The problems of the :class:`MatchWarning` s recorded; any other warning is shown as it would have been."""
    for w in caught:
        if not isinstance(w.message, MatchWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return [w.message.problem for w in caught if isinstance(w.message, MatchWarning)]


def _reading(m: Match, seen: list[MatchProblem], fname: str,
             counts: Optional[tuple[int, int, int]] = None) -> FileReading:
    """The :class:`FileReading` of a match read (``seen``: the warnings issued while reading it)."""
    found = [replace(p, severity="warning") for p in dict.fromkeys(seen)] + list(m.warnings)
    found.sort(key=lambda p: (p.line or 0, p.column))
    prob = length_problem(m)
    if prob is not None:
        return FileReading(Match(m.players, 0, source=fname, format=m.format, file_errors=[prob]), True,
                           tuple(found))
    return FileReading(m, bool(m.file_errors and not m.games), tuple(found), counts)


class FileStream:
    """:func:`read_file` a game at a time: ``for header, game in FileStream(path): ...``, then
    :meth:`reading` (the verdict, errors and warnings :func:`read_file` gives, the games'
    summaries and the counts).

    A ``.mat`` file is read, replayed (``keep_steps`` too) and let go a game at a time
    (:class:`GameReader`); other files are read whole first.  The warnings issued while
    reading are collected, not shown.  What makes the whole file unreadable stops the loop
    before its first game where it is found there (no match line, a match longer than a
    Match ID holds); :meth:`match` is ``reading().match`` (for
    :func:`~bgtools.analysis.analyse.analyse_match`).
    """

    def __init__(self, source: Source, *, name: str = "", keep_steps: bool = False):
        self.name = _file_name(source, name)
        self.reader = GameReader(_as_path(source), name=self.name, keep_steps=keep_steps)
        self._seen: list[MatchProblem] = []
        self._failed: Optional[FileReading] = None
        self._done = False

    def __iter__(self) -> Iterator[tuple[Match, Game]]:
        games = iter(self.reader)
        first = True
        while True:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", MatchWarning)
                try:
                    got = next(games, None)
                except MatchFileError as e:
                    err = e.error if e.error.file else replace(e.error, file=self.name)
                    got, self._failed = None, FileReading(Match(("", ""), 0, source=self.name, file_errors=[err]), True)
            self._seen += _caught(caught)
            head = got[0] if got is not None else self.reader.header
            if first and head is not None and length_problem(head) is not None:  # (steps or not)
                self._failed = _reading(replace(head, games=()), self._seen, self.name)
                break
            if got is None:
                break
            first = False
            yield got
        self._done = True

    @property
    def failed(self) -> bool:
        """Whether the file was found unreadable (the loop stopped)."""
        return self._failed is not None

    def reading(self) -> FileReading:
        """The file's :class:`FileReading` (after the loop)."""
        if self._failed is not None:
            return self._failed
        if not self._done:
            raise ValueError("FileStream.reading(): the games have not all been read")
        r = self.reader
        return _reading(r.match(), self._seen, self.name, None if r.whole is not None else
                        (r.actions, r.plays, r.doubles))

    def match(self) -> Match:
        return self.reading().match


def _read_binary(raw: Union[str, bytes], fmt: str, fname: str, strict: bool, keep_steps: bool = False) -> Match:
    """eXtreme Gammon / BGBlitz bytes -> a replayed Match (the file's analysis kept on the actions)."""
    if not isinstance(raw, bytes):
        raise MatchFileError(MatchProblem(f"the {fmt} format is binary: pass a path or bytes, not text", fname))
    m = BINARY_PARSERS[fmt](raw, fname, strict=strict)
    m = finish_match(m, fname, strict, keep_steps=keep_steps)
    m = replace(m, source=fname, format=fmt)
    return replace(m, warnings=record_warnings(m))


MATCH_SUFFIXES = (".mat", ".txt", ".gam", ".sgf", ".json", ".oldmoves", ".sgf.gz", ".mat.gz", ".xg", ".xgp", ".bgf")


def expand_paths(paths: Iterable[Union[str, os.PathLike]]) -> Iterator[str]:
    """Files, folders (searched recursively for match files) and glob patterns -> file paths."""
    import glob

    for p in paths:
        s = str(p)
        if s == "-":
            yield s
        elif os.path.isdir(s):
            for root, dirs, files in os.walk(s):
                dirs.sort()
                for f in sorted(files):
                    if f.lower().endswith(MATCH_SUFFIXES):
                        yield os.path.join(root, f)
        elif os.path.exists(s):
            yield s
        else:
            hits = sorted(glob.glob(s, recursive=True))
            if not hits:
                yield s  # reported as unreadable by the caller
            for h in hits:
                if os.path.isfile(h):
                    yield h


def read_matches(paths: Iterable[Union[str, os.PathLike]], *, strict: bool = False,
                 keep_steps: bool = False) -> Iterator[Match]:
    """Yield one replayed :class:`Match` per file (folders and globs expanded), streaming.

    An unreadable file yields a Match with no games and the reason in ``file_errors``.
    ``keep_steps``: see :func:`read_match`.
    """
    for path in expand_paths(paths):
        try:
            yield read_match(Path(path), strict=strict, name=path, keep_steps=keep_steps)
        except MatchFileError as e:
            if strict:
                raise
            yield Match(("", ""), 0, source=path, file_errors=[replace(e.error, file=path)])


def iter_games(source: Union[Source, Iterable], *, strict: bool = False,
               keep_steps: bool = False) -> Iterator[tuple[Match, Game]]:
    """Yield ``(match header, game)`` for every game of one source or of many paths.

    The header is the Match without its games.  A ``.mat`` file is read, replayed and handed
    over a game at a time (:class:`GameReader`): memory does not grow with its length.
    """
    if isinstance(source, (list, tuple)) or (not isinstance(source, (str, bytes, os.PathLike))):
        for path in expand_paths(source):  # type: ignore[arg-type]  # an iterable of paths
            yield from GameReader(Path(path), name=path, strict=strict, keep_steps=keep_steps)
    else:
        yield from GameReader(source, strict=strict, keep_steps=keep_steps)


#: what may be a match line, and a beaver cell's word (mat.lark's POINT_MATCH, BEAVERS): looser
#: than the grammar, so that a line they miss is surely neither
_MATCH_WORDS = re.compile(r"(?i)points?[ \t]+match")
_BEAVER_WORDS = re.compile(r"(?i)beaver|raccoon")
#: a line that is a game line (mat.lark's GAME_LINE, alone on its line): where a piece may start
_GAME_LINE = re.compile(r"(?i)[ \t]*game[ \t]+\d+")
#: lines of .mat text parsed at a time (whole games)
CHUNK_LINES = 4000


class GameReader:
    """One match file read a game at a time: ``for header, game in GameReader(path): ...``.

    Each game is replayed (as :func:`read_match` replays it, ``keep_steps`` too) and handed
    over with the header (the match without its games); what is kept of it afterwards is a
    summary (number, line, score, result, errors), so that a ``.mat`` file of any length is
    read in the memory of one game.  Other formats, text and bytes are read whole first.
    After the loop: :meth:`match` (the header with the games' summaries and the record's
    warnings; a file read whole: its Match), :attr:`actions`, :attr:`plays`, :attr:`doubles`.  Errors as
    :func:`read_match`.
    """

    def __init__(self, source: Source, *, name: str = "", strict: bool = False, keep_steps: bool = False):
        self.source, self.name, self.strict, self.keep_steps = source, name, strict, keep_steps
        self.header: Optional[Match] = None
        self.games: list[Game] = []  #: summaries of the games read: no actions
        self.plays = self.doubles = self.actions = 0
        self.whole: Optional[Match] = None

    def __iter__(self) -> Iterator[tuple[Match, Game]]:
        path = self._mat_path()
        if path is None:
            yield from self._whole()
            return
        fname = self.name or str(self.source)
        enc, beavers = _scan_mat(path)
        if enc is None:  # a match line where a piece would start, or none before the games: whole
            self.source = path
            self.name = fname
            yield from self._whole()
            return
        seen = False
        gi = 0
        for head, read in iter_mat(_chunks(path, enc), fname, self.strict, beavers=beavers):
            head = replace(head, source=fname, format="mat")
            self.header = head
            if read is None:
                break
            if gi == 0:
                self._steps_possible(head)
            g = read
            c = crawford_flags(head.length, [g.score], head.crawford and not seen)[0]
            seen = seen or c
            with gc_paused():
                g = check_game(head, g if g.crawford == c else replace(g, crawford=c), fname, self.strict,
                               keep_steps=self.keep_steps, game_index=gi, fresh=True)
            self._count(g)
            gi += 1
            yield head, g

    def _whole(self) -> Iterator[tuple[Match, Game]]:
        try:
            m = read_match(self.source, strict=self.strict, name=self.name, keep_steps=self.keep_steps)
        except MatchIDError:
            if not self.keep_steps:
                raise
            self._steps_possible(read_match(self.source, strict=self.strict, name=self.name))
            raise
        self.header = replace(m, games=())
        self.whole = m  # read whole anyway: :meth:`match` gives it as it is
        for g in m.games:
            self._count(g)
            yield self.header, g

    def _steps_possible(self, head: Match) -> None:
        """Raise :class:`MatchFileError` when the games' steps (``keep_steps``) cannot be made:
        a match longer than a Match ID holds has no match state."""
        prob = length_problem(head) if self.keep_steps else None
        if prob is not None:
            raise MatchFileError(prob)

    def _mat_path(self) -> Optional[Path]:
        """The path of an uncompressed ``.mat`` text file to stream, else None."""
        src = self.source
        if isinstance(src, bytes) or not (isinstance(src, os.PathLike) or (
                isinstance(src, str) and "\n" not in src and len(src) < 4096 and os.path.exists(src))):
            return None
        p = Path(src)
        if p.suffix.lower() == ".gz" or not p.is_file():
            return None
        try:
            with open(p, "rb") as fh:
                head = fh.read(16384)
        except OSError:
            return None
        text = _head_text(head)
        if detect_binary(head, str(p)) is not None or (len(head) == 16384 and len(text.lstrip()) < 4096):
            return None
        return p if detect_format(text, str(p)) == "mat" else None

    def _count(self, g: Game) -> None:
        self.actions += len(g.actions)
        self.plays += g.plays
        self.doubles += g.doubles
        self.games.append(replace(g, actions=(), props={}, notes=(), kept_steps=None))

    def match(self) -> Match:
        """The match read (after the loop): the header, the games' summaries, the warnings."""
        if self.header is None:
            raise ValueError("GameReader.match(): the games have not been read")
        if self.whole is not None:
            return self.whole
        m = replace(self.header, games=tuple(self.games))
        return replace(m, warnings=record_warnings(m))


def _head_text(head: bytes) -> str:
    """The start of a file as text, for :func:`detect_format` (a multi-byte character cut at the end ignored)."""
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    try:
        return head.decode("utf-8")
    except UnicodeDecodeError as e:
        if e.start >= len(head) - 3:
            return head[:e.start].decode("utf-8", errors="replace")
        return head.decode("latin-1")


def _lines(path: Path, enc: str) -> Iterator[str]:
    """The lines of a .mat file as :func:`~bgtools.formats.matfile.mat_lines` gives them, read as they go."""
    with open(path, "rb") as fh:
        prev: Optional[str] = None
        newline = True
        for k, raw in enumerate(fh):
            if k == 0 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            text = raw.decode(enc)
            if k == 0 and text.startswith("\ufeff"):
                text = text[1:]
            if prev is not None:
                yield prev
            newline = raw.endswith(b"\n")
            prev = text.rstrip()
            if "\t" in prev:
                prev = prev.expandtabs(8)
        # the text's last piece (after its last newline, or without one) is no line when empty
        if prev is not None and (newline or prev):
            yield prev


def _scan_mat(path: Path) -> tuple[Optional[str], bool]:
    """(encoding, whether a beaver cell is read in a game) of a .mat file, read once without
    keeping it; encoding None when it cannot be streamed exactly as it is read whole (a line
    that may be a match line after the first game line, or none before it)."""
    for enc in ("utf-8", "latin-1"):
        try:
            before = after = 0
            beavers = False
            piece: Optional[list[str]] = None  # the lines of the game being read, while no beaver is found
            for ln in _lines(path, enc):
                if _GAME_LINE.fullmatch(ln):
                    beavers = beavers or (piece is not None and _has_beaver(piece))
                    piece = []
                if _MATCH_WORDS.search(ln):
                    if piece is None:
                        before += 1
                    else:
                        after += 1
                if piece is not None and not beavers:
                    piece.append(ln)
            beavers = beavers or (piece is not None and _has_beaver(piece))
            return (enc, beavers) if before == 1 and not after else (None, False)
        except UnicodeDecodeError:
            continue
    return None, False  # pragma: no cover  (latin-1 decodes any byte)


def _has_beaver(piece: list[str]) -> bool:
    """Whether a game's lines read a beaver cell (parsed only when a line names one)."""
    from bgtools.formats.matgrammar import parse_lines

    if not any(_BEAVER_WORDS.search(ln) for ln in piece):
        return False
    for kind, _, data in parse_lines(piece):
        cells = data[2] if kind in ("move_line", "move_line_repeat") else data if kind == "cell_line" else ()
        if any(c[1] == "beaver" for c in cells):
            return True
    return False


def _chunks(path: Path, enc: str) -> Iterator[tuple[int, list[str]]]:
    """(index of the first line, lines) of a .mat file in pieces of about :data:`CHUNK_LINES`
    lines, each after the first starting at a game line."""
    piece: list[str] = []
    start = 0
    for i, ln in enumerate(_lines(path, enc)):
        if len(piece) >= CHUNK_LINES and _GAME_LINE.fullmatch(ln):
            yield start, piece
            piece, start = [], i
        piece.append(ln)
    if piece or start == 0:
        yield start, piece

