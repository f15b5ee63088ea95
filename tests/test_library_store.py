"""The library's database: locations, schema versions and migrations (bgtools.library.store)."""

import sqlalchemy as sa
import pytest

from bgtools.library.store import (DB_ENV, MIGRATIONS, SCHEMA_VERSION, LibraryError, Store, db_url,
                                   default_db_path)


def test_db_locations(tmp_path, monkeypatch):
    monkeypatch.delenv(DB_ENV, raising=False)
    assert db_url(None) == "sqlite:///" + str(default_db_path())
    assert db_url(str(tmp_path / "a.db")) == f"sqlite:///{tmp_path / 'a.db'}"
    monkeypatch.setenv(DB_ENV, str(tmp_path / "env.db"))
    assert db_url(None) == f"sqlite:///{tmp_path / 'env.db'}"
    assert db_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"


def test_fresh_library_has_the_newest_schema(tmp_path):
    s = Store(str(tmp_path / "new" / "lib.sqlite"))  # the folder is made
    assert s.version == SCHEMA_VERSION == MIGRATIONS[-1][0]
    cols = {c["name"] for c in sa.inspect(s.engine).get_columns("decisions")}
    assert "tags" in cols
    s.close()


def test_a_v1_library_opens_migrated(tmp_path):
    """A library written by the bgtools of schema 1 (no decision tags) opens in this one:
    migrated to the newest version, its rows kept, the new column filled with its default."""
    from bgtools.library.api import Library
    from bgtools.library.store import DECISION_COLUMNS

    db = str(tmp_path / "old.sqlite")
    old = Store(db, migrate_to=1)
    assert old.version == 1 and old.schema_version() == 1
    cols = [c["name"] for c in sa.inspect(old.engine).get_columns("decisions")]
    assert "tags" not in cols
    key = "ab" * 32
    with old.engine.begin() as conn:
        conn.execute(sa.text(
            "INSERT INTO matches VALUES (:k, 'Me', 'You', 5, 1, 0, 0, 'mat', '2024-03-01', '', 'Club', '', '', "
            "'', '', '', '{}', 0, 5, 2, 3, 0, 0)"), {"k": key})
        conn.execute(sa.text("INSERT INTO files (path, size, mtime_ns, sha256, match_key, error) "
                             "VALUES ('/x/a.mat', 1, 1, 'cd', :k, '')"), {"k": key})
        row = {"match_key": key, "ply": 0, "seq": 0, "game": 1, "move_number": 1, "action_index": 0, "side": 0,
               "kind": "checker", "phase": "contact", "forced": False, "counted": True, "dice": "31",
               "position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA", "played": "24/21 6/5", "best": "8/5 6/5",
               "equity_loss": 0.1, "mwc_loss": 0.01, "error": "bad", "luck": 0.2, "cube_nd": None, "cube_dt": None,
               "cube_dp": None, "cube_action": "", "cube_response": ""}
        names = [c for c in ("match_key", "ply", "seq", *DECISION_COLUMNS) if c != "tags"]
        conn.execute(sa.text(f"INSERT INTO decisions ({', '.join(names)}) VALUES "
                             f"({', '.join(':' + n for n in names)})"), row)
    old.close()
    with Library(db) as lib:
        assert lib.store.version == SCHEMA_VERSION
        m = lib.matches()
        assert list(m["player0"]) == ["Me"] and str(m["date"][0].date()) == "2024-03-01"
        d = lib.decisions()
        assert len(d) == 1 and d["tags"][0] == "" and d["played"][0] == "24/21 6/5"
        assert d["file"][0] == "/x/a.mat" and d["player"][0] == "Me"
    assert Store(db).schema_version() == SCHEMA_VERSION


def test_a_newer_library_is_refused_untouched(tmp_path):
    db = str(tmp_path / "lib.sqlite")
    s = Store(db)
    s.set_meta("schema_version", SCHEMA_VERSION + 7)
    s.close()
    with pytest.raises(LibraryError, match="newer bgtools"):
        Store(db)
    import sqlite3

    con = sqlite3.connect(db)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION + 7)
    con.close()


def test_bad_database(tmp_path):
    with pytest.raises(LibraryError):
        Store("nosuchdriver://x/y")
    (tmp_path / "junk.sqlite").write_bytes(b"this is not a database" * 100)
    with pytest.raises(LibraryError, match="cannot open"):
        Store(str(tmp_path / "junk.sqlite"))
