"""Race targets with variance reduction (racelabel --vr, bgtools.training.racedata): exact where
one roll reaches the bear-off databases, unbiased against plain rollouts, far less spread, and
resumable to identical bytes with no part made without it ever kept."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bgtools.core.dice import ROLL_WEIGHTS, ROLLS
from bgtools.core.movegen import generate_boards, new_move_buffers
from bgtools.engine.bearoff import load_databases
from bgtools.engine.chooser import exact_probs
from bgtools.engine.nets.features import NET_RACE, net_classes
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import equity_from_probs
from bgtools.training import pipeline as pl
from bgtools.training.datasets import load_npz
from bgtools.training.racedata import race_label_chunks, race_rollout_stats, race_rollout_targets
from handboards import race_board

SP = pl.SelfplayConfig(positions=45, seed=7, chunk_games=4, classes=("race",))
VR = pl.RaceLabelConfig(trials=2, seed=3, chunk=20, vr=True)


@pytest.fixture(scope="module")
def shipped():
    return load_weights(None)


def _exact_after_one_roll(board: np.ndarray) -> np.ndarray:
    """The root's five outputs when every play of every roll lands in the bear-off databases:
    each roll's best play by its exact value, weighted by the roll's chance."""
    tables = load_databases().tables()
    mb = new_move_buffers()
    p = np.zeros(5)
    total = np.zeros(5)
    for (d1, d2), w in zip(ROLLS, ROLL_WEIGHTS):
        n = generate_boards(board, d1, d2, mb)
        assert n > 0
        best, best_e = np.zeros(5), -np.inf
        for i in range(n):
            after = mb.boards[i][::-1].copy()  # the opponent on roll
            assert exact_probs(after, True, tables, p)  # every play reaches the databases
            if -equity_from_probs(p) > best_e:
                best_e, best = -equity_from_probs(p), p.copy()
        total += w * np.array([1.0 - best[0], best[3], best[4], best[1], best[2]])  # the root's side
    return total


def test_one_roll_from_the_databases_every_vr_trial_is_exact(shipped):
    # my checker on the 7 point must come home with either die (the aces cannot move before
    # it is home), and the opponent is home: every play of every roll is in the databases
    b = race_board({0: 2, 6: 1}, {1: 2, 3: 1})
    assert not exact_probs(b, True, load_databases().tables(), np.zeros(5))
    exact = _exact_after_one_roll(b)
    m, sd = race_rollout_stats(b[None], shipped, trials=25, seed=4, vr=True)
    assert sd[0] < 1e-9  # every trial the same ...
    assert m[0] == pytest.approx(exact, abs=1e-9)  # ... and the exact value
    m0, sd0 = race_rollout_stats(b[None], shipped, trials=25, seed=4)
    assert sd0[0] > 0.1 and abs(m0[0, 0] - exact[0]) > 1e-3  # without it, the trials differ
    t = race_rollout_targets(b[None], shipped, trials=3, seed=9, vr=True)
    assert t[0] == pytest.approx(exact, abs=1e-6)
    # 1-ply players (luck still from the 0-ply plays): they pick the same exact best plays here
    m1, sd1 = race_rollout_stats(b[None], shipped, trials=6, seed=4, ply=1, vr=True)
    assert sd1[0] < 1e-9 and m1[0] == pytest.approx(exact, abs=1e-9)


RACES = np.stack([race_board({9: 3, 4: 6, 2: 6}, {10: 2, 5: 7, 1: 6}),
                  race_board({11: 2, 8: 3, 6: 4, 3: 4, 1: 2}, {10: 3, 8: 4, 5: 4, 2: 4}),
                  race_board({12: 1, 8: 4, 5: 5, 0: 5}, {9: 2, 7: 3, 4: 5, 1: 5})])


def test_vr_targets_are_unbiased_and_spread_far_less(shipped):
    assert (net_classes(RACES) == NET_RACE).all()
    trials, long = 64, 6400
    mv, sv = race_rollout_stats(RACES, shipped, trials, seed=5, vr=True)
    mp, sp = race_rollout_stats(RACES, shipped, long, seed=6)
    ev = np.array([equity_from_probs(r) for r in mv])
    ep = np.array([equity_from_probs(r) for r in mp])
    # stated tolerance: 4 combined standard errors of the two means, from their own spreads
    tol = 4 * np.sqrt(sv ** 2 / trials + sp ** 2 / long)
    assert (np.abs(ev - ep) < tol).all(), (ev, ep, tol)
    assert (np.abs(mv[:, 0] - mp[:, 0]) < tol / 2).all()  # P(win) moves half the equity
    assert (tol < 0.06).all()  # (a tolerance that means something)
    # equal trials without it (the same dice): each trial's equity spread over 4 times wider
    # (measured 0.05-0.09 with it, 0.43-0.52 without), so its standard error too
    _, s_plain = race_rollout_stats(RACES, shipped, trials, seed=5)
    assert (sv * 4 < s_plain).all(), (sv, s_plain)
    assert (sp > 0.2).all()


def test_vr_parts_resume_to_identical_bytes_and_never_mix(tmp_path, shipped):
    a, b = tmp_path / "a", tmp_path / "b"
    for run in (a, b):
        assert pl.run_selfplay(run, SP)["positions"] == 45
    whole = pl.run_racelabel(a, VR)
    assert pl.run_racelabel(b, VR, max_chunks=1) is None  # stopped after one of three parts
    assert pl.run_racelabel(b, VR, max_chunks=1) is None
    assert pl.run_racelabel(b, VR)["targets_sha256"] == whole["targets_sha256"]
    la, lb = load_npz(a / "data" / "labelled.npz"), load_npz(b / "data" / "labelled.npz")
    assert np.array_equal(la["targets"], lb["targets"])
    parts = sorted((b / "data" / "racelabels").glob("part-*.npz"))
    assert len(parts) == 3 and all(bool(load_npz(p, "vr")["vr"]) for p in parts)
    assert json.loads((a / "racelabel.manifest.json").read_text())["config"]["vr"] is True
    # the folder's settings hold vr: a run without it is refused there
    with pytest.raises(pl.PipelineError, match="other settings"):
        pl.run_racelabel(b, pl.RaceLabelConfig(trials=2, seed=3, chunk=20))
    # a part made without it is never taken for one made with it (nor the other way round)
    boards = load_npz(a / "data" / "positions.npz", "boards")["boards"]
    plain = tmp_path / "plain"
    assert race_label_chunks(boards, shipped, plain, 2, 3, 20) == 3
    assert race_label_chunks(boards, shipped, plain, 2, 3, 20, max_chunks=0, vr=True) == 0
    assert race_label_chunks(boards, shipped, b / "data" / "racelabels", 2, 3, 20, max_chunks=0) == 0
    assert race_label_chunks(boards, shipped, plain, 2, 3, 20, max_chunks=1, vr=True) == 1
    made = load_npz(plain / "part-00000.npz")
    assert np.array_equal(made["targets"], la["targets"][:20]) and bool(made["vr"])


def test_racelabel_vr_from_the_command_line(tmp_path):
    from typer.testing import CliRunner

    from bgtools.cli.app import app

    run = str(tmp_path / "r")
    cli = CliRunner()
    for args in (["selfplay", "--positions", "12", "--classes", "race"],
                 ["racelabel", "--trials", "2", "--chunk", "10", "--vr"]):
        r = cli.invoke(app, ["train", *args, "--run", run])
        assert r.exit_code == 0, (args, r.output)
    m = json.loads((tmp_path / "r" / "racelabel.manifest.json").read_text())
    assert m["config"]["vr"] is True and m["positions"] == 12
