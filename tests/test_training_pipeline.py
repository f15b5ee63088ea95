"""The supervised training pipeline (selfplay -> label -> fit -> duel) and the judge's arithmetic."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import numpy as np
import pytest

from bgtools.core.movegen import legal_plays
from bgtools.core.position import Position
from bgtools.engine.evaluation import evaluate_boards, rank_plays
from bgtools.engine.nets.networks import load_weights
from bgtools.engine.nets.nn import NeuralEvaluator, init_weights
from bgtools.engine.play import duel_vs_pubeval
from bgtools.training import pipeline as pl
from bgtools.training.datasets import DatasetError, load_boards, load_npz, save_npz
from bgtools.training.duel import duel_weights
from bgtools.training.fit import FitSettings, bce_loss, fit_weights, gradients, prepare
from bgtools.training.label import label_boards
from bgtools.training.selfplay import selfplay_games

ROOT = Path(__file__).resolve().parents[1]


def _judge_module():
    spec = importlib.util.spec_from_file_location("judge_bench", ROOT / "benchmarks" / "judge.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def shipped():
    return load_weights(None)


# ----------------------------------------------------------------------------- judge
def _record(pos: Position, dice: str, eq2: list[float], cat: str, base: dict) -> dict:
    plays = legal_plays(pos, (int(dice[0]), int(dice[1])))
    assert len(plays) == len(eq2)
    return {"idx": 0, "judge_category": cat, "position_id": pos.position_id(), "dice": dice,
            "plays": [{"position_id": p.after_id, "eq2": e} for p, e in zip(plays, eq2)],
            "loss_millipoints": base}


def test_judge_arithmetic():
    j = _judge_module()
    pos = Position.initial()
    n = len(legal_plays(pos, (2, 1)))
    eq2 = [0.01 * i for i in range(n)]
    rec = _record(pos, "21", eq2, "contact", {"gnubg_0ply": 1.0, "pubeval": 4.0, "random": 9.0})
    ids = [p["position_id"] for p in rec["plays"]]
    assert j.loss_of(rec, ids[-1]) == 0.0
    assert j.loss_of(rec, ids[0]) == pytest.approx(1000 * 0.01 * (n - 1))
    with pytest.raises(j.JudgeSetError, match="not among"):
        j.loss_of(rec, "AAAAAAAAAAAAAA")
    s = j.summarize(np.array([1.0, 3.0, 5.0, 10.0]), ["contact", "contact", "race", "race"])
    assert s["contact"] == {"n": 2, "mean": 2.0, "se": pytest.approx(math.sqrt(2.0) / math.sqrt(2))}
    assert s["race"]["mean"] == 7.5 and s["all"]["n"] == 4 and s["all"]["mean"] == 4.75
    assert s["bearoff"]["n"] == 0 and math.isnan(s["bearoff"]["mean"])
    res = j.judge([rec, rec], [ids[0], ids[-1]])
    assert res["ours"]["all"]["mean"] == pytest.approx(1000 * 0.01 * (n - 1) / 2)
    assert res["pubeval"]["contact"]["mean"] == 4.0 and res["random"]["all"]["n"] == 2
    assert "| **all** | 2 |" in j.table(res, "ours")
    pv = j.paired([rec, rec], [ids[0], ids[-1]], [ids[-1], ids[-1]])
    assert pv["all"]["mean"] == pytest.approx(1000 * 0.01 * (n - 1) / 2) and pv["contact"]["n"] == 2


@pytest.mark.parametrize("ply", [0, 1])
def test_judge_picks_match_rank_plays(ply, shipped):
    """The batched picks are rank_plays' best play, position by position."""
    j = _judge_module()
    ev = NeuralEvaluator(shipped)
    recs = []
    for pid, dice in (("4HPwATDgc/ABMA", "31"), ("43Y2AQAr/gkADA", "51"), ("/w8AAIHHxADREg", "42"),
                      ("bwMAANjeDwABAA", "21")):
        pos = Position.from_id(pid)
        n = len(legal_plays(pos, (int(dice[0]), int(dice[1]))))
        recs.append(_record(pos, dice, [0.0] * n, "contact", {}))
    picks = j.our_picks(recs, ev, ply)
    for rec, pick in zip(recs, picks):
        pos = Position.from_id(rec["position_id"])
        best = rank_plays(pos, (int(rec["dice"][0]), int(rec["dice"][1])), ply=ply, evaluator=ev)[0]
        assert pick == best.play.after_id


def test_judge_bad_file(tmp_path):
    j = _judge_module()
    f = tmp_path / "bad.jsonl"
    f.write_text('{"plays": []}\n', encoding="utf-8")
    with pytest.raises(j.JudgeSetError, match=r"bad.jsonl:1: not a judge record"):
        j.load_records(f)


# ----------------------------------------------------------------------------- pieces
def test_selfplay_games_chunking_and_exploration(shipped):
    whole = selfplay_games(shipped, 0, 4, seed=7, explore=0.3, margin=0.1)
    a = selfplay_games(shipped, 0, 2, seed=7, explore=0.3, margin=0.1)
    b = selfplay_games(shipped, 2, 2, seed=7, explore=0.3, margin=0.1)
    for k in whole:
        assert np.array_equal(whole[k], np.concatenate([a[k], b[k]]))
    boards = whole["boards"]
    assert boards.dtype == np.int8 and boards.shape[1:] == (2, 25)
    assert boards.min() >= 0 and boards.sum(axis=2).max() == 15
    assert (boards.sum(axis=2) > 0).all()  # no finished games recorded
    assert sorted(set(whole["game"].tolist())) == [0, 1, 2, 3]
    assert whole["explored"].sum() > 0
    assert selfplay_games(shipped, 0, 2, seed=7, explore=0.0)["explored"].sum() == 0
    assert not np.array_equal(selfplay_games(shipped, 0, 1, seed=8)["boards"][:40],
                              selfplay_games(shipped, 0, 1, seed=7)["boards"][:40])


def test_label_boards_are_one_ply_values(shipped):
    boards = selfplay_games(shipped, 0, 1, seed=3)["boards"][:50]
    t = label_boards(boards, shipped, ply=1, batch=16)
    ref = evaluate_boards(boards, 1, NeuralEvaluator(shipped))
    assert t.dtype == np.float32 and np.allclose(t, ref, atol=1e-6)
    assert not np.allclose(t, evaluate_boards(boards, 0, NeuralEvaluator(shipped)), atol=1e-3)


def test_fit_gradients_match_finite_differences():
    rng = np.random.default_rng(0)
    x = rng.random((6, 7))
    t = rng.random((6, 5))
    W1, b1, W2, b2 = rng.normal(size=(7, 4)), rng.normal(size=4), rng.normal(size=(4, 5)), rng.normal(size=5)
    loss, grads = gradients(x, t, W1, b1, W2, b2)
    params = [W1, b1, W2, b2]
    for p, g in zip(params, grads):
        for idx in [(0,) * p.ndim, tuple(s - 1 for s in p.shape)]:
            old = p[idx]
            p[idx] = old + 1e-6
            up = gradients(x, t, *params)[0]
            p[idx] = old - 1e-6
            down = gradients(x, t, *params)[0]
            p[idx] = old
            assert g[idx] == pytest.approx((up - down) / 2e-6, rel=1e-4, abs=1e-8)
    assert loss == pytest.approx(bce_loss(1 / (1 + np.exp(-(1 / (1 + np.exp(-(x @ W1 + b1))) @ W2 + b2))), t))


def test_fit_learns_targets(shipped):
    boards = selfplay_games(shipped, 0, 6, seed=5)["boards"]
    targets = np.asarray(evaluate_boards(boards, 0, NeuralEvaluator(shipped)), np.float32)
    data = prepare(boards, targets)
    rows = []
    w = fit_weights(init_weights((16, 8, 8), seed=2), data, FitSettings(epochs=10, batch=32, lr=3e-3, seed=1),
                    log=rows.append)
    assert [r["epoch"] for r in rows] == list(range(11))
    # the loss holds the targets' own entropy, which no fit removes: the learnable part must shrink
    assert rows[-1]["val_loss"] < rows[0]["val_loss"] - 0.06
    assert w.meta["fit_val_loss"] == pytest.approx(min(r["val_loss"] for r in rows))
    assert w.hidden == (16, 8, 8)


def test_fit_best_per_net_keeps_each_net_from_its_own_best_epoch(shipped, tmp_path):
    from bgtools.training.fit import _class_means, _split

    def flat(w):
        return [a for c in range(3) for a in (w.W1[c], w.b1[c], w.W2[c], w.b2[c])]

    boards = selfplay_games(shipped, 0, 6, seed=5)["boards"]
    data = prepare(boards, np.asarray(evaluate_boards(boards, 0, NeuralEvaluator(shipped)), np.float32))
    init = init_weights((8, 8, 8), seed=2)
    joint_s = FitSettings(epochs=6, batch=16, lr=3e-2, seed=1)
    s = FitSettings(epochs=6, batch=16, lr=3e-2, seed=1, best_per_net=True)
    w, joint = fit_weights(init, data, s), fit_weights(init, data, joint_s)
    val = [_split(data.x[c].shape[0], s.val_frac, s.seed + c)[1] for c in range(3)]
    # every net at least as good on its own held-out rows as in the one-epoch-for-all fit
    assert (_class_means(flat(w), data, val) <= _class_means(flat(joint), data, val) + 1e-12).all()
    assert w.meta["fit_val_loss"] <= joint.meta["fit_val_loss"]  # (with these seeds: contact's best is epoch 5)
    epochs = w.meta["fit_best_epochs"]
    assert len(epochs) == 3 and all(0 <= e <= 6 for e in epochs) and "fit_best_epochs" not in joint.meta
    # each net is exactly the fit's weights after its own best epoch (training does not depend on
    # the choice: replay the plain fit to that epoch and read its checkpoint)
    for c, e in enumerate(epochs):
        if e == 0:
            want = flat(init)[4 * c:4 * c + 4]
        else:
            fit_weights(init, data, joint_s, ckpt=tmp_path / f"c{c}.npz", max_epochs=e)
            with np.load(tmp_path / f"c{c}.npz") as z:
                want = [z[f"p{4 * c + q}"] for q in range(4)]
        assert all(np.array_equal(a, b) for a, b in zip(want, flat(w)[4 * c:4 * c + 4]))
    # stopped and resumed: the same weights and epochs
    ck = tmp_path / "ck.npz"
    fit_weights(init, data, s, ckpt=ck, max_epochs=3)
    again = fit_weights(init, data, s, ckpt=ck)
    assert again.meta["fit_best_epochs"] == epochs
    assert all(np.array_equal(a, b) for a, b in zip(flat(again), flat(w)))


def test_fit_rate_decays_to_lr_end(shipped):
    s = FitSettings(epochs=5, lr=1e-2, lr_end=1e-4)
    assert s.rate(0) == pytest.approx(1e-2) and s.rate(2) == pytest.approx(1e-3) and s.rate(4) == pytest.approx(1e-4)
    assert FitSettings(epochs=5, lr=1e-2).rate(4) == 1e-2
    boards = selfplay_games(shipped, 0, 2, seed=5)["boards"]
    data = prepare(boards, np.asarray(evaluate_boards(boards, 0, NeuralEvaluator(shipped)), np.float32))
    rows = []
    fit_weights(init_weights((8, 8, 8), seed=2), data, FitSettings(epochs=3, batch=32, lr=1e-2, lr_end=1e-3),
                log=rows.append)
    assert [r["lr"] for r in rows[1:]] == pytest.approx([1e-2, 10 ** -2.5, 1e-3])


def test_duel_self_is_exactly_even_and_shipped_beats_random(shipped):
    r = duel_weights(shipped, shipped, 40, seed=3)
    assert r.games == 40 and r.ppg == 0.0
    r2 = duel_weights(shipped, init_weights(seed=1), 40, seed=3)
    assert r2.ppg - r2.ci95 > 0, str(r2)


def test_shipped_beats_pubeval(shipped):
    r = duel_vs_pubeval(shipped, 400, seed=20261201)
    assert r.ppg - r.ci95 > 0, str(r)


def test_dataset_errors(tmp_path):
    with pytest.raises(DatasetError, match="no such data set"):
        load_npz(tmp_path / "none.npz")
    save_npz(tmp_path / "x.npz", boards=np.zeros((3, 2, 24), np.int8))
    with pytest.raises(DatasetError, match=r"shape \(3, 2, 24\)"):
        load_boards(tmp_path / "x.npz")
    with pytest.raises(DatasetError, match="no array 'targets'"):
        load_npz(tmp_path / "x.npz", "targets")


# ----------------------------------------------------------------------------- stages
SP = pl.SelfplayConfig(positions=300, seed=4, chunk_games=1, explore=0.2)
LB = pl.LabelConfig(ply=1, chunk=70)
FT = pl.FitConfig(epochs=3, batch=32, lr=1e-3, seed=2)


@pytest.fixture(scope="module")
def full_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("full")
    assert pl.run_selfplay(run, SP)["positions"] == 300
    assert pl.run_label(run, LB)["positions"] == 300
    assert pl.run_fit(run, FT)["rows"] > 0
    return run


def test_stages_end_to_end(full_run):
    run = full_run
    for stage in ("selfplay", "label", "fit"):
        m = json.loads((run / f"{stage}.manifest.json").read_text())
        assert m["stage"] == stage and m["seconds"] >= 0 and m["config"]
        assert (run / f"{stage}.log.csv").read_text().count("\n") >= 2
    lab = load_npz(run / "data" / "labelled.npz")
    assert lab["boards"].shape == (300, 2, 25) and lab["targets"].shape == (300, 5)
    assert np.array_equal(lab["boards"], load_boards(run / "data" / "positions.npz"))
    assert (lab["targets"] >= 0).all() and (lab["targets"] <= 1).all()
    fitted = load_weights(str(run / "fit.npz"))
    assert fitted.meta["version"] == f"{run.name}-fit"
    before = {s: (run / f"{s}.manifest.json").read_text() for s in ("selfplay", "label")}
    assert pl.run_selfplay(run, SP)["positions"] == 300 and pl.run_label(run, LB)["positions"] == 300
    assert before == {s: (run / f"{s}.manifest.json").read_text() for s in ("selfplay", "label")}  # kept
    m = pl.run_duel(run, pl.DuelConfig(games=20, seed=5))
    assert m["result"]["games"] == 20 and abs(m["result"]["ppg"]) <= 3
    assert m["result"] == pl.run_duel(run, pl.DuelConfig(games=20, seed=5))["result"]
    assert json.loads((run / "duel.manifest.json").read_text())["result"] == m["result"]


def test_stopped_stages_resume_identically(full_run, tmp_path):
    run = tmp_path / "r"
    assert pl.run_selfplay(run, SP, max_chunks=2) is None
    assert pl.run_selfplay(run, SP, max_chunks=1) is None
    assert pl.run_selfplay(run, SP) is not None
    assert pl.run_label(run, LB, max_chunks=2) is None
    assert pl.run_label(run, LB) is not None
    assert pl.run_fit(run, FT, max_epochs=1) is None
    assert pl.run_fit(run, FT) is not None
    for name in ("positions.npz", "labelled.npz"):
        a, b = load_npz(full_run / "data" / name), load_npz(run / "data" / name)
        assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    wa, wb = load_weights(str(full_run / "fit.npz")), load_weights(str(run / "fit.npz"))
    assert all(np.array_equal(x, y) for la, lb in zip(wa.arrays(), wb.arrays()) for x, y in zip(la, lb))


def test_changed_settings_are_refused(full_run):
    with pytest.raises(pl.PipelineError, match="other settings"):
        pl.run_selfplay(full_run, pl.SelfplayConfig(positions=300, seed=5, chunk_games=2))
    with pytest.raises(pl.PipelineError, match="run the selfplay stage first"):
        pl.run_label(full_run / "nothing", LB)


def test_label_parts_follow_their_rows(shipped, tmp_path):
    """A grown data set labels only its new chunks; a chunk whose rows changed is labelled again."""
    from bgtools.training.label import label_chunks

    boards = selfplay_games(shipped, 0, 3, seed=9)["boards"][:150]
    calls = []
    assert label_chunks(boards[:100], shipped, tmp_path, ply=0, chunk=50, progress=lambda k, r, n, s: calls.append(k)) == 2
    assert label_chunks(boards, shipped, tmp_path, ply=0, chunk=50, progress=lambda k, r, n, s: calls.append(k)) == 3
    assert calls == [0, 1, 2]
    changed = boards.copy()
    changed[60] = boards[0]
    assert label_chunks(changed, shipped, tmp_path, ply=0, chunk=50, progress=lambda k, r, n, s: calls.append(k)) == 3
    assert calls == [0, 1, 2, 1]
    t = np.concatenate([load_npz(tmp_path / f"part-{k:05d}.npz")["targets"] for k in range(3)])
    assert np.allclose(t, label_boards(changed, shipped, ply=0))


DP = pl.DeepenConfig(ply=2, count=24, chunk=10)


def test_deepen_relabels_the_most_disagreeing_rows_at_two_ply(full_run, shipped, tmp_path):
    from bgtools.training.label import disagreement, select_rows

    m = pl.run_deepen(full_run, DP)
    assert m["deepened"] == 24 and m["score_mean_chosen"] > m["score_mean_all"]
    lab = load_npz(full_run / "data" / "labelled.npz")
    deep = load_npz(full_run / "data" / "deepened.npz")
    assert np.array_equal(deep["boards"], lab["boards"])
    chosen = deep["deep"] == 1
    assert chosen.sum() == 24
    score = disagreement(lab["boards"], lab["targets"], shipped)
    assert score[chosen].min() >= score[~chosen].max()
    rows = np.flatnonzero(chosen)
    two = label_boards(lab["boards"][rows], shipped, ply=2)
    assert np.allclose(deep["targets"][rows], two, atol=1e-6)
    assert not np.allclose(two, lab["targets"][rows], atol=1e-3)  # the deeper search moved them
    assert np.array_equal(deep["targets"][~chosen], lab["targets"][~chosen])
    assert (full_run / "deepen.log.csv").read_text().count("\n") == 4  # header + 3 parts
    # a stopped deepen resumes to the same bytes; other settings are refused
    run = tmp_path / "d"
    save_npz(run / "data" / "labelled.npz", **lab)
    assert pl.run_deepen(run, DP, max_chunks=1) is None
    assert pl.run_deepen(run, DP) is not None
    again = load_npz(run / "data" / "deepened.npz")
    assert all(np.array_equal(again[k], deep[k]) for k in deep)
    with pytest.raises(pl.PipelineError, match="other settings"):
        pl.run_deepen(run, pl.DeepenConfig(ply=2, count=25, chunk=10))
    with pytest.raises(pl.PipelineError, match="select 'worst'"):
        pl.run_deepen(run, pl.DeepenConfig(select="worst"))
    rnd = select_rows(score, 24, "random", seed=3)
    assert rnd.size == 24 and np.array_equal(rnd, select_rows(score, 24, "random", seed=3))
    assert not np.array_equal(rnd, rows) and np.all(np.diff(rnd) > 0)
    with pytest.raises(ValueError, match="selection must be one of"):
        select_rows(score, 3, "worst")


def test_fit_on_deepened_data_with_an_extra_set(full_run, tmp_path):
    run = tmp_path / "f"
    with pytest.raises(pl.PipelineError, match="run the deepen stage first"):
        pl.run_fit(run, pl.FitConfig(data="deepened"))
    pl.run_deepen(full_run, DP)
    save_npz(run / "data" / "deepened.npz", **load_npz(full_run / "data" / "deepened.npz"))
    cfg = pl.FitConfig(epochs=1, batch=32, lr=1e-3, seed=2, data="deepened",
                       extra=(str(full_run / "data" / "labelled.npz"),))
    m = pl.run_fit(run, cfg)
    assert m["rows"] == 600 and m["data_sets"][1].endswith("labelled.npz")
    assert '"extra"' in (run / "data" / "fit" / "settings.json").read_text()


def test_fit_with_other_settings_needs_a_fresh_checkpoint(full_run):
    with pytest.raises(pl.PipelineError, match="fit_ckpt.npz or use a new run folder"):
        pl.run_fit(full_run, pl.FitConfig(epochs=4, batch=32, lr=1e-3, seed=2))


def test_the_stages_run_from_the_command_line(tmp_path):
    """`bgtools train selfplay|label|fit|duel --run DIR` as a user types them, on a tiny budget."""
    from typer.testing import CliRunner

    from bgtools.cli.app import app

    run = str(tmp_path / "run")
    cli = CliRunner()
    for args in (["selfplay", "--positions", "300"], ["label", "--ply", "0", "--jobs", "2"],
                 ["deepen", "--count", "12", "--ply", "1"], ["fit", "--epochs", "2", "--data", "deepened", "--lr-end", "1e-4"],
                 ["duel", "--games", "20"]):
        r = cli.invoke(app, ["train", *args, "--run", run])
        assert r.exit_code == 0, (args, r.output)
    assert (tmp_path / "run" / "fit.npz").exists()
    assert (tmp_path / "run" / "duel.manifest.json").exists()
    assert json.loads((tmp_path / "run" / "deepen.manifest.json").read_text())["deepened"] == 12
    r = cli.invoke(app, ["train", "deepen", "--run", run, "--select", "worst"])
    assert r.exit_code != 0 and "--select worst" in r.output + r.stderr
    r = cli.invoke(app, ["train"])
    assert r.exit_code == 2 and "give --run FOLDER" in r.stderr


def test_widened_net_plays_exactly_as_before(shipped):
    from bgtools.engine.nets.nn import widen_weights

    wide = widen_weights(shipped, (shipped.hidden[0] + 40, shipped.hidden[1] + 8, shipped.hidden[2]), seed=3)
    assert wide.hidden == (shipped.hidden[0] + 40, shipped.hidden[1] + 8, shipped.hidden[2])
    boards = selfplay_games(shipped, 0, 4, seed=9)["boards"]
    a = evaluate_boards(boards, 0, NeuralEvaluator(shipped))
    b = evaluate_boards(boards, 0, NeuralEvaluator(wide))
    assert np.allclose(a, b, atol=1e-6)  # the new units start silent
    assert not np.array_equal(wide.W1[0][:, -40:], np.zeros_like(wide.W1[0][:, -40:]))  # but not dead
    with pytest.raises(ValueError, match="fewer than"):
        widen_weights(shipped, (8, 8, 8))


def test_fit_widens_the_start_net(full_run, tmp_path):
    run = tmp_path / "w"
    save_npz(run / "data" / "labelled.npz", **load_npz(full_run / "data" / "labelled.npz"))
    start = load_weights(None)
    h = (start.hidden[0] + 16, start.hidden[1], start.hidden[2] + 4)
    m = pl.run_fit(run, pl.FitConfig(epochs=1, batch=32, lr=1e-3, seed=2, hidden=h))
    assert m["config"]["hidden"] == list(h) or tuple(m["config"]["hidden"]) == h
    assert load_weights(str(run / "fit.npz")).hidden == h
    with pytest.raises(pl.PipelineError, match="fit --hidden"):
        pl.run_fit(run, pl.FitConfig(epochs=1, seed=3, hidden=(4, 4, 4)))


def test_fit_hidden_on_the_command_line(full_run, tmp_path):
    from typer.testing import CliRunner

    from bgtools.cli.app import app

    run = tmp_path / "c"
    save_npz(run / "data" / "labelled.npz", **load_npz(full_run / "data" / "labelled.npz"))
    cli = CliRunner()
    r = cli.invoke(app, ["train", "fit", "--run", str(run), "--epochs", "1", "--hidden", "8,6"])
    assert r.exit_code == 2 and "give three unit counts" in r.output + r.stderr
    start = load_weights(None).hidden
    r = cli.invoke(app, ["train", "fit", "--run", str(run), "--epochs", "1",
                         "--hidden", f"{start[0] + 8},{start[1]},{start[2]}"])
    assert r.exit_code == 0, r.output
    assert load_weights(str(run / "fit.npz")).hidden == (start[0] + 8, start[1], start[2])


def test_labelling_in_parallel_writes_the_same_parts(full_run, tmp_path):
    """label and deepen with --jobs 2 and on a Dask cluster: the same part files as one process."""
    def parts(run, sub):
        return {p.name: load_npz(p) for p in sorted((run / "data" / sub).glob("part-*.npz"))}

    def same(a, b):
        return a.keys() == b.keys() and all(x.keys() == y.keys() and all(np.array_equal(x[k], y[k]) for k in x)
                                            for x, y in zip(a.values(), b.values()))

    cfg = pl.LabelConfig(ply=LB.ply, chunk=60)
    runs = {}
    for how, kw in (("one", {}), ("two", {"jobs": 2})):
        run = tmp_path / how
        save_npz(run / "data" / "positions.npz", **load_npz(full_run / "data" / "positions.npz"))
        assert pl.run_label(run, cfg, **kw) is not None
        assert pl.run_deepen(run, pl.DeepenConfig(ply=1, count=30, chunk=8), **kw) is not None
        runs[how] = run
    assert len(parts(runs["one"], "labels")) == 5 and len(parts(runs["one"], "deep")) == 4
    import csv

    with open(runs["two"] / "label.log.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 5 and all(float(r["seconds"]) > 0 for r in rows)  # each part's own time
    assert all(float(r["positions_per_s"]) < 1e6 for r in rows)
    for sub in ("labels", "deep"):
        assert same(parts(runs["one"], sub), parts(runs["two"], sub))
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None,
                                  silence_logs=40) as c:
        run = tmp_path / "dask"
        save_npz(run / "data" / "positions.npz", **load_npz(full_run / "data" / "positions.npz"))
        assert pl.run_label(run, cfg, dask=c.scheduler_address) is not None
    assert same(parts(runs["one"], "labels"), parts(run, "labels"))
    a, b = load_npz(runs["one"] / "data" / "labelled.npz"), load_npz(run / "data" / "labelled.npz")
    assert np.array_equal(a["targets"], b["targets"])


def test_selfplay_of_chosen_classes_keeps_only_those_positions(full_run, tmp_path):
    from bgtools.engine.nets.features import NET_RACE, net_class, net_classes

    run = tmp_path / "race"
    cfg = pl.SelfplayConfig(positions=40, seed=4, chunk_games=1, explore=0.2, classes=("race",))
    m = pl.run_selfplay(run, cfg)
    boards = load_boards(run / "data" / "positions.npz")
    assert m["positions"] == 40 and boards.shape == (40, 2, 25)
    assert (net_classes(boards) == NET_RACE).all()
    assert [net_class(b) for b in boards[:5]] == [NET_RACE] * 5  # the batch kernel is the single one
    # the same games as the unfiltered run: its race positions, in order, are these
    every = load_boards(full_run / "data" / "positions.npz")
    race = every[net_classes(every) == NET_RACE]
    n = min(len(race), 40)
    assert n > 0 and np.array_equal(race[:n], boards[:n])
    assert json.loads((run / "data" / "selfplay" / "settings.json").read_text())["classes"] == ["race"]
    assert "classes" not in json.loads((full_run / "data" / "selfplay" / "settings.json").read_text())
    with pytest.raises(pl.PipelineError, match="unknown position class 'crash'"):
        pl.run_selfplay(tmp_path / "bad", pl.SelfplayConfig(positions=5, classes=("crash",)))
    assert not (tmp_path / "bad").exists()
    with pytest.raises(pl.PipelineError):  # other settings than the folder was made with
        pl.run_selfplay(run, pl.SelfplayConfig(positions=40, seed=4, chunk_games=1, explore=0.2))


def test_fit_key_defaults_are_still_fitconfigs():
    """The fit options left out of a checkpoint's key at the values the first runs had: those
    must still be :class:`FitConfig`'s defaults, or a new default would match old checkpoints."""
    from dataclasses import fields

    from bgtools.training import pipeline

    defaults = {f.name: f.default for f in fields(pipeline.FitConfig)}
    assert pipeline._FIT_DEFAULTS and all(defaults[k] == v for k, v in pipeline._FIT_DEFAULTS.items())
