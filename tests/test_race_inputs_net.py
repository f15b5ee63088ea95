"""A race layer that reads the race inputs (issue 37, item 2): ``raceinputs``' 32 inputs after the
encoder's, read by the kernels (``nn.encode_net``) whenever the race layer has their rows; a net that
gains them at zero weights plays exactly as before; ``train fit --race-inputs`` fits them."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from bgtools.cli.app import app
from bgtools.engine.nets.features import N_INPUTS, NET_RACE, encode_batch, net_classes
from bgtools.engine.nets.networks import WeightsFileError, load_weights
from bgtools.engine.nets.nn import N_RACE_EXTRA, NeuralEvaluator, Weights, add_race_inputs, reads_race_inputs
from bgtools.engine.nets.raceinputs import encode_race_extra_batch
from bgtools.training import pipeline as pl
from bgtools.training.datasets import load_npz
from handboards import race_board
from shipped_nets import ROLLOUT_NET

RACES = np.stack([race_board({9: 3, 4: 6, 2: 6}, {10: 2, 5: 7, 1: 6}),
                  race_board({14: 2, 7: 3, 5: 4, 3: 3}, {5: 5, 4: 4, 1: 2}),  # the opponent has 4 off
                  race_board({13: 1, 11: 2, 5: 5, 0: 2}, {7: 4, 6: 4, 3: 5, 0: 2})])
CONTACT = race_board({23: 2, 12: 5, 7: 3, 5: 5}, {23: 2, 12: 5, 7: 3, 5: 5})  # the opening position


def _with_random_race_rows(w: Weights, seed: int = 3) -> Weights:
    W1 = list(w.W1)
    W1[NET_RACE] = W1[NET_RACE].copy()
    W1[NET_RACE][-N_RACE_EXTRA:] = np.random.default_rng(seed).normal(0, 0.3, (N_RACE_EXTRA, W1[NET_RACE].shape[1]))
    return Weights(tuple(W1), w.b1, w.W2, w.b2, dict(w.meta))


def _numpy_race(w: Weights, boards: np.ndarray) -> np.ndarray:
    """The race layer's outputs by NumPy, its inputs the encoder's and raceinputs'."""
    _, x = encode_batch(boards)
    x = np.concatenate([x[:, :N_INPUTS[NET_RACE]], encode_race_extra_batch(boards)], axis=1)
    h = 1 / (1 + np.exp(-(x.astype(np.float64) @ w.W1[NET_RACE] + w.b1[NET_RACE])))
    return 1 / (1 + np.exp(-(h @ w.W2[NET_RACE] + w.b2[NET_RACE])))


@pytest.mark.parametrize("use", ["rollout", "analysis"])
def test_zero_rows_play_exactly_as_before(use):
    w = load_weights(None, use)
    r = add_race_inputs(w)
    assert not w.race_inputs and r.race_inputs and r.wide == w.wide and add_race_inputs(r) is r
    assert r.W1[NET_RACE].shape[0] == N_INPUTS[NET_RACE] + N_RACE_EXTRA
    boards = np.concatenate([RACES, CONTACT[None]])
    assert np.array_equal(NeuralEvaluator(w).evaluate_boards(boards), NeuralEvaluator(r).evaluate_boards(boards))


def test_the_kernels_read_the_race_inputs():
    assert (net_classes(RACES) == NET_RACE).all()
    w = load_weights(None, "rollout")
    r = _with_random_race_rows(add_race_inputs(w))
    got = NeuralEvaluator(r).evaluate_boards(RACES)
    assert np.allclose(got, _numpy_race(r, RACES), atol=2e-6)  # (cumulative already: no clipping moved them)
    assert np.abs(got - NeuralEvaluator(w).evaluate_boards(RACES)).max() > 1e-3
    # contact positions do not read them
    assert np.array_equal(NeuralEvaluator(r).evaluate_boards(CONTACT[None]),
                          NeuralEvaluator(w).evaluate_boards(CONTACT[None]))


def test_sizes_no_net_reads_are_refused(tmp_path):
    w = load_weights(None, "rollout")
    W1 = list(w.W1)
    W1[NET_RACE] = np.zeros((N_INPUTS[NET_RACE] + 5, W1[NET_RACE].shape[1]), np.float32)
    bad = Weights(tuple(W1), w.b1, w.W2, w.b2)
    with pytest.raises(ValueError, match="race layer of 203 inputs"):
        reads_race_inputs(bad.W1)
    bad.save(tmp_path / "bad.npz")
    with pytest.raises(WeightsFileError, match="race layer"):
        load_weights(str(tmp_path / "bad.npz"))
    good = add_race_inputs(w)
    good.save(tmp_path / "good.npz")
    assert load_weights(str(tmp_path / "good.npz")).race_inputs


def test_fit_race_inputs(tmp_path):
    run = tmp_path / "r"
    # the stages' default net plays and labels (its race rollout kernel is the one the other stage tests compile:
    # another net's would cost three more minutes of compiling on a fresh install); the rollout net starts the fit
    net = ROLLOUT_NET
    pl.run_selfplay(run, pl.SelfplayConfig(positions=60, seed=7, chunk_games=4, classes=("race",)))
    pl.run_racelabel(run, pl.RaceLabelConfig(trials=2, seed=3, chunk=60))
    # (a fifth of the rows held out: with three, the kept epoch was the start's, which learns nothing)
    m = pl.run_fit(run, pl.FitConfig(epochs=2, batch=16, lr=3e-3, seed=2, val_frac=0.2, race_inputs=True, init=net))
    assert m["rows"] == 60 and m["config"]["race_inputs"] is True
    fitted = Weights.load(run / "fit.npz")
    assert fitted.race_inputs
    assert np.abs(fitted.W1[NET_RACE][-N_RACE_EXTRA:]).max() > 0  # the new rows learnt something
    boards = load_npz(run / "data" / "positions.npz", "boards")["boards"][:10]
    assert np.allclose(NeuralEvaluator(fitted).evaluate_boards(boards)[:, 0],
                       _numpy_race(fitted, boards)[:, 0], atol=2e-6)
    r = CliRunner().invoke(app, ["train", "fit", "--help"])
    assert "--race-inputs" in r.output
