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
