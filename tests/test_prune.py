"""The pruning net (bgtools.engine.nets.prune): its sparse kernel against the dense sum, the
selection of the best plays per roll, pruned search, its training stage, the shipped net."""

from __future__ import annotations

import dataclasses
import gzip
import json
from pathlib import Path

import numpy as np
import pytest
from conftest import compiled_choose
from typer.testing import CliRunner

from bgtools.cli.app import app
from bgtools.engine.children import expand_children
from bgtools.engine.evaluation import default_evaluator, evaluate_boards, evaluator_setting
from bgtools.engine.nets.nn import NeuralEvaluator
from bgtools.engine.nets.prune import (PRUNE_INPUTS, Pruning, make_prune_net, load_default_pruning, prune_children_values,
                                  prune_base, prune_inputs, prune_play_values, prune_select,
                                  prune_values)
from bgtools.training import pipeline as pl
from bgtools.training.prunefit import PruneData, PruneFitSettings, fit_prune, prune_dataset, ranking_report

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def oracle():
    with gzip.open(DATA / "oracle_positions.jsonl.gz", "rt") as fh:
        return np.array([json.loads(line)["board"] for line in fh], np.int8)


def _random_net(hidden: int, seed: int):
    rng = np.random.default_rng(seed)
    return make_prune_net(rng.standard_normal((PRUNE_INPUTS, hidden)).astype(np.float32) * 0.3,
                          rng.standard_normal(hidden).astype(np.float32) * 0.1,
                          rng.standard_normal(hidden).astype(np.float32) * 0.3, np.array([0.05], np.float32))


def _live(boards):
    return (boards.sum(axis=2) > 0).all(axis=1)


def test_prune_value_is_the_dense_forward_pass(oracle):
    children, _ = expand_children(oracle[:200])
    boards = np.concatenate([oracle, children[::7]])
    for hidden, seed in ((16, 1), (64, 2)):
        net = _random_net(hidden, seed)
        x = prune_inputs(boards).astype(np.float64)
        dense = np.maximum(x @ net.W1 + net.b1, 0) @ net.w2 + net.b2[0]
        got = prune_values(boards, net)
        live = _live(boards)
        assert live.sum() > 5000
        np.testing.assert_allclose(got[live], dense[live], rtol=1e-4, atol=1e-4)


def test_children_values_summed_from_their_board_equal_the_boards_own(oracle):
    net = Pruning.load(DATA.parent.parent / "bgtools" / "data" / "prune_weights.npz").net
    for lo in (0, 300, 900):
        b = oracle[lo:lo + 120]
        children, offsets = expand_children(b)
        got = prune_children_values(b, children, offsets, net)
        np.testing.assert_allclose(got, prune_values(children, net), rtol=1e-5, atol=2e-5)
    # a random net too (every unit in use), and boards whose game is over among the children
    net = _random_net(24, 7)
    b = oracle[::5]
    children, offsets = expand_children(b)
    assert (~_live(children)).any()
    np.testing.assert_allclose(prune_children_values(b, children, offsets, net), prune_values(children, net),
                               rtol=1e-4, atol=1e-4)


def _play_values(boards, children, offsets, net):
    """prune_play_values of each roll's plays (the children turned back: the mover as [1])."""
    nh = net.b1.shape[0]
    res = np.empty(children.shape[0])
    base, h, out = np.empty(nh, np.float32), np.empty(nh, np.float32), np.empty(5)
    sw = np.empty((2, 25), np.int8)
    plays = np.ascontiguousarray(children[:, ::-1])
    for i in range(boards.shape[0]):
        turned = np.ascontiguousarray(boards[i, ::-1])
        prune_base(turned, net, base)
        for r in range(21):
            lo, hi = offsets[i * 21 + r], offsets[i * 21 + r + 1]
            if hi > lo:
                vals = np.empty(hi - lo)
                prune_play_values(turned, np.ascontiguousarray(plays[lo:hi]), hi - lo, net, base, h, sw, out, vals)
                res[lo:hi] = vals
    return res


def test_a_rolls_play_values_equal_the_siblings_values_bit_for_bit(oracle):
    """keep_plays's one call per roll (the plays not turned round) against the per-sibling kernel."""
    for net, b in ((Pruning.load(DATA.parent.parent / "bgtools" / "data" / "prune_weights.npz").net, oracle[:150]),
                   (_random_net(24, 7), oracle[::9])):
        children, offsets = expand_children(b)
        want = prune_children_values(b, children, offsets, net)
        np.testing.assert_array_equal(_play_values(b, children, offsets, net), want)
    assert (~_live(children)).any()  # finished games among the plays: their exact values


def test_the_slot_table_is_the_sum_of_each_slots_units():
    net = _random_net(5, 11)
    x = np.zeros((1, 2, 25), np.int8)
    for s, n in ((0, 1), (3, 2), (24, 3), (30, 7), (49, 15)):
        b = x.copy()
        b[0, 1 - s // 25, s % 25] = n  # slot s: the on-roll side ([1]) first
        u = prune_inputs(b)[0]
        u[100] = u[PRUNE_INPUTS // 2 + 100] = 0.0  # (checkers off are not in the table)
        np.testing.assert_allclose(net.slots[s, n], u @ net.W1, rtol=1e-5, atol=1e-6)
    assert not net.slots[:, 0].any()


def test_prune_inputs_swap_with_the_board(oracle):
    x, y = prune_inputs(oracle), prune_inputs(np.ascontiguousarray(oracle[:, ::-1]))
    assert np.array_equal(x[:, :101], y[:, 101:]) and np.array_equal(x[:, 101:], y[:, :101])
    assert x.shape[1] == PRUNE_INPUTS and (x[:, 100] >= 0).all()


def test_finished_games_are_valued_exactly():
    b = np.zeros((1, 2, 25), np.int8)
    b[0, 0, 3] = 15  # the player on roll has borne off all; the opponent has not: a gammon
    assert prune_values(b, _random_net(8, 3))[0] == pytest.approx(2.0)


def _reference_select(values, offsets, keep):
    sel, off = [], [0]
    for g in range(len(offsets) - 1):
        lo, hi = offsets[g], offsets[g + 1]
        order = np.argsort(values[lo:hi], kind="stable")[:keep]
        sel += sorted(lo + int(i) for i in order)
        off.append(len(sel))
    return np.array(sel, np.int64), np.array(off, np.int64)


@pytest.mark.parametrize("keep", [1, 2, 4, 9])
def test_prune_select_keeps_the_lowest_of_each_group_in_order(keep):
    rng = np.random.default_rng(keep)
    sizes = rng.integers(0, 14, 300)
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    values = rng.integers(0, 6, offsets[-1]).astype(np.float64)  # many ties: the earlier wins
    sel, off = prune_select(values, offsets, keep)
    ref_sel, ref_off = _reference_select(values, offsets, keep)
    assert np.array_equal(sel, ref_sel) and np.array_equal(off, ref_off)


def test_pruning_that_keeps_every_play_changes_nothing(oracle):
    ev = default_evaluator()
    plain = NeuralEvaluator(ev.weights)
    wide = NeuralEvaluator(ev.weights, prune=Pruning(_random_net(8, 4), keep=1000))
    b = oracle[:40]
    for ply in (1, 2):
        assert np.array_equal(evaluate_boards(b, ply, plain), evaluate_boards(b, ply, wide))
    # keeping one play (by a random net) is another search: the values move
    narrow = NeuralEvaluator(ev.weights, prune=Pruning(_random_net(8, 4), keep=1))
    assert not np.allclose(evaluate_boards(b, 1, plain), evaluate_boards(b, 1, narrow))


def test_the_cache_setting_names_the_pruning():
    ev = default_evaluator()
    plain = NeuralEvaluator(ev.weights)
    assert evaluator_setting(plain) == f"{plain.name} {plain.version}"
    p = Pruning(_random_net(8, 5), keep=3)
    s = evaluator_setting(NeuralEvaluator(ev.weights, prune=p))
    assert s.endswith("/3") and "prune=" in s and s != evaluator_setting(NeuralEvaluator(ev.weights, prune=p.with_keep(4)))


# ----------------------------------------------------------------------------- training
def test_fit_learns_to_rank_and_is_seeded(oracle):
    ev = NeuralEvaluator(default_evaluator().rollout_weights)  # the plain net (no contact inputs): quick to label
    data = prune_dataset(oracle[:300], ev, rolls_per_position=4, seed=3)
    assert data.groups > 500 and data.offsets[-1] == data.boards.shape[0]
    assert ((data.offsets[1:] - data.offsets[:-1]) >= 2).all()
    train, val = data.take_groups(np.arange(0, data.groups - 200)), data.take_groups(np.arange(data.groups - 200,
                                                                                               data.groups))
    rows = []
    # six epochs: after three the fitted net found the best play 0.12 (gen8's ranks) or 0.10 (roll13's) more often
    # than the random one, after six 0.20-0.22 with gen8's, roll13's and gen12's ranks alike
    settings = PruneFitSettings(hidden=16, epochs=6, seed=2)
    a = fit_prune(train, settings, rows.append)
    b = fit_prune(train, settings)
    assert [r["epoch"] for r in rows] == [1, 2, 3, 4, 5, 6] and rows[-1]["mse"] < rows[0]["mse"]
    assert all(np.array_equal(x, y) for x, y in zip(a.net, b.net))  # seeded: the same net
    fitted, untrained = ranking_report(a, val), ranking_report(Pruning(_random_net(16, 9)), val)
    # the best play is among the 4 kept far more often than with a random net
    assert fitted["keep4"]["found"] > untrained["keep4"]["found"] + 0.1
    assert fitted["keep4"]["found"] <= fitted["keep6"]["found"]


def test_take_groups_keeps_groups_whole():
    d = PruneData(np.arange(10 * 50, dtype=np.int8).reshape(10, 2, 25) % 7, np.arange(10.0),
                  np.array([0, 3, 4, 10], np.int64))
    t = d.take_groups(np.array([2, 0]))
    assert t.targets.tolist() == [4, 5, 6, 7, 8, 9, 0, 1, 2] and t.offsets.tolist() == [0, 6, 9]


def test_prune_stage_end_to_end_and_again(tmp_path):
    run = tmp_path / "run"
    pl.run_selfplay(run, pl.SelfplayConfig(positions=300, seed=3, chunk_games=4))
    cfg = pl.PruneConfig(hidden=8, epochs=2, rolls=2, keep=3, seed=4, val_frac=0.2)
    m = pl.run_prune(run, cfg)
    first = (run / "prune.npz").read_bytes()
    p = Pruning.load(run / "prune.npz")
    assert p.keep == 3 and p.net.W1.shape == (PRUNE_INPUTS, 8)
    assert m["plays"] > 1000 and 0 < m["held_out"]["keep3"]["found"] <= 1
    pl.run_prune(run, cfg)  # run again: the same net
    assert Pruning.load(run / "prune.npz").net.W1.tobytes() == p.net.W1.tobytes()
    assert len((run / "prune.log.csv").read_text().splitlines()) == 1 + 2
    assert first[:2] == b"PK"


def test_prune_cli_needs_positions(tmp_path):
    r = CliRunner().invoke(app, ["train", "prune", "--run", str(tmp_path / "none")])
    assert r.exit_code != 0 and "no positions" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(app, ["train", "prune", "--run", str(tmp_path), "--rolls", "30"])
    assert r.exit_code != 0 and "--rolls" in r.output


def test_a_bad_pruning_file_is_refused(tmp_path):
    f = tmp_path / "p.npz"
    np.savez(f, W1=np.zeros((10, 4), np.float32), b1=np.zeros(4, np.float32), w2=np.zeros(4, np.float32),
             b2=np.zeros(1, np.float32), keep=np.array(4), meta=np.array("{}"))
    with pytest.raises(ValueError, match="not a pruning net"):
        Pruning.load(f)


# ----------------------------------------------------------------------------- the shipped net
@pytest.mark.parametrize("use", ["analysis", "rollout"])
def test_each_shipped_pruning_net_ranks_like_its_main_net(oracle, use):
    from bgtools.engine.nets.networks import load_weights

    p = load_default_pruning(use)
    assert p is not None and p.net.W1.shape[0] == PRUNE_INPUTS
    assert default_evaluator().prune.tag == load_default_pruning().tag  # the analysis evaluator has the analysis's
    ev = NeuralEvaluator(load_weights(None, use))
    r = ranking_report(p, prune_dataset(oracle, ev, rolls_per_position=2, seed=5))
    assert r["groups"] > 1500
    assert r["keep4"]["found"] > 0.8 and r["keep4"]["mean_loss"] < 0.01, r


# ----------------------------------------------------------------------------- the move chooser
def _choices(oracle, ch, rolls=((3, 1), (6, 6), (5, 2), (4, 4), (6, 1))):
    from bgtools.engine.chooser import new_chooser_buffers

    choose = compiled_choose(ch)
    buf = new_chooser_buffers(ch.net)
    out = np.zeros(5)
    picks = []
    for b in oracle[:150]:
        if not _live(b[None])[0]:
            continue
        for d1, d2 in rolls:
            i = choose(b, d1, d2, ch, buf, out)
            picks.append((i, buf.mine.boards[i].tobytes() if i >= 0 else b""))
    return picks


@pytest.mark.parametrize("use", ["rollout", "analysis"])
def test_the_chooser_with_pruning_keeps_the_full_choice_when_it_keeps_every_play(oracle, use):
    from bgtools.engine.chooser import make_chooser
    from bgtools.engine.nets.networks import load_weights

    net = load_weights(None, use).arrays()  # each shipped net, as rollouts and the analysis search use it
    p = load_default_pruning(use)  # with its own pruning net
    for ply in (0, 1):
        full = _choices(oracle, make_chooser(net, ply))
        assert _choices(oracle, make_chooser(net, ply, pruning=p.with_keep(10_000))) == full
        pruned = _choices(oracle, make_chooser(net, ply, pruning=p))
        same = sum(a == b for a, b in zip(pruned, full))
        # a pruned choice is another search; with the shipped net it is mostly the full one
        assert same >= 0.9 * len(full), (same, len(full))


def test_the_chooser_picks_among_the_plays_the_pruning_net_keeps(oracle):
    from bgtools.core.movegen import generate_boards, new_move_buffers
    from bgtools.engine.chooser import choose0, make_chooser, new_chooser_buffers

    net = default_evaluator().rollout_weights.arrays()  # the net rollouts play with their pruning net
    p = load_default_pruning("rollout").with_keep(2)
    ch = make_chooser(net, 0, pruning=p)
    buf, mb = new_chooser_buffers(ch.net), new_move_buffers()
    out = np.zeros(5)
    checked = 0
    for b in oracle[:200]:
        if not _live(b[None])[0]:
            continue
        n = generate_boards(b, 5, 3, mb)
        if n <= 2:
            continue
        turned = np.ascontiguousarray(mb.boards[:n, ::-1])
        values = prune_values(turned, p.net)
        kept = set(np.argsort(values, kind="stable")[:2].tolist())
        assert choose0(b, 5, 3, ch, buf, out) in kept
        checked += 1
    assert checked > 100


# ----------------------------------------------------------------------------- commands
def test_annotate_and_rollout_without_pruning(tmp_path, monkeypatch):
    from bgtools.analysis.analyse import analyse_match
    from bgtools.analysis.records import AnalysisSettings
    from bgtools.formats import read_match

    monkeypatch.setenv("BGTOOLS_CACHE_DIR", str(tmp_path / "cache"))
    m = read_match(str(DATA / "matches" / "selfplay" / "002.mat"))
    short = dataclasses.replace(m, games=m.games[:1])
    pruned = analyse_match(short, settings=AnalysisSettings(ply=1), cache=None)
    full = analyse_match(short, settings=AnalysisSettings(ply=1, prune=False), cache=None)
    assert "prune=" in pruned.evaluator and "prune=" not in full.evaluator
    assert len(pruned.decisions) == len(full.decisions) > 10
    r = CliRunner().invoke(app, ["annotate", str(DATA / "matches" / "selfplay" / "002.mat"), "--ply", "1",
                                 "--no-prune", "--json"])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(app, ["rollout", "4HPwATDgc/ABMA", "--trials", "36", "--no-prune", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout.splitlines()[0])["pruning"] is False


# ----------------------------------------------------------------------------- labelling with it
def test_labels_with_pruning_are_the_pruned_search(oracle):
    from bgtools.training.label import label_boards

    w = default_evaluator().weights
    b = oracle[:60]
    p = load_default_pruning()
    t = label_boards(b, w, ply=1, batch=16, pruning=p)
    assert np.allclose(t, evaluate_boards(b, 1, NeuralEvaluator(w, prune=p)), atol=1e-6)
    full = label_boards(b, w, ply=1, batch=16)
    assert np.allclose(t, full, atol=0.05) and np.array_equal(full, label_boards(b, w, ply=1, batch=60))


def test_label_stage_with_prune_claims_its_folder(tmp_path):
    run = tmp_path / "run"
    pl.run_selfplay(run, pl.SelfplayConfig(positions=60, seed=3, chunk_games=2))
    pl.run_label(run, pl.LabelConfig(ply=1, chunk=30, prune=True))
    settings = json.loads((run / "data" / "labels" / "settings.json").read_text())
    assert settings["prune"] is True
    with pytest.raises(pl.PipelineError, match="other settings"):
        pl.run_label(run, pl.LabelConfig(ply=1, chunk=30))
    other = tmp_path / "plain"
    pl.run_selfplay(other, pl.SelfplayConfig(positions=60, seed=3, chunk_games=2))
    pl.run_label(other, pl.LabelConfig(ply=1, chunk=30))
    # without the option the folder is claimed as before it existed (old runs resume)
    assert "prune" not in json.loads((other / "data" / "labels" / "settings.json").read_text())
    r = CliRunner().invoke(app, ["train", "label", "--help"])
    assert "--prune" in r.output
