"""bgtools.library.quiz: an Anki .apkg read back (a zip holding the SQLite collection: the notes
and their fields) and a CSV deck, from a catalogue of real positions."""

from __future__ import annotations

import csv
import sqlite3
import sys
import zipfile

import pytest

from bgtools.library.catalogue import error_catalogue
from bgtools.library.quiz import DECK_ID, MODEL_ID, QuizError, write_deck
from libframes import catalogue_frame as frame


def notes(apkg, tmp_path) -> list[list[str]]:
    with zipfile.ZipFile(apkg) as z:
        names = z.namelist()
        assert "collection.anki2" in names
        z.extract("collection.anki2", tmp_path)
    con = sqlite3.connect(tmp_path / "collection.anki2")
    try:
        rows = con.execute("select flds, mid, tags, guid from notes order by id").fetchall()
        decks = con.execute("select decks from col").fetchone()[0]
    finally:
        con.close()
    assert str(DECK_ID) in decks and all(r[1] == MODEL_ID for r in rows)
    assert len({r[3] for r in rows}) == len(rows)  # one note per position
    return [r[0].split("\x1f") + [r[2]] for r in rows]


def test_apkg_read_back(tmp_path):
    pytest.importorskip("genanki")
    cat = error_catalogue(frame())
    path = tmp_path / "deck.apkg"
    assert write_deck(cat, path) == 5
    got = notes(path, tmp_path)
    assert len(got) == 5
    by_q = {n[1]: n for n in got}
    first = got[0]  # the largest error: Me's missed double (doubler's equities 0.5 / 0.8 / 1.0)
    assert first[0].startswith("<svg") and "double or no double?" in first[1]
    assert "Proper: double" in first[2] and "double/take +0.800" in first[2] and "lost 0.300" in first[2]
    assert first[3] == "a.mat:1:4" and "cube" in first[4]
    checker = [n for n in got if "to play 42" in n[1]][0]
    assert "Best: 24/22 24/20" in checker[2] and "a.mat:1:1, b.xg:3:1" in checker[3]
    take = [n for n in got if "Take or pass?" in n[1]][0]
    assert "Proper: pass" in take[2] and "(the play made, take, lost 0.110)" in take[2]
    assert len(by_q) >= 4


def test_apkg_one_note_per_position(tmp_path):
    pytest.importorskip("genanki")
    d = frame()
    path = tmp_path / "all.apkg"
    # 8 decisions, three positions twice (0.09 with 0.10, 0.0 with 0.15, 0.05 with 0.20): 5 notes
    assert write_deck(d, path) == 5 and len(notes(path, tmp_path)) == 5


def test_csv_deck(tmp_path):
    cat = error_catalogue(frame())
    path = tmp_path / "deck.csv"
    assert write_deck(cat, path) == 5
    rows = list(csv.DictReader(path.open()))
    assert len(rows) == 5 and rows[0]["kind"] == "cube" and rows[0]["equity_loss"] == "0.3"
    assert rows[0]["question"].endswith("double or no double?") and "double/pass +1.000" in rows[0]["answer"]
    assert rows[4]["where"] == "a.mat:1:1, b.xg:3:1" and rows[4]["dice"] == "42"


def test_bad_decks(tmp_path, monkeypatch):
    cat = error_catalogue(frame())
    with pytest.raises(QuizError, match="unknown deck format"):
        write_deck(cat, tmp_path / "deck.txt")
    with pytest.raises(QuizError, match="lacks"):
        write_deck(cat.drop(columns=["position_id"]), tmp_path / "deck.csv")
    monkeypatch.setitem(sys.modules, "genanki", None)  # as if the extra were not installed
    with pytest.raises(QuizError, match="pip install 'bgtools\\[anki\\]'"):
        write_deck(cat, tmp_path / "deck.apkg")
    assert not (tmp_path / "deck.apkg").exists()
