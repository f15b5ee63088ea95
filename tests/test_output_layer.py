"""The one output layer (bgtools.base.fileio) and what ``rollout`` needs on top of it (issue 38
items 7 and 14): records appended one at a time and kept when the writer dies, ``-``, devices and
pipes written directly and never synced, a full disk named with the file and never leaving an empty
or torn output."""

import errno
import os
import subprocess
import sys

import pytest

from bgtools.base import fileio
from bgtools.base.errors import BgtoolsError
from bgtools.base.fileio import AppendOutput, OutputError, check_output, open_output


def _temps(folder):
    return [n for n in os.listdir(folder) if ".bgtools-" in n]


def test_a_new_output_appears_with_its_first_record(tmp_path):
    out = tmp_path / "r.csv"
    a = AppendOutput(out, header="id,v\n")
    assert not out.exists() and len(_temps(tmp_path)) == 1  # only the header so far, in the temporary
    a.write("a,1\n")
    assert out.read_text() == "id,v\na,1\n" and not _temps(tmp_path)
    a.write("b,2\n")
    assert out.read_text() == "id,v\na,1\nb,2\n"  # each record is in the file as soon as it is written
    a.close()
    assert out.read_text() == "id,v\na,1\nb,2\n"


def test_an_output_without_records_appears_at_close(tmp_path):
    out = tmp_path / "r.csv"
    with AppendOutput(out, header="id,v\n"):
        pass
    assert out.read_text() == "id,v\n"


def test_a_replaced_file_survives_a_run_that_fails_before_its_first_record(tmp_path):
    out = tmp_path / "r.jsonl"
    out.write_text('{"old": 1}\n')
    with pytest.raises(RuntimeError):
        with AppendOutput(out):
            raise RuntimeError("the rollout failed")
    assert out.read_text() == '{"old": 1}\n' and not _temps(tmp_path)
    with AppendOutput(out) as a:
        a.write('{"new": 1}\n')
    assert out.read_text() == '{"new": 1}\n'


def test_resume_drops_a_torn_line_and_appends(tmp_path):
    out = tmp_path / "r.jsonl"
    out.write_bytes(b'{"a": 1}\n{"b": 2}\n{"c": ')
    with AppendOutput(out, resume=True, header="never\n") as a:
        assert a.existing == '{"a": 1}\n{"b": 2}\n'
        a.write('{"c": 3}\n')
    assert out.read_text() == '{"a": 1}\n{"b": 2}\n{"c": 3}\n'


def test_a_symlink_is_written_through(tmp_path):
    real = tmp_path / "real.jsonl"
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    with AppendOutput(link) as a:
        a.write("x\n")
    assert link.is_symlink() and real.read_text() == "x\n"


def _no_space(fd):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_full_disk_at_the_first_record_leaves_nothing_and_names_the_file(tmp_path, monkeypatch):
    out = tmp_path / "r.jsonl"
    a = AppendOutput(out)
    monkeypatch.setattr(fileio, "_fsync", _no_space)
    with pytest.raises(OutputError, match=rf"^{out}: cannot write: No space left on device$"):
        a.write("x\n")
    a.abort()
    assert not out.exists() and not _temps(tmp_path)


def test_a_full_disk_later_keeps_the_complete_records(tmp_path, monkeypatch):
    out = tmp_path / "r.jsonl"
    a = AppendOutput(out)
    a.write("one\n")
    monkeypatch.setattr(fileio, "_fsync", _no_space)
    with pytest.raises(OutputError, match="No space left"):
        a.write("two\n")
    a.abort()
    assert out.read_text() == "one\n"  # the failed record is cut away: --resume goes on from here


def test_a_really_full_file_system(tmp_path):
    """A tmpfs of 16 KiB (needs root; skipped where it cannot be mounted)."""
    mnt = tmp_path / "full"
    mnt.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(mnt)], capture_output=True)
    if r.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here")
    try:
        out = mnt / "r.jsonl"
        rec = "x" * 999 + "\n"
        with pytest.raises(OutputError, match=rf"^{out}: cannot write: No space left on device$"):
            with AppendOutput(out) as a:
                for _ in range(100):
                    a.write(rec)
        text = out.read_text()
        assert text and set(text.splitlines()) == {rec[:-1]}  # complete records only
        assert not _temps(mnt)
        (mnt / "r.jsonl").unlink()
        with open(mnt / "filler", "wb") as f:  # fill it up: not even the first record fits
            try:
                f.write(b"\0" * 32768)
                f.flush()
            except OSError:
                pass
        with pytest.raises(OutputError, match=str(out)):
            with open_output(out) as g:
                g.write(rec * 4)
        assert not out.exists() and not _temps(mnt)
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


@pytest.mark.parametrize("name", ["/dev/null", "/dev/stdout"])
def test_devices_are_written_without_sync(name, monkeypatch):
    calls = []
    monkeypatch.setattr(os, "fsync", lambda fd: calls.append(fd))
    code = ("from bgtools.base.fileio import AppendOutput\n"
            f"with AppendOutput({name!r}, header='h\\n') as a:\n"
            "    for i in range(50):\n        a.write(f'{i}\\n')\n")
    # stdout a pipe: fsync would fail with EINVAL there
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    if name == "/dev/stdout":
        assert r.stdout == "h\n" + "".join(f"{i}\n" for i in range(50))
    assert not calls


def test_dash_is_standard_output_and_cannot_be_resumed(capsys):
    with AppendOutput("-", header="h\n") as a:
        a.write("r\n")
    assert capsys.readouterr().out == "h\nr\n"
    with pytest.raises(OutputError, match="nothing to resume"):
        AppendOutput("-", resume=True)
    with pytest.raises(OutputError, match="nothing to resume"):
        AppendOutput("/dev/null", resume=True)


def test_check_output_refuses_what_cannot_be_written(tmp_path):
    with pytest.raises(OutputError, match="is a folder"):
        check_output(tmp_path)
    with pytest.raises(OutputError, match="folder does not exist"):
        check_output(tmp_path / "no" / "x.csv")
    assert check_output(tmp_path / "x.csv") == ("atomic", str(tmp_path / "x.csv"))
    assert issubclass(OutputError, BgtoolsError) and issubclass(OutputError, OSError)


def test_open_output_is_atomic_and_names_the_file(tmp_path, capsys):
    out = tmp_path / "o.txt"
    out.write_text("old")
    with pytest.raises(KeyError):
        with open_output(out) as f:
            f.write("half")
            raise KeyError("boom")
    assert out.read_text() == "old" and not _temps(tmp_path)
    with open_output(out, "wb") as f:
        f.write(b"new")
    assert out.read_bytes() == b"new"
    with open_output("-") as f:
        f.write("to stdout\n")
    assert capsys.readouterr().out == "to stdout\n"
    with pytest.raises(OutputError, match=r"is a folder"):
        with open_output(tmp_path):
            pass
