"""The library's database: where it is, its tables, its schema versions and their migrations.

One schema for SQLite (the default: one file in the platform's user data folder) and
PostgreSQL (a library shared by a club or a team), through SQLAlchemy Core.  ``db`` is a
path (SQLite) or a SQLAlchemy URL (``sqlite:///x.db``, ``postgresql+psycopg://user@host/db``);
without one, ``BGTOOLS_DB``, else :func:`default_db_path`.

The schema is versioned: the ``meta`` table holds ``schema_version``, and
:data:`MIGRATIONS` lists, in order, the step from each version to the next.  Opening a
library applies the steps it lacks, each in its own transaction with the new version
number, so that a library made by an older bgtools opens in a newer one (and one made by a
newer bgtools is refused, not damaged).  A migration is written against the schema of its
own version, never against the tables below (which describe the newest).

>>> from bgtools.library.store import db_url
>>> db_url("sqlite:///x.db"), db_url("postgresql+psycopg://me@club/bg")
('sqlite:///x.db', 'postgresql+psycopg://me@club/bg')
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable, Optional

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from bgtools.base.errors import BgtoolsError

__all__ = ["DB_ENV", "SCHEMA_VERSION", "MIGRATIONS", "LibraryError", "Store", "default_db_path", "db_url",
           "metadata", "meta", "matches", "files", "analyses", "decisions", "META_KEYS", "DECISION_COLUMNS"]

#: environment variable naming the library (a path or a SQLAlchemy URL)
DB_ENV = "BGTOOLS_DB"
#: the schema this bgtools writes; older libraries are migrated up to it when opened
SCHEMA_VERSION = 2
#: the standard metadata keys of ``Match.tags`` kept per match (str values)
META_KEYS = ("date", "time", "event", "round", "place", "site", "rating0", "rating1")


class LibraryError(BgtoolsError):
    """The library cannot be opened or used (a bad URL, a newer schema, a missing driver)."""


def default_db_path() -> Path:
    """``library.sqlite`` in the platform's user data folder (e.g. ``~/.local/share/bgtools``)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("bgtools")) / "library.sqlite"


def db_url(db: Optional[str] = None) -> str:
    """The SQLAlchemy URL of ``db`` (a URL as it is; a path as SQLite), ``BGTOOLS_DB`` or the default."""
    db = db or os.environ.get(DB_ENV) or str(default_db_path())
    if "://" in db:
        return db
    return "sqlite:///" + os.path.abspath(os.path.expanduser(db))


# ----------------------------------------------------------------------------- the newest schema
metadata = sa.MetaData()

meta = sa.Table("meta", metadata, sa.Column("key", sa.String(64), primary_key=True),
                sa.Column("value", sa.Text, nullable=False))

matches = sa.Table(
    "matches", metadata,
    sa.Column("match_key", sa.String(64), primary_key=True),
    sa.Column("player0", sa.Text, nullable=False), sa.Column("player1", sa.Text, nullable=False),
    sa.Column("length", sa.Integer, nullable=False),
    sa.Column("crawford", sa.Boolean, nullable=False), sa.Column("jacoby", sa.Boolean, nullable=False),
    sa.Column("beavers", sa.Boolean, nullable=False),
    sa.Column("format", sa.Text, nullable=False),
    *(sa.Column(k, sa.Text, nullable=False) for k in META_KEYS),
    sa.Column("raw_tags", sa.Text, nullable=False),  # every header tag as read (JSON)
    sa.Column("winner", sa.Integer), sa.Column("score0", sa.Integer, nullable=False),
    sa.Column("score1", sa.Integer, nullable=False), sa.Column("games", sa.Integer, nullable=False),
    sa.Column("problems", sa.Integer, nullable=False),  # reading errors in the record
    sa.Column("added", sa.Float, nullable=False),
)

files = sa.Table(
    "files", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("path", sa.Text, nullable=False, unique=True),
    sa.Column("size", sa.BigInteger, nullable=False), sa.Column("mtime_ns", sa.BigInteger, nullable=False),
    sa.Column("sha256", sa.String(64), nullable=False, index=True),
    sa.Column("match_key", sa.String(64), index=True),  # NULL: unreadable
    sa.Column("error", sa.Text, nullable=False),
)

analyses = sa.Table(
    "analyses", metadata,
    sa.Column("match_key", sa.String(64), primary_key=True), sa.Column("ply", sa.Integer, primary_key=True),
    sa.Column("evaluator", sa.Text, nullable=False), sa.Column("settings", sa.Text, nullable=False),
    sa.Column("decisions", sa.Integer, nullable=False), sa.Column("skipped_games", sa.Text, nullable=False),
    sa.Column("analysed", sa.Float, nullable=False),
)

#: the stored columns of a decision after (match_key, ply, seq), in order
DECISION_COLUMNS = ("game", "move_number", "action_index", "side", "kind", "phase", "forced", "counted", "dice",
                    "position_id", "match_id", "played", "best", "equity_loss", "mwc_loss", "error", "luck",
                    "cube_nd", "cube_dt", "cube_dp", "cube_action", "cube_response", "tags")
_FLOATS = ("equity_loss", "mwc_loss", "luck", "cube_nd", "cube_dt", "cube_dp")
_INTS = ("game", "move_number", "action_index", "side")
_BOOLS = ("forced", "counted")


def _decision_column(name: str) -> sa.Column:
    if name in _FLOATS:
        return sa.Column(name, sa.Float, nullable=name != "equity_loss")
    if name in _INTS:
        return sa.Column(name, sa.Integer, nullable=False)
    if name in _BOOLS:
        return sa.Column(name, sa.Boolean, nullable=False)
    return sa.Column(name, sa.Text, nullable=False)


decisions = sa.Table(
    "decisions", metadata,
    sa.Column("match_key", sa.String(64), primary_key=True), sa.Column("ply", sa.Integer, primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    *(_decision_column(c) for c in DECISION_COLUMNS),
)


# ----------------------------------------------------------------------------- migrations
def _v1(conn: Connection) -> None:
    """Version 1: meta, matches, files, analyses, decisions (without ``tags``)."""
    m = sa.MetaData()
    for t in (meta, matches, files, analyses):
        t.to_metadata(m)
    sa.Table("decisions", m,
             sa.Column("match_key", sa.String(64), primary_key=True), sa.Column("ply", sa.Integer, primary_key=True),
             sa.Column("seq", sa.Integer, primary_key=True),
             *(_decision_column(c) for c in DECISION_COLUMNS if c != "tags"))
    m.create_all(conn)


def _v2(conn: Connection) -> None:
    """Version 2: a decision's position and turn tags (``bgtools.core.tags``); "" for those
    analysed before (``library analyse --retag`` is not needed: a new analysis fills them)."""
    conn.execute(sa.text("ALTER TABLE decisions ADD COLUMN tags TEXT NOT NULL DEFAULT ''"))
    conn.execute(sa.text("CREATE INDEX ix_decisions_error ON decisions (error)"))


#: (version reached, step from the version before), in order
MIGRATIONS: tuple[tuple[int, Callable[[Connection], None]], ...] = ((1, _v1), (2, _v2))


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """SQLite: transactions as SQLAlchemy begins them (DDL too), write-ahead log (a commit is
    atomic and cheap, a crash loses at most the transaction under way), a writer waits for
    another instead of failing at once."""
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()


def _sqlite_begin(conn: Connection) -> None:
    conn.exec_driver_sql("BEGIN")


class Store:
    """An open library database: its engine, migrated to :data:`SCHEMA_VERSION`."""

    def __init__(self, db: Optional[str] = None, *, migrate_to: int = SCHEMA_VERSION) -> None:
        self.url = db_url(db)
        try:
            url = sa.engine.make_url(self.url)
        except sa.exc.ArgumentError as e:
            raise LibraryError(f"{self.url}: not a database path or URL: {e}") from None
        self.is_sqlite = url.get_backend_name() == "sqlite"
        if self.is_sqlite and url.database and url.database != ":memory:":
            folder = Path(url.database).parent
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise LibraryError(f"{folder}: cannot create the library's folder: {e.strerror or e}") from None
        try:
            self.engine: Engine = sa.create_engine(url)
        except (ImportError, sa.exc.NoSuchModuleError) as e:
            hint = " (pip install 'bgtools[postgres]')" if url.get_backend_name().startswith("postgres") else ""
            raise LibraryError(f"{self.url}: no database driver: {e}{hint}") from None
        if self.is_sqlite:
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
            sa.event.listen(self.engine, "begin", _sqlite_begin)
        try:
            self.version = self._migrate(migrate_to)
        except sa.exc.DBAPIError as e:
            self.engine.dispose()
            raise LibraryError(f"{self.where}: cannot open the library: {e.orig}") from None

    @property
    def where(self) -> str:
        """The library's location for messages (the password left out)."""
        return sa.engine.make_url(self.url).render_as_string(hide_password=True)

    def _migrate(self, target: int) -> int:
        version = self.schema_version()
        if version > SCHEMA_VERSION:
            raise LibraryError(f"{self.where}: the library has schema version {version}, made by a newer "
                               f"bgtools (this one reads up to {SCHEMA_VERSION}); upgrade bgtools")
        for reached, step in MIGRATIONS:
            if version < reached <= target:
                with self.engine.begin() as conn:
                    step(conn)
                    self._set_meta(conn, "schema_version", str(reached))
                version = reached
        return version

    def schema_version(self) -> int:
        """The version the database holds (0: empty)."""
        with self.engine.begin() as conn:
            if not sa.inspect(conn).has_table("meta"):
                return 0
            v = conn.execute(sa.select(meta.c.value).where(meta.c.key == "schema_version")).scalar()
        return int(v or 0)

    @staticmethod
    def _set_meta(conn: Connection, key: str, value: str) -> None:
        if conn.execute(sa.select(meta.c.key).where(meta.c.key == key)).first() is None:
            conn.execute(meta.insert().values(key=key, value=value))
        else:
            conn.execute(meta.update().where(meta.c.key == key).values(value=value))

    def get_meta(self, key: str, default: Any = None) -> Any:
        """A JSON value kept in ``meta`` (``default`` when absent)."""
        with self.engine.begin() as conn:
            v = conn.execute(sa.select(meta.c.value).where(meta.c.key == key)).scalar()
        return default if v is None else json.loads(v)

    def set_meta(self, key: str, value: Any) -> None:
        """Keep a JSON value in ``meta``."""
        with self.engine.begin() as conn:
            self._set_meta(conn, key, json.dumps(value))

    def close(self) -> None:
        self.engine.dispose()
