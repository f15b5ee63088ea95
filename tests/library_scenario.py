"""The library scenario of issue 36, as a user runs it, for any database (SQLite, PostgreSQL):
used by tests/test_library_scenario.py and tests/test_library_postgres.py."""

from __future__ import annotations

import json
import shutil
import sqlite3
import zipfile
from pathlib import Path

from typer.testing import CliRunner

from bgtools.cli.app import app

runner = CliRunner()
DATA = Path(__file__).parent / "data" / "library"
COLLECTION = DATA / "collection"
XG = COLLECTION / "charlot1-charlot2_7p_2025-11-08-2305.xg"
PAIR_MAT = DATA / "pair" / "charlot1-charlot2_7p_2025-11-08-2305.mat"
ME = "North,charlot1,gobetzu"


def bg(*args: str, code: int = 0):
    r = runner.invoke(app, list(args))
    assert r.exit_code == code, (args, r.exit_code, r.output)
    return r


def run_scenario(db: str, tmp: Path) -> dict:
    """Add a folder, add it again, add the .xg's .mat exports, analyse at 0 ply, stats, errors,
    a quiz deck; returns what the comparisons across databases need."""
    from bgtools.library.api import Library

    folder = tmp / "collection"
    if not folder.exists():  # a second database in the same folder reads the same paths
        shutil.copytree(COLLECTION, folder)
    r = bg("library", "add", str(folder), "--db", db, "--me", ME)
    assert r.stdout.strip() == "5 new, 0 unchanged, 0 duplicates, 0 unreadable"
    r = bg("library", "add", str(folder), "--db", db)
    assert r.stdout.strip() == "0 new, 5 unchanged, 0 duplicates, 0 unreadable"

    # the XG match exported by bgtools and by gnubg, and a renamed copy: one match
    converted = tmp / "converted.mat"
    bg("convert", str(folder / XG.name), "--to", "mat", "-o", str(converted))
    renamed = tmp / "renamed.xg"
    shutil.copy(folder / XG.name, renamed)
    r = bg("library", "add", str(converted), str(PAIR_MAT), str(renamed), "--db", db)
    assert r.stdout.strip() == "0 new, 0 unchanged, 3 duplicates, 0 unreadable"
    with Library(db) as lib:
        m = lib.matches()
        assert len(m) == 5
        row = m[m["player0"] == "charlot1"].iloc[0]
        assert set(row["paths"].split("\n")) == {str(folder / XG.name), str(converted), str(PAIR_MAT.resolve()),
                                                 str(renamed)}
        assert row["me_side"] == 0 and row["opponent"] == "charlot2"
        assert (row["length"], row["score0"], row["score1"], row["winner"], row["games"]) == (7, 9, 2, 0, 4)
        assert m["me_side"].notna().sum() == 4  # gobetzu (two matches), charlot1, North (002; 001 is Alice v Bob)

    r = bg("library", "analyse", "--ply", "0", "--db", db, "--no-cache")
    assert r.stdout.startswith("5 analysed"), r.output
    r = bg("library", "analyse", "--ply", "0", "--db", db, "--no-cache")
    assert r.stdout.startswith("0 analysed"), r.output
    with Library(db) as lib:
        d = lib.decisions()
        m = lib.matches()
    assert set(d["match_key"]) == set(m["match_key"])
    assert (d["ply"] == 0).all() and (d["equity_loss"] >= 0).all()
    # position and turn tags on every decision: a play that hits says so, a cube decision has plans only
    checker = d[d["kind"] == "checker"]
    hits = checker[checker["played"].str.contains("*", regex=False)]
    assert len(hits) and all(("double-hit" if p.count("*") > 1 else "hit") in t.split(",")
                             for p, t in zip(hits["played"], hits["tags"]))
    assert not any({"hit", "double-hit"} & set(t.split(","))
                   for t in checker.loc[~checker.index.isin(hits.index), "tags"])
    turn_words = {"hit", "double-hit", "closeout", "point-made", "entered", "dance", "anchor-made"}
    assert not any(turn_words & set(t.split(",")) for t in d.loc[d["kind"] == "cube", "tags"])
    assert any(t.startswith("on_roll:") for t in d["tags"])
    mine = d[d["me"]]
    assert len(mine) and set(zip(mine["match_key"], mine["side"])) <= set(
        zip(m["match_key"], m["me_side"].fillna(-1).astype(int)))
    # statistics with their intervals
    rows = json_rows(bg("stats", "--db", db, "--json").stdout)
    assert [r["group"] for r in rows] == ["all"] and rows[0]["matches"] == 5
    assert rows[0]["pr_lo"] <= rows[0]["pr"] <= rows[0]["pr_hi"] and rows[0]["pr_hi"] > rows[0]["pr_lo"]
    mine = json_rows(bg("stats", "--db", db, "--me", "--by", "year", "--json").stdout)
    assert [r["group"] for r in mine] == ["2025", "2026", "unknown", "all"]  # charlot (XG), North (.mat), undated
    assert mine[-1]["wins"] + mine[-1]["losses"] <= mine[-1]["matches"] == 4
    assert mine[-1]["decisions"] < rows[0]["decisions"]
    cmp = json.loads(bg("stats", "--db", db, "--me", "--compare", "2025", "2026", "--json").stdout)
    assert cmp["matches_a"] == 1 and cmp["matches_b"] == 1 and 0 < cmp["p_value"] <= 1
    # the catalogue of errors, largest first, every place named
    import pandas as pd

    catalogue = tmp / "errors.csv"
    bg("errors", "--db", db, "--min", "0.03", "-o", str(catalogue))
    cat = pd.read_csv(catalogue)
    assert len(cat) and (cat["equity_loss"] >= 0.03).all()
    assert list(cat["equity_loss"]) == sorted(cat["equity_loss"], reverse=True)
    assert cat["count"].sum() == int((d["equity_loss"] >= 0.03).sum())
    cube = bg("errors", "--db", db, "--kind", "cube", "--min", "0.05").stdout
    assert "wrong take" in cube and "checker play" not in cube
    # a drill deck of the user's own errors, read back
    deck, deck_csv = tmp / "drills.apkg", tmp / "drills.csv"
    r = bg("errors", "--db", db, "--me", "--min", "0.05", "--quiz", str(deck))
    cards = int(r.stderr.split("bgtools: ")[1].split()[0])
    notes = read_apkg_notes(deck)
    mine_errors = d[d["me"] & (d["equity_loss"] >= 0.05)]
    assert 0 < len(notes) == cards <= len(mine_errors)
    best = {str(b) for b in mine_errors["best"]}
    for fields in notes:  # a board, the question, the answer with the best play or cube action, where
        assert fields[0].lstrip().startswith("<svg") and len(fields) == 4
        assert any(b in fields[2] for b in best) and fields[3]
    bg("errors", "--db", db, "--me", "--min", "0.05", "--quiz", str(deck_csv))
    rows = pd.read_csv(deck_csv)
    assert len(rows) == len(bg("errors", "--db", db, "--me", "--min", "0.05").stdout.splitlines()) - 1
    return {"decisions": d, "matches": m}


def read_apkg_notes(path: Path) -> list[list[str]]:
    """The fields of every note of an Anki package (a zip holding the collection's SQLite file)."""
    with zipfile.ZipFile(path) as z:
        name = "collection.anki21" if "collection.anki21" in z.namelist() else "collection.anki2"
        out = path.parent / (path.name + ".sqlite")
        out.write_bytes(z.read(name))
    con = sqlite3.connect(out)
    try:
        return [row[0].split("\x1f") for row in con.execute("SELECT flds FROM notes")]
    finally:
        con.close()


def stats_outputs(db: str) -> dict:
    """stats (--json, --by month, --me) and errors outputs, to compare across databases."""
    return {"stats": bg("stats", "--db", db, "--json").stdout,
            "by_month": bg("stats", "--db", db, "--by", "month", "--csv").stdout,
            "me": bg("stats", "--db", db, "--me", "--json").stdout,
            "compare": bg("stats", "--db", db, "--compare", "2025", "2026").stdout,
            "errors": bg("errors", "--db", db, "--min", "0.03").stdout}


def json_rows(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]
