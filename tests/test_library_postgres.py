"""The library scenario against a real PostgreSQL server that the test starts (initdb + pg_ctl
in a temporary folder, a Unix socket only, as an unprivileged user when run as root): the
same frames and the same statistics as on SQLite.  Skipped where PostgreSQL or psycopg is
missing or the server cannot start."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from library_scenario import run_scenario, stats_outputs


def _pg_bin(name: str) -> str | None:
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.access(os.path.join(folder, name), os.X_OK):
            return os.path.join(folder, name)
    return shutil.which(name)


@pytest.fixture(scope="module")
def postgres():
    """A function giving the URL of a new empty database on a server started for this module."""
    pytest.importorskip("psycopg")
    initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
    if not initdb or not pg_ctl:
        pytest.skip("PostgreSQL (initdb, pg_ctl) is not installed")
    base = Path(tempfile.mkdtemp(prefix="bgtools-pg-"))
    os.chmod(base, 0o755)
    prefix: list[str] = []
    if os.geteuid() == 0:  # the server refuses to run as root
        runuser = shutil.which("runuser")
        if runuser is None:
            pytest.skip("running as root without runuser: cannot start PostgreSQL")
        shutil.chown(base, "nobody")
        prefix = [runuser, "-u", "nobody", "--"]
    data, log = base / "data", base / "log"

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([*prefix, *args], capture_output=True, text=True, timeout=120, cwd=base)

    r = run(initdb, "-D", str(data), "-U", "bg", "--auth=trust", "-E", "UTF8", "--no-sync")
    if r.returncode:
        shutil.rmtree(base, ignore_errors=True)
        pytest.skip(f"initdb failed: {r.stderr.strip()[-300:]}")
    opts = f"-k {base} -p 5432 -c listen_addresses='' -c fsync=off"
    r = run(pg_ctl, "-D", str(data), "-o", opts, "-l", str(log), "-w", "-t", "60", "start")
    if r.returncode:
        text = log.read_text() if log.exists() else r.stderr
        shutil.rmtree(base, ignore_errors=True)
        pytest.skip(f"PostgreSQL did not start: {text.strip()[-300:]}")
    import sqlalchemy as sa

    admin = sa.create_engine(f"postgresql+psycopg://bg@/postgres?host={base}&port=5432", isolation_level="AUTOCOMMIT")
    count = 0

    def new_database() -> str:
        nonlocal count
        count += 1
        with admin.connect() as conn:
            conn.execute(sa.text(f"CREATE DATABASE lib{count}"))
        return f"postgresql+psycopg://bg@/lib{count}?host={base}&port=5432"

    try:
        yield new_database
    finally:
        admin.dispose()
        run(pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(base, ignore_errors=True)


def test_scenario_postgres_equals_sqlite(postgres, tmp_path):
    url = postgres()
    pg = run_scenario(url, tmp_path)
    lite = run_scenario(str(tmp_path / "lib.sqlite"), tmp_path)
    key = ["match_key", "game", "action_index", "kind"]
    a = pg["decisions"].sort_values(key).reset_index(drop=True)
    b = lite["decisions"].sort_values(key).reset_index(drop=True)
    assert len(a) > 300
    import pandas as pd

    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(pg["matches"].sort_values("match_key").reset_index(drop=True),
                                  lite["matches"].sort_values("match_key").reset_index(drop=True))
    out_pg, out_lite = stats_outputs(url), stats_outputs(str(tmp_path / "lib.sqlite"))
    assert out_pg == out_lite  # the same statistics, to the last digit
    assert "pr_lo" in out_pg["by_month"] and out_pg["stats"].count("\n") == 1


def test_migrations_on_postgres(postgres):
    """A version-1 library on PostgreSQL is migrated when opened, as on SQLite."""
    import sqlalchemy as sa

    from bgtools.library.store import SCHEMA_VERSION, Store

    url = postgres()
    old = Store(url, migrate_to=1)
    assert "tags" not in {c["name"] for c in sa.inspect(old.engine).get_columns("decisions")}
    old.close()
    new = Store(url)
    assert new.version == SCHEMA_VERSION
    assert "tags" in {c["name"] for c in sa.inspect(new.engine).get_columns("decisions")}
    new.close()
