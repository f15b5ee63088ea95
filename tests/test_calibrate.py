"""Calibrating a net's output biases to our own rollouts (bgtools.training.calibrate, `train calibrate`)."""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from bgtools.cli.app import app
from bgtools.core.movegen import legal_plays
from bgtools.core.position import Position
from bgtools.engine.nets.features import NET_CONTACT, NET_RACE, net_classes
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import Weights
from bgtools.training.calibrate import CalibrationError, calibrate_weights, fit_offset, fit_output, read_rollouts
from bgtools.training.fit import prepare


def _sig(v):
    return 1 / (1 + np.exp(-v))


def test_fit_offset_matches_the_mean_and_leaves_a_calibrated_output_alone():
    rng = np.random.default_rng(3)
    z = rng.normal(0, 2, 500)
    assert fit_offset(z, _sig(z)) == pytest.approx(0.0, abs=1e-9)
    t = np.clip(_sig(z) - 0.05, 0, 1)
    d = fit_offset(z, t)
    assert d < 0
    assert _sig(z + d).mean() == pytest.approx(t.mean(), abs=1e-9)


def _contact_boards(n=120):
    """Positions after the plays of a few opening rolls and replies: contact positions."""
    out, seen = [], set()
    start = Position.initial()
    for d1 in [(3, 1), (6, 4), (5, 2), (4, 3)]:
        for p in legal_plays(start, d1)[:6]:
            for d2 in [(6, 6), (2, 1), (5, 3), (6, 5), (4, 4)]:
                for q in legal_plays(p.after, d2)[:4]:
                    pid = q.after.position_id()
                    if pid not in seen:
                        seen.add(pid)
                        out.append(q.after.to_array())
    b = np.asarray(out, np.int8)[:n]
    assert (net_classes(b) == NET_CONTACT).all()
    return b


def _net_probs(w, boards):
    data = prepare(boards, np.zeros((len(boards), 5)), wide=w.wide)
    x = data.x[NET_CONTACT].astype(np.float64)
    h = _sig(x @ w.W1[NET_CONTACT] + w.b1[NET_CONTACT])
    return _sig(h @ np.asarray(w.W2[NET_CONTACT], np.float64) + w.b2[NET_CONTACT])


def _records(path, boards, probs):
    with open(path, "w", encoding="utf-8") as f:
        for b, p in zip(boards, probs):
            pid = Position.from_array(b).position_id()
            f.write(json.dumps({"id": pid, "trials": 36, "cubeful": False, "probs": [float(v) for v in p]}) + "\n")


def test_gammons_that_run_high_are_brought_down_and_nothing_else_moves(tmp_path):
    w = load_weights(None)
    boards = _contact_boards()
    p = _net_probs(w, boards)
    t = p.copy()
    t[:, 1] *= 0.8  # our "rollouts" find fewer gammons won, and more lost
    t[:, 3] = np.minimum(t[:, 3] * 1.1, 1 - t[:, 0])
    _records(tmp_path / "r.jsonl", boards, t)
    targets = read_rollouts(tmp_path / "r.jsonl")
    assert len(targets.ids) == len(boards)
    cal, reports = calibrate_weights(w, targets, min_positions=20)
    (rep,) = reports
    assert rep.net == "contact" and rep.positions == len(boards)
    assert rep.shifts[0] == 0.0  # the win output is left alone by default
    assert rep.shifts[1] < 0 < rep.shifts[3]
    assert rep.held_out_bias_before[1] > rep.held_out_bias_after[1]
    q = _net_probs(cal, boards)
    for o in (1, 2, 3, 4):
        assert q[:, o].mean() == pytest.approx(t[:, o].mean(), abs=2e-6)
    np.testing.assert_array_equal(q[:, 0], p[:, 0])
    for c in range(3):
        np.testing.assert_array_equal(cal.W1[c], w.W1[c])
        np.testing.assert_array_equal(cal.W2[c], w.W2[c])
    np.testing.assert_array_equal(cal.b2[NET_RACE], w.b2[NET_RACE])


def test_bad_rollout_files_are_refused_with_their_line(tmp_path):
    f = tmp_path / "r.jsonl"
    f.write_text('{"id": "4HPwATDgc/ABMA", "probs": [0.5, 0.1, 0, 0.1, 0]}\n{"id": "nonsense!", "probs": [1]}\n')
    with pytest.raises(CalibrationError, match=r"r\.jsonl:2:"):
        read_rollouts(f)
    f.write_text('{"id": "4HPwATDgc/ABMA", "cubeful": true, "probs": [0.5, 0.1, 0, 0.1, 0]}\n')
    with pytest.raises(CalibrationError, match="no cubeless"):
        read_rollouts(f)
    f.write_text('{"id": "4HPwATDgc/ABMA", "probs": [0.5, 2.0, 0, 0.1, 0]}\n')
    with pytest.raises(CalibrationError, match=r":1: probs"):
        read_rollouts(f)


def test_the_stage_writes_the_net_a_log_and_a_manifest_and_repeats_itself(tmp_path):
    w = load_weights(None)
    boards = _contact_boards()
    t = _net_probs(w, boards)
    t[:, 3] *= 0.7
    _records(tmp_path / "r.jsonl", boards, t)
    run = tmp_path / "run"
    args = ["train", "calibrate", "--run", str(run), "--rollouts", str(tmp_path / "r.jsonl")]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    assert "calibrate contact:" in r.output
    first = Weights.load(run / "calibrated.npz")
    assert first.b2[NET_CONTACT][3] < w.b2[NET_CONTACT][3]
    assert (run / "calibrate.log.csv").read_text().startswith("net,positions,shift_0")
    m = json.loads((run / "calibrate.manifest.json").read_text())
    assert m["stage"] == "calibrate" and m["positions"] == len(boards)
    assert CliRunner().invoke(app, args).exit_code == 0
    again = Weights.load(run / "calibrated.npz")
    for a, b in zip(first.b2, again.b2):
        np.testing.assert_array_equal(a, b)
    bad = CliRunner().invoke(app, [*args[:-1], str(tmp_path / "missing.jsonl")])
    assert bad.exit_code != 0 and "no such file" in bad.output


def test_fit_output_recovers_the_weights_that_made_the_targets_and_a_stiff_ridge_is_a_bias_shift():
    rng = np.random.default_rng(5)
    h = rng.uniform(0, 1, (800, 6))
    w_true, b_true = rng.normal(0, 2, 6), -0.5
    t = _sig(h @ w_true + b_true)
    w0 = w_true + rng.normal(0, 1, 6)
    w, b = fit_output(h, w0, 0.3, t, ridge=1e-6)
    np.testing.assert_allclose(w, w_true, atol=1e-3)
    assert b == pytest.approx(b_true, abs=1e-3)
    # held so firmly that only the bias moves: the bias shift fit_offset finds
    w, b = fit_output(h, w0, 0.3, t, ridge=1e12)
    np.testing.assert_allclose(w, w0, atol=1e-6)
    assert b == pytest.approx(0.3 + fit_offset(h @ w0 + 0.3, t), abs=1e-6)


def test_the_output_layer_refit_learns_what_the_biases_cannot_and_leaves_the_rest(tmp_path):
    w = load_weights(None)
    boards = _contact_boards(200)
    data = prepare(boards, np.zeros((len(boards), 5)), wide=w.wide)
    h = _sig(data.x[NET_CONTACT].astype(np.float64) @ w.W1[NET_CONTACT] + w.b1[NET_CONTACT])
    other = np.asarray(w.W2[NET_CONTACT], np.float64).copy()
    rng = np.random.default_rng(7)
    other[:, 1] += rng.normal(0, 0.3, other.shape[0])  # "the rollouts" weigh the hidden units otherwise
    t = _sig(h @ other + w.b2[NET_CONTACT])
    _records(tmp_path / "a.jsonl", boards[:100], t[:100])
    _records(tmp_path / "b.jsonl", boards[100:], t[100:])
    targets = read_rollouts([tmp_path / "a.jsonl", tmp_path / "b.jsonl"])
    assert len(targets.ids) == 200
    _, (biases,) = calibrate_weights(w, targets)
    cal, (rep,) = calibrate_weights(w, targets, layer="output", ridge=0.01)
    assert rep.layer == "output" and biases.layer == "biases"
    # the held-out halves: the refitted layer explains what a bias shift cannot
    assert rep.held_out_bias_after[1] <= rep.held_out_bias_before[1]
    assert rep.held_out_equity_error_after < 0.5 * biases.held_out_equity_error_after
    for c in range(3):
        np.testing.assert_array_equal(cal.W1[c], w.W1[c])
        np.testing.assert_array_equal(cal.b1[c], w.b1[c])
    np.testing.assert_array_equal(cal.W2[NET_RACE], w.W2[NET_RACE])
    np.testing.assert_array_equal(cal.W2[NET_CONTACT][:, 0], w.W2[NET_CONTACT][:, 0])  # the win output is not named
    assert not np.array_equal(cal.W2[NET_CONTACT][:, 1], w.W2[NET_CONTACT][:, 1])
    with pytest.raises(CalibrationError, match="layer"):
        calibrate_weights(w, targets, layer="hidden")
    with pytest.raises(CalibrationError, match="ridge"):
        calibrate_weights(w, targets, layer="output", ridge=0)


def test_the_stage_refits_the_output_layer_from_two_files(tmp_path):
    w = load_weights(None)
    boards = _contact_boards()
    t = _net_probs(w, boards)
    t[:, 1] = t[:, 1] * np.linspace(0.6, 1.2, len(t))
    _records(tmp_path / "a.jsonl", boards[:60], t[:60])
    _records(tmp_path / "b.jsonl", boards[60:], t[60:])
    run = tmp_path / "run"
    args = ["train", "calibrate", "--run", str(run), "--rollouts", str(tmp_path / "a.jsonl"),
            "--rollouts", str(tmp_path / "b.jsonl"), "--layer", "output", "--ridge", "0.1"]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    assert "output layer refitted" in r.output
    m = json.loads((run / "calibrate.manifest.json").read_text())
    assert m["positions"] == len(boards) and m["config"]["layer"] == "output"
    got = Weights.load(run / "calibrated.npz")
    assert not np.array_equal(got.W2[NET_CONTACT][:, 1], w.W2[NET_CONTACT][:, 1])
    bad = CliRunner().invoke(app, [*args[:-4], "--layer", "hidden"])
    assert bad.exit_code != 0 and "--layer hidden" in bad.output
    bad = CliRunner().invoke(app, [*args[:-2], "--ridge", "-1"])
    assert bad.exit_code != 0 and "--ridge" in bad.output
