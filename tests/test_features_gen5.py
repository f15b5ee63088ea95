"""Generation 5's inputs (shots, bar, shape): plain-loop references, hand positions, and old
nets read with zero weights for them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bgtools.engine.features import (CLASS_OVER, FEATURE_GROUPS, MAX_INPUTS, N_SIDE_CONTACT, N_SIDE_CONTACT_V1,
                                     NET_RACE, _hit_rolls, _shot_stats, encode, encode_batch, net_class)
from bgtools.engine.nn import Weights, evaluate_net, init_weights
from bgtools.training.fit import prepare

DATA = Path(__file__).parent / "data"
BOARDS = np.array([json.loads(line)["board"] for line in (DATA / "nn_positions.jsonl").read_text().splitlines()],
                  np.int8)
SHOTS, BAR, SHAPE = (FEATURE_GROUPS[g][0] for g in ("shots", "bar", "shape"))


def _board(on_roll: dict[int, int], opponent: dict[int, int]) -> np.ndarray:
    """Board from {point: checkers} maps (points 1..24, 25 = bar), the rest borne off."""
    b = np.zeros((2, 25), np.int8)
    for side, pts in ((1, on_roll), (0, opponent)):
        for p, n in pts.items():
            b[side, p - 1] = n
    return b


def _ref_shot_stats(att, dfn):
    """Plain loops: per roll, the blots some single checker's path reaches (hitting does not
    stop it), then (hitting rolls, summed worst pip loss, rolls reaching two or more)."""
    count = loss = two = 0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            hit: set[int] = set()
            for q in range(24, -1, -1):
                if att[q] == 0 or (att[24] > 0 and q != 24):
                    continue
                for path in ([[d1] * 4] if d1 == d2 else [[d1, d2], [d2, d1]]):
                    t = q
                    for d in path:
                        t -= d
                        if t < 0 or dfn[23 - t] >= 2:
                            break
                        if dfn[23 - t] == 1:
                            hit.add(t)
            w = 1 if d1 == d2 else 2
            if hit:
                count += w
                loss += w * (max(hit) + 1)
                two += w if len(hit) >= 2 else 0
    return count, loss, two


def _side_row(b, side):
    x = np.zeros(MAX_INPUTS, np.float32)
    assert encode(b, x) not in (CLASS_OVER, NET_RACE)
    k = 0 if side == 1 else N_SIDE_CONTACT
    return x[k:k + N_SIDE_CONTACT]


def test_shot_stats_match_plain_loops():
    for b in BOARDS:
        for s in range(2):
            got = _shot_stats(b[s], b[1 - s])
            assert got == _ref_shot_stats(b[s], b[1 - s])
            assert got[0] == _hit_rolls(b[s], b[1 - s])


def test_shots_of_one_blot():
    # our blot on our 21-point (their 4-point), their checker 6 pips behind: 17 hitting rolls;
    # being hit there costs 25 - 21 = 4 pips
    b = _board({21: 1, 6: 14}, {10: 1, 1: 14})
    row = _side_row(b, 1)
    assert row[101 + 1] == pytest.approx(17 / 36)
    assert row[SHOTS] == pytest.approx(17 * 4 / (36 * 12))
    assert row[SHOTS + 1] == 0.0


def test_double_shots():
    # our blots on their 3- and 2-points, 1 and 2 pips in front of their checker on their
    # 4-point (the rest of theirs on their 24-point, out of range): every roll with a 1 or a
    # 2 hits (20), 1-1 and 2-1 reach both (3; 2-2 lands 2 and 4 pips away)
    b = _board({22: 1, 23: 1, 6: 13}, {4: 1, 24: 14})
    # being hit costs the blot on our 22-point 3 pips, on our 23-point 2: the 11 rolls with a 1
    # reach the first (33), the 9 others with a 2 only the second (18)
    assert _shot_stats(b[0], b[1]) == (20, 51, 3) == _ref_shot_stats(b[0], b[1])


def test_bar_inputs():
    # two of ours on the bar against a 4-point board: dance 16/36, not both in 1 - (2/6)^2
    b = _board({25: 2, 6: 13}, {1: 2, 2: 2, 3: 2, 4: 2, 13: 7})
    row = _side_row(b, 1)
    assert row[BAR] == pytest.approx((4 / 6) ** 2)
    assert row[BAR + 1] == pytest.approx(1 - (2 / 6) ** 2)
    b1 = _board({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 13: 7})
    assert _side_row(b1, 1)[BAR + 1] == 0.0
    assert _side_row(b1, 0)[BAR] == 0.0  # they are not on the bar


def test_shape_inputs():
    # our anchors on their 2- and 5-points (our 23- and 20-points); their rearmost checker on
    # their 13-point (our 12-point): our checkers behind it are 2+2 on 23 and 20 (11 and 8 pips
    # to reach it) and 11 on our 13-point (1 pip)
    b = _board({23: 2, 20: 2, 13: 11}, {13: 10, 6: 5})
    row = _side_row(b, 1)
    assert row[SHAPE] == pytest.approx((22 - 17) / 6)  # the rearmost anchor, slot 22
    assert row[SHAPE + 1] == pytest.approx((24 - 19) / 6)  # the frontmost, slot 19
    assert row[SHAPE + 2] == pytest.approx((2 * 11 + 2 * 8 + 11 * 1) / 100)
    # mobility: every die moves from each of our three points except where they hold the
    # landing point: their 13-point (our 12) blocks 1s from 13 and their 6 (our 19) 1s from 20,
    # 4s from 23
    assert row[SHAPE + 3] == pytest.approx((18 - 3) / 60)


def test_features_swap_symmetric():
    for b in BOARDS:
        c = net_class(b)
        if c in (CLASS_OVER, NET_RACE):
            continue
        x, xs = np.zeros(MAX_INPUTS, np.float32), np.zeros(MAX_INPUTS, np.float32)
        encode(b, x)
        encode(b[::-1].copy(), xs)
        np.testing.assert_array_equal(x[N_SIDE_CONTACT_V1:N_SIDE_CONTACT],
                                      xs[N_SIDE_CONTACT + N_SIDE_CONTACT_V1:2 * N_SIDE_CONTACT])


def test_old_nets_read_with_zero_weights_for_new_inputs():
    w = init_weights((16, 8, 8), seed=5)
    W1 = list(w.W1)
    for c in range(2):  # drop the new rows: a net as saved before generation 5
        W1[c] = np.concatenate([W1[c][:N_SIDE_CONTACT_V1], W1[c][N_SIDE_CONTACT:N_SIDE_CONTACT + N_SIDE_CONTACT_V1]])
    old = Weights(tuple(W1), w.b1, w.W2, w.b2)
    for c in range(2):
        assert old.W1[c].shape == w.W1[c].shape
        assert not old.W1[c][N_SIDE_CONTACT_V1:N_SIDE_CONTACT].any()
        assert not old.W1[c][N_SIDE_CONTACT + N_SIDE_CONTACT_V1:].any()
    # evaluating with the padded net equals evaluating the old inputs with the old rows
    cls, X = encode_batch(BOARDS)
    keep = np.r_[0:N_SIDE_CONTACT_V1, N_SIDE_CONTACT:N_SIDE_CONTACT + N_SIDE_CONTACT_V1]
    got = evaluate_net(BOARDS, old.arrays())
    sig = lambda a: 1 / (1 + np.exp(-a))  # noqa: E731
    for i in np.flatnonzero(cls == 0)[:20]:
        h = sig(X[i, keep].astype(np.float64) @ W1[0] + w.b1[0])
        y = sig(h @ w.W2[0] + w.b2[0])
        assert got[i, 0] == pytest.approx(y[0], abs=1e-4)


def test_prepare_drops_groups():
    t = np.full((BOARDS.shape[0], 5), 0.5, np.float32)
    full = prepare(BOARDS, t)
    dropped = prepare(BOARDS, t, ("shots", "shape"))
    for c in range(2):
        for side in range(2):
            k = side * N_SIDE_CONTACT
            for g in ("shots", "shape"):
                lo, hi = FEATURE_GROUPS[g]
                assert not dropped.x[c][:, k + lo:k + hi].any()
            lo, hi = FEATURE_GROUPS["bar"]
            np.testing.assert_array_equal(dropped.x[c][:, k + lo:k + hi], full.x[c][:, k + lo:k + hi])
    assert full.x[0][:, N_SIDE_CONTACT_V1:N_SIDE_CONTACT].any()
