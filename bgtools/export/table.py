"""Match files as tidy tables: one row per action, per game or per match.

:func:`to_dataframe` turns replayed matches (:func:`bgtools.model.match.read_matches`) into a
pandas DataFrame with fixed dtypes: categoricals for names and small vocabularies,
nullable integers (``Int16`` ...) where a value can be missing.  :func:`export_files`
writes the rows of many files to CSV (optionally gzipped), JSON lines or Parquet,
streaming, atomically and, with ``jobs > 1``, parsing files in worker processes while
keeping the row order.  The columns of each level are listed in :data:`COLUMNS`
(and in ``docs/export.md``).

Every moves row is keyed by ``row_key = "<file>:<game_no>:<action_index>"`` so that later
analysis columns (equity, error, luck) can be joined onto it.  Values that depend on
who acts (pips, score, cube owner, result) are seen from the acting player.

Games with errors (e.g. an illegal move) are left out unless ``keep_bad_games=True``;
then the board columns of the rows after the first illegal move are empty.

>>> from bgtools.formats import read_match
>>> m = read_match(" 1 point match\\n Game 1\\n A : 0   B : 0\\n  1) 31: 8/5 6/5   42: 8/4 6/4\\n")
>>> df = to_dataframe([m])
>>> df[["player", "action", "dice", "move", "pips_player", "position_id"]].values.tolist()[0]
['A', 'roll', '31', '8/5 6/5', 167, '4HPwATDgc/ABMA']
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, replace
from typing import Iterable, Iterator, Optional, Sequence, Union

import numpy as np
import pandas as pd

from bgtools.formats.metadata import STANDARD_KEYS
from bgtools.model.game import Beaver, Double, Drop, Game, Resign, Roll, SetBoard, Take, Win
from bgtools.model.match import Match
from bgtools.core.matchstate import MatchIDError
from bgtools.model.problems import MatchProblem, MatchWarning
from bgtools.model.replay import replay_game
from bgtools.core.position import PositionClass
from bgtools.core.tags import tags_for_step

__all__ = [
    "Column", "COLUMNS", "LEVELS", "FORMATS", "to_dataframe", "columns_for", "read_csv", "left_out",
    "empty_columns", "frame", "ROW_BUILDERS", "GAME_ROW_BUILDERS", "match_rows", "ACTIONS", "GAME_COLUMNS", "MATCH_COLUMNS", "MOVE_COLUMNS",
]

LEVELS = ("moves", "games", "matches")
FORMATS = ("csv", "csv.gz", "jsonl", "parquet")


@dataclass(frozen=True, slots=True)
class Column:
    """One output column: ``dtype`` is a pandas dtype name; ``categories`` fixes a vocabulary."""

    name: str
    dtype: str
    doc: str
    categories: Optional[tuple[str, ...]] = None

    @property
    def pandas_dtype(self):
        if self.dtype == "category" and self.categories is not None:
            return pd.CategoricalDtype(list(self.categories))
        return self.dtype


ACTIONS = ("roll", "double", "take", "drop", "beaver", "resign", "win", "set_board")
STATUSES = ("play", "dance", "rolled", "illegal", "unchecked")
CLASSES = ("contact", "race", "bearoff", "over")
OWNERS = ("centre", "player", "opponent")
ENDINGS = ("bearoff", "drop", "resign")

_C = Column
_COMMON = (
    _C("file", "category", "the match file, as given or found in a folder"),
    _C("match_no", "int32", "1-based position of the file among the exported ones"),
)
MOVE_COLUMNS = (
    _C("row_key", "string", "`<file>:<game_no>:<action_index>`, unique per row; join key for later analysis"),
    *_COMMON,
    _C("game_no", "int32", "1-based position of the game in the file"),
    _C("action_index", "int32", "0-based index of the action in the game (`Game.actions`)"),
    _C("move_no", "int32", "1-based turn number in the game; a double and the answer belong to the doubler's turn"),
    _C("player", "category", "name of the player who acts (the taker for take/drop/beaver)"),
    _C("opponent", "category", "name of the other player"),
    _C("player_index", "int8", "0 = first-named player of the file (gnubg player 0, SGF White), 1 = second"),
    _C("action", "category", "roll, double, take, drop, beaver, resign, win or set_board (a board edit)", ACTIONS),
    _C("status", "category", "rolls only: play, dance (no legal play), rolled (no move recorded), "
                             "illegal, unchecked (after an illegal move)", STATUSES),
    _C("dice", "string", "rolls only: the two dice, larger first (`31`)"),
    _C("die1", "Int8", "rolls only: the larger die"),
    _C("die2", "Int8", "rolls only: the smaller die"),
    _C("move", "string", "the play in normalised gnubg notation (`13/7* 8/7`); empty if none"),
    _C("position_id", "string", "gnubg Position ID before the action (player on roll's view, as gnubg shows it)"),
    _C("match_id", "string", "gnubg Match ID before the action"),
    _C("xgid", "string", "XGID before the action"),
    _C("pips_player", "Int16", "pip count of the acting player before the action"),
    _C("pips_opponent", "Int16", "pip count of the other player"),
    _C("pip_diff", "Int16", "`pips_player - pips_opponent` (negative = the acting player leads)"),
    _C("off_player", "Int8", "checkers the acting player has borne off"),
    _C("off_opponent", "Int8", "checkers the other player has borne off"),
    _C("bar_player", "Int8", "checkers of the acting player on the bar"),
    _C("bar_opponent", "Int8", "checkers of the other player on the bar"),
    _C("position_class", "category", "contact (gnubg's crashed counts as contact), race, bearoff "
                                     "(all checkers home, no contact) or over", CLASSES),
    _C("cube", "int32", "cube value before the action"),
    _C("cube_owner", "category", "centre, player or opponent (from the acting player's side)", OWNERS),
    _C("score_player", "int32", "acting player's score before the game"),
    _C("score_opponent", "int32", "other player's score before the game"),
    _C("away_player", "Int32", "points the acting player still needs (empty for money)"),
    _C("away_opponent", "Int32", "points the other player still needs (empty for money)"),
    _C("match_length", "int16", "match length, 0 = money session"),
    _C("crawford", "bool", "this game is the Crawford game"),
    _C("legal_plays", "Int16", "rolls only: number of legal plays (distinct resulting positions)"),
    _C("hit", "boolean", "rolls only: the play hit at least one checker"),
    _C("winner", "category", "name of the game's winner (empty if the game is unfinished)"),
    _C("points", "Int16", "points the game was won for"),
    _C("ended_by", "category", "how the game ended: bearoff, drop or resign", ENDINGS),
    _C("result", "Int16", "game result for the acting player: +points if he won the game, -points if he lost"),
    _C("file_equity_loss", "Float64", "the match file's own analysis (XG, BGBlitz): equity the play, double "
                                      "or answer lost by its figures (a roll: the checker play); empty if none"),
    _C("file_luck", "Float64", "rolls only: the file's luck of the roll for the acting player"),
    _C("file_eval_level", "string", "how the file's program evaluated the decision (`3-ply`, `XG Roller++`, "
                                    "`rollout`, `book`)"),
    _C("tags", "string", "position tags (bgtools.core.tags): game plans of the position before the action "
                         "(`on_roll:priming`, `opponent:holding`, ...) then, for a roll, what the turn did "
                         "(`hit`, `closeout`, `anchor-made`, ...), comma-separated"),
)
GAME_COLUMNS = (
    _C("row_key", "string", "`<file>:<game_no>`, unique per row"),
    *_COMMON,
    _C("game_no", "int32", "1-based position of the game in the file"),
    _C("player0", "category", "first-named player"),
    _C("player1", "category", "second-named player"),
    _C("match_length", "int16", "match length, 0 = money session"),
    _C("score0", "int32", "first player's score before the game"),
    _C("score1", "int32", "second player's score before the game"),
    _C("crawford", "bool", "this game is the Crawford game"),
    _C("actions", "int32", "number of actions (rows at the moves level)"),
    _C("plays", "int32", "checker plays that moved a checker"),
    _C("doubles", "int32", "doubles and beavers"),
    _C("cube", "int32", "cube value at the end of the game"),
    _C("winner", "category", "winner's name (empty if unfinished)"),
    _C("points", "Int16", "points won"),
    _C("ended_by", "category", "bearoff, drop or resign", ENDINGS),
    _C("errors", "int32", "errors found in the game (0 unless bad games are kept)"),
)
MATCH_COLUMNS = (
    _C("row_key", "string", "`<file>`, unique per row"),
    *_COMMON,
    _C("format", "category", "mat, sgf, oldmoves, json, xg or bgf", ("mat", "sgf", "oldmoves", "json", "xg", "bgf")),
    _C("player0", "category", "first-named player"),
    _C("player1", "category", "second-named player"),
    _C("match_length", "int16", "match length, 0 = money session"),
    _C("games", "int32", "games in the file (all of them, also those with errors)"),
    _C("plays", "int32", "checker plays that moved a checker"),
    _C("doubles", "int32", "doubles and beavers"),
    _C("score0", "int32", "first player's final score"),
    _C("score1", "int32", "second player's final score"),
    _C("winner", "category", "name of the player who reached the match length (empty otherwise)"),
    _C("errors", "int32", "errors found in the file"),
    _C("date", "string", "date of the match, ISO `YYYY-MM-DD` (.mat EventDate, SGF DT, XG and BGBlitz headers)"),
    _C("time", "string", "time of day, `HH:MM[:SS]` (.mat EventTime, XG header)"),
    _C("event", "string", "event (.mat Event, SGF EV, XG, BGBlitz)"),
    _C("round", "string", "round (.mat Round, SGF RO, XG, BGBlitz)"),
    _C("place", "string", "venue, where the file keeps it apart from the site (.mat Place, BGBlitz location)"),
    _C("site", "string", "server or venue (.mat Site, SGF PC, XG location, BGBlitz site)"),
    _C("rating0", "string", "first player's rating as written (.mat Player N Elo, SGF WR, XG, BGBlitz)"),
    _C("rating1", "string", "second player's rating as written (.mat Player N Elo, SGF BR, XG, BGBlitz)"),
)
COLUMNS: dict[str, tuple[Column, ...]] = {"moves": MOVE_COLUMNS, "games": GAME_COLUMNS, "matches": MATCH_COLUMNS}

_KIND = {Roll: "roll", Double: "double", Take: "take", Drop: "drop", Beaver: "beaver", Resign: "resign",
         Win: "win", SetBoard: "set_board"}
_CLASS = {PositionClass.CONTACT: "contact", PositionClass.CRASHED: "contact", PositionClass.RACE: "race",
          PositionClass.BEAROFF: "bearoff", PositionClass.OVER: "over"}
_IDS = ("position_id", "match_id", "xgid")


def columns_for(level: str = "moves", names: Optional[Sequence[str]] = None) -> tuple[Column, ...]:
    """The columns of ``level``, or the named ones in the given order (ValueError if unknown)."""
    if level not in COLUMNS:
        raise ValueError(f"unknown level {level!r}: expected moves, games or matches")
    cols = COLUMNS[level]
    if names is None:
        return cols
    by_name = {c.name: c for c in cols}
    bad = [n for n in names if n not in by_name]
    if bad:
        raise ValueError(f"unknown column(s) for level {level}: {', '.join(bad)} "
                         f"(known: {', '.join(by_name)})")
    if len(set(names)) != len(names):
        raise ValueError("a column is named twice")
    if not names:
        raise ValueError("no columns chosen")
    return tuple(by_name[n] for n in names)


# ----------------------------------------------------------------------------- rows
def _name(s: str) -> Optional[str]:
    """A player name as one line of text (control characters become spaces); None when empty."""
    if not s.isprintable():
        s = "".join(ch if ch.isprintable() else " " for ch in s)
    s = s.strip()
    return s if s else None


def _text(v) -> Optional[str]:
    """A metadata value as one line of text; None when absent or empty."""
    return _name(str(v)) if v is not None else None


def _label(m: Match, match_no: int) -> str:
    return m.source or f"<match {match_no}>"


def left_out(g: Game, keep_bad: bool) -> bool:
    """Whether the ``moves`` and ``games`` tables leave ``g`` out: a game with errors,
    unless ``keep_bad``."""
    return bool(g.errors) and not keep_bad


def _move_rows(m: Match, match_no: int, out: dict, keep_bad: bool) -> int:
    """Append the moves rows of ``m`` to the column lists in ``out``; returns the row count."""
    notes: list[MatchProblem] = []
    n = sum(game_move_rows(m, gi, g, match_no, out, keep_bad, notes) for gi, g in enumerate(m.games))
    for p in notes:
        warnings.warn(MatchWarning(p), stacklevel=3)
    return n


def game_move_rows(m: Match, gi: int, g: Game, match_no: int, out: dict, keep_bad: bool,
                   notes: list[MatchProblem]) -> int:
    """Append the moves rows of game ``g`` (index ``gi``) of ``m`` to the column lists in ``out``;
    returns the row count.  A Match ID that cannot be written (a money session's score past
    what it holds) is left empty, and said in ``notes`` (a warning, once: while ``notes`` is
    empty)."""
    want_ids = [k for k in _IDS if k in out]
    want_tags = "tags" in out
    file = _label(m, match_no)
    names = (_name(m.players[0]), _name(m.players[1]))
    length = m.length
    rows: list[list] = []
    if not left_out(g, keep_bad):
        res = g.result
        broken = bool(g.props.get("_setup"))  # board edited in the record: positions unknown
        turn = 0
        opened_by = None  # player whose turn was opened by a double
        prefix = f"{file}:{gi + 1}:"
        for st in replay_game(m, g, gi):
            a = st.action
            p = a.player
            kind = _KIND[type(a)]
            if kind == "roll":
                if opened_by != p:
                    turn += 1
                opened_by = None
                if a.status == "unchecked":
                    broken = True
            elif kind == "double":
                turn += 1
                opened_by = p
            s = st.state
            row = [prefix + str(st.index), file, match_no, gi + 1, st.index, max(turn, 1),
                   names[p], names[1 - p], p, kind]
            if kind == "roll":
                d1, d2 = a.dice if a.dice[0] >= a.dice[1] else (a.dice[1], a.dice[0])
                play = st.play
                checked = a.status in ("play", "dance", "rolled") and not broken
                row += [a.status, f"{d1}{d2}", d1, d2, play.notation() if play is not None else None]
                tail = [st.legal_plays if checked else None,
                        bool(play.hits) if play is not None else (False if a.status == "dance" else None)]
            else:
                row += [None, None, None, None, None]
                tail = [None, None]
            if broken:
                row += [None] * 3 + [None] * 7 + [None]
            else:
                pos = st.position
                ids = [st.position_id if "position_id" in want_ids else None,
                       _match_id(st, m, g, notes) if "match_id" in want_ids else None,
                       st.xgid if "xgid" in want_ids else None]
                a_pips, b_pips = pos.pips
                a_off, b_off = pos.borne_off
                a_bar, b_bar = pos.on_bar
                if p != s.player_on_roll:
                    a_pips, b_pips, a_off, b_off, a_bar, b_bar = b_pips, a_pips, b_off, a_off, b_bar, a_bar
                row += ids + [a_pips, b_pips, a_pips - b_pips, a_off, b_off, a_bar, b_bar,
                              _CLASS[pos.classify()]]
            owner = "centre" if s.cube_owner == -1 else ("player" if s.cube_owner == p else "opponent")
            sp, so = g.score[p], g.score[1 - p]
            row += [s.cube, owner, sp, so, length - sp if length else None, length - so if length else None,
                    length, g.crawford]
            row += tail
            if res is not None:
                row += [names[res.winner], res.points, res.how, res.points if res.winner == p else -res.points]
            else:
                row += [None, None, None, None]
            row += _file_figures(a)
            row.append((tags_for_step(st) or None) if want_tags and not broken else None)
            rows.append(row)
            if kind == "roll" and a.status == "illegal":
                broken = True
    _append(out, rows, MOVE_COLUMNS)
    return len(rows)


def _match_id(st, m: Match, g: Game, notes: list[MatchProblem]) -> Optional[str]:
    """The Match ID of a step, or None (said once in ``notes``) where the score is past what it holds."""
    try:
        return st.match_id
    except MatchIDError as e:
        if not notes:
            notes.append(MatchProblem(f"{e}: match_id left empty where the score is past it (the other columns "
                                      "are written)", m.source, g.line, 0, g.number, 0))
        return None


def _file_figures(a) -> list:
    """``file_equity_loss``, ``file_luck``, ``file_eval_level`` of an action (the file's analysis)."""
    an = getattr(a, "analysis", None)
    if an is None:
        return [None, None, None]
    if isinstance(a, Roll):
        return [an.error, an.luck, an.level or None]
    loss = an.take_error if isinstance(a, (Take, Drop, Beaver)) else an.cube_error
    return [loss, None, (an.cube_level or an.level) or None]


def _append(out: dict, rows: list, cols: tuple[Column, ...]) -> None:
    if not rows:
        return
    for c, values in zip(cols, zip(*rows)):
        if c.name in out:
            out[c.name].extend(values)


def _final_cube(g: Game) -> int:
    cube, pending, beavered = g.initial_cube, None, False
    for a in g.actions:
        if isinstance(a, Double):
            pending, beavered = a.cube, False
        elif isinstance(a, Beaver):
            cube, beavered = a.cube, True
        elif isinstance(a, Take):
            if pending is not None and not beavered:
                cube = pending
            pending = None
        elif isinstance(a, Drop):
            pending = None
        elif isinstance(a, SetBoard) and a.cube is not None:  # a board edit that sets the cube
            cube, pending = a.cube, None
    return cube


def _game_rows(m: Match, match_no: int, out: dict, keep_bad: bool) -> int:
    return sum(game_rows(m, gi, g, match_no, out, keep_bad) for gi, g in enumerate(m.games))


def game_rows(m: Match, gi: int, g: Game, match_no: int, out: dict, keep_bad: bool,
              notes: Optional[list[MatchProblem]] = None) -> int:
    """Append the ``games`` row of game ``g`` (index ``gi``) of ``m`` to ``out``; returns 0 or 1."""
    file = _label(m, match_no)
    names = (_name(m.players[0]), _name(m.players[1]))
    rows = []
    if not left_out(g, keep_bad):
        r = g.result
        rows.append([f"{file}:{gi + 1}", file, match_no, gi + 1, names[0], names[1], m.length, g.score[0],
                     g.score[1], g.crawford, len(g.actions), g.plays, g.doubles, _final_cube(g),
                     names[r.winner] if r else None, r.points if r else None, r.how if r else None,
                     len(g.errors)])
    _append(out, rows, GAME_COLUMNS)
    return len(rows)


def match_rows(m: Match, match_no: int, out: dict, keep_bad: bool, counts: Optional[tuple[int, int]] = None) -> int:
    """The ``matches`` row of ``m``; ``counts``: its (plays, doubles) when its games are
    summaries without their actions (:class:`~bgtools.formats.read.GameReader`)."""
    if not m.games and m.file_errors:  # unreadable
        return 0
    file = _label(m, match_no)
    names = (_name(m.players[0]), _name(m.players[1]))
    s0, s1 = m.final_score
    winner = None
    if m.length > 0 and max(s0, s1) >= m.length:
        winner = names[0] if s0 > s1 else names[1]
    plays, doubles = counts if counts is not None else (m.plays, m.doubles)
    _append(out, [[file, file, match_no, m.format or None, names[0], names[1], m.length, len(m.games),
                   plays, doubles, s0, s1, winner, len(m.errors)]
                  + [_text(m.tags.get(k)) for k in STANDARD_KEYS]], MATCH_COLUMNS)
    return 1


ROW_BUILDERS = {"moves": _move_rows, "games": _game_rows, "matches": match_rows}
#: the rows of one game: ``build(match, game_index, game, match_no, out, keep_bad, notes)``
GAME_ROW_BUILDERS = {"moves": game_move_rows, "games": game_rows}


def frame(data: dict, cols: Sequence[Column]) -> pd.DataFrame:
    """Column lists -> DataFrame with the declared dtypes."""
    out = {}
    for c in cols:
        v = data[c.name]
        if c.dtype == "category":
            if c.categories is not None:
                # a value outside the declared categories would become a silent NaN: a bug, say so
                stray = {x for x in pd.unique(pd.Series(v, dtype=object)) if not pd.isna(x)} - set(c.categories)
                if stray:
                    raise ValueError(f"export column {c.name!r}: {sorted(map(str, stray))} not among its "
                                     f"categories {list(c.categories)}")
            out[c.name] = _text_categories(pd.Categorical(v, categories=c.categories))
        elif c.dtype[0].isupper() or c.dtype in ("string", "boolean"):
            out[c.name] = pd.array(v, dtype=c.dtype)
        else:
            out[c.name] = np.asarray(v, dtype=c.dtype)
    return pd.DataFrame(out, columns=[c.name for c in cols])


def _text_categories(cat: pd.Categorical) -> pd.Categorical:
    """Give an all-missing categorical text categories, as a CSV reader does not know better."""
    if len(cat.categories) == 0:
        return cat.set_categories(pd.Index([], dtype=object))
    return cat


def empty_columns(cols: Sequence[Column]) -> dict:
    return {c.name: [] for c in cols}


MatchesLike = Union[Match, str, os.PathLike, Iterable[Union[Match, str, os.PathLike]]]


def _iter_matches(matches: MatchesLike, keep_steps: bool = False) -> Iterator[Match]:
    from bgtools.formats.read import read_matches

    if isinstance(matches, Match):
        yield matches
        return
    if isinstance(matches, (str, os.PathLike)):
        matches = [matches]
    for m in matches:
        if isinstance(m, Match):
            yield m
        else:
            yield from read_matches([m], keep_steps=keep_steps)


def to_dataframe(matches: MatchesLike, level: str = "moves", *, columns: Optional[Sequence[str]] = None,
                 keep_bad_games: bool = False) -> pd.DataFrame:
    """One row per action (``moves``), game (``games``) or match (``matches``).

    ``matches``: Match objects (e.g. from :func:`~bgtools.model.match.read_matches`) or paths,
    folders and globs, read one at a time.  ``columns`` picks and orders columns
    (see :data:`COLUMNS`).  Games with errors are left out unless ``keep_bad_games``.
    Nothing is left out silently: a file that cannot be read, and at the ``moves`` and
    ``games`` levels each game left out, is reported with a :class:`MatchWarning` (its
    file, line, game and move; ``warnings.simplefilter("error", MatchWarning)`` makes it
    an exception).
    """
    cols = columns_for(level, columns)
    build = ROW_BUILDERS[level]
    data = empty_columns(cols)
    for i, m in enumerate(_iter_matches(matches, keep_steps=level == "moves"), 1):  # only moves walk the games
        _warn_left_out(m, keep_bad_games or level == "matches")
        build(m, i, data, keep_bad_games)
    return frame(data, cols)


def _warn_left_out(m: Match, keep_bad: bool) -> None:
    """A :class:`MatchWarning` for ``m`` when its file could not be read, and (unless
    ``keep_bad``) for each of its games that the table leaves out for its errors."""
    for e in m.file_errors:
        warnings.warn(MatchWarning(replace(e, message=f"not read, no rows from this file: {e.message}")),
                      stacklevel=3)
    for g in m.games:
        if left_out(g, keep_bad):
            e = g.errors[0]
            more = f" (and {len(g.errors) - 1} more)" if len(g.errors) > 1 else ""
            warnings.warn(MatchWarning(replace(e, message=f"game left out of the table: {e.message}{more}")),
                          stacklevel=3)


def read_csv(path, level: str = "moves", **kwargs) -> pd.DataFrame:
    """Read an exported CSV (or .csv.gz) back with the exported dtypes.

    Only the empty field is missing (a player called ``NA`` stays ``"NA"``), and names
    stay text (a player called ``0`` is not a number).
    """
    known = {c.name: c for c in COLUMNS[level]}
    header = pd.read_csv(path, nrows=0, **kwargs).columns
    dtypes = {}
    for n in header:
        c = known.get(n)
        if c is not None:
            dtypes[n] = object if c.dtype == "category" and c.categories is None else c.pandas_dtype
    df = pd.read_csv(path, dtype=dtypes, keep_default_na=False, na_values=[""], **kwargs)
    for n in header:
        c = known.get(n)
        if c is not None and c.dtype == "category" and c.categories is None:
            cats = pd.Index(sorted(df[n].dropna().unique().tolist()))  # text categories, like to_dataframe's
            df[n] = _text_categories(pd.Categorical(df[n], categories=cats))
    return df
