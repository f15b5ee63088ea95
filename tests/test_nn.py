"""Neural evaluator, features, pubeval and the TD trainer."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from bgtools import Position, PositionClass, legal_plays
from bgtools.engine.nets.features import (CLASS_OVER, MAX_INPUTS, N_INPUTS, N_SIDE_CONTACT, N_SIDE_RACE, NET_CONTACT,
                              NET_CRASHED, NET_RACE, _escapes, _hit_rolls, encode, encode_batch, net_class)
from bgtools.engine.nets.nn import NeuralEvaluator, Weights, evaluate_boards_kernel, init_weights, load_default_network, nn_forward
from bgtools.engine.nets.pubeval import PubevalPlayer, pubeval_scores

DATA = Path(__file__).parent / "data"
POSITIONS = [json.loads(line) for line in (DATA / "nn_positions.jsonl").read_text().splitlines()]
BOARDS = np.array([p["board"] for p in POSITIONS], np.int8)

# Tesauro's pubeval on the opening 3-1 (worked example in the pubeval notes)
PUBEVAL_31 = {
    "8/5 6/5": 10.34312, "24/20": 7.22287, "13/9": 6.73507, "24/23 24/21": 6.64798,
    "24/23 13/10": 6.61369, "24/21 6/5": 6.44695, "24/21 8/7": 6.17616, "13/10 6/5": 6.09006,
    "13/10 8/7": 5.81926, "24/23 8/5": 5.76592, "6/5 6/3": 5.65459, "8/4": 5.63356,
    "24/23 6/3": 5.55805, "6/2": 5.44036, "8/7 6/3": 4.76362, "8/7 8/5": 3.78692,
}


def _board(on_roll: dict[int, int], opponent: dict[int, int]) -> np.ndarray:
    """Board from {point: checkers} maps (points 1..24, 25 = bar), the rest borne off."""
    b = np.zeros((2, 25), np.int8)
    for side, pts in ((1, on_roll), (0, opponent)):
        for p, n in pts.items():
            b[side, p - 1] = n
    return b


# -- pubeval --------------------------------------------------------------------------------
def test_pubeval_worked_example():
    pos = Position.initial()
    plays = legal_plays(pos, (3, 1))
    boards = np.stack([p.after.swap().to_array() for p in plays])
    scores = pubeval_scores(boards, race=False)
    got = {p.notation(): s for p, s in zip(plays, scores)}
    assert set(got) == set(PUBEVAL_31)
    for k, v in PUBEVAL_31.items():
        assert got[k] == pytest.approx(v, abs=2e-5)
    best = PubevalPlayer().choose(pos.to_array(), 3, 1)
    assert Position.from_array(best).on_roll == plays[int(np.argmax(scores))].after.opponent


def test_pubeval_finished_game_is_sentinel():
    b = _board({}, {24: 15})
    assert pubeval_scores(b[None], race=True)[0] == 99999999.0


# -- features -------------------------------------------------------------------------------
def test_net_class_matches_position_classify():
    want = {PositionClass.CONTACT: NET_CONTACT, PositionClass.CRASHED: NET_CRASHED,
            PositionClass.RACE: NET_RACE, PositionClass.BEAROFF: NET_RACE, PositionClass.OVER: CLASS_OVER}
    for b in BOARDS:
        assert net_class(b) == want[Position.from_array(b).classify()]
    assert net_class(_board({}, {6: 3})) == CLASS_OVER


@pytest.mark.parametrize("dist,rolls", [(1, 11), (2, 12), (3, 14), (4, 15), (5, 15), (6, 17),
                                        (7, 6), (8, 6), (9, 5), (10, 3), (11, 2), (12, 3)])
def test_direct_and_indirect_shot_counts(dist, rolls):
    # the well-known shot table for one hitter and one blot, nothing in between
    me = np.zeros(25, np.int8)
    them = np.zeros(25, np.int8)
    me[20] = 1  # our blot on our 21-point = their 4-point
    them[3 + dist] = 1  # their hitter ``dist`` pips behind it (in their numbering)
    assert _hit_rolls(them, me) == rolls


def test_blocked_combination_does_not_hit():
    me = np.zeros(25, np.int8)
    them = np.zeros(25, np.int8)
    me[20] = 1
    them[11] = 1  # 8 away: 6-2, 5-3, 4-4, 2-2
    assert _hit_rolls(them, me) == 6
    me[16] = 2  # our point 4 pips in front of the hitter blocks 4-4 and 2-2; 6-2 and 5-3 still hit
    assert _hit_rolls(them, me) == 4


def _ref_hit_rolls(att, dfn) -> int:
    """Plain-loop reference: rolls with which ``att`` hits a blot of ``dfn``."""
    count = 0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            hit = False
            for q in range(24, -1, -1):
                if att[q] == 0 or (att[24] > 0 and q != 24):
                    continue
                paths = [[d1] * 4] if d1 == d2 else [[d1, d2], [d2, d1]]
                for path in paths:
                    t = q
                    for d in path:
                        t -= d
                        if t < 0 or dfn[23 - t] >= 2:
                            break
                        if dfn[23 - t] == 1:
                            hit = True
                            break
            count += (1 if d1 == d2 else 2) if hit else 0
    return count


def _ref_escapes(opp, p) -> int:
    """Plain-loop reference: rolls taking a checker at ``p`` past the blocks within 12 pips."""
    blocks = [t for t in range(max(p - 12, 0), p) if opp[23 - t] >= 2]
    if not blocks:
        return 36
    m = min(blocks)
    count = 0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            ok = False
            for path in ([[d1] * 4] if d1 == d2 else [[d1, d2], [d2, d1]]):
                t = p
                for d in path:
                    t -= d
                    if t < m:
                        ok = True
                        break
                    if opp[23 - t] >= 2:
                        break
            count += (1 if d1 == d2 else 2) if ok else 0
    return count


def test_bitmask_features_match_plain_loops():
    for b in BOARDS:
        for s in range(2):
            assert _hit_rolls(b[s], b[1 - s]) == _ref_hit_rolls(b[s], b[1 - s])
            for p in range(25):
                assert _escapes(b[1 - s], b[s], p) == _ref_escapes(b[s], p)


def test_escapes_from_behind_a_prime():
    them = np.zeros(25, np.int8)
    me = np.zeros(25, np.int8)
    me[23] = 1
    assert _escapes(me, them, 23) == 36
    for t in range(17, 23):  # a full prime in front of our checker: no roll gets past
        them[23 - t] = 2
    assert _escapes(me, them, 23) == 0


def test_features_swap_symmetric():
    for b in BOARDS:
        c = net_class(b)
        if c == CLASS_OVER:
            continue
        x = np.zeros(MAX_INPUTS, np.float32)
        xs = np.zeros(MAX_INPUTS, np.float32)
        encode(b, x)
        encode(b[::-1].copy(), xs)
        half = N_SIDE_RACE if c == NET_RACE else N_SIDE_CONTACT
        np.testing.assert_array_equal(x[:half], xs[half:2 * half])
        np.testing.assert_array_equal(x[half:2 * half], xs[:half])


def test_encoding_of_opening():
    cls, x = encode_batch(Position.initial().to_array()[None])
    assert cls[0] == NET_CONTACT
    row = x[0]
    # our 6-point has five checkers: n>=1, n>=2, n>=3 and (5-3)/2
    np.testing.assert_array_equal(row[20:24], [1, 1, 1, 1])
    assert row[100] == 0.0  # nobody off
    assert row[101] == pytest.approx(1.67)  # 167 pips / 100
    assert row[101 + 5] == pytest.approx(1 / 6)  # longest "prime": single points


# -- the nets -------------------------------------------------------------------------------
def test_forward_matches_numpy_reference():
    w = init_weights((16, 8, 8), seed=3)
    rng = np.random.default_rng(0)
    X = (rng.random((5, N_INPUTS[0])) < 0.3).astype(np.float32) * rng.random((5, N_INPUTS[0])).astype(np.float32)
    got = nn_forward(X, w.W1[0], w.b1[0], w.W2[0], w.b2[0])
    sig = lambda a: 1 / (1 + np.exp(-a))  # noqa: E731
    want = sig(sig(X.astype(np.float64) @ w.W1[0] + w.b1[0]) @ w.W2[0] + w.b2[0])
    # the logistic function is a rational approximation (nn.sigmoid): error below 3e-7
    np.testing.assert_allclose(got, want, rtol=0, atol=2e-5)


def test_sigmoid_is_accurate():
    import numba as nb

    from bgtools.engine.nets.nn import sigmoid

    @nb.njit
    def apply(v):
        out = np.empty_like(v)
        for i in range(v.shape[0]):
            out[i] = sigmoid(v[i])
        return out

    v = np.linspace(-30, 30, 100001).astype(np.float32)
    exact = 1 / (1 + np.exp(-v.astype(np.float64)))
    assert np.max(np.abs(apply(v) - exact)) < 3e-7
    assert apply(np.array([0.0], np.float32))[0] == np.float32(0.5)


def test_evaluate_boards_batched_equals_single_and_is_consistent():
    ev = NeuralEvaluator(init_weights((16, 8, 8), seed=5), version="test")
    out = ev.evaluate_boards(BOARDS)
    assert out.shape == (len(BOARDS), 5)
    assert np.all((out >= 0) & (out <= 1))
    assert np.all(out[:, 2] <= out[:, 1]) and np.all(out[:, 1] <= out[:, 0])
    assert np.all(out[:, 4] <= out[:, 3]) and np.all(out[:, 3] <= 1 - out[:, 0] + 1e-12)
    for i in (0, 7, 33):
        np.testing.assert_array_equal(ev.evaluate_boards(BOARDS[i:i + 1])[0], out[i])


def test_finished_games_are_exact():
    w = init_weights((8, 8, 8), seed=1)
    boards = np.stack([
        _board({}, {3: 5, 2: 5}),  # on roll already off, opponent has borne off: single win
        _board({}, {1: 15}),  # gammon
        _board({}, {20: 1, 1: 14}),  # opponent still in our home board: backgammon
        _board({6: 2}, {}),  # the opponent is off: we lost a single game
        _board({25: 1, 1: 14}, {}),  # we lost a backgammon (checker on the bar)
    ])
    got = evaluate_boards_kernel(boards, *w.arrays())
    np.testing.assert_array_equal(got, [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 1, 1, 0, 0],
                                        [0, 0, 0, 0, 0], [0, 0, 0, 1, 1]])


def test_weights_roundtrip(tmp_path):
    w = init_weights((8, 6, 4), seed=2)
    w = Weights(*w.arrays(), meta={"version": "nn-x", "games": 3})
    w.save(tmp_path / "w.npz")
    r = Weights.load(tmp_path / "w.npz")
    assert r.hidden == (8, 6, 4) and r.meta["version"] == "nn-x"
    for a, b in zip(w.W1 + w.W2, r.W1 + r.W2):
        np.testing.assert_array_equal(a, b)
        assert b.dtype == np.float32


def test_default_network_if_shipped():
    ev = load_default_network()
    if ev is None:
        pytest.skip("no shipped weights")
    assert ev.version.startswith("nn-")
    p = ev.evaluate(Position.initial())
    # the opening is about even; a trained net knows it
    assert 0.4 < p[0] < 0.6
    # a position with a huge racing lead is a near-certain win
    lead = Position.from_array(_board({1: 2}, {23: 3, 22: 3, 21: 3, 20: 3, 19: 3}))
    assert ev.evaluate(lead)[0] > 0.95



def test_two_shipped_nets_by_use_and_the_evaluator_rolls_out_with_the_faster():
    from bgtools.engine.evaluation import default_evaluator

    analysis, rollout = load_default_network("analysis"), load_default_network("rollout")
    if analysis is None or rollout is None:
        pytest.skip("no shipped weights")
    # the analysis net reads the contact inputs, the rollout net does not; they are different nets
    assert analysis.weights.wide and not rollout.weights.wide
    assert analysis.version != rollout.version
    # the analysis values every class with its own net, race included (gen11's race net is refitted)
    race = Position.from_array(_board({8: 5, 10: 5, 3: 5}, {7: 5, 9: 5, 2: 5}))
    ev = default_evaluator()
    assert ev.version == analysis.version
    np.testing.assert_array_equal(ev.evaluate(race), analysis.evaluate(race))
    assert ev.rollout_weights is not ev.weights and not ev.rollout_weights.wide
    # a net given by the user rolls out with itself
    mine = NeuralEvaluator(rollout.weights)
    assert mine.rollout_weights is mine.weights

# -- training -------------------------------------------------------------------------------
def test_td_training_is_seeded_and_changes_weights():
    from bgtools.training.train import td_games

    a = init_weights((8, 6, 6), seed=1)
    b = init_weights((8, 6, 6), seed=1)
    before = a.W1[0].copy()
    sa = td_games(a, 0, 3, seed=5, alpha=0.1, lam=0.7)
    sb = td_games(b, 0, 3, seed=5, alpha=0.1, lam=0.7)
    np.testing.assert_array_equal(sa, sb)
    assert sa[0] == 3 and sa[1] > 3 * 10
    for x, y in zip(a.W1 + a.W2 + a.b2, b.W1 + b.W2 + b.b2):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(before, a.W1[0])


def test_checkpoint_resume_reproduces(tmp_path):
    from bgtools.training.train import TrainConfig, train_run

    cfg = TrainConfig(games=6, hidden=(8, 6, 6), chunk=2, ckpt_every=2, eval_every=0, seed=3)
    straight = train_run(tmp_path / "a", cfg, echo=lambda s: None)
    train_run(tmp_path / "b", cfg, echo=lambda s: None, max_games=4)
    assert Weights.load(tmp_path / "b" / "ckpt.npz").meta["games"] == 4
    resumed = train_run(tmp_path / "b", cfg, echo=lambda s: None)
    for x, y in zip(straight.W1 + straight.W2 + straight.b1, resumed.W1 + resumed.W2 + resumed.b1):
        np.testing.assert_array_equal(x, y)
    rows = list(csv.DictReader((tmp_path / "b" / "log.csv").open()))
    assert [int(r["games"]) for r in rows] == [2, 4, 6]


def test_init_starts_a_later_stage_from_saved_weights(tmp_path):
    from bgtools.training.train import TrainConfig, train_run

    cfg = TrainConfig(games=4, hidden=(8, 6, 6), chunk=2, ckpt_every=2, eval_every=0, seed=3)
    first = train_run(tmp_path / "a", cfg, echo=lambda s: None)
    stage = TrainConfig(games=6, hidden=(99, 99, 99), alpha=0.1, alpha_min=0.001, chunk=2, ckpt_every=2,
                        eval_every=0, seed=4)
    second = train_run(tmp_path / "b", stage, echo=lambda s: None, init=tmp_path / "a" / "ckpt.npz")
    meta = Weights.load(tmp_path / "b" / "ckpt.npz").meta
    # the game count carries on, the architecture comes from the weights, the new rate applies
    assert meta["games"] == 6 and second.hidden == first.hidden == (8, 6, 6)
    assert meta["config"]["alpha_min"] == 0.001
    rows = list(csv.DictReader((tmp_path / "b" / "log.csv").open()))
    assert [int(r["games"]) for r in rows] == [6]
    assert not np.array_equal(first.W1[0], second.W1[0])


def test_duel_is_deterministic_and_scores_are_points():
    from bgtools.engine.nets.networks import load_weights
    from bgtools.engine.play import duel_vs_pubeval

    # the analysis net: its duel kernel is the one the pipeline's duel tests compile (a small plain net's is
    # another type, a minute more of compiling on a fresh install)
    w = load_weights(None)
    r1, pts1 = duel_vs_pubeval(w, 6, seed=11, points=True)
    r2, pts2 = duel_vs_pubeval(w, 6, seed=11, points=True)
    np.testing.assert_array_equal(pts1, pts2)
    assert r1.games == 6 and set(np.abs(pts1)) <= {1.0, 2.0, 3.0}
    assert r1.ppg == pytest.approx(pts1.mean())


def test_cli_train_writes_checkpoint_and_log(tmp_path):
    from typer.testing import CliRunner

    from bgtools.cli.app import app

    run = tmp_path / "run"
    res = CliRunner().invoke(app, ["train", "--run", str(run), "--games", "4", "--hidden", "8,6,6",
                                   "--chunk", "2", "--eval-every", "0"])
    assert res.exit_code == 0, res.output
    assert Weights.load(run / "ckpt.npz").meta["games"] == 4
    assert len((run / "log.csv").read_text().splitlines()) == 3
    bad = CliRunner().invoke(app, ["train", "--run", str(run), "--hidden", "8,6"])
    assert bad.exit_code == 2
