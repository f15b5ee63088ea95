"""Outputs go where they are named and nowhere else (issue 13): ``-`` is stdout, special files are
written directly, symbolic links are written through, only regular files get temp-and-rename;
and left-over temporaries of killed runs are cleaned."""

import os
import re
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from bgtools.base.fileio import OutputError, atomic_path, atomic_write, clean_stale, output_kind
from bgtools.cli.app import app
from bgtools.export.writer import write_dataframe

ROOT = Path(__file__).resolve().parent.parent
MAT = ROOT / "tests" / "data" / "matches" / "selfplay" / "001.mat"
DF = pd.DataFrame({"a": [1, 2], "b": ["x", "y"]})
CSV = "a,b\n1,x\n2,y\n"


def _read_fifo(path: Path, box: list) -> threading.Thread:
    def run():
        with open(path, "rb") as f:
            box.append(f.read())

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


# -- "-" is stdout --------------------------------------------------------------------------
def test_dash_is_stdout_for_the_library(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert output_kind("-") == ("stdout", "-")
    write_dataframe(DF, "-")
    atomic_write("-", "text\n")
    atomic_write(Path("-"), b"bytes\n")
    with atomic_path("-") as tmp:
        tmp.write_bytes(b"via a path\n")
    assert capsys.readouterr().out == CSV + "text\nbytes\nvia a path\n"
    assert os.listdir(tmp_path) == []  # no file named "-", no temporaries


def test_dash_is_stdout_for_convert(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(app, ["convert", str(MAT), "-o", "-", "--to", "mat"])
    assert r.exit_code == 0, r.output
    assert " 1 point match" in r.stdout and "Game 1" in r.stdout
    assert not (tmp_path / "-").exists() and os.listdir(tmp_path) == []


# -- symbolic links are written through -------------------------------------------------------
def test_symlink_is_written_through(tmp_path):
    target = tmp_path / "real" / "t.csv"
    target.parent.mkdir()
    target.write_text("old\n")
    target.chmod(0o600)
    link = tmp_path / "link.csv"
    link.symlink_to(os.path.relpath(target, tmp_path))
    chain = tmp_path / "chain.csv"
    chain.symlink_to("link.csv")
    assert output_kind(chain) == ("atomic", str(target))
    write_dataframe(DF, str(chain))
    assert chain.is_symlink() and link.is_symlink() and target.read_text() == CSV
    assert stat.S_IMODE(target.stat().st_mode) == 0o600  # a replaced file keeps its permissions
    assert sorted(os.listdir(target.parent)) == ["t.csv"]


def test_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "new.sgf"
    link.symlink_to(tmp_path / "made.sgf")
    r = CliRunner().invoke(app, ["convert", str(MAT), "-o", str(link)])
    assert r.exit_code == 0, r.output
    assert link.is_symlink() and (tmp_path / "made.sgf").read_text().startswith("(;")


def test_convert_writes_through_a_symlink(tmp_path):
    target = tmp_path / "t.sgf"
    target.write_text("old")
    link = tmp_path / "link.sgf"
    link.symlink_to(target)
    r = CliRunner().invoke(app, ["convert", str(MAT), "-o", str(link)])
    assert r.exit_code == 0, r.output
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text().startswith("(;") and "old" not in target.read_text()


def test_symlink_loop_and_folder_are_errors(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.symlink_to(b)
    b.symlink_to(a)
    with pytest.raises(OutputError, match="symbolic links"):
        atomic_write(a, "x")
    with pytest.raises(OutputError, match="folder"):
        atomic_write(tmp_path, "x")


# -- special files are written directly -------------------------------------------------------
def test_fifo_is_written_directly(tmp_path):
    fifo = tmp_path / "f.csv"
    os.mkfifo(fifo)
    assert output_kind(fifo) == ("direct", str(fifo))
    box: list = []
    t = _read_fifo(fifo, box)
    write_dataframe(DF, str(fifo))
    t.join(10)
    assert box == [CSV.encode()]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and os.listdir(tmp_path) == ["f.csv"]


def test_convert_to_a_fifo(tmp_path):
    fifo = tmp_path / "f.mat"
    os.mkfifo(fifo)
    box: list = []
    t = _read_fifo(fifo, box)
    r = CliRunner().invoke(app, ["convert", str(MAT), "-o", str(fifo)])
    t.join(10)
    assert r.exit_code == 0, r.output
    assert b" 1 point match" in box[0] and stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert os.listdir(tmp_path) == ["f.mat"]


def test_dev_null_is_written_directly():
    assert output_kind("/dev/null") == ("direct", "/dev/null")  # checked first: never rename over it
    before = os.stat("/dev/null")
    atomic_write("/dev/null", "x" * 1000)
    with atomic_path("/dev/null") as p:
        assert str(p) == "/dev/null"
        p.write_text("ignored")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino and after.st_rdev == before.st_rdev


def test_export_to_dev_stdout_keeps_the_link_and_the_file(tmp_path):
    """``/dev/stdout`` is a link into /proc: written directly, even when stdout is a regular file."""
    assert output_kind("/dev/stdout")[0] == "direct"
    out = tmp_path / "captured.mat"
    with open(out, "wb") as f:
        ino = os.fstat(f.fileno()).st_ino
        r = subprocess.run([sys.executable, "-m", "bgtools", "convert", str(MAT), "-o", "/dev/stdout", "--to", "mat"],
                           stdout=f, stderr=subprocess.PIPE, cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stderr
    assert os.stat(out).st_ino == ino and out.read_text().startswith("; [EventDate")
    assert os.path.islink("/dev/stdout")
    assert sorted(os.listdir(tmp_path)) == ["captured.mat"]


def test_board_to_process_substitution(tmp_path):
    got = tmp_path / "got.svg"
    cmd = f'"{sys.executable}" -m bgtools board 4HPwATDgc/ABMA -o >(cat > "{got}")'
    r = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stderr
    for _ in range(100):  # the reader of the substitution may finish after bash
        if got.exists() and got.read_text().rstrip().endswith("</svg>"):
            break
        time.sleep(0.05)
    assert got.read_text().startswith("<svg")
    assert "Traceback" not in r.stderr


# -- permissions ---------------------------------------------------------------------------------
def test_new_files_follow_the_umask(tmp_path):
    old = os.umask(0o027)
    try:
        atomic_write(tmp_path / "n.txt", "x")
        write_dataframe(DF, str(tmp_path / "n.csv"))
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "n.txt").stat().st_mode) == 0o640
    assert stat.S_IMODE((tmp_path / "n.csv").stat().st_mode) == 0o640


# -- left-overs -----------------------------------------------------------------------------------
def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_temporaries_are_named_recognisably(tmp_path):
    with atomic_path(tmp_path / "x.csv") as tmp:
        assert re.fullmatch(rf"\.x\.csv\.bgtools-{os.getpid()}-[a-z0-9_]{{8}}\.tmp", tmp.name)
        assert tmp.parent == tmp_path
        clean_stale(tmp_path / "x.csv")  # the live temporary of this process is kept
        assert tmp.exists()


def test_stale_temporaries_are_cleaned_and_nothing_else(tmp_path):
    """Issue 38 item 10: only our exact naming, only when the writer is no longer running."""
    dead = _dead_pid()
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        names = {
            f".x.csv.bgtools-{dead}-abcd_123.tmp": False,  # writer dead: removed
            f".y.csv.bgtools-{dead}-k2j4x9qz.tmp": False,  # another output in the folder: removed too
            f".m.npz.bgtools-{dead}-0a1b2c3d.npz": False,  # another suffix of ours
            f".x.csv.bgtools-{live.pid}-fresh123.tmp": True,  # writer running: kept
            f".x.csv.bgtools-{live.pid}-reused12.tmp": False,  # written before that process started
            f".x.csv.bgtools-{os.getpid()}-mine1234.tmp": True,  # this process's: kept
            # similar, not ours: kept
            f".x.csv.bgtools-{dead}-abc.tmp": True,
            f".x.csv.bgtools-{dead}-ABCD1234.tmp": True,
            f"x.csv.bgtools-{dead}-abcd1234.tmp": True,
            f".x.csv.bgtools-{dead}-abcd1234.tmp.bak": True,
            f".x.csv.other-{dead}-abcd1234.tmp": True,
            ".x.csv.a1b2c3d4.tmp": True,
            ".x.csv.bgtools-abcd1234.tmp": True,
            "x.csv.bak": True,
        }
        for n in names:
            (tmp_path / n).write_text("partial")
        old = time.time() - 3600
        for n in names:
            os.utime(tmp_path / n, (old, old))
        fresh = tmp_path / f".x.csv.bgtools-{live.pid}-fresh123.tmp"
        os.utime(fresh, None)
        os.symlink(tmp_path / "x.csv.bak", tmp_path / f".z.csv.bgtools-{dead}-link1234.tmp")  # a link: kept
        write_dataframe(DF, str(tmp_path / "x.csv"))
        left = set(os.listdir(tmp_path))
        assert left == {n for n, keep in names.items() if keep} | {"x.csv", f".z.csv.bgtools-{dead}-link1234.tmp"}
    finally:
        live.kill()
        live.wait()


def test_a_killed_writer_leaves_a_temporary_that_the_next_run_removes(tmp_path):
    code = ("import os, signal\nfrom bgtools.base.fileio import atomic_path\n"
            "with atomic_path('x.csv') as t:\n    t.write_text('partial')\n    os.kill(os.getpid(), signal.SIGKILL)\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, timeout=120)
    assert r.returncode == -signal.SIGKILL
    left = os.listdir(tmp_path)
    assert len(left) == 1 and re.fullmatch(r"\.x\.csv\.bgtools-\d+-\w+\.tmp", left[0])
    r = CliRunner().invoke(app, ["export", str(MAT), "-o", str(tmp_path / "x.csv")])
    assert r.exit_code == 0, r.output
    assert os.listdir(tmp_path) == ["x.csv"]


def test_a_killed_writer_leaves_a_temporary_that_any_later_output_there_removes(tmp_path):
    """Issue 38 item 10: not only a later run writing the same name cleans up."""
    code = ("import os, signal\nfrom bgtools.base.fileio import atomic_path\n"
            "with atomic_path('out.csv') as t:\n    t.write_text('partial')\n    os.kill(os.getpid(), signal.SIGKILL)\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, timeout=120)
    assert r.returncode == -signal.SIGKILL
    (tmp_path / ".out.csv.mine.tmp").write_text("not ours")  # similar name, not our naming: kept
    r = CliRunner().invoke(app, ["export", str(MAT), "-o", str(tmp_path / "other.csv")])
    assert r.exit_code == 0, r.output
    assert sorted(os.listdir(tmp_path)) == [".out.csv.mine.tmp", "other.csv"]


# -- JSON and CSV without NaN (bgtools.base.jsonout) -----------------------------------------------
def _strict_loads(text: str):
    import json

    def refuse(token):
        raise ValueError(f"{token} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_dumps_writes_non_finite_floats_as_null():
    import numpy as np

    from bgtools.base.jsonout import dumps

    rec = {"probs": (0.5, float("nan"), 0.1), "probs_se": np.array([np.nan, np.inf, 0.25]),
           "equity_se": np.float32("nan"), "n": np.int64(1), "ok": np.bool_(True), "cube": -float("inf"),
           "nested": [{"x": float("nan")}], "id": "4HPwATDgc/ABMA"}
    text = dumps(rec)
    assert "NaN" not in text and "Infinity" not in text
    back = _strict_loads(text)
    assert back == {"probs": [0.5, None, 0.1], "probs_se": [None, None, 0.25], "equity_se": None, "n": 1,
                    "ok": True, "cube": None, "nested": [{"x": None}], "id": "4HPwATDgc/ABMA"}
    assert dumps(0.1) == "0.1" and dumps({"a": 1}, sort_keys=True, allow_nan=True) == '{"a": 1}'


def test_csv_cell_is_one_spelling_for_missing_values(tmp_path):
    import io

    import numpy as np

    from bgtools.base.jsonout import csv_cell

    nans = [float("nan"), np.nan, np.float32("nan"), np.float64("nan"), None]
    assert {csv_cell(x) for x in nans} == {""}
    assert [csv_cell(x) for x in (0.1, 1 / 3, np.float32(0.5), 7, np.int64(-2), False, "s", float("inf"))] == \
        ["0.1", repr(1 / 3), "0.5", "7", "-2", "false", "s", "inf"]
    assert float(csv_cell(1 / 3)) == 1 / 3
    text = "a,b\n" + "\n".join(f"{csv_cell(x)},{csv_cell(y)}" for x, y in [(float("nan"), 1.5), (0.25, None)]) + "\n"
    df = pd.read_csv(io.StringIO(text))
    assert df["a"].isna().tolist() == [True, False] and df["b"].isna().tolist() == [False, True]
