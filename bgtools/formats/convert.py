"""Converting match files between .mat, SGF and bgtools JSON: which output each input gets
(never two inputs onto one name), and writing the good games of each (atomically).

>>> format_of("out.sgf"), format_of("out", to="json")
('sgf', 'json')
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, NamedTuple, Optional

from bgtools.base.errors import BgtoolsError
from bgtools.core.matchstate import MAX_MATCH_LENGTH
from bgtools.formats.outnames import plan_outputs
from bgtools.formats.read import length_problem
from bgtools.model.game import Game, crawford_flags
from bgtools.model.match import Match
from bgtools.model.problems import MatchProblem

__all__ = ["ConvertError", "ConvertPlan", "ConvertResult", "ConvertTask", "FORMAT_SUFFIX", "MAX_MATCH_LENGTH", "convert_one",
           "convert_task", "format_of", "kept_games", "length_problem", "plan_conversion"]

#: output format -> the suffix its files get
FORMAT_SUFFIX = {"mat": ".mat", "sgf": ".sgf", "json": ".json"}
_FROM_SUFFIX = {".mat": "mat", ".txt": "mat", ".sgf": "sgf", ".json": "json"}


class ConvertError(BgtoolsError, ValueError):
    """A conversion that cannot be done as asked (unknown format, names that clash, ...)."""


def format_of(out: str, to: Optional[str] = None) -> str:
    """The output format: ``to`` when given, else from the suffix of ``out``."""
    if to is not None:
        if to not in FORMAT_SUFFIX:
            raise ConvertError(f"--to {to!r}: expected mat, sgf or json")
        return to
    fmt = _FROM_SUFFIX.get(Path(out).suffix.lower())
    if fmt is None:
        raise ConvertError(f"{out}: cannot tell the format from the suffix; use --to mat|sgf|json")
    return fmt


@dataclass
class ConvertPlan:
    """(input, output) pairs; ``renamed``: inputs whose plain output name another input
    also wanted, so each got its input suffix kept (``a.mat`` -> ``a.mat.json``)."""

    format: str
    pairs: list[tuple[str, str]]
    renamed: list[tuple[str, str]] = field(default_factory=list)


def _folder_pairs(src: str, out: str, fmt: str, files: list[str]) -> ConvertPlan:
    named = plan_outputs(files, out, [FORMAT_SUFFIX[fmt]], root=src)  # the naming rule of every command
    pairs = sorted((p.source, p.outputs[0]) for p in named.pairs)
    return ConvertPlan(fmt, pairs, sorted(named.renamed))


def plan_conversion(src: str, out: str, to: Optional[str] = None,
                    expand: Optional[Callable[[list[str]], list[str]]] = None) -> ConvertPlan:
    """Which file each input is written to.

    ``src`` is a match file, '-' (stdin) or a folder (converted recursively into the
    folder ``out``, which needs ``to``).  Inputs that would share an output name keep
    their own suffix in it (``a.mat``, ``a.sgf`` -> ``a.mat.json``, ``a.sgf.json``); an
    output that is its own input is refused.
    """
    if src != "-" and not os.path.exists(src):
        raise ConvertError(f"{src}: no such file or folder")
    if src != "-" and os.path.isdir(src):
        if to is None:
            raise ConvertError("converting a folder needs --to mat|sgf|json")
        fmt = format_of(out, to)
        if os.path.exists(out) and not os.path.isdir(out):
            raise ConvertError(f"{out}: is a file; converting a folder needs an output folder")
        if expand is None:
            from bgtools.formats.read import expand_paths

            files = list(expand_paths([src]))
        else:
            files = expand([src])
        if not files:
            raise ConvertError(f"no match files found in {src}")
        plan = _folder_pairs(src, out, fmt, files)
    else:
        fmt = format_of(out, to)
        if os.path.isdir(out):
            raise ConvertError(f"{out}: is a folder; -o takes a file name when the input is one file")
        plan = ConvertPlan(fmt, [(src, out)])
    for s, d in plan.pairs:
        if s != "-" and os.path.exists(d) and os.path.samefile(s, d):
            raise ConvertError(f"{d}: the output would overwrite its own input")
    return plan


@dataclass
class ConvertResult:
    """What :func:`convert_one` did with one input: ``problems`` found reading it,
    ``left_out`` the game numbers not converted (they hold errors, or leaving out one that
    does would change how they read), ``written`` whether the output file was written,
    ``unreadable`` when no match could be read at all, ``warnings`` what reads but may not
    be what was meant (as ``check`` reports it)."""

    source: str
    output: str
    written: bool = False
    games: int = 0
    left_out: list[int] = field(default_factory=list)
    problems: list[MatchProblem] = field(default_factory=list)
    unreadable: bool = False
    write_error: Optional[OSError] = None  #: set by :func:`convert_task` when the output could not be written
    warnings: list[MatchProblem] = field(default_factory=list)
    #: games without errors left out because no output can hold them (they start from an edited board)
    not_held: list[int] = field(default_factory=list)


def _writer(fmt: str):
    if fmt == "mat":
        from bgtools.formats.matfile import write_mat

        return write_mat
    if fmt == "sgf":
        from bgtools.formats.sgf import write_sgf

        return write_sgf
    from bgtools.formats.matchjson import write_json

    return write_json


def kept_games(m: Match, name: str = "") -> tuple[tuple[Game, ...], list[MatchProblem]]:
    """The games of ``m`` a conversion keeps: those without errors that start from the opening
    position (the start of a game from an edited board is not held by the match model, so no
    output could hold it), less any whose Crawford game would move once the others are left
    out (the Crawford game is inferred from the scores: with the Crawford game left out, the
    game after it would read as the Crawford game), with a problem for each game so left out."""
    good = [g for g in m.games if not g.errors and not g.props.get("_setup")]
    problems: list[MatchProblem] = []
    while True:
        flags = crawford_flags(m.length, [g.score for g in good], m.crawford)
        moved = [g for g, c in zip(good, flags) if g.crawford != c]
        if not moved:
            return tuple(good), problems
        g = moved[0]
        was = "is" if g.crawford else "is not"
        problems.append(MatchProblem(f"game {g.number} {was} the Crawford game, but without the games left out "
                                     f"it would read as {'not ' if g.crawford else ''}the Crawford game: left out too",
                                     name, g.line, 0, g.number))
        good.remove(g)


def convert_one(src: str, dest: str, fmt: str, data: Optional[bytes] = None) -> ConvertResult:
    """Read ``src`` (or ``data``, e.g. stdin) and write its games without errors to ``dest``.

    The file written reads back as the games kept (tests/test_convert_roundtrip.py).  Never
    leaves a half-written file; writes nothing when no game is good.  An output that cannot
    be written raises ``OSError``.
    """
    from bgtools.formats.read import read_file

    res = ConvertResult(src, dest)
    name = "<stdin>" if src == "-" else src
    r = read_file(data if data is not None else Path(src), name=name)
    m = r.match
    res.problems, res.warnings, res.unreadable = list(m.errors), list(r.warnings), r.unreadable
    if r.unreadable:
        return res
    good, more = kept_games(m, name)
    res.problems += more
    kept = {id(g) for g in good}
    res.not_held = [g.number for g in m.games if not g.errors and g.props.get("_setup")]
    res.warnings += [MatchProblem("the game starts from an edited board, which the converted file cannot hold "
                                  "(it would read as a game from the opening position): not converted",
                                  name, g.line, 0, g.number, severity="warning")
                     for g in m.games if not g.errors and g.props.get("_setup")]
    res.left_out = [g.number for g in m.games if id(g) not in kept and g.number not in res.not_held]
    res.games = len(good)
    if not good:
        return res
    parent = os.path.dirname(dest)
    if parent:
        os.makedirs(parent, exist_ok=True)
    from bgtools.formats.matfile import MatWriteError

    while True:
        try:
            _writer(fmt)(dataclasses.replace(m, games=good) if res.left_out else m, dest)
            break
        except MatWriteError as e:  # a board edit the .mat text cannot hold: that game is left out
            res.problems.append(MatchProblem(str(e), name, e.line, 0, e.game))
            res.left_out.append(e.game)
            fewer, more = kept_games(dataclasses.replace(m, games=tuple(g for g in good if g.number != e.game)), name)
            res.problems += more
            still = {id(g) for g in fewer}
            res.left_out += [g.number for g in good if g.number != e.game and id(g) not in still]
            if not fewer or len(fewer) == len(good):
                res.games = 0
                return res
            good = fewer
            res.games = len(good)
    if fmt == "mat" and good[0].number != 1 and m.games[0].number == 1:
        res.warnings.append(MatchProblem(f"game 1 is left out, so the .mat written starts at game {good[0].number}: "
                                         "bgtools reads it, gnubg refuses it ('First game missing from match')",
                                         name, severity="warning"))
    res.written = True
    return res


class ConvertTask(NamedTuple):
    """One input to convert: ``src`` (or '-' with ``data``, the bytes of stdin) to ``dest`` in ``format``."""

    src: str
    dest: str
    format: str
    data: Optional[bytes] = None


def convert_task(task: ConvertTask) -> ConvertResult:
    """:func:`convert_one` of ``task`` for a worker process: an output that cannot be
    written is returned in ``write_error`` instead of raised."""
    try:
        return convert_one(task.src, task.dest, task.format, task.data)
    except OSError as e:
        return ConvertResult(task.src, task.dest, write_error=e)
