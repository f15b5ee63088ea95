"""The rollout command: output files, byte-identical results across workers and a Dask
cluster, resume after SIGKILL, one-line errors."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
IDS = ["4HPwATDgc/ABMA", "cGfwQEK7AAAAAA", "HQAA4L8HAIIAAA", "39sCAAH/zQADAA", "4HPwATDgc/ABMA:cAngACAAGAAE"]


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _run(*args, check=True):
    p = subprocess.run([sys.executable, "-m", "bgtools", "rollout", *args], capture_output=True, text=True,
                       env=_env(), cwd=ROOT, timeout=600)
    if check:
        assert p.returncode == 0, p.stderr
    return p


@pytest.fixture(scope="module")
def id_file(tmp_path_factory):
    f = tmp_path_factory.mktemp("ro") / "ids.txt"
    f.write_text("# positions\n" + "\n".join(IDS) + "\n")
    return f


COMMON = ["--trials", "150", "--truncate", "8", "--seed", "3", "--cubeful"]


@pytest.fixture(scope="module")
def reference(id_file, tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "one.jsonl"
    _run("--input", str(id_file), *COMMON, "--workers", "1", "--output", str(out))
    return out.read_bytes()


def test_jsonl_records(reference):
    import json

    recs = [json.loads(line) for line in reference.decode().splitlines()]
    assert [r["id"] for r in recs] == IDS
    for r in recs:
        assert r["trials"] == 150 and r["seed"] == 3 and len(r["probs"]) == 5
        assert {"equity", "equity_se", "cubeful_equity", "cubeful_equity_se"} <= set(r)
    assert "mwc_cubeful" in recs[-1] and "mwc" not in recs[0]  # the last one is a match position


def test_two_workers_byte_identical(id_file, reference, tmp_path):
    out = tmp_path / "two.jsonl"
    _run("--input", str(id_file), *COMMON, "--workers", "2", "--output", str(out))
    assert out.read_bytes() == reference


def test_dask_cluster_byte_identical(id_file, reference, tmp_path):
    pytest.importorskip("distributed")
    from distributed import LocalCluster

    os.environ["PYTHONPATH"] = _env()["PYTHONPATH"]  # for the spawned workers
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        out = tmp_path / "dask.jsonl"
        _run("--input", str(id_file), *COMMON, "--dask", cluster.scheduler_address, "--output", str(out))
    assert out.read_bytes() == reference


def test_sigkill_then_resume_equals_uninterrupted(id_file, tmp_path):
    # enough trials that the kill lands while later positions are still being rolled out
    long = ["--trials", "3000", *COMMON[2:]]
    whole = tmp_path / "whole.jsonl"
    _run("--input", str(id_file), *long, "--workers", "1", "--output", str(whole))
    reference = whole.read_bytes()
    out = tmp_path / "killed.jsonl"
    args = [sys.executable, "-m", "bgtools", "rollout", "--input", str(id_file), *long, "--workers", "1",
            "--output", str(out)]
    proc = subprocess.Popen(args, env=_env(), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= 1:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    partial = out.read_bytes()
    assert partial.count(b"\n") < len(IDS)  # it really was cut short
    with open(out, "ab") as f:
        f.write(b'{"id": "torn rec')  # as if killed in the middle of a write
    _run("--input", str(id_file), *long, "--workers", "1", "--output", str(out), "--resume")
    assert out.read_bytes() == reference


def test_resume_skips_done_and_reruns_other_settings(id_file, reference, tmp_path):
    out = tmp_path / "r.jsonl"
    out.write_bytes(reference)
    _run("--input", str(id_file), *COMMON, "--workers", "1", "--output", str(out), "--resume")
    assert out.read_bytes() == reference  # nothing to do
    _run(IDS[2], "--trials", "36", "--seed", "9", "--workers", "1", "--output", str(out), "--resume")
    assert out.read_bytes().startswith(reference) and out.read_bytes().count(b"\n") == len(IDS) + 1


def test_csv_output_and_csv_input(tmp_path):
    inp = tmp_path / "export.csv"
    inp.write_text("game,id,move\n1,4HPwATDgc/ABMA,8/5 6/5\n2,HQAA4L8HAIIAAA,x\n")
    out = tmp_path / "out.csv"
    _run("--input", str(inp), "--trials", "36", "--truncate", "4", "--workers", "1", "--output", str(out))
    lines = out.read_text().splitlines()
    assert lines[0].startswith("id,trials,seed") and len(lines) == 3
    assert lines[1].split(",")[0] == "4HPwATDgc/ABMA"
    _run("--input", str(inp), "--trials", "36", "--truncate", "4", "--workers", "1", "--output", str(out), "--resume")
    assert len(out.read_text().splitlines()) == 3


@pytest.mark.parametrize("args, msg", [
    (["nonsense"], "nonsense"),
    (["4HPwATDgc/ABMA", "--trials", "0"], "trials"),
    (["4HPwATDgc/ABMA", "--ply", "2"], "ply"),
    (["--input", "/no/such/file"], "no such file"),
    (["4HPwATDgc/ABMA", "--resume"], "--resume needs --output"),
    (["4HPwATDgc/ABMA", "--weights", "/no/such.npz"], "weights"),
])
def test_errors_are_one_line(args, msg, tmp_path):
    out = tmp_path / "never.jsonl"
    p = _run(*args, "--output", str(out), check=False) if "--resume" not in args else _run(*args, check=False)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bgtools: error:") and msg in lines[0]
    assert not out.exists()


# -- the output is every command's output (issue 38 item 7; issue 34 item 6) ------------------------
SMALL = ["--trials", "36", "--truncate", "4", "--seed", "2", "--workers", "1"]


def _bg(*args, cwd=ROOT, check=True):
    p = subprocess.run([sys.executable, "-m", "bgtools", *args], capture_output=True, text=True, env=_env(),
                       cwd=cwd, timeout=600)
    if check:
        assert p.returncode == 0, p.stderr
    return p


@pytest.fixture(scope="module")
def small_reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("small") / "ref.jsonl"
    _run(IDS[0], IDS[4], *SMALL, "-o", str(out))
    return out.read_text()


def test_dash_is_stdout(small_reference, tmp_path):
    p = _bg("rollout", IDS[0], IDS[4], *SMALL, "-o", "-", cwd=tmp_path)
    assert p.stdout == small_reference and os.listdir(tmp_path) == []  # no file named '-'


def test_devices_and_pipes_take_every_record(small_reference, tmp_path):
    p = _bg("rollout", IDS[0], IDS[4], *SMALL, "-o", "/dev/null")
    assert p.stdout == "" and "error" not in p.stderr
    p = _bg("rollout", IDS[0], IDS[4], *SMALL, "-o", "/dev/stdout")  # stdout is a pipe here: no fsync
    assert p.stdout == small_reference
    p = _bg("rollout", IDS[0], "--resume", *SMALL, "-o", "-", check=False)
    assert p.returncode == 2 and p.stderr.startswith("bgtools: error: --resume needs a file")


def test_a_full_disk_is_named_and_leaves_nothing(tmp_path):
    mnt = tmp_path / "full"
    mnt.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(mnt)], capture_output=True).returncode:
        pytest.skip("cannot mount a small tmpfs here")
    try:
        kept = mnt / "kept.jsonl"
        kept.write_text('{"old": "record"}\n')
        with open(mnt / "filler", "wb") as f:
            try:
                f.write(b"\0" * 65536)
                f.flush()
            except OSError:
                pass
        out = mnt / "out.jsonl"
        p = _run(IDS[0], *SMALL, "-o", str(out), check=False)
        assert p.returncode == 2
        assert p.stderr.splitlines() == [f"bgtools: error: {out}: cannot write: No space left on device"]
        p = _run(IDS[0], *SMALL, "-o", str(kept), "--force", check=False)
        assert p.returncode == 2 and str(kept) in p.stderr
        assert sorted(os.listdir(mnt)) == ["filler", "kept.jsonl"]  # no empty file, no temporary
        assert kept.read_text() == '{"old": "record"}\n'  # --force replaces only with a complete record
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


def test_cube_decision_writes_its_records_to_the_output(tmp_path):
    import csv
    import json

    out = tmp_path / "cube.jsonl"
    out.write_text('{"old": 1}\n')
    p = _run(IDS[0], IDS[4], *SMALL, "--cube-decision", "-o", str(out), "--force")
    assert p.stdout == ""  # the results are in the file, not only on the screen
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in recs] == [IDS[0], IDS[4]]
    for r in recs:
        assert r["cube_decision"] is True and r["cubeful"] is True and r["action"] and "no_double" in r
        assert r["met"] == recs[0]["met"] and r["trials"] == 36
    assert "mwc" in recs[1] and "mwc" not in recs[0]
    before = out.read_bytes()
    _run(IDS[0], IDS[4], *SMALL, "--cube-decision", "-o", str(out), "--resume")
    assert out.read_bytes() == before  # both done
    _run(IDS[0], *SMALL, "--cubeful", "-o", str(out), "--resume")  # a plain rollout is another record
    assert out.read_bytes().startswith(before) and out.read_text().count("\n") == 3
    csv_out = tmp_path / "cube.csv"
    _run(IDS[4], *SMALL, "--cube-decision", "-o", str(csv_out))
    rows = list(csv.DictReader(csv_out.read_text().splitlines()))
    assert len(rows) == 1 and rows[0]["id"] == IDS[4] and rows[0]["action"] and rows[0]["mwc_double_take"]


def test_resume_rolls_out_again_under_another_match_equity_table(tmp_path):
    import json

    import numpy as np

    from bgtools.engine.cubeful.met import load_met

    met = load_met()
    shifted = tmp_path / "shifted.json"
    shifted.write_text(json.dumps({"name": "Shifted", "pre_crawford": np.clip(met.pre + 0.02, 0, 1).tolist(),
                                   "post_crawford": met.post.tolist()}))
    out = tmp_path / "m.jsonl"
    args = ["rollout", IDS[4], *SMALL, "--cubeful", "-o", str(out)]
    _bg(*args)
    _bg("--met", str(shifted), *args, "--resume")
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(recs) == 2  # not re-used: rolled out under the other table
    assert recs[0]["met"] == met.identity and recs[1]["met"].startswith("Shifted (")
    assert recs[0]["mwc_cubeful"] != recs[1]["mwc_cubeful"]
    _bg("--met", str(shifted), *args, "--resume")
    _bg(*args, "--resume")
    assert len(out.read_text().splitlines()) == 2  # each table's record is re-used by its own table
