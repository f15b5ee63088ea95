"""Evaluation interface, exact endgames, lookahead and the eval/hint commands."""

import json

import numpy as np
import pytest
from conftest import isolated_cache, read_jsonl_gz
from typer.testing import CliRunner

from bgtools.engine import evaluation as E
from bgtools.core.movegen import ROLLS, legal_plays
from bgtools.core.position import Position

OPENING = "4HPwATDgc/ABMA"


@pytest.fixture(autouse=True, scope="module")
def cache(tmp_path_factory):
    with isolated_cache(tmp_path_factory.getbasetemp() / "bgtools-cache"):
        yield


@pytest.fixture(scope="module")
def evals():
    return list(read_jsonl_gz("evals.jsonl.gz"))


class Constant:
    """A fixed-output evaluator: makes the lookahead's bookkeeping checkable by hand."""

    name = "constant"
    version = "c1"
    prune = None  # no pruning net (the Evaluator protocol declares it)
    P = np.array([0.6, 0.2, 0.05, 0.1, 0.01])

    def evaluate_boards(self, boards):
        return np.tile(self.P, (len(boards), 1))


def side(points):
    s = [0] * 25
    for p, n in points.items():
        s[p - 1] = n
    return tuple(s)


def test_equity_is_gnubgs_code_formula(evals):
    for r in evals[:50]:
        p = np.array(r["eval_2ply"][:5])
        assert E.equity(p) == pytest.approx(r["eval_2ply"][5], abs=2e-6)
    assert E.equity([1, 1, 1, 0, 0]) == 3.0
    assert np.allclose(E.invert_probs(E.invert_probs(Constant.P)), Constant.P)


def test_protocol_and_default():
    ev = E.default_evaluator()
    assert isinstance(ev, E.Evaluator)
    assert isinstance(Constant(), E.Evaluator)
    e = E.evaluate(Position.initial())
    assert e.evaluator_version == f"{ev.name} {ev.version}"
    assert abs(e.equity) < 0.3 and e.ply == 0


def test_the_protocol_declares_the_pruning_net_and_the_shared_net_keeps_its_own():
    """``prune`` is part of the Evaluator protocol; another pruning is a copy (with_pruning),
    so neither an analysis without pruning nor anything else changes the shared default net."""
    from bgtools.analysis import AnalysisSettings, analyse_match
    from bgtools.formats import read_match

    class NoPrune:  # an evaluator that does not declare its pruning net is not an Evaluator
        name, version = "x", "1"

        def evaluate_boards(self, boards):
            return Constant().evaluate_boards(boards)

    assert not isinstance(NoPrune(), E.Evaluator)
    ev = E.default_evaluator()
    shipped = ev.prune
    assert shipped is not None  # the shipped net searches with the shipped pruning net
    plain = E.with_pruning(ev, None)
    assert plain is not ev and plain.prune is None and ev.prune is shipped and plain.weights is ev.weights
    assert E.with_pruning(ev, shipped) is ev
    assert E.evaluator_setting(plain) != E.evaluator_setting(ev)
    m = read_match(" 3 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   42: 8/4 6/4\n")
    analyse_match(m, settings=AnalysisSettings(ply=1, prune=False), cache=None)
    assert E.default_evaluator() is ev and ev.prune is shipped
    h = E.HeuristicEvaluator()
    hp = E.with_pruning(h, shipped)
    assert hp.prune is shipped and h.prune is None and E.HeuristicEvaluator.prune is None


def test_games_over_scored_exactly():
    ev = Constant()
    lost_single = Position.from_sides(side({6: 3}), [0] * 25)  # opponent off, I have 12 off
    lost_gammon = Position.from_sides(side({6: 15}), [0] * 25)
    lost_bg = Position.from_sides(side({6: 14, 20: 1}), [0] * 25)
    won_bg = Position.from_sides([0] * 25, side({25: 1, 6: 14}))
    got = E.evaluate_boards(np.stack([p.to_array() for p in (lost_single, lost_gammon, lost_bg, won_bg)]), 0, ev)
    assert got.tolist() == [[0, 0, 0, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 1, 1], [1, 1, 1, 0, 0]]
    assert [E.equity(p) for p in got] == [-1, -2, -3, 3]
    # lookahead leaves finished games alone
    assert np.array_equal(E.evaluate_boards(lost_bg.to_array()[None], 2, ev)[0], got[2])


def test_bearoff_positions_equal_gnubg(evals):
    rows = [r for r in evals if r["gnubg_class"] in (4, 6)]
    assert len(rows) > 50
    got = E.evaluate_boards(np.array([r["board"] for r in rows], np.int8), 0, Constant())
    ref = np.array([r["eval_0ply"][:5] for r in rows])
    assert np.abs(got - ref).max() < 1e-6
    two = [r for r in rows if r["gnubg_class"] == 4]
    got2 = E.evaluate_boards(np.array([r["board"] for r in two], np.int8), 2, Constant())
    assert np.abs(got2 - np.array([r["eval_2ply"][:5] for r in two])).max() < 1e-6


def test_one_ply_is_the_average_of_the_best_replies():
    pos = Position.from_id("sGfwATDgc/ABMA")
    ev = E.default_evaluator()
    want = np.zeros(5)
    for d in ROLLS:
        plays = legal_plays(pos, d)
        after = np.stack([p.after.to_array() for p in plays])
        mover = E.invert_probs(E.static_probs(after, ev))
        best = mover[np.argmax(E.equity(mover))]
        want += best * (1 if d[0] == d[1] else 2) / 36
    got = E.evaluate(pos, ply=1, evaluator=ev)
    assert np.allclose(got.probs, want, atol=1e-12)


def test_lookahead_inverts_perspective_each_ply():
    pos = Position.initial()
    c = Constant.P
    inv = E.invert_probs(c)
    assert np.allclose(E.evaluate(pos, 0, Constant()).probs, c)
    assert np.allclose(E.evaluate(pos, 1, Constant()).probs, inv)
    assert np.allclose(E.evaluate(pos, 2, Constant()).probs, c)


def test_rank_plays_orders_and_filters():
    pos = Position.initial()
    ev = E.HeuristicEvaluator()  # pinned: the shipped network may change
    r0 = E.rank_plays(pos, (3, 1), ply=0, evaluator=ev)
    assert len(r0) == len(legal_plays(pos, (3, 1)))
    assert r0[0].diff == 0.0 and all(a.equity >= b.equity for a, b in zip(r0, r0[1:]))
    assert all(p.diff == pytest.approx(p.equity - r0[0].equity) for p in r0)
    r2 = E.rank_plays(pos, (3, 1), ply=2, evaluator=ev, move_filter=E.MoveFilter(keep=3, threshold=1.0))
    deep = [p for p in r2 if p.ply == 2]
    assert len(deep) == 3 and all(p.ply == 0 for p in r2[3:])
    assert {p.play.after_id for p in deep} == {p.play.after_id for p in r0[:3]}
    assert r0[0].play.notation() == "8/5 6/5"  # even the weak heuristic makes the 3-1 point


def test_lookahead_improves_races(evals):
    rows = [r for r in evals if r["category"] == "race"]
    boards = np.array([r["board"] for r in rows], np.int8)
    ref = np.array([r["eval_2ply"][5] for r in rows])
    ev = E.HeuristicEvaluator()
    err0 = np.abs(E.equity(E.evaluate_boards(boards, 0, ev)) - ref).mean()
    err2 = np.abs(E.equity(E.evaluate_boards(boards, 2, ev)) - ref).mean()
    assert err2 < err0 < 0.06


# ----------------------------------------------------------------------------- CLI
def run(*args, input=None):
    from bgtools.cli.app import app

    return CliRunner().invoke(app, list(args), input=input)


def test_cli_eval_json_and_batch(tmp_path):
    res = run("eval", OPENING, "--json")
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert len(d["probs"]) == 5 and d["equity"] == pytest.approx(E.equity(np.array(d["probs"])))
    f = tmp_path / "ids.txt"
    f.write_text(f"{OPENING}\n\n# comment\nsGfwATDgc/ABMA\n")
    res = run("eval", "--input", str(f), "--ply", "1", "--json")
    lines = [json.loads(x) for x in res.stdout.splitlines()]
    assert [x["id"] for x in lines] == [OPENING, "sGfwATDgc/ABMA"] and lines[0]["ply"] == 1


def test_cli_hint_shape(tmp_path):
    f = tmp_path / "in.txt"
    f.write_text(f"{OPENING} 31\n{OPENING} 66\n")
    res = run("hint", "--input", str(f), "--ply", "1", "--json")
    assert res.exit_code == 0, res.output
    recs = [json.loads(x) for x in res.stdout.splitlines()]
    assert [r["dice"] for r in recs] == ["31", "66"]
    for r in recs:
        eqs = [p["equity"] for p in r["plays"] if p["ply"] == 1]
        assert eqs == sorted(eqs, reverse=True)
        assert {"move", "position_id", "equity", "probs"} <= set(r["plays"][0])
    text = run("hint", OPENING, "31")
    assert text.exit_code == 0 and "8/5 6/5" in text.output


def test_cli_errors_are_one_line():
    for args in (["eval", "nonsense"], ["hint", OPENING, "71"], ["eval", OPENING, "--ply", "7"],
                 ["hint", "--input", "/no/such/file"]):
        res = run(*args)
        assert res.exit_code == 2, args
        assert "Traceback" not in res.output
