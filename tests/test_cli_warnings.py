"""The command line shows bgtools' own warnings as one line each (``bgtools: warning: ...``), not
as Python shows a warning (the library's file name and a source line)."""

from __future__ import annotations

import subprocess
import sys

TEXT = (" 1 point match\n\n Game 1\n A : 0                          B : 0\n"
        "  1) 31: ????                    42: 8/4 6/4\n")


def _line(f) -> str:
    return (f"bgtools: warning: {f}:5:6: game 1, move 1: the play of 31 is not written (????) "
            "and 16 plays are legal: the roll is kept without a play")


def test_a_match_warning_is_one_line_on_stderr(tmp_path):
    f = tmp_path / "unknown.mat"
    f.write_text(TEXT)
    g = tmp_path / "again.mat"
    g.write_text(TEXT)
    for args, want in ((["check", str(f)], [f]), (["export", str(f), "-o", str(tmp_path / "out.csv")], [f]),
                       (["check", str(f), str(g), "--jobs", "2"], [f, g])):  # (shown here from the workers)
        r = subprocess.run([sys.executable, "-m", "bgtools", *args], capture_output=True, text=True, timeout=300)
        lines = [x for x in r.stderr.splitlines() if "not written" in x]
        assert lines == [_line(x) for x in want], r.stderr
        assert "replay.py" not in r.stderr and "Traceback" not in r.stderr
