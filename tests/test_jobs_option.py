"""One batch vocabulary (issue 34 item 4): ``--jobs N`` means N local processes, 0 = one per
CPU, default 1, in every command (``rollout`` too: before, it refused 0 and took every core
by default), and the library calls the value ``jobs`` too."""

from __future__ import annotations

import importlib
import inspect
import os

import pytest
import typer
from typer.testing import CliRunner

from bgtools.base.parallel import ordered_map
from bgtools.cli.app import app
from bgtools.export.writer import export_files
from bgtools.rollouts import RolloutError, rollout, rollout_many
from bgtools.rollouts.batch import Batch, BatchRun
from bgtools.rollouts.cuberollout import cube_rollout, cube_rollout_job
from bgtools.rollouts.executors import make_executor
from bgtools.training.pipeline import run_label

rollout_module = importlib.import_module("bgtools.rollouts.rollout")  # (the package's ``rollout`` is the function)
OPENING = "4HPwATDgc/ABMA"


@pytest.fixture
def asked(monkeypatch):
    """The number of processes the rollout command asks the library for (it stops there)."""
    got: list[int] = []

    def fake(weights, jobs, dask, ply=0):
        got.append(jobs)
        raise RolloutError("stopped by the test")

    monkeypatch.setattr(rollout_module, "make_executor", fake)
    return got


@pytest.mark.parametrize("args, jobs", [([], 1), (["--jobs", "0"], os.cpu_count() or 1), (["-j", "3"], 3),
                                        (["--workers", "2"], 2)])
def test_rollout_jobs_as_every_command_takes_them(asked, args, jobs):
    r = CliRunner().invoke(app, ["rollout", OPENING, "--trials", "1", *args])
    assert r.exit_code == 2 and "stopped by the test" in r.output, r.output
    assert asked == [jobs]


@pytest.mark.parametrize("command", [["rollout", OPENING], ["annotate", "x.mat"], ["check", "x.mat"],
                                     ["convert", "x.mat", "-o", "y.json"], ["export", "x.mat", "-o", "y.csv"]])
def test_the_same_bounds_and_words_everywhere(command):
    r = CliRunner().invoke(app, [*command, "--jobs", "-1"])
    assert r.exit_code == 2
    assert r.output.strip().splitlines()[-1] == "bgtools: error: --jobs -1: expected 0 (one per CPU) to 256"
    option = next(p for p in typer.main.get_command(app).commands[command[0]].params if "--jobs" in p.opts)
    assert "0 = one per CPU" in option.help and option.default in (1, None)  # None: rollout's, 1 (--workers)


def test_the_library_calls_it_jobs():
    for fn in (rollout, rollout_many, cube_rollout, cube_rollout_job, make_executor, BatchRun.run, ordered_map,
               export_files, run_label):
        params = inspect.signature(fn).parameters
        assert "jobs" in params and "workers" not in params, fn.__qualname__
        assert params["jobs"].default == 1, fn.__qualname__
    assert Batch.__module__ == BatchRun.__module__ == "bgtools.rollouts.batch"  # batch and jobs are one module
