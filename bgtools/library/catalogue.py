"""The catalogue of errors across a library, largest first, with gnubg's cube-error taxonomy.

:func:`error_catalogue` takes a decisions frame (``Library.decisions()``, columns in
docs/library.md), keeps the decisions that lost at least ``min_loss`` (normalised equity;
a decision that lost nothing is no error, whatever ``min_loss``),
optionally of one kind, some types, phases or tags, and **merges identical positions**: the
rows with the same kind, Position ID, Match ID and dice are one entry, with ``count`` (how
often it happened) and ``places`` (every ``file:game:move`` where it did); the entry shows
its largest loss.  Entries are sorted by loss, largest first.

**Cube error types** (:func:`cube_error_type`, gnubg's names).  ``cube_nd``, ``cube_dt``,
``cube_dp`` are the doubler's normalised values of no double, double/take and double/pass;
the proper action (``cube_action``) and response (``cube_response``) come from them: double
when min(dt, dp) > nd; "too good" when nd > dp (playing on for a gammon beats cashing); take
when dt <= dp.  A cube row whose decision was not the best one is

* ``missed double below the cash point``: no double where doubling was right and the
  opponent should take (dt <= dp: below the point where he should pass);
* ``missed double above the cash point``: no double where doubling was right and the
  opponent should pass (dt > dp);
* ``wrong double below the double point``: a double where no double was right (the position
  is not good enough: nd >= min(dt, dp));
* ``wrong double above the too-good point``: a double where the position was too good to
  double (nd > dp: playing on wins more than the point cashed);
* ``wrong take``: a take (or a beaver) where passing was right;
* ``wrong pass``: a pass where taking (or beavering) was right;
* ``missed beaver`` / ``wrong beaver`` (money with beavers only, not in gnubg's list): a take
  where a beaver was right / a beaver where a plain take was right.

A checker play's type is ``checker play``.

:func:`write_catalogue` writes a catalogue as HTML (each entry with the board as played and
as best, drawn by :func:`bgtools.analysis.svg.board_svg` like the match report's, and the
cube equities), CSV or JSON lines, atomically (:mod:`bgtools.base.fileio`).
"""

from __future__ import annotations

import math
import os
from html import escape
from typing import Any, Iterable, Optional, Sequence, Union

import numpy as np
import pandas as pd

from bgtools.base.errors import BgtoolsError
from bgtools.base.fileio import atomic_write
from bgtools.base.jsonout import csv_cell, dumps, finite_or_none

__all__ = ["CUBE_ERROR_TYPES", "CHECKER_TYPE", "CatalogueError", "cube_error_type", "error_types",
           "error_catalogue", "write_catalogue", "place_of", "board_figures"]

#: gnubg's cube-error types, then the two beaver ones
CUBE_ERROR_TYPES = ("missed double below the cash point", "missed double above the cash point",
                    "wrong double below the double point", "wrong double above the too-good point",
                    "wrong take", "wrong pass", "missed beaver", "wrong beaver")
CHECKER_TYPE = "checker play"
_KEY = ["kind", "position_id", "match_id", "dice"]


class CatalogueError(BgtoolsError, ValueError):
    """A catalogue asked for in a way that cannot work (a missing column, an unknown format)."""


def _f(row, name: str) -> float:
    v: Any = row.get(name) if hasattr(row, "get") else getattr(row, name, None)
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def cube_error_type(row) -> str:
    """The type of a cube decision's error (see the module docstring); ``""`` for a cube
    decision that was the best one, a checker play, or a row without cube values."""
    if (row.get("kind") if hasattr(row, "get") else getattr(row, "kind", "")) != "cube":
        return ""
    played = str(row["played"])
    nd, dt, dp = _f(row, "cube_nd"), _f(row, "cube_dt"), _f(row, "cube_dp")
    if any(math.isnan(x) for x in (nd, dt, dp)):
        return ""
    response = str(row.get("cube_response", "") or "") or ("take" if dt <= dp else "pass")
    if played in ("take", "pass", "beaver"):
        if played == response:
            return ""
        if response == "pass":
            return "wrong take"
        if played == "pass":
            return "wrong pass"
        return "missed beaver" if response == "beaver" else "wrong beaver"
    doubled = {"take": dt, "pass": dp, "beaver": 2.0 * dt}.get(response, min(dt, dp))
    if played == "no double":
        if doubled > nd and nd <= dp:
            return "missed double below the cash point" if dt <= dp else "missed double above the cash point"
        return ""
    if played == "double":
        if nd > dp:
            return "wrong double above the too-good point"
        if nd >= doubled:
            return "wrong double below the double point"
    return ""


def error_types(decisions: pd.DataFrame) -> pd.Series:
    """:func:`cube_error_type` of each cube row, ``checker play`` for each checker row."""
    out = pd.Series(CHECKER_TYPE, index=decisions.index, dtype=object)
    cube = decisions["kind"] == "cube"
    if cube.any():
        out[cube] = [cube_error_type(r) for r in decisions[cube].to_dict("records")]
    return out


def place_of(row) -> str:
    """``file:game:move`` of a decision row."""
    return f"{row['file']}:{int(row['game'])}:{int(row['move_number'])}"


def _tag_match(text: str, wanted: set[str]) -> bool:
    for t in (text or "").split(","):
        t = t.strip()
        if t and (t in wanted or t.split(":", 1)[-1] in wanted):
            return True
    return False


def error_catalogue(decisions: pd.DataFrame, *, min_loss: float = 0.08, kind: Optional[str] = None,
                    types: Optional[Iterable[str]] = None, phases: Optional[Iterable[str]] = None,
                    tags: Optional[Iterable[str]] = None) -> pd.DataFrame:
    """The errors of ``decisions`` (loss >= ``min_loss``), identical positions merged, largest
    first.  ``kind``: "checker" or "cube"; ``types``: error types (:data:`CUBE_ERROR_TYPES`,
    ``checker play``); ``phases``: analysis phases; ``tags``: position tags, a tag without
    its ``on_roll:``/``opponent:`` prefix matching either side.  A decision matches a filter
    when it has any of the values given.

    Columns: those of ``decisions`` (of the entry's largest loss), then ``type``, ``count``
    and ``places`` (a list of ``file:game:move``, largest loss first)."""
    need = ("kind", "equity_loss", "position_id", "match_id", "dice", "file", "game", "move_number", "played")
    missing = [c for c in need if c not in decisions.columns]
    if missing:
        raise CatalogueError(f"decisions frame lacks the column(s) {', '.join(missing)}")
    if kind not in (None, "checker", "cube"):
        raise CatalogueError(f"unknown kind {kind!r}: expected checker or cube")
    loss = decisions["equity_loss"].to_numpy(float)
    d = decisions[(loss >= min_loss) & (loss > 0.0)]
    if kind is not None:
        d = d[d["kind"] == kind]
    if phases is not None:
        d = d[d["phase"].isin(list(phases))]
    if tags is not None:
        wanted = {t.strip() for t in tags if t.strip()}
        d = d[[_tag_match(str(t), wanted) for t in d["tags"].fillna("")]]
    d = d.assign(type=error_types(d)) if len(d) else d.assign(type=pd.Series(dtype=object))
    if types is not None:
        want = set(types)
        unknown = want - set(CUBE_ERROR_TYPES) - {CHECKER_TYPE}
        if unknown:
            raise CatalogueError(f"unknown error type(s) {', '.join(sorted(unknown))} (known: "
                                 f"{', '.join(CUBE_ERROR_TYPES + (CHECKER_TYPE,))})")
        d = d[d["type"].isin(list(want))]
    d = d.sort_values("equity_loss", ascending=False, kind="stable")
    cols = list(decisions.columns) + ["type", "count", "places"]
    if not len(d):
        return pd.DataFrame({c: pd.Series(dtype=object) for c in cols})
    places = [place_of(r) for r in d[["file", "game", "move_number"]].to_dict("records")]
    keyed = d.assign(_place=places, **{k: d[k].fillna("").astype(str) for k in _KEY})
    groups = keyed.groupby(_KEY, sort=False, dropna=False)
    first = groups.head(1).drop(columns="_place")
    lists = groups["_place"].agg(list)
    key_rows = list(first[_KEY].itertuples(index=False, name=None))
    first = first.assign(count=[len(lists[k]) for k in key_rows], places=[lists[k] for k in key_rows])
    first = first.sort_values(["equity_loss", "count"], ascending=[False, False], kind="stable")
    return first.reset_index(drop=True)[cols]


# ----------------------------------------------------------------------------- writing
def write_catalogue(frame: pd.DataFrame, path: Union[str, os.PathLike], *, title: str = "Error catalogue") -> None:
    """Write a catalogue (:func:`error_catalogue`) to ``path`` by its suffix: ``.html``,
    ``.csv`` or ``.jsonl`` (``-`` = JSON lines on standard output), atomically."""
    name = os.fspath(path)
    low = name.lower()
    if low.endswith((".html", ".htm")):
        atomic_write(path, catalogue_html(frame, title=title))
    elif low.endswith(".csv"):
        atomic_write(path, catalogue_csv(frame))
    elif low.endswith(".jsonl") or name == "-":
        atomic_write(path, catalogue_jsonl(frame))
    else:
        raise CatalogueError(f"{name}: unknown catalogue format (expected .html, .csv or .jsonl)")


def _records(frame: pd.DataFrame) -> list[dict]:
    out = []
    for rec in frame.to_dict("records"):
        for k, v in rec.items():
            if isinstance(v, pd.Timestamp):
                rec[k] = v.isoformat() if not pd.isna(v) else None
            elif v is pd.NaT or v is pd.NA:
                rec[k] = None
            elif isinstance(v, (list, tuple, np.ndarray)):
                rec[k] = [str(x) for x in v]
        out.append(rec)
    return out


def catalogue_jsonl(frame: pd.DataFrame) -> str:
    """One JSON object a line (``places`` a list; NaN as null)."""
    return "".join(dumps(finite_or_none(r), ensure_ascii=False) + "\n" for r in _records(frame))


def catalogue_csv(frame: pd.DataFrame) -> str:
    """CSV with a header; ``places`` joined with newlines inside its quoted cell."""
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    cols = list(frame.columns)
    w.writerow(cols)
    for rec in _records(frame):
        w.writerow(["\n".join(v) if isinstance(v, list) else csv_cell(v) for v in (rec[c] for c in cols)])
    return buf.getvalue()


def board_figures(row) -> list[tuple[str, str]]:
    """(caption, SVG) of a decision row's boards: the play made and the best play for a checker
    play (arrows for the steps), the position with its cube for a cube decision."""
    from bgtools.analysis.svg import board_svg
    from bgtools.core.matchstate import MatchState
    from bgtools.core.moveparse import parse_play
    from bgtools.core.position import Position

    pos = Position.from_id(str(row["position_id"]))
    state = MatchState.from_match_id(str(row["match_id"]), strict=False)
    if row["kind"] == "checker":
        dice = str(row.get("dice") or "")
        out: list[tuple[str, str]] = []
        for label, text in (("played", str(row["played"])), ("best", str(row["best"]))):
            steps: Sequence[tuple[int, int]] = ()
            if len(dice) == 2 and text:
                try:
                    steps = parse_play(pos, (int(dice[0]), int(dice[1])), text).steps
                except (ValueError, BgtoolsError):
                    steps = ()
            out.append((f"{label}: {text}", str(board_svg(pos, play=steps, state=state))))
        return out
    return [(f"{row['played']} (proper: {row.get('cube_action', '')} / {row.get('cube_response', '')})",
             str(board_svg(pos, state=state)))]


_CSS = ("body{font-family:sans-serif;margin:1.5em;max-width:1200px}section{border-top:1px solid #ccc;"
        "padding:.6em 0}.boards{display:flex;flex-wrap:wrap;gap:1em}figure{margin:0}figure svg{width:360px;"
        "height:auto}table{border-collapse:collapse}td,th{padding:.15em .6em;text-align:right}"
        ".l{text-align:left}.places{font-size:.85em;color:#444}")


def _num(v, digits: int = 3) -> str:
    try:
        x = float(v)
    except (TypeError, ValueError):
        return ""
    return "" if math.isnan(x) else f"{x:+.{digits}f}"


def catalogue_html(frame: pd.DataFrame, *, title: str = "Error catalogue") -> str:
    """A self-contained HTML page: one section per entry, largest first."""
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{escape(title)}</title>"
             f"<style>{_CSS}</style></head><body><h1>{escape(title)}</h1>"
             f"<p>{len(frame)} entries, {int(frame['count'].sum()) if len(frame) else 0} errors.</p>"]
    for i, row in enumerate(frame.to_dict("records"), 1):
        dice = f" rolls {escape(str(row.get('dice')))}," if row.get("dice") else ""
        head = (f"<h2>{i}. {escape(str(row.get('player', '')))}{dice} {escape(str(row['type']))}: "
                f"loses {float(row['equity_loss']):.3f} ({escape(str(row.get('error', '')))})"
                f"{' &times; ' + str(row['count']) if row['count'] > 1 else ''}</h2>")
        parts.append(f"<section id='e{i}'>{head}<div class='boards'>")
        try:
            figures = board_figures(row)
        except (ValueError, BgtoolsError) as e:  # an ID that does not decode: say so, draw the rest
            figures = [(f"no board: {e}", "")]
        for caption, svg in figures:
            parts.append(f"<figure>{svg}<figcaption>{escape(caption)}</figcaption></figure>")
        parts.append("</div>")
        if row["kind"] == "cube":
            parts.append("<table><tr><th class='l'>doubler's equity</th><th>no double</th><th>double/take</th>"
                         f"<th>double/pass</th></tr><tr><td></td><td>{_num(row.get('cube_nd'))}</td>"
                         f"<td>{_num(row.get('cube_dt'))}</td><td>{_num(row.get('cube_dp'))}</td></tr></table>")
        else:
            parts.append(f"<p>played <b>{escape(str(row['played']))}</b>, best <b>{escape(str(row['best']))}</b></p>")
        tags = str(row.get("tags") or "")
        meta = f"phase {escape(str(row.get('phase', '')))}" + (f"; tags {escape(tags)}" if tags else "")
        places = "<br>".join(escape(p) for p in row["places"])
        parts.append(f"<p class='places'>{meta}<br>Position ID {escape(str(row['position_id']))}, Match ID "
                     f"{escape(str(row['match_id']))}<br>{places}</p></section>")
    parts.append("</body></html>\n")
    return "".join(parts)
