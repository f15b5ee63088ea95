"""Usage errors in one style (issue 38 item 11): what the parser refuses (an unknown option, a
value that is not a number, an unknown command) is one line ``bgtools: error: ...`` on stderr,
exit 2, like every other error; and numbers out of range are refused the same way (item 8)."""

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from bgtools.cli.app import app

ID = "4HPwATDgc/ABMA"
runner = CliRunner()


def _one_line(r, *words):
    lines = r.stderr.strip().splitlines()
    assert r.exit_code == 2, r.output
    assert len(lines) == 1 and lines[0].startswith("bgtools: error: "), r.stderr
    assert "Usage:" not in r.output and "╭" not in r.output and "Traceback" not in r.output
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("args, words", [
    (["hint", ID, "31", "--ply", "abc"], ["hint:", "--ply", "integer", "bgtools hint --help"]),
    (["moves", ID, "-31"], ["moves:", "no such option: -3"]),
    (["show", "-x"], ["show:", "no such option: -x"]),
    (["nosuch"], ["no such command 'nosuch'", "bgtools --help"]),
    (["train", "selfplay", "--nope"], ["train selfplay:", "--nope"]),
    (["export", "--jobs", "many", "x.mat"], ["export:", "--jobs"]),
    (["rollout", ID, "--trials", "1e3"], ["rollout:", "--trials"]),
    (["eval", ID, "--ply"], ["--ply", "requires an argument"]),
])
def test_parser_errors_are_one_line(args, words):
    _one_line(runner.invoke(app, args), *words)


def test_the_script_itself_prints_one_line():
    p = subprocess.run([sys.executable, "-m", "bgtools", "show", "-x"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.splitlines() == ["bgtools: error: show: no such option: -x (see 'bgtools show --help')"]


def test_no_arguments_still_show_the_help():
    r = runner.invoke(app, [])
    assert "Usage:" in r.output and "rollout" in r.output and "bgtools: error" not in r.output


def test_success_still_exits_0():
    r = runner.invoke(app, ["show", ID])
    assert r.exit_code == 0 and r.stderr == ""


@pytest.mark.parametrize("args, words", [
    (["rollout", ID, "--trials", "99999999999999999999"], ["--trials 99999999999999999999", "1 to 1000000000"]),
    (["rollout", ID, "--trials", "10000000000"], ["--trials 10000000000"]),
    (["rollout", ID, "--trials", "-3"], ["--trials -3"]),
    (["rollout", ID, "--truncate", "99999999999999999999"], ["--truncate"]),
    (["rollout", ID, "--seed", "99999999999999999999"], ["--seed"]),
    (["rollout", ID, "--jobs", "99999999999999999999"], ["--jobs"]),
    (["hint", ID, "31", "--ply", "99999999999999999999"], ["--ply"]),
    (["annotate", "x.mat", "--jobs", "99999999999999999999"], ["--jobs"]),
    (["export", "x.mat", "-o", "x.csv", "--jobs", "99999999999999999999"], ["--jobs"]),
])
def test_numbers_out_of_range_are_one_line(args, words):
    _one_line(runner.invoke(app, args), *words)


@pytest.mark.parametrize("args, words", [
    (["train", "--seed", "99999999999999999999", "--games", "2"], ["--seed", "0 to 4294967295"]),
    (["train", "--hidden", "999999999,1,1", "--games", "2"], ["--hidden 999999999"]),
    (["train", "selfplay", "--seed", "99999999999999999999", "--positions", "1"], ["--seed"]),
    (["train", "prune", "--hidden", "99999999999999999999"], ["--hidden"]),
    (["train", "fit", "--batch", "99999999999999999999"], ["--batch"]),
    (["train", "duel", "--a", "a.npz", "--b", "b.npz", "--games", "99999999999999999999"], ["--games"]),
])
def test_training_numbers_out_of_range_are_one_line(args, words, tmp_path):
    """Before: 'Int value is too large' and MemoryError tracebacks; no run folder is made."""
    run = tmp_path / "run"
    _one_line(runner.invoke(app, [*args[:2], "--run", str(run), *args[2:]] if args[1] in
                            ("selfplay", "prune", "fit", "duel") else [*args, "--run", str(run)]), *words)
    assert not run.exists()
