"""A net whose contact and crashed layers read contactinputs' 36 inputs (issue 37, item 3)
through the kernels: the same values as a plain NumPy pass over the same inputs, the
incremental path as the full one, zero new weights as the net it came from, and the fit
stage's --contact-inputs end to end."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from bgtools.engine.chooser import make_chooser
from bgtools.engine.nets.contactinputs import encode_extra_batch
from bgtools.engine.nets.features import N_INPUTS, NET_RACE, encode_batch
from bgtools.engine.nets.incremental import evaluate_siblings
from bgtools.engine.nets.networks import WeightsFileError, load_weights
from bgtools.engine.nets.nn import (N_EXTRA, Net, NeuralEvaluator, Weights, WideNet, add_contact_inputs, as_net,
                                    evaluate_net)

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def boards():
    with gzip.open(DATA / "oracle_positions.jsonl.gz", "rt") as fh:
        b = np.array([json.loads(line)["board"] for line in fh], np.int8)
    cls, _ = encode_batch(b)
    return b[cls >= 0]  # games not over


def _wide(seed: int = 5) -> Weights:
    """The shipped net with small random weights on the new inputs (so that they matter)."""
    w = add_contact_inputs(load_weights(None, "rollout"))
    rng = np.random.default_rng(seed)
    W1 = list(w.W1)
    for c in range(2):
        W1[c] = W1[c].copy()
        W1[c][N_INPUTS[c]:] = rng.normal(0.0, 0.3, (N_EXTRA, W1[c].shape[1])).astype(np.float32)
    return Weights(tuple(W1), w.b1, w.W2, w.b2, dict(w.meta))


def _numpy_pass(w: Weights, boards: np.ndarray) -> np.ndarray:
    cls, x = encode_batch(boards)
    out = np.zeros((len(boards), 5))
    for c in range(3):
        rows = np.flatnonzero(cls == c)
        xc = x[rows, :N_INPUTS[c]].astype(np.float64)
        if c != NET_RACE:
            xc = np.concatenate([xc, encode_extra_batch(boards[rows])], axis=1)
        h = 1 / (1 + np.exp(-(xc @ w.W1[c] + w.b1[c])))
        out[rows] = 1 / (1 + np.exp(-(h @ w.W2[c] + w.b2[c])))
    out[:, 0] = np.clip(out[:, 0], 0, 1)
    out[:, 1] = np.minimum(out[:, 1], out[:, 0])
    out[:, 2] = np.minimum(out[:, 2], out[:, 1])
    out[:, 3] = np.minimum(out[:, 3], 1 - out[:, 0])
    out[:, 4] = np.minimum(out[:, 4], out[:, 3])
    return out


def test_the_kernels_read_the_new_inputs(boards):
    w = _wide()
    assert w.wide and isinstance(w.arrays(), WideNet)
    got = evaluate_net(boards, w.arrays())
    want = _numpy_pass(w, boards)
    assert np.abs(got - want).max() < 2e-5
    # the new inputs matter: the same layers without them give other values
    plain = evaluate_net(boards, load_weights(None, "rollout").arrays())
    cls, _ = encode_batch(boards)
    assert np.abs(got - plain)[cls != NET_RACE].max() > 0.01
    assert np.array_equal(got[cls == NET_RACE], plain[cls == NET_RACE])


def test_zero_new_weights_give_the_start_net_to_the_bit(boards):
    shipped = load_weights(None, "rollout")
    w = add_contact_inputs(shipped)
    assert w.wide and not shipped.wide and add_contact_inputs(w) is w
    assert np.array_equal(evaluate_net(boards, w.arrays()), evaluate_net(boards, shipped.arrays()))


def test_siblings_from_a_base_equal_the_full_pass(boards):
    from bgtools.core.movegen import legal_plays
    from bgtools.core.position import Position

    w = _wide(6)
    kids, parent_of = [], []
    for i, b in enumerate(boards[:300]):
        for p in legal_plays(Position.from_array(b), (6, 4)):
            after = p.after.to_array()  # the opponent on roll
            if encode_batch(after[None])[0][0] >= 0:
                kids.append(after)
                parent_of.append(i)
    # each play's base: the position before the roll laid out as the plays are (opponent on roll)
    parents_arr = np.ascontiguousarray(boards[:300, ::-1])
    kids_arr = np.array(kids, np.int8)
    inc = evaluate_siblings(parents_arr, kids_arr, np.array(parent_of, np.int64), w.arrays())
    full = evaluate_net(kids_arr, w.arrays())
    assert len(kids_arr) > 1000
    assert np.abs(inc - full).max() < 2e-6


def test_tuples_of_wide_layers_become_a_wide_net():
    w = _wide()
    assert isinstance(as_net(tuple(w.arrays())), WideNet)
    assert isinstance(as_net(tuple(load_weights(None, "rollout").arrays())), Net)
    assert isinstance(make_chooser(w.arrays(), 0).net, WideNet)


def test_the_evaluator_and_a_saved_wide_net(tmp_path, boards):
    w = _wide()
    path = tmp_path / "wide.npz"
    w.save(path)
    back = load_weights(str(path))
    assert back.wide
    assert np.array_equal(NeuralEvaluator(back).evaluate_boards(boards[:50]), evaluate_net(boards[:50], w.arrays()))
    odd = Weights((w.W1[0][:-1], w.W1[1], w.W1[2]), w.b1, w.W2, w.b2)
    odd.save(tmp_path / "odd.npz")
    with pytest.raises(WeightsFileError, match="inputs"):
        load_weights(str(tmp_path / "odd.npz"))


def test_fit_with_contact_inputs_end_to_end(tmp_path, boards):
    from bgtools.training.pipeline import FitConfig, run_fit

    run = tmp_path / "run"
    (run / "data").mkdir(parents=True)
    b = np.ascontiguousarray(boards[:400])
    t = evaluate_net(b, _wide().arrays()).astype(np.float32)  # targets only the wide net can follow
    np.savez(run / "data" / "labelled.npz", boards=b, targets=t)
    run_fit(run, FitConfig(epochs=3, lr=1e-3, seed=3, contact_inputs=True))
    fitted = load_weights(str(run / "fit.npz"))
    assert fitted.wide
    # the new inputs' weights moved toward targets that need them
    assert np.abs(fitted.W1[0][N_INPUTS[0]:]).max() > 0


def test_a_wide_net_duels_a_plain_one():
    from bgtools.training.duel import duel_weights

    shipped = load_weights(None, "rollout")
    same = duel_weights(add_contact_inputs(shipped), shipped, 40, seed=11)
    assert same.ppg == 0.0  # the same play to the bit, duplicate dice: every pair cancels
    other = duel_weights(_wide(), shipped, 40, seed=11)
    assert other.ppg != 0.0
