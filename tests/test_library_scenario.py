"""The match library as a user runs it (issue 36's scenario) on SQLite, and ``library add``'s rules:
unchanged, renamed, changed and unreadable files, the user's aliases, the Python API."""

import os
import shutil

import pytest

from library_scenario import COLLECTION, bg, run_scenario


def test_scenario_sqlite(tmp_path):
    run_scenario(str(tmp_path / "lib.sqlite"), tmp_path)


def test_add_rules(tmp_path, monkeypatch):
    """A touched file is unchanged; a changed file is read again (a new match); an unreadable one
    is reported (exit 2) and not read again while unchanged; BGTOOLS_DB names the library."""
    from bgtools.library.api import Library

    db = tmp_path / "env.sqlite"
    monkeypatch.setenv("BGTOOLS_DB", str(db))
    f = tmp_path / "m.mat"
    shutil.copy(COLLECTION / "001.mat", f)
    assert bg("library", "add", str(f)).stdout.strip() == "1 new, 0 unchanged, 0 duplicates, 0 unreadable"
    assert db.exists()
    os.utime(f, ns=(1, 1))  # touched: the bytes hash as before
    assert bg("library", "add", str(f)).stdout.strip() == "0 new, 1 unchanged, 0 duplicates, 0 unreadable"
    shutil.copy(COLLECTION / "002.mat", f)  # the same name, another match
    assert bg("library", "add", str(f)).stdout.strip() == "1 new, 0 unchanged, 0 duplicates, 0 unreadable"
    bad = tmp_path / "bad.mat"
    bad.write_text("this is not a match\n")
    r = bg("library", "add", str(bad), str(f), code=2)
    assert r.stdout.strip() == "0 new, 1 unchanged, 0 duplicates, 1 unreadable"
    assert "bgtools: error: " + str(bad) in r.stderr
    r = bg("library", "add", str(bad), code=2)  # reported again, from the library
    assert r.stdout.strip() == "0 new, 0 unchanged, 0 duplicates, 1 unreadable"
    with Library() as lib:
        m = lib.matches()
        assert len(m) == 2
        # the file now holds 002; 001 keeps no path
        assert sorted(m["paths"]) == ["", str(f)]


def test_me_and_api(tmp_path):
    import bgtools

    db = str(tmp_path / "lib.sqlite")
    with bgtools.Library(db) as lib:
        rep = lib.add([str(COLLECTION / "match_complete.mat"), str(COLLECTION / "money_session.mat")])
        assert (rep.new, rep.unchanged, rep.duplicates, rep.unreadable) == (2, 0, 0, 0)
        assert lib.matches()["me_side"].isna().all()
    bg("library", "me", "TORSTEN, x", "--db", db)
    assert bg("library", "me", "--db", db).stdout.strip() == "TORSTEN,x"
    with bgtools.Library(db) as lib:
        m = lib.matches()
        assert list(m["me_side"]) == [1, 1] and list(m["opponent"]) == ["gobetzu", "gobetzu"]
        assert str(m["me_side"].dtype) == "Int64" and str(m["date"].dtype) == "datetime64[ns]"
        assert list(m["winner"].astype(object).where(m["winner"].notna(), None)) == [0, None]  # gobetzu won the 3-point match
        rep = lib.analyse(ply=0, use_cache=False)
        assert (rep.analysed, rep.failed) == (2, 0)
        d = lib.decisions()
        assert set(d.loc[d["me"], "player"]) == {"torsten"} and set(d.loc[~d["me"], "player"]) == {"gobetzu"}
        assert lib.decisions(ply=2).empty and len(lib.decisions(ply=0)) == len(d)
        # a deeper analysis is what decisions() gives by default
        assert lib.analyse(ply=1, use_cache=False).analysed == 2
        assert set(lib.decisions()["ply"]) == {1}


def test_bad_usage(tmp_path):
    db = str(tmp_path / "lib.sqlite")
    bg("library", "add", str(tmp_path / "nothing-here"), "--db", db, code=2)
    bg("library", "analyse", "--ply", "7", "--db", db, code=2)
    bg("library", "me", " , ", "--db", db, code=2)
    r = bg("library", "add", str(COLLECTION), "--db", "nosuchdriver://x", code=2)
    assert r.stderr.startswith("bgtools: error: nosuchdriver://x")


@pytest.mark.parametrize("jobs", ["2"])
def test_add_in_worker_processes(tmp_path, jobs):
    db = str(tmp_path / "lib.sqlite")
    r = bg("library", "add", str(COLLECTION), "--db", db, "--jobs", jobs)
    assert r.stdout.strip() == "5 new, 0 unchanged, 0 duplicates, 0 unreadable"


@pytest.mark.parametrize("cmd", ["library add", "library me", "library analyse", "stats", "errors"])
def test_help_of_every_library_command(cmd):
    import re

    from typer.main import get_command

    from bgtools.cli.app import app

    r = bg(*cmd.split(), "--help")
    assert not re.search(r"<(bool|int|str|float|list)", r.stdout), r.stdout
    command = get_command(app)
    for part in cmd.split():
        command = command.commands[part]
    assert all(p.help for p in command.params if not getattr(p, "hidden", False)), cmd


def test_stats_and_errors_refuse_bad_options(tmp_path):
    db = str(tmp_path / "lib.sqlite")
    for argv in (["stats", "--by", "week"], ["stats", "--json", "--csv"], ["stats", "--since", "May"],
                 ["stats", "--rolling", "0"], ["stats", "--plot", str(tmp_path / "x.png")],
                 ["stats", "--compare", "2024", "colour=red"], ["errors", "--kind", "luck"],
                 ["errors", "-o", str(tmp_path / "x.pdf")], ["errors", "--quiz", str(tmp_path / "x.txt")]):
        r = bg(*argv, "--db", db, code=2)
        assert r.stderr.startswith("bgtools: error: ") and r.stderr.count("\n") == 1, (argv, r.stderr)


def test_an_empty_library(tmp_path):
    db = str(tmp_path / "lib.sqlite")
    assert "no analysed decisions" in bg("stats", "--db", db).stderr
    assert bg("errors", "--db", db).stdout.strip() == "no errors"
    assert bg("library", "analyse", "--db", db).stdout.startswith("0 analysed")


def test_analyse_in_worker_processes_and_on_dask_stores_the_same(tmp_path):
    import pandas as pd

    from bgtools.library.api import Library

    distributed = pytest.importorskip("distributed")
    frames = []
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None,
                                  silence_logs=40) as cluster:
        for name, extra in (("one", ["--jobs", "1"]), ("two", ["--jobs", "2"]),
                            ("dask", ["--dask", cluster.scheduler_address])):
            db = str(tmp_path / f"{name}.sqlite")
            bg("library", "add", str(COLLECTION), "--db", db)
            r = bg("library", "analyse", "--ply", "0", "--no-cache", "--db", db, *extra)
            assert r.stdout.startswith("5 analysed"), r.output
            with Library(db) as lib:
                frames.append(lib.decisions())
    pd.testing.assert_frame_equal(frames[0], frames[1])
    pd.testing.assert_frame_equal(frames[0], frames[2])


def test_metadata_a_first_file_lacks_comes_from_a_copy(tmp_path):
    from bgtools.library.api import Library

    db = str(tmp_path / "lib.sqlite")
    text = (COLLECTION / "002.mat").read_text()
    assert text.startswith('; [EventDate "2026.11.30"]')
    bare = tmp_path / "bare.mat"
    bare.write_text(text.split("\n", 1)[1])  # the same match without its date
    assert bg("library", "add", str(bare), "--db", db).stdout.startswith("1 new")
    with Library(db) as lib:
        assert lib.matches()["date"].isna().all()
    assert bg("library", "add", str(COLLECTION / "002.mat"), "--db", db).stdout.startswith("0 new, 0 unchanged, 1 dup")
    with Library(db) as lib:
        m = lib.matches()
    assert len(m) == 1 and str(m["date"][0].date()) == "2026-11-30"


def test_a_read_only_library_is_a_one_line_error(tmp_path):
    import sqlite3

    db = tmp_path / "lib.sqlite"
    bg("library", "add", str(COLLECTION / "001.mat"), "--db", str(db))
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    url = f"sqlite:///file:{db}?mode=ro&uri=true"
    assert bg("library", "add", str(COLLECTION / "001.mat"), "--db", url).stdout.startswith("0 new, 1 unchanged")
    r = bg("library", "add", str(COLLECTION / "002.mat"), "--db", url, code=2)
    assert r.stderr.startswith("bgtools: error: ") and "readonly" in r.stderr and r.stderr.count("\n") == 1


def test_analyse_a_match_whose_file_changed(tmp_path):
    """The match is read again from a path that still holds it; a file rewritten since it was
    added is not analysed as the old match (exit 2, the reason on stderr)."""
    db = str(tmp_path / "lib.sqlite")
    a, b = tmp_path / "a.mat", tmp_path / "b.mat"
    shutil.copy(COLLECTION / "match_complete.mat", a)
    shutil.copy(COLLECTION / "match_complete.mat", b)
    assert bg("library", "add", str(a), str(b), "--db", db).stdout.startswith("1 new, 0 unchanged, 1 dup")
    shutil.copy(COLLECTION / "money_session.mat", a)  # a now holds another match; b still this one
    assert bg("library", "analyse", "--ply", "0", "--no-cache", "--db", db).stdout.startswith("1 analysed")
    b.unlink()
    bg("library", "add", str(a), "--db", db)  # a is read again: a new match, now without a file
    shutil.copy(COLLECTION / "001.mat", a)
    r = bg("library", "analyse", "--ply", "0", "--no-cache", "--db", db, code=2)
    assert r.stdout.startswith("0 analysed") and "changed since it was added" in r.stderr


def test_add_reads_a_file_as_check_does(tmp_path):
    """One reading for every command: a length no Match ID can hold is refused by check and
    is unreadable for library add, with check's reason."""
    f = tmp_path / "huge.mat"
    f.write_text(" 99999999 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   42: 8/4 6/4\n")
    db = str(tmp_path / "lib.sqlite")
    chk = bg("check", str(f), code=2)
    r = bg("library", "add", str(f), "--db", db, code=2)
    assert r.stdout.strip() == "0 new, 0 unchanged, 0 duplicates, 1 unreadable"
    reason = [ln for ln in r.stderr.splitlines() if str(f) in ln]
    assert reason and "32767" in reason[0]
    assert any(reason[0].split(str(f), 1)[1] in ln for ln in chk.stderr.splitlines() + chk.stdout.splitlines())
