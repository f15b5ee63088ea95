"""bgtools.library.catalogue: gnubg's cube-error taxonomy on hand-set equities, the catalogue's
filters and merging of identical positions, and the HTML / CSV / JSON lines it writes.

The decisions frame has the contract's columns (tests/libframes.py) and real positions from
gnu-gibbon/7point.mat (Position and Match IDs of plays and doubles of that match)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from bgtools.library.catalogue import (CHECKER_TYPE, CUBE_ERROR_TYPES, CatalogueError, cube_error_type,
                                       error_catalogue, write_catalogue)
from libframes import ROLLS, catalogue_frame as frame


def cube_row(played: str, nd: float, dt: float, dp: float, response: str = "") -> dict:
    return {"kind": "cube", "played": played, "cube_nd": nd, "cube_dt": dt, "cube_dp": dp,
            "cube_response": response or ("take" if dt <= dp else "pass")}


@pytest.mark.parametrize("row, want", [
    # doubling right (min(dt, dp) = 0.7 > nd 0.5), take right (dt <= dp): below the cash point
    (cube_row("no double", 0.5, 0.7, 1.0), "missed double below the cash point"),
    # doubling right (min = 1.0 > 0.6) and the opponent should pass (dt 1.2 > dp): above it
    (cube_row("no double", 0.6, 1.2, 1.0), "missed double above the cash point"),
    # no double right (nd 0.8 >= dt 0.6, the doubled value with a take): not yet at the double point
    (cube_row("double", 0.8, 0.6, 1.0), "wrong double below the double point"),
    # too good (nd 1.3 > dp 1.0): doubling gives away the gammons
    (cube_row("double", 1.3, 1.5, 1.0), "wrong double above the too-good point"),
    (cube_row("no double", 1.3, 1.5, 1.0), ""),  # playing on when too good is right
    (cube_row("double", 0.5, 0.7, 1.0), ""),  # a right double
    (cube_row("no double", 0.8, 0.6, 1.0), ""),  # a right no double
    (cube_row("take", 0.6, 1.2, 1.0), "wrong take"),  # dt > dp: pass was right
    (cube_row("pass", 0.5, 0.7, 1.0), "wrong pass"),  # dt <= dp: take was right
    (cube_row("take", 0.5, 0.7, 1.0), ""),
    (cube_row("pass", 0.6, 1.2, 1.0), ""),
    (cube_row("take", -0.2, -0.1, 1.0, "beaver"), "missed beaver"),
    (cube_row("beaver", 0.3, 0.4, 1.0, "take"), "wrong beaver"),
    (cube_row("beaver", 0.6, 1.2, 1.0, "pass"), "wrong take"),
    (cube_row("pass", -0.2, -0.1, 1.0, "beaver"), "wrong pass"),
    ({"kind": "checker", "played": "8/4 6/4"}, ""),
    (cube_row("take", float("nan"), 0.5, 1.0), ""),  # no cube values: no type
])
def test_cube_error_type(row, want):
    assert cube_error_type(row) == want
    assert want == "" or want in CUBE_ERROR_TYPES


def test_type_agrees_with_played_against_best():
    """On a grid of equities: a doubler's row has a type exactly when its play differs from
    the proper action as the analysis defines it (double when the doubled value beats no
    double and the position is not too good), a taker's when it differs from the response."""
    rng = np.random.default_rng(1)
    for _ in range(2000):
        nd, dt, dp = rng.uniform(-0.5, 1.8, 3)
        dp = abs(dp)
        response = "take" if dt <= dp else "pass"
        doubled = min(dt, dp)
        action = "too good" if nd > dp else ("double" if doubled > nd else "no double")
        for played in ("no double", "double"):
            t = cube_error_type(cube_row(played, nd, dt, dp))
            right = (played == "double") == (action == "double")
            assert (t == "") == right, (played, nd, dt, dp, t)
        for played in ("take", "pass"):
            assert (cube_error_type(cube_row(played, nd, dt, dp)) == "") == (played == response)


def test_catalogue_merges_and_sorts():
    cat = error_catalogue(frame())
    assert list(cat.equity_loss) == [0.3, 0.2, 0.15, 0.11, 0.10]  # >= 0.08, largest first; 0.09 merged
    assert list(cat.columns[-3:]) == ["type", "count", "places"]
    top = cat.iloc[0]
    assert top.type == "missed double below the cash point" and top["count"] == 1 and top.places == ["a.mat:1:4"]
    merged = cat[cat.position_id == ROLLS[0][0]].iloc[0]
    assert merged["count"] == 2 and merged.places == ["a.mat:1:1", "b.xg:3:1"] and merged.equity_loss == 0.10
    assert cat.iloc[3].type == "wrong take" and set(cat.type[cat.kind == "checker"]) == {CHECKER_TYPE}


def test_catalogue_filters():
    d = frame()
    # every error (loss > 0; the correct play is none): 7 rows, the 0.05 one merged with the
    # 0.20 one in the same position, the 0.09 one with the 0.10 one
    every = error_catalogue(d, min_loss=0.0)
    assert list(every.equity_loss) == [0.3, 0.2, 0.15, 0.11, 0.10] and list(every["count"]) == [1, 2, 1, 1, 2]
    assert list(error_catalogue(d, kind="cube").type) == ["missed double below the cash point", "wrong take"]
    assert list(error_catalogue(d, types=["wrong take"]).equity_loss) == [0.11]
    assert list(error_catalogue(d, phases=["race"]).position_id) == [ROLLS[1][0]]
    assert list(error_catalogue(d, tags=["holding"]).equity_loss) == [0.2]  # any side's holding
    assert list(error_catalogue(d, tags=["on_roll:blitz", "hit"]).equity_loss) == [0.3, 0.2]
    assert error_catalogue(d, tags=["opponent:holding"]).empty
    assert error_catalogue(d, min_loss=1.0).empty
    with pytest.raises(CatalogueError, match="unknown error type"):
        error_catalogue(d, types=["wrong redouble"])
    with pytest.raises(CatalogueError, match="lacks"):
        error_catalogue(d.drop(columns=["dice"]))


def test_write_html_csv_jsonl(tmp_path):
    cat = error_catalogue(frame())
    html = tmp_path / "errors.html"
    write_catalogue(cat, html)
    text = html.read_text()
    # three checker entries with two boards (played, best), two cube entries with one board
    assert text.count("<svg") == 3 * 2 + 2 and text.count("<section") == 5
    assert "played: 24/20 6/3*" in text and "best: 24/21 24/20" in text and "b.xg:3:1" in text
    assert "missed double below the cash point" in text and "+0.800" in text  # the cube equities
    assert text.count('marker-end="url(#arrow)"') >= 6  # the plays drawn as arrows
    csv = tmp_path / "errors.csv"
    write_catalogue(cat, csv)
    back = pd.read_csv(csv, keep_default_na=False)
    assert len(back) == 5 and back.places[4].split("\n") == ["a.mat:1:1", "b.xg:3:1"]
    assert back.type[0] == "missed double below the cash point"
    jl = tmp_path / "errors.jsonl"
    write_catalogue(cat, jl)
    recs = [json.loads(x) for x in jl.read_text().splitlines()]
    assert recs[4]["places"] == ["a.mat:1:1", "b.xg:3:1"] and recs[0]["cube_dt"] == 0.8
    assert recs[1]["cube_nd"] is None and recs[0]["date"].startswith("2025-01-02")
    with pytest.raises(CatalogueError, match="unknown catalogue format"):
        write_catalogue(cat, tmp_path / "errors.txt")
    assert not (tmp_path / "errors.txt").exists()
    empty = tmp_path / "none.html"
    write_catalogue(error_catalogue(frame(), min_loss=5), empty)
    assert "0 entries" in empty.read_text()
