"""Drill decks of a player's own errors: Anki ``.apkg`` (through genanki) or CSV.

:func:`write_deck` takes a catalogue (:func:`bgtools.library.catalogue.error_catalogue`) or any
decisions frame (columns in docs/library.md) and writes one card per row:

* **front**: the position (an SVG board drawn by :func:`bgtools.analysis.svg.board_svg`, the
  player on roll at the bottom, the cube where it stands) and the question: the dice and
  "your play?" for a checker play; "double?" for the doubler's cube decision; "take or
  pass?" for the answer to a double;
* **back**: the answer (the best play or the proper cube action), what was played and what it
  cost (normalised equity), the doubler's equities of no double, double/take and
  double/pass for a cube decision, and where it happened.

An ``.apkg`` needs the optional extra ``anki`` (``pip install 'bgtools[anki]'``, genanki);
it is imported only when one is written.  The note model and deck keep fixed IDs, and a
note's GUID is made from its position (kind, Position ID, Match ID, dice), so importing a
newer deck into Anki updates the cards of positions it already holds instead of adding
them twice.  A ``.csv`` deck (``question``, ``answer`` and the IDs) needs nothing extra.
"""

from __future__ import annotations

import csv
import io
import math
import os
from html import escape
from typing import Any, Union

import pandas as pd

from bgtools.base.errors import BgtoolsError
from bgtools.base.fileio import atomic_path, atomic_write

__all__ = ["QuizError", "DECK_ID", "MODEL_ID", "card", "write_deck"]

#: fixed Anki IDs of the deck and the note model (chosen once, at random)
DECK_ID = 1_907_364_251
MODEL_ID = 1_583_920_467
_FIELDS = ("Position", "Question", "Answer", "Where")
_CSS = ".card{font-family:sans-serif;font-size:18px;text-align:center}svg{max-width:100%;height:auto}" \
       ".where{font-size:12px;color:#666}"


class QuizError(BgtoolsError, ValueError):
    """A deck that cannot be written (unknown format, genanki missing, a missing column)."""


def _num(v: Any) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def _question(row: dict) -> str:
    if row["kind"] == "checker":
        return f"{row.get('player') or 'You'} to play {row.get('dice')}: your play?"
    if row["played"] in ("take", "pass", "beaver"):
        return f"{row.get('player') or 'You'}: you are doubled. Take or pass?"
    return f"{row.get('player') or 'You'} on roll: double or no double?"


def _answer(row: dict) -> str:
    loss = _num(row.get("equity_loss"))
    cost = f" (the play made, {row['played']}, lost {loss:.3f})" if loss > 0 else ""
    if row["kind"] == "checker":
        return f"Best: {row['best']}{cost}"
    nd, dt, dp = _num(row.get("cube_nd")), _num(row.get("cube_dt")), _num(row.get("cube_dp"))
    proper = (row.get("cube_response") if row["played"] in ("take", "pass", "beaver") else row.get("cube_action"))
    eq = ""
    if not any(math.isnan(x) for x in (nd, dt, dp)):
        eq = f"; doubler's equity: no double {nd:+.3f}, double/take {dt:+.3f}, double/pass {dp:+.3f}"
    return f"Proper: {proper or row['best']}{cost}{eq}"


def _where(row: dict) -> str:
    places = row.get("places")
    if isinstance(places, (list, tuple)) and places:
        return ", ".join(str(p) for p in places)
    if row.get("file") is not None and row.get("game") is not None:
        return f"{row['file']}:{row['game']}:{row.get('move_number', '')}"
    return ""


def card(row: dict) -> dict:
    """The fields of one card: ``Position`` (an SVG board), ``Question``, ``Answer``,
    ``Where`` (HTML-escaped text), plus ``guid_key`` (what identifies the position)."""
    from bgtools.analysis.svg import board_svg
    from bgtools.core.matchstate import MatchState
    from bgtools.core.position import Position

    pos = Position.from_id(str(row["position_id"]))
    state = MatchState.from_match_id(str(row["match_id"]), strict=False)
    return {"Position": str(board_svg(pos, state=state)), "Question": escape(_question(row)),
            "Answer": escape(_answer(row)), "Where": escape(_where(row)),
            "guid_key": (str(row["kind"]), str(row["position_id"]), str(row["match_id"]), str(row.get("dice") or ""))}


def _rows(frame: pd.DataFrame) -> list[dict]:
    need = ("kind", "position_id", "match_id", "played", "best", "equity_loss")
    missing = [c for c in need if c not in frame.columns]
    if missing:
        raise QuizError(f"frame lacks the column(s) {', '.join(missing)}")
    return frame.to_dict("records")


def write_deck(frame: pd.DataFrame, path: Union[str, os.PathLike], *, name: str = "bgtools: my errors") -> int:
    """Write one card per row of ``frame`` to ``path`` (``.apkg`` or ``.csv``, atomically);
    returns the number of cards (an ``.apkg`` holds one note per position: a position that
    comes again keeps its first row's card)."""
    low = os.fspath(path).lower()
    rows = _rows(frame)
    if low.endswith(".csv"):
        atomic_write(path, _csv(rows))
    elif low.endswith(".apkg"):
        return _apkg(rows, path, name)
    else:
        raise QuizError(f"{os.fspath(path)}: unknown deck format (expected .apkg or .csv)")
    return len(rows)


def _csv(rows: list[dict]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["question", "answer", "position_id", "match_id", "dice", "kind", "played", "best", "equity_loss",
                "where"])
    for r in rows:
        loss = _num(r.get("equity_loss"))
        w.writerow([_question(r), _answer(r), r["position_id"], r["match_id"], r.get("dice") or "", r["kind"],
                    r["played"], r["best"], "" if math.isnan(loss) else f"{loss:.6g}", _where(r)])
    return buf.getvalue()


def _apkg(rows: list[dict], path: Union[str, os.PathLike], name: str) -> int:
    try:
        import genanki
    except ImportError:
        raise QuizError("writing an Anki .apkg deck needs genanki: pip install 'bgtools[anki]' "
                        "(or write a .csv deck)") from None
    model = genanki.Model(
        MODEL_ID, "bgtools position quiz", fields=[{"name": f} for f in _FIELDS],
        templates=[{"name": "Position", "qfmt": "{{Position}}<p>{{Question}}</p>",
                    "afmt": "{{FrontSide}}<hr id=answer><p>{{Answer}}</p><p class=where>{{Where}}</p>"}],
        css=_CSS)
    deck = genanki.Deck(DECK_ID, name)
    seen = set()
    for r in rows:
        c = card(r)
        if c["guid_key"] in seen:
            continue
        seen.add(c["guid_key"])
        deck.add_note(genanki.Note(model=model, fields=[c[f] for f in _FIELDS], guid=genanki.guid_for(*c["guid_key"]),
                                   tags=["bgtools", str(r["kind"])]))
    with atomic_path(path, ".apkg") as tmp:
        genanki.Package(deck).write_to_file(str(tmp))
    return len(seen)
