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
from bgtools.training.calibrate import CalibrationError, calibrate_weights, fit_offset, read_rollouts
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
