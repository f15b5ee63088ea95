"""Reading match records: format detection, files, folders and globs, streaming.

:func:`read_match` (path, text or bytes -> one replayed :class:`~bgtools.model.match.Match`),
:func:`read_matches` (paths, folders -> one Match per file, streamed), :func:`iter_games`
(one game at a time, with the match header).  The format is sniffed from the content and
the name: ``.mat`` text and its dialects, gnubg SGF, FIBS oldmoves, bgtools JSON, and the
binary eXtreme Gammon (``.xg``/``.xgp``) and BGBlitz (``.bgf``) files, sniffed from the bytes.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Iterable, Iterator, Optional, Union

from bgtools.base.collector import gc_paused
from bgtools.formats.bgf import is_bgf, parse_bgf
from bgtools.formats.matchjson import parse_json
from bgtools.formats.matfile import parse_mat
from bgtools.formats.oldmoves import parse_oldmoves
from bgtools.formats.sgf import parse_sgf
from bgtools.formats.xg import inflate_bounded, is_xg, parse_xg
from bgtools.model.game import Game
from bgtools.model.match import Match
from bgtools.model.problems import MatchFileError, MatchProblem
from bgtools.model.checks import record_warnings
from bgtools.model.replay import finish_match

__all__ = ["read_match", "read_matches", "iter_games", "expand_paths", "detect_format", "detect_binary",
           "decode_bytes",
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


def iter_games(source: Union[Source, Iterable], *, strict: bool = False) -> Iterator[tuple[Match, Game]]:
    """Yield ``(match header, game)`` for every game of one source or of many paths.

    The header is the Match without its games.  Only one match is held at a time.
    """
    if isinstance(source, (list, tuple)) or (not isinstance(source, (str, bytes, os.PathLike))):
        matches = read_matches(source, strict=strict)  # type: ignore[arg-type]  # an iterable of paths
    else:
        matches = iter([read_match(source, strict=strict)])
    for m in matches:
        head = replace(m, games=())
        for g in m.games:
            yield head, g

