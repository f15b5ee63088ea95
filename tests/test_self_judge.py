"""The self-judge (bgtools.training.selfjudge) and each net's held-out error in the fit logs."""

from __future__ import annotations

import numpy as np
import pytest

from bgtools.engine.evaluation import evaluate_boards
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import NeuralEvaluator, init_weights
from bgtools.training.fit import FitSettings, fit_weights, prepare
from bgtools.training.selfjudge import category, held_out_rolls, self_judge
from bgtools.training.selfplay import selfplay_games


@pytest.fixture(scope="module")
def shipped():
    return load_weights(None)


@pytest.fixture(scope="module")
def rolls(shipped):
    return held_out_rolls(shipped, 12, seed=5)


def test_held_out_rolls_are_seeded_and_playable(shipped, rolls):
    again = held_out_rolls(shipped, 12, seed=5)
    assert np.array_equal(rolls.boards, again.boards) and np.array_equal(rolls.dice, again.dice)
    other = held_out_rolls(shipped, 12, seed=6)
    assert not np.array_equal(rolls.boards, other.boards)
    assert rolls.boards.shape == (12, 2, 25) and ((rolls.dice >= 1) & (rolls.dice <= 6)).all()
    one = held_out_rolls(shipped, 30, seed=5, games_per_batch=20, per_game=1)
    # at most one roll a game: no two rolls share a position's game (the boards of one game differ,
    # so count distinct games through a replay: same seed, first 20 + 20 games)
    from bgtools.training.selfplay import selfplay_games

    games: dict[bytes, set[int]] = {}
    for first in (0, 20):
        d = selfplay_games(shipped, first, 20, 5, explore=0.0)
        for b, g in zip(d["boards"], d["game"]):
            games.setdefault(b.tobytes(), set()).add(int(g))
    owners = [games[b.tobytes()] for b in one.boards]  # a few boards occur in several games
    unique = [next(iter(o)) for o in owners if len(o) == 1]
    assert len(unique) >= 20 and len(set(unique)) == len(unique)
    races = held_out_rolls(shipped, 5, seed=5, categories=("race",))
    assert races.categories() == ["race"] * 5
    with pytest.raises(ValueError, match="unknown category"):
        held_out_rolls(shipped, 5, categories=("racing",))


def test_category_of_hand_made_boards():
    b = np.zeros((2, 25), np.int8)
    b[1, 5], b[0, 5] = 15, 15
    assert category(b) == "bearoff"
    b[1, 5], b[1, 24] = 14, 1
    b[0, 5], b[0, 20] = 13, 2
    assert category(b) == "on_bar"


def test_a_referee_at_the_judged_depth_finds_no_loss(shipped, rolls):
    """Refereed at 0 ply by the same net, the 0-ply pick is the referee's best (loss 0); at 1
    ply, the 1-ply pick is.  A weaker net judged by the shipped one loses something."""
    r0 = self_judge(shipped, rolls, ply=0)
    assert (r0["loss0"] == 0).all() and r0["ply0"]["all"]["n"] == 12
    r1 = self_judge(shipped, rolls, ply=1)
    assert (r1["loss1"] == 0).all() and (r1["loss0"] >= 0).all()
    weak = init_weights((8, 8, 8), seed=3)
    bad = self_judge(weak, rolls, referee=shipped, ply=1, keep=40, threshold=2.0)
    assert bad["ply0"]["all"]["mean"] > 1.0 and (bad["loss0"] >= 0).all()
    assert sum(bad["ply0"][c]["n"] for c in ("contact", "crashed", "race", "bearoff", "on_bar")) == 12


def test_fit_logs_each_nets_held_out_error(shipped):
    boards = selfplay_games(shipped, 0, 4, seed=5)["boards"]
    targets = np.asarray(evaluate_boards(boards, 0, NeuralEvaluator(shipped)), np.float32)
    data = prepare(boards, targets)
    rows: list[dict] = []
    fit_weights(init_weights((8, 8, 8), seed=2), data, FitSettings(epochs=2, batch=32, lr=3e-3, seed=1),
                log=rows.append)
    for r in rows:
        per = [r[f"val_mae_{n}"] for n in ("contact", "crashed", "race")]
        counts = [data.x[c].shape[0] for c in range(3)]
        assert all(p > 0 for p, n in zip(per, counts) if n >= 20)
        # the overall figure is the row-weighted mean of the nets' (held-out rows: 5 % of each class)
        held = [int(round(0.05 * n)) for n in counts]
        mean = sum(p * h for p, h in zip(per, held) if h) / sum(held)
        assert r["val_equity_mae"] == pytest.approx(mean)
