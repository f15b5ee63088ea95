"""``library analyse`` killed with SIGKILL at random moments, then resumed: the library is never
damaged, every stored match is whole (its decisions and its analysis row written together),
and the final decisions equal those of a run never stopped."""

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

from bgtools.library.api import Library

SELFPLAY = Path(__file__).parent / "data" / "matches" / "selfplay"


def _state(db: str) -> tuple[int, int]:
    """(matches analysed, decisions), checking that the file is sound and each analysis whole."""
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = con.execute("SELECT a.match_key, a.decisions, (SELECT count(*) FROM decisions d WHERE "
                           "d.match_key = a.match_key AND d.ply = a.ply) FROM analyses a").fetchall()
        assert all(n == stored for _, n, stored in rows), rows
        orphans = con.execute("SELECT count(*) FROM decisions d WHERE NOT EXISTS (SELECT 1 FROM analyses a "
                              "WHERE a.match_key = d.match_key AND a.ply = d.ply)").fetchone()[0]
        assert orphans == 0
        return len(rows), sum(n for _, n, _ in rows)
    finally:
        con.close()


def test_analyse_killed_and_resumed(tmp_path):
    files = sorted(str(p) for p in SELFPLAY.glob("0*.mat"))[:10]
    ref_db, db = str(tmp_path / "ref.sqlite"), str(tmp_path / "killed.sqlite")
    for d in (ref_db, db):
        with Library(d) as lib:
            assert lib.add(files, me="North").new == len(files)
    with Library(ref_db) as lib:
        assert lib.analyse(ply=0, use_cache=False).analysed == len(files)
        ref = lib.decisions()

    cmd = [sys.executable, "-m", "bgtools", "library", "analyse", "--ply", "0", "--no-cache", "--db", db]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])}
    rng = random.Random(36)
    seen = []
    wait = 2.0
    for _ in range(12):
        p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(wait + rng.uniform(0.0, 1.5))
        finished = p.poll() is not None
        if not finished:
            p.send_signal(signal.SIGKILL)
        p.wait()
        done, _ = _state(db)
        seen.append(done)
        if finished or done == len(files):
            break
        wait += rng.uniform(0.2, 1.0)
    print("analysed after each kill:", seen)
    assert any(0 < n < len(files) for n in seen), seen  # stopped in the middle at least once
    assert seen == sorted(seen)  # nothing finished was lost
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert _state(db)[0] == len(files)
    with Library(db) as lib:
        got = lib.decisions()
    key = ["match_key", "game", "action_index", "kind"]
    pd.testing.assert_frame_equal(got.sort_values(key).reset_index(drop=True),
                                  ref.sort_values(key).reset_index(drop=True))
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)  # nothing left to do
    assert r.returncode == 0 and r.stdout.startswith("0 analysed"), r.stdout


def test_two_analyse_runs_at_once_agree(tmp_path):
    """Two ``library analyse`` runs on one library at the same time (two users of a shared
    library): each match ends stored once and whole, equal to a single run's."""
    files = sorted(str(p) for p in SELFPLAY.glob("0*.mat"))[:5]
    ref_db, db = str(tmp_path / "ref.sqlite"), str(tmp_path / "shared.sqlite")
    for d in (ref_db, db):
        with Library(d) as lib:
            lib.add(files)
    with Library(ref_db) as lib:
        lib.analyse(ply=0, use_cache=False)
        ref = lib.decisions()
    cmd = [sys.executable, "-m", "bgtools", "library", "analyse", "--ply", "0", "--no-cache", "--db", db]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])}
    runs = [subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)]
    outs = [p.communicate(timeout=600) for p in runs]
    assert all(p.returncode == 0 for p in runs), outs
    assert _state(db)[0] == len(files)
    with Library(db) as lib:
        got = lib.decisions()
    key = ["match_key", "game", "action_index", "kind"]
    pd.testing.assert_frame_equal(got.sort_values(key).reset_index(drop=True),
                                  ref.sort_values(key).reset_index(drop=True))
