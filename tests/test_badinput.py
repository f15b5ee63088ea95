"""The bad-input tryout as a test (issue 13): mutated copies of real match files through the CLI.

Each of 20 seeded mutants (lines removed, swapped, duplicated, the file cut, bytes changed) goes
through ``check``, ``convert``, ``export`` and ``annotate --ply 0``: no traceback, no hang, exit
status 0, 1 or 2 only, and ``convert`` never exits 0 on a file that ``check`` flags.
"""

from __future__ import annotations

import gzip
import random
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.cli.app import app

DATA = Path(__file__).parent / "data" / "matches"
SEEDS = [
    ("mat", (DATA / "selfplay/001.mat").read_bytes()),
    ("mat", (DATA / "realmatches/halheinrich-bgmatchformat/cube_take.mat").read_bytes()),
    ("txt", b"\n".join((DATA / "realmatches/bgchallenge/bg176365983_1648962042.txt").read_bytes()
                       .split(b"\n")[:60])),
    ("oldmoves", (DATA / "selfplay/oldmoves/017.oldmoves").read_bytes()),
    ("sgf", gzip.decompress((DATA / "selfplay/001.sgf.gz").read_bytes())),
]
N_MUTANTS = 20
SECONDS = 120  # per command: far more than any of these takes; a hang fails instead of blocking


def mutant(i: int) -> tuple[str, bytes, list[str]]:
    """The i-th mutant: (suffix, bytes, what was done)."""
    rng = random.Random(1300 + i)
    suffix, data = SEEDS[i % len(SEEDS)]
    lines = data.split(b"\n")
    done: list[str] = []
    todo = rng.randint(1, 3)
    while len(done) < todo or b"\n".join(lines) == data:
        op = rng.choice(["remove", "swap", "duplicate", "cut", "bytes"])
        n = len(lines)
        a, b = rng.randrange(n), rng.randrange(n)
        if op == "remove" and n > 1:
            del lines[a]
        elif op == "swap":
            lines[a], lines[b] = lines[b], lines[a]
        elif op == "duplicate":
            lines.insert(a, lines[a])
        elif op == "cut":
            lines = lines[: a + 1]
            lines[-1] = lines[-1][: rng.randint(0, len(lines[-1]))]
        elif op == "bytes":
            k = rng.randint(0, len(lines[a]))
            blob = bytes(rng.choice([rng.randrange(256), ord(rng.choice("0123456789/*:)? "))]) for _ in range(3))
            lines[a] = lines[a][:k] + blob + lines[a][k + 3:]
        done.append(f"{op} {a}")
    return suffix, b"\n".join(lines), done


class Hang(Exception):
    pass


@contextmanager
def time_limit(seconds: int):
    def on_alarm(signum, frame):
        raise Hang(f"no answer in {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run(args: list[str]):
    with time_limit(SECONDS):
        r = CliRunner().invoke(app, args)
    out = r.output + (r.stderr if r.stderr_bytes is not None else "")
    what = f"bgtools {' '.join(args)}"
    assert not isinstance(r.exception, Hang), f"{what}: hangs"
    assert r.exception is None or isinstance(r.exception, SystemExit), \
        f"{what}: {type(r.exception).__name__}: {r.exception}"
    assert "Traceback" not in out, f"{what}:\n{out}"
    assert r.exit_code in (0, 1, 2), f"{what}: exit {r.exit_code}\n{out}"
    return r


@pytest.fixture
def mutant_file(tmp_path, request):
    suffix, data, done = mutant(request.param)
    f = tmp_path / f"m{request.param}.{suffix}"
    f.write_bytes(data)
    return f, done


@pytest.mark.parametrize("mutant_file", range(N_MUTANTS), indirect=True)
def test_mutant_through_the_cli(mutant_file, tmp_path):
    f, done = mutant_file
    check = run(["check", str(f)])
    convert = run(["convert", str(f), "-o", str(tmp_path / "out.sgf")])
    run(["export", str(f), "-o", str(tmp_path / "x.csv")])
    run(["annotate", "--ply", "0", str(f)])
    if check.exit_code != 0:
        assert convert.exit_code != 0, f"convert exits 0 on {f.name} ({done}), which check flags:\n{check.output}"


def test_mutants_are_mutants_and_many_are_flagged():
    from bgtools.formats.read import read_match
    from bgtools.model.problems import MatchFileError

    seen, flagged = set(), 0
    for i in range(N_MUTANTS):
        suffix, data, done = mutant(i)
        assert data != SEEDS[i % len(SEEDS)][1] and done
        seen.add(data)
        try:
            flagged += bool(read_match(data, name=f"m{i}.{suffix}").errors)
        except MatchFileError:
            flagged += 1
    assert len(seen) == N_MUTANTS  # all different
    assert mutant(3) == mutant(3)  # seeded
    assert flagged >= N_MUTANTS // 3, flagged  # the convert-versus-check rule is exercised
