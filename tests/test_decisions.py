"""The decisions stage (issue 37, item 4): one seeded roll of each self-play position, its best plays
searched deeper; the rows where the 0-ply pick and the deeper pick part (bgtools.training.decisions,
run_decisions), seeded and resumable to identical bytes, then fitted."""

from __future__ import annotations

import json

import numpy as np
import pytest
from shipped_nets import ROLLOUT_NET
from typer.testing import CliRunner

from bgtools.cli.app import app
from bgtools.core.movegen import legal_plays
from bgtools.core.position import Position
from bgtools.engine.evaluation import equity, evaluate_boards
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import NeuralEvaluator
from bgtools.training import pipeline as pl
from bgtools.training.datasets import load_npz
from bgtools.training.decisions import PICK0, PICK_DEEP, decision_rows, roll_dice, select_rows


SP = pl.SelfplayConfig(positions=40, seed=9, chunk_games=3)
DC = pl.DecisionsConfig(ply=1, seed=4, chunk=15, keep=4, prune=False)


@pytest.fixture(scope="module")
def shipped():
    return load_weights(None)


def test_roll_dice_is_a_function_of_seed_and_row():
    rolls = [roll_dice(3, i) for i in range(300)]
    assert all(1 <= a <= 6 and 1 <= b <= 6 for a, b in rolls)
    assert rolls == [roll_dice(3, i) for i in range(300)]
    assert len(set(rolls)) > 20  # every kind of roll turns up
    assert rolls != [roll_dice(4, i) for i in range(300)]


def test_rows_are_the_deep_values_of_the_best_plays(shipped):
    b = Position.from_id("4HPwATDgc/ABMA").to_array()  # the opening position
    boards = np.stack([b, b, b])
    d = decision_rows(boards, 10, shipped, ply=1, seed=2)
    ev = NeuralEvaluator(shipped)
    for k in range(3):
        mine = d["roll"] == 10 + k
        plays = legal_plays(Position.from_array(b), roll_dice(2, 10 + k))
        after = np.stack([p.after.to_array() for p in plays]).astype(np.int8)
        mover0 = -equity(evaluate_boards(after, 0, ev))
        # the 0-ply pick, found here from every legal play, is flagged, once
        flagged0 = d["boards"][mine & ((d["pick"] & PICK0) != 0)]
        assert flagged0.shape[0] == 1 and np.array_equal(flagged0[0], after[int(np.argmax(mover0))])
        # every row's target is the position's value at 1 ply for the side on roll there
        assert np.allclose(d["targets"][mine], evaluate_boards(d["boards"][mine], 1, ev), atol=1e-6)
        # the deep pick is the best of the rows by those values; gap = its lead over the 0-ply pick
        deep = -equity(d["targets"][mine].astype(np.float64))
        picks = d["pick"][mine]
        assert (picks & PICK_DEEP).sum() == PICK_DEEP and deep[(picks & PICK_DEEP) != 0][0] == pytest.approx(deep.max())
        gap = deep.max() - deep[(picks & PICK0) != 0][0]
        assert np.allclose(d["gap"][mine], gap, atol=1e-6) and gap >= 0
        assert mine.sum() <= 8


def test_a_roll_with_one_play_gives_no_row(shipped):
    b = np.zeros((2, 25), np.int8)
    b[1, 0] = 1  # one checker on our ace point: every roll bears it off, one play
    b[0, 0] = 1
    d = decision_rows(b[None], 0, shipped, ply=1)
    assert d["roll"].size == 0 and d["boards"].shape == (0, 2, 25)


def test_select_rows():
    pick = np.array([PICK0 | PICK_DEEP, 0, PICK0, PICK_DEEP, 0, PICK0, PICK_DEEP], np.int8)
    gap = np.array([0, 0, .01, .01, .01, .001, .001], np.float32)
    assert select_rows(pick, gap).tolist() == [False, False, True, True, False, True, True]
    assert select_rows(pick, gap, margin=0.005).tolist() == [False, False, True, True, False, False, False]
    assert select_rows(pick, gap, "candidates").all()
    with pytest.raises(ValueError):
        select_rows(pick, gap, "all")


def test_stage_resumes_to_identical_output_and_fits(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for run in (a, b):
        pl.run_selfplay(run, SP)
    whole = pl.run_decisions(a, DC)
    assert whole["positions"] == 40 and whole["rolls"] <= 40
    assert pl.run_decisions(b, DC, max_chunks=1) is None  # one of three parts
    assert pl.run_decisions(b, DC, max_chunks=1) is None
    assert pl.run_decisions(b, DC)["targets_sha256"] == whole["targets_sha256"]
    c = tmp_path / "c"  # two worker processes: the same parts
    pl.run_selfplay(c, SP)
    assert pl.run_decisions(c, DC, jobs=2)["targets_sha256"] == whole["targets_sha256"]
    da, db = load_npz(a / "data" / "decisions.npz"), load_npz(b / "data" / "decisions.npz")
    assert set(da) == {"boards", "targets", "roll", "pick", "gap"}
    for k in da:
        assert np.array_equal(da[k], db[k])
    # pairs: two rows (0-ply pick, deep pick) for each roll where they part
    assert da["roll"].size == 2 * whole["rolls_parted"]
    assert sorted(da["pick"].tolist()) == sorted([PICK0, PICK_DEEP] * whole["rolls_parted"])
    # the same parts give every row with --rows candidates (a setting of the output, not of the parts)
    every = pl.run_decisions(b, pl.DecisionsConfig(**{**DC.__dict__, "rows": "candidates"}))
    assert every["rows"] == every["rows_valued"] == whole["rows_valued"] >= whole["rows"]
    with pytest.raises(pl.PipelineError, match="other settings"):
        pl.run_decisions(b, pl.DecisionsConfig(**{**DC.__dict__, "seed": 5}))
    assert whole["rolls_parted"] > 0  # (3 with these seeds)
    m = pl.run_fit(a, pl.FitConfig(epochs=1, batch=8, seed=2, data="decisions"))
    assert m["rows"] == da["roll"].size


def test_cli_decisions(tmp_path):
    r = CliRunner().invoke(app, ["train", "decisions", "--run", str(tmp_path / "none")])
    assert r.exit_code != 0 and "no positions" in r.output
    r = CliRunner().invoke(app, ["train", "decisions", "--run", str(tmp_path), "--rows", "all"])
    assert r.exit_code != 0 and "--rows all" in r.output
    r = CliRunner().invoke(app, ["train", "fit", "--run", str(tmp_path), "--data", "decisions"])
    assert r.exit_code != 0 and "run the decisions stage first" in r.output


def test_within_roll_gradients_match_finite_differences():
    from bgtools.training.fit import within_roll_gradients

    rng = np.random.default_rng(1)
    x = rng.random((12, 6))
    t = rng.random((12, 5)) * 0.5
    g = np.repeat(np.arange(4), 3)
    P = [rng.normal(0, 0.5, (6, 4)), rng.normal(0, 0.1, 4), rng.normal(0, 0.5, (4, 5)), rng.normal(0, 0.1, 5)]
    loss, grads = within_roll_gradients(x, t, g, 7.0, *P)
    for q, at in ((0, (2, 1)), (1, (3,)), (2, (1, 4)), (3, (0,))):
        hi = [p.copy() for p in P]
        lo = [p.copy() for p in P]
        hi[q][at] += 1e-5
        lo[q][at] -= 1e-5
        num = (within_roll_gradients(x, t, g, 7.0, *hi)[0] - within_roll_gradients(x, t, g, 7.0, *lo)[0]) / 2e-5
        assert grads[q][at] == pytest.approx(num, rel=2e-3, abs=1e-6)
    # a roll's common error costs nothing: lam changes the loss only through the differences
    same = np.zeros(12, np.int64)
    base, _ = within_roll_gradients(x, t, same, 0.0, *P)
    assert within_roll_gradients(x, t, np.arange(12), 7.0, *P)[0] == pytest.approx(base)  # one row a roll


def test_fit_within_roll(tmp_path):
    from bgtools.training.fit import FitSettings, fit_weights, prepare

    run = tmp_path / "w"
    pl.run_selfplay(run, pl.SelfplayConfig(positions=80, seed=9, chunk_games=3, weights=ROLLOUT_NET))
    pl.run_decisions(run, pl.DecisionsConfig(ply=1, seed=4, chunk=40, keep=6, prune=False, rows="candidates",
                                             weights=ROLLOUT_NET))
    d = load_npz(run / "data" / "decisions.npz")
    # from a net never fitted with the term (the shipped analysis net was: it starts with little to gain), on its
    # own play (so that the rows stay the same when another analysis net is shipped)
    w0 = load_weights(None, use="rollout")
    plain = prepare(d["boards"], d["targets"], wide=w0.wide)
    named = prepare(d["boards"], d["targets"], wide=w0.wide, groups=d["roll"])
    s = FitSettings(epochs=3, batch=8, lr=1e-3, seed=3)
    a, b = fit_weights(w0, plain, s), fit_weights(w0, named, s)  # no term: the groups change nothing
    assert all(np.array_equal(x, y) for x, y in zip(a.W1 + a.W2, b.W1 + b.W2))

    x, t, g = named.x[0], named.t[0], named.groups[0]

    def within(P):  # mean squared within-roll equity error of the contact rows, by the fit's own forward pass
        from bgtools.training.fit import _forward

        _, y = _forward(x, *P)
        e = (y - t) @ np.array([2, 1, 1, -1, -1.0])
        _, inv = np.unique(g, return_inverse=True)
        return float(((e - (np.bincount(inv, e) / np.bincount(inv))[inv]) ** 2).mean())

    # the fit applies the term (the weights it keeps differ from the plain fit's) ...
    s = FitSettings(epochs=6, batch=16, lr=1e-3, seed=3, val_frac=0.2)
    with_term = fit_weights(w0, named, FitSettings(**{**s.__dict__, "within_roll": 50.0}))
    without = fit_weights(w0, named, s)
    assert not all(np.array_equal(p, q) for p, q in zip(with_term.W1 + with_term.W2, without.W1 + without.W2))

    # ... and the term's gradients lower the within-roll error of the rows they are taken on (plain descent from the
    # same start: the fit's kept epoch, chosen on a few held-out rows, is too noisy a witness on so small a set)
    def descend(lam):
        from bgtools.training.fit import within_roll_gradients

        P = [np.asarray(a, np.float64) for a in (w0.W1[0], w0.b1[0], w0.W2[0], w0.b2[0])]
        for _ in range(40):
            P = [p - 0.02 * d for p, d in zip(P, within_roll_gradients(x, t, g, lam, *P)[1])]
        return within(P)

    assert descend(50.0) < 0.8 * descend(0.0)
    # through the stage: --within-roll needs a set that names its rolls
    m = pl.run_fit(run, pl.FitConfig(epochs=2, batch=16, seed=2, data="decisions", within_roll=20.0))
    assert m["config"]["within_roll"] == 20.0
    pl.run_label(run, pl.LabelConfig(ply=0, chunk=80))
    with pytest.raises(pl.PipelineError, match="names its rolls"):
        pl.run_fit(tmp_path / "w", pl.FitConfig(epochs=1, batch=16, seed=5, within_roll=1.0))


def test_rollout_rows_share_their_rolls_dice(shipped):
    from bgtools.training.racedata import race_rollout_targets

    # a race: our 15 checkers spread over points 1-9, theirs over 1-8 (no contact)
    b = np.zeros((2, 25), np.int8)
    b[1, :9] = [1, 2, 2, 2, 2, 2, 2, 1, 1]
    b[0, :8] = [2, 2, 2, 2, 2, 2, 2, 1]
    d = decision_rows(np.stack([b, b]), 30, shipped, seed=6, trials=4)
    assert d["roll"].size >= 4 and set(d["roll"].tolist()) <= {30, 31}
    # each row is its board rolled out on the dice of its roll's number, whatever else is in the call
    for r in (30, 31):
        mine = d["roll"] == r
        alone = race_rollout_targets(d["boards"][mine], shipped, 4, 6, vr=True, rows=np.full(mine.sum(), r))
        assert np.array_equal(d["targets"][mine], alone)
        assert (d["pick"][mine] & PICK_DEEP).sum() == PICK_DEEP
    # the same board on the same row's dice gives the same target; on another row's, another
    two = race_rollout_targets(np.stack([b, b, b]), shipped, 4, 6, vr=True, rows=np.array([7, 7, 8]))
    assert np.array_equal(two[0], two[1]) and not np.array_equal(two[0], two[2])
    # rows=None numbers the boards from first_row, as before the option
    assert np.array_equal(race_rollout_targets(np.stack([b, b]), shipped, 4, 6, 7, vr=True), two[[0, 2]])
    start = Position.from_id("4HPwATDgc/ABMA").to_array()
    with pytest.raises(ValueError, match="position 3 is not a race"):
        decision_rows(start[None], 3, shipped, trials=4)


def test_stage_with_rollouts(tmp_path):
    run = tmp_path / "r"
    pl.run_selfplay(run, pl.SelfplayConfig(positions=12, seed=9, chunk_games=3, classes=("race",)))
    cfg = pl.DecisionsConfig(seed=4, chunk=6, keep=3, rows="candidates", trials=2)
    m = pl.run_decisions(run, cfg)
    assert m["config"]["trials"] == 2 and m["rows"] == m["rows_valued"] > 0
    # the parts' settings name the trials (and, without --trials, none: parts made before the option still match)
    assert json.loads((run / "data" / "decisions" / "settings.json").read_text())["trials"] == 2
    with pytest.raises(pl.PipelineError, match="other settings"):
        pl.run_decisions(run, pl.DecisionsConfig(seed=4, chunk=6, keep=3, rows="candidates"))
    contact = tmp_path / "c"
    pl.run_selfplay(contact, SP)
    with pytest.raises(pl.PipelineError, match="is not a race"):
        pl.run_decisions(contact, cfg)
    r = CliRunner().invoke(app, ["train", "decisions", "--run", str(run), "--trials", "-1"])
    assert r.exit_code != 0 and "--trials" in r.output
