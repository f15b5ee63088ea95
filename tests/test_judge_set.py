"""benchmarks/make_judge_set.py: gnubg's answers turned into judge records that
benchmarks/judge.py reads (gnubg itself is not needed: its answer is made up here)."""

import gzip
import importlib.util
import json
import sys
from pathlib import Path

import pytest

from bgtools.core.movegen import legal_plays
from bgtools.core.position import Position

ROOT = Path(__file__).resolve().parents[1]


def _module(name):
    sys.path.insert(0, str(ROOT))
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _answer(pos, dice, eq2_of=None):
    plays = legal_plays(pos, (int(dice[0]), int(dice[1])))
    eq0 = {p.notation(): 0.01 * i for i, p in enumerate(plays)}  # the last play is gnubg 0-ply's pick
    eq2 = {k: (eq2_of(i) if eq2_of else -0.02 * i) for i, k in enumerate(eq0)}  # the first is the best at 2 ply
    return {"position_id": pos.position_id(), "dice": dice, "category": "contact", "gnubg_class": 10,
            "eq0": eq0, "eq2": eq2}, plays


def test_record_fields_losses_and_the_judge_reading_them(tmp_path):
    mk = _module("make_judge_set")
    judge = _module("judge")
    pos = Position.initial()
    got, plays = _answer(pos, "31")
    rec = mk.record(7, got)
    n = len(plays)
    assert rec["idx"] == 7 and rec["n_plays"] == n and rec["judge_category"] == "contact"
    assert [p["eq0"] for p in rec["plays"]] == sorted((p["eq0"] for p in rec["plays"]), reverse=True)
    assert rec["picks"]["best_2ply"] == plays[0].after_id
    assert rec["picks"]["gnubg_0ply"] == plays[-1].after_id
    assert rec["loss_millipoints"]["gnubg_0ply"] == pytest.approx(1000 * 0.02 * (n - 1))
    assert rec["loss_millipoints"]["random"] == pytest.approx(1000 * 0.02 * (n - 1) / 2)
    assert rec["picks"]["pubeval"] in {p.after_id for p in plays}
    f = tmp_path / "set.jsonl.gz"
    with gzip.open(f, "wt") as fh:
        fh.write(json.dumps(rec) + "\n")
    recs = judge.load_records(f)
    assert judge.loss_of(recs[0], plays[0].after_id) == 0.0
    assert judge.loss_of(recs[0], plays[2].after_id) == pytest.approx(40.0)


def test_a_record_whose_plays_differ_from_ours_is_dropped():
    mk = _module("make_judge_set")
    got, _ = _answer(Position.initial(), "31")
    got["eq2"] = dict(list(got["eq2"].items())[1:])  # gnubg listed one play fewer
    assert mk.record(0, got) is None


def test_committed_judge_sets_are_disjoint_and_their_plays_are_ours():
    """judge_third was made with --exclude judge_selfplay, judge_fourth (from fresh gnubg self-play,
    benchmarks/gnubg_selfplay.py) with --exclude of both, judge_fifth (the same, other seeds) of all three,
    judge_sixth (seeds 8001-8060) of all four: no position in two sets, so the paired
    differences of the sets are independent; every record lists every legal play of its roll."""
    judge = _module("judge")
    data = ROOT / "benchmarks" / "data"
    ids = {}
    names = ("judge_selfplay", "judge_third", "judge_fourth", "judge_fifth", "judge_sixth")
    for name in names:
        recs = judge.load_records(data / f"{name}.jsonl.gz")
        ids[name] = {r["position_id"] for r in recs}
        assert len(ids[name]) == len(recs)  # each position once
        for r in recs[:50]:
            pos = Position.from_id(r["position_id"])
            plays = legal_plays(pos, (int(r["dice"][0]), int(r["dice"][1])))
            assert {p["position_id"] for p in r["plays"]} == {p.after_id for p in plays}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not ids[a] & ids[b], (a, b)


def test_judge_table_leaves_out_categories_without_positions():
    judge = _module("judge")
    cats = ["contact", "contact", "on_bar", "on_bar"]
    res = {k: judge.summarize(judge.np.array([1.0, 2.0, 3.0, 5.0]), cats)
           for k in ("ours", "gnubg_0ply", "pubeval", "random")}
    assert judge.shown(res) == ["contact", "on_bar", "all"]
    text = judge.table(res, "ours 0-ply")
    assert "crashed" not in text and "nan" not in text and "| contact | 2 |" in text


def test_the_judge_picks_as_rank_plays_among_equal_plays():
    """A decided bear-off (every play loses): the judge's pick is ``rank_plays``' first, the play that bears off
    most, not the generator's first (the same ordering, ``best_first``)."""
    from bgtools.core.matchstate import parse_any_id
    from bgtools.engine.evaluation import default_evaluator, rank_plays

    judge = _module("judge")
    pos, _ = parse_any_id("TwAAQO16AAAAAA:AYFtAQAAAAAE")
    plays = legal_plays(pos, (3, 3))
    assert plays[0].notation() == "6/3(4)"  # the generator's first bears nothing off
    rec = {"position_id": pos.position_id(), "dice": "33", "plays": []}
    ev = default_evaluator()
    pick = judge.our_picks([rec], ev, 0)[0]
    first = rank_plays(pos, (3, 3), 0, ev)[0].play
    assert first.notation() == "6/off 3/off(2)" and pick == first.after_id


def test_the_judge_picks_in_chunks_as_in_one_batch(monkeypatch):
    """our_picks batches CHUNK records at a time (memory); the picks are those of one batch, at 0 and 1 ply."""
    from bgtools.engine.evaluation import default_evaluator

    judge = _module("judge")
    recs = judge.load_records(ROOT / "benchmarks" / "data" / "judge_fourth.jsonl.gz")[:9]
    ev = default_evaluator()
    for ply in (0, 1):
        whole = judge.our_picks(recs, ev, ply)
        monkeypatch.setattr(judge, "CHUNK", 4)
        assert judge.our_picks(recs, ev, ply) == whole
        monkeypatch.setattr(judge, "CHUNK", 256)


@pytest.mark.gnubg
@pytest.mark.parametrize("name, seed", [("judge_fourth", 6001), ("judge_fifth", 7001), ("judge_sixth", 8001)])
def test_the_gnubg_sets_come_from_the_seeded_gnubg_matches(tmp_path, name, seed):
    """judge_fourth's, judge_fifth's and judge_sixth's positions are made again from their seeds: gnubg replays the
    first two matches of each (gnubg_selfplay.py, seeds 6001, 7001 and 8001 on) and their rolls hold some of the
    set's positions (each set drew about one in 13 of its 60 matches' candidate rolls, by category: match 8001 alone
    gave 8 of 514, 8002 37 of 440, 6001 43 of 545)."""
    if not _module("gnubg_pty").available():
        pytest.skip("gnubg or `script` is not installed")
    gsp = _module("gnubg_selfplay")
    mk = _module("make_judge_set")
    judge = _module("judge")
    assert gsp.main(["-o", str(tmp_path), "--matches", "2", "--first-seed", str(seed)]) == 0
    ours = {pid for pid, _, _ in mk.candidates([tmp_path], set(), 0)}
    data = ROOT / "benchmarks" / "data"
    drawn = {r["position_id"] for r in judge.load_records(data / f"{name}.jsonl.gz")}
    assert 20 <= len(ours & drawn) <= 160, (len(ours), len(drawn))
