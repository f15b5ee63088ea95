"""Bear-off databases against gnubg's gnubg_os0.bd / gnubg_ts0.bd (all 2,000 oracle entries)."""


import numpy as np
import pytest
from conftest import isolated_cache, read_jsonl_gz

from bgtools.engine import bearoff as B


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    """Databases built in (or loaded from) a cache folder shared by this test session."""
    with isolated_cache(tmp_path_factory.getbasetemp() / "bgtools-cache"):
        yield B.load_databases()


@pytest.fixture(scope="module")
def oracle():
    return list(read_jsonl_gz("bearoff.jsonl.gz"))


def side25(six):
    return np.array(list(six) + [0] * 19, np.int8)


def test_index_matches_gnubg_positionbearoff(oracle):
    for r in oracle:
        if r["type"] == "one_sided":
            assert B.bearoff_index(side25(r["side"])) == r["bearoff_index"], r["side"]
        else:
            assert B.bearoff_index(side25(r["on_roll"])) == r["bearoff_index_on_roll"]
            assert B.bearoff_index(side25(r["opponent"])) == r["bearoff_index_opponent"]


def test_index_is_a_bijection():
    sides = B._sides_table()
    assert sides.shape == (B.N_ONE_SIDED, 6)
    assert len({tuple(s) for s in sides}) == B.N_ONE_SIDED
    for i in (0, 1, 6, 7, 923, 924, 54263):
        assert B.bearoff_index(sides[i]) == i
        assert B.side_from_index(i) == tuple(int(x) for x in sides[i])
    assert B.side_from_index(54263) == (0, 0, 0, 0, 0, 15)
    with pytest.raises(ValueError):
        B.side_from_index(54264)


def test_index_equals_plain_ranking_for_every_side():
    """The table-stepped index against a plain rank of every side up to 15 checkers: count
    the sides with fewer checkers, then the ascending point sequences that sort before it."""
    from itertools import combinations_with_replacement as cwr

    rank = {}
    for n in range(16):
        for seq in cwr(range(6), n):  # ascending sequences in lexicographic order
            rank[tuple(seq.count(p) for p in range(6))] = len(rank)
    assert len(rank) == B.N_ONE_SIDED
    for six, i in rank.items():
        assert B.bearoff_index(side25(six)) == i, six


def test_one_sided_equals_gnubg(db, oracle):
    n = 0
    for r in oracle:
        if r["type"] != "one_sided":
            continue
        i = r["bearoff_index"]
        # gnubg stores u16 / 65535: ours round to exactly the same integers
        assert np.array_equal(np.round(db.os_rolls[i] * 65535).astype(int), r["rolls_dist_u16"]), r["side"]
        assert np.array_equal(np.round(db.os_gammon[i] * 65535).astype(int), r["gammon_dist_u16"]), r["side"]
        assert db.os_mean[i] == pytest.approx(r["mean_rolls"], abs=1e-9)
        n += 1
    assert n == 1000


def test_two_sided_equals_gnubg(db, oracle):
    n = 0
    worst = np.zeros(4)
    for r in oracle:
        if r["type"] != "two_sided":
            continue
        board = np.array(r["board"], np.int8)
        assert B.in_two_sided(board)
        v = B.ts_lookup(db.ts, board)
        assert v[0] == pytest.approx(r["p_win"], abs=1e-9)  # the win probability is bit-exact
        ref = np.array(r["raw_u16"][1:]) / 32767.5 - 1.0
        worst[1:] = np.maximum(worst[1:], np.abs(v[1:] - ref))
        n += 1
    assert n == 1000
    # cubeful equities: within one unit of gnubg's 16-bit storage
    assert worst.max() <= 1.0 / 32767.5 + 1e-9


def test_distributions_are_probabilities(db):
    assert np.allclose(db.os_rolls.sum(axis=1), 1.0, atol=1e-9)
    assert np.allclose(db.os_gammon.sum(axis=1), 1.0, atol=1e-9)
    # one checker on the ace point: off in one roll
    assert db.os_rolls[1, 1] == 1.0
    # 15 checkers on the 6-point: never fewer than 4 rolls (6-6 takes off 4 a roll)
    i = B.bearoff_index(side25([0, 0, 0, 0, 0, 15]))
    assert db.os_rolls[i, :4].sum() == 0.0 and 90 / 8.17 < db.os_mean[i] < 13.0


def test_two_sided_consistency(db):
    ts = db.ts.reshape(924, 924, 4)
    # cube ownership is worth something: owning >= centred >= opponent owns (no double now)
    assert np.all(ts[1:, 1:, 1] >= ts[1:, 1:, 3] - 1e-9)
    # a side that has borne off has won
    assert np.all(ts[1:, 0, 0] == 0.0)
    # cubeless equity never exceeds the owned cubeful one by more than the rounding
    assert np.all(ts[1:, 1:, 1] >= 2 * ts[1:, 1:, 0] - 1 - 2e-4)


def test_one_sided_probs_matches_gnubg_evaluate(db):
    rows = [r for r in read_jsonl_gz("evals.jsonl.gz") if r["gnubg_class"] == 6]
    assert rows
    for r in rows:
        p = B.one_sided_probs(db.os_rolls, db.os_gammon, np.array(r["board"], np.int8))
        assert np.allclose(p, r["eval_0ply"][:5], atol=1e-6), r["position_id"]


def test_cache_round_trip(db, tmp_path):
    path = B.save_databases(db, tmp_path / "x.npz")
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".bearoff-")]
    with np.load(path) as z:
        assert np.array_equal(z["ts"], db.ts)
        assert np.array_equal(z["os_rolls"], db.os_rolls)
