"""The race-data stage: race self-play positions labelled by our own rollouts (bear-offs exactly),
seeded and resumable to identical bytes, then fitted (bgtools.training.racedata, run_racelabel)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bgtools.engine.bearoff import load_databases, ts_lookup
from bgtools.engine.nets.features import NET_RACE, net_classes
from bgtools.engine.nets.networks import load_weights
from bgtools.training import pipeline as pl
from bgtools.training.datasets import load_npz
from bgtools.training.racedata import race_rollout_targets
from handboards import race_board

SP = pl.SelfplayConfig(positions=45, seed=7, chunk_games=4, classes=("race",))
RL = pl.RaceLabelConfig(trials=4, seed=3, chunk=20)


@pytest.fixture(scope="module")
def shipped():
    return load_weights(None)


def test_bearoff_positions_are_labelled_exactly(shipped):
    db = load_databases()
    b = race_board({0: 2, 3: 1}, {1: 2, 4: 2})  # both sides home, few checkers: two-sided database
    t = race_rollout_targets(b[None], shipped, trials=5, seed=1)[0]
    assert t[0] == pytest.approx(ts_lookup(db.ts, b)[0], abs=1e-6)
    assert (t[1:] == 0).all()


def test_rollout_targets_are_seeded_by_row(shipped):
    b = race_board({9: 3, 4: 6, 2: 6}, {10: 2, 5: 7, 1: 6})
    boards = np.stack([b, b])
    t = race_rollout_targets(boards, shipped, trials=8, seed=2)
    assert np.array_equal(t[1], race_rollout_targets(boards[1:], shipped, trials=8, seed=2, first_row=1)[0])
    assert not np.array_equal(t[0], t[1])  # other rows, other dice
    # the five outputs are means of game results: cumulative and within 0..1
    assert (t >= 0).all() and (t <= 1).all() and (t[:, 1] <= t[:, 0]).all() and (t[:, 3] <= 1 - t[:, 0] + 1e-6).all()
    with pytest.raises(ValueError):
        race_rollout_targets(boards, shipped, trials=0, seed=2)
    # 1-ply players: the same dice, other plays, still seeded
    t1 = race_rollout_targets(boards[:1], shipped, trials=8, seed=2, ply=1)
    assert np.array_equal(t1, race_rollout_targets(boards[:1], shipped, trials=8, seed=2, ply=1))
    assert (t1 >= 0).all() and (t1 <= 1).all()


def test_racelabel_stage_resumes_to_identical_output_and_fits(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for run in (a, b):
        assert pl.run_selfplay(run, SP)["positions"] == 45
    assert (net_classes(load_npz(a / "data" / "positions.npz", "boards")["boards"]) == NET_RACE).all()
    whole = pl.run_racelabel(a, RL)
    assert whole["positions"] == 45
    assert pl.run_racelabel(b, RL, max_chunks=1) is None  # stopped after one of three parts
    assert pl.run_racelabel(b, RL, max_chunks=1) is None
    assert pl.run_racelabel(b, RL)["targets_sha256"] == whole["targets_sha256"]
    la, lb = load_npz(a / "data" / "labelled.npz"), load_npz(b / "data" / "labelled.npz")
    assert np.array_equal(la["targets"], lb["targets"]) and np.array_equal(la["boards"], lb["boards"])
    assert (b / "racelabel.log.csv").read_text().count("\n") == 4  # header and one line per part
    with pytest.raises(pl.PipelineError, match="other settings"):
        pl.run_racelabel(b, pl.RaceLabelConfig(trials=5, seed=3, chunk=20))
    m = pl.run_fit(a, pl.FitConfig(epochs=2, batch=16, lr=1e-3, seed=2))
    assert m["rows"] == 45
    log = (a / "fit.log.csv").read_text().splitlines()
    assert "val_mae_race" in log[0] and len(log) == 4
    assert json.loads((a / "racelabel.manifest.json").read_text())["config"]["trials"] == 4


def test_racelabel_refuses_contact_positions(tmp_path):
    run = tmp_path / "c"
    pl.run_selfplay(run, pl.SelfplayConfig(positions=30, seed=7, chunk_games=2))
    with pytest.raises(pl.PipelineError, match="not races"):
        pl.run_racelabel(run, RL)


def test_racelabel_from_the_command_line(tmp_path):
    from typer.testing import CliRunner

    from bgtools.cli.app import app

    run = str(tmp_path / "r")
    cli = CliRunner()
    for args in (["selfplay", "--positions", "25", "--classes", "race"],
                 ["racelabel", "--trials", "2", "--chunk", "10"]):
        r = cli.invoke(app, ["train", *args, "--run", run])
        assert r.exit_code == 0, (args, r.output)
    assert load_npz(tmp_path / "r" / "data" / "labelled.npz", "targets")["targets"].shape == (25, 5)
    r = cli.invoke(app, ["train", "racelabel", "--run", run, "--trials", "0"])
    assert r.exit_code == 2
