"""bgtools.library.stats on synthetic library frames (tests/libframes.py, the contract's columns):
the coverage of the 95 % bootstrap interval by simulation, the table's figures against direct
computation, compare's interval and p-value, rolling PR."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bgtools.library.stats import (STATS_COLUMNS, Comparison, StatsError, bootstrap_pr, compare, pr, rolling_pr,
                                   stats_table, format_table)
from libframes import synthetic


def test_interval_coverage_by_simulation():
    """300 data sets of 30 matches (about 40 decisions a side each, per-match skill varying by a
    Gamma factor so decisions of one match are correlated): the 95 % intervals of PR and of
    checker PR hold the true PR (500 x p_error x mean skill) near 95 % of the time."""
    rng = np.random.default_rng(7)
    n, hit, hit_chk = 300, 0, 0
    for i in range(n):
        _, d, true = synthetic(30, rng, per_match=40)
        r = bootstrap_pr(d[d.me], resamples=1000, seed=i)
        hit += r["pr_lo"] <= true <= r["pr_hi"]
        hit_chk += r["checker_pr_lo"] <= true <= r["checker_pr_hi"]
    assert 0.92 <= hit / n <= 0.98, hit / n
    assert 0.91 <= hit_chk / n <= 0.98, hit_chk / n


def test_interval_ignoring_matches_would_be_too_narrow():
    """The reason to resample matches: with strongly correlated decisions (spread 1.0) an
    interval over independent decisions is much narrower than the bootstrap over matches."""
    _, d, _ = synthetic(40, np.random.default_rng(3), per_match=60, spread=1.0)
    me = d[d.me]
    r = bootstrap_pr(me, resamples=2000)
    naive = 2 * 1.96 * 500 * me.equity_loss.std() / np.sqrt(len(me))
    assert r["pr_hi"] - r["pr_lo"] > 1.3 * naive


@pytest.fixture(scope="module")
def frames():
    m, d, _ = synthetic(120, np.random.default_rng(11), per_match=50)
    return m, d


def test_table_figures(frames):
    m, d = frames
    t = stats_table(d, m, me=True, resamples=500)
    assert list(t.columns) == list(STATS_COLUMNS) and t.group.tolist() == ["all"]
    row = t.iloc[0]
    mine = d[d.me & d.counted]
    assert row.decisions == len(mine) and row.matches == d[d.me].match_key.nunique() == 120
    assert row.pr == pytest.approx(500 * mine.equity_loss.mean())
    assert row.checker_pr == pytest.approx(pr(mine, "checker")) and row.cube_pr == pytest.approx(pr(mine, "cube"))
    assert row.pr_lo < row.pr < row.pr_hi and row.cube_pr_lo < row.cube_pr < row.cube_pr_hi
    assert row.bad_rate == pytest.approx((mine.error == "bad").mean())
    assert row.very_bad_rate == pytest.approx((mine.error == "very bad").mean())
    assert row.games == m.games.sum()
    assert row.luck_per_game == pytest.approx(d[d.me].luck.sum() / m.games.sum())
    net = np.where(m.me_side == 0, m.score0 - m.score1, m.score1 - m.score0).sum() / m.games.sum()
    assert row.luck_adjusted == pytest.approx(net - row.luck_per_game)
    assert row.wins == (m.winner == 0).sum() and row.losses == (m.winner == 1).sum()
    # the opponents' side: their wins are the user's losses
    o = stats_table(d, m, me=False, resamples=200).iloc[0]
    assert o.wins == row.losses and o.decisions == (~d.me).sum()
    assert o.luck_per_game == pytest.approx(d[~d.me].luck.sum() / m.games.sum())
    # both sides: no wins, no luck-adjusted result
    b = stats_table(d, m, resamples=200).iloc[0]
    assert b.decisions == len(d) and pd.isna(b.wins) and np.isnan(b.luck_adjusted)


def test_grouping(frames):
    m, d = frames
    t = stats_table(d, m, by="month", me=True, resamples=200)
    months = sorted(pd.to_datetime(m.date).dt.strftime("%Y-%m").unique())
    assert t.group.tolist() == months + ["all"]
    assert t.matches.iloc[:-1].sum() == t.matches.iloc[-1] == 120
    first = m[pd.to_datetime(m.date).dt.strftime("%Y-%m") == months[0]].match_key
    sub = d[d.me & d.match_key.isin(first)]
    assert t.pr.iloc[0] == pytest.approx(500 * sub.equity_loss.mean())
    assert stats_table(d, m, by="year", resamples=100).group.tolist()[:2] == ["2024", "2025"]
    site = stats_table(d, m, by="site", resamples=100)
    assert site.group.tolist() == ["Galaxy", "unknown", "all"]  # "" is unknown, listed last
    assert stats_table(d, m, by="opponent", resamples=100).group.tolist() == ["Ann", "Bob", "Cy", "all"]
    m2 = m.assign(length=np.where(np.arange(len(m)) % 2, 0, np.where(np.arange(len(m)) % 4, 11, 5)))
    assert stats_table(d, m2, by="length", resamples=100).group.tolist() == ["money", "5pt", "11pt", "all"]
    assert stats_table(d, m, by="event", resamples=100).group.tolist() == ["Club", "Open", "all"]


def test_empty_and_unoriented(frames):
    m, d = frames
    t = stats_table(d.iloc[:0], m, resamples=100)
    assert t.group.tolist() == ["all"] and t.matches.iloc[0] == 0 and np.isnan(t.pr.iloc[0])
    # a match where the user does not play has no "me" rows: neither side counts for me=False
    other = d[d.match_key == m.match_key.iloc[0]].assign(me=False, match_key="other")
    both = pd.concat([d, other], ignore_index=True)
    assert stats_table(both, m, me=False, resamples=100).decisions.iloc[0] == (~d.me).sum()


def test_one_match_has_no_interval(frames):
    m, d = frames
    one = d[d.match_key == m.match_key.iloc[0]]
    t = stats_table(one, m, resamples=100).iloc[0]
    assert t.matches == 1 and np.isfinite(t.pr) and np.isnan(t.pr_lo) and np.isnan(t.pr_hi)


def test_same_seed_same_interval(frames):
    m, d = frames
    a, b = stats_table(d, m, seed=5, resamples=300), stats_table(d, m, seed=5, resamples=300)
    pd.testing.assert_frame_equal(a, b)


def test_bad_requests(frames):
    m, d = frames
    with pytest.raises(StatsError, match="unknown grouping"):
        stats_table(d, m, by="weekday")
    with pytest.raises(StatsError, match="lacks the column"):
        stats_table(d.drop(columns=["equity_loss"]), m)
    with pytest.raises(StatsError, match="confidence"):
        stats_table(d, m, confidence=95)


def test_compare():
    rng = np.random.default_rng(21)
    _, a, _ = synthetic(60, rng, per_match=50, skill=0.02)
    _, b, _ = synthetic(60, rng, per_match=50, skill=0.04)  # true PR 3.0 against 6.0
    b = b.assign(match_key="b" + b.match_key)
    c = compare(a[a.me], b[b.me], resamples=2000)
    assert isinstance(c, Comparison)
    assert c.difference == pytest.approx(pr(a[a.me]) - pr(b[b.me]))
    assert c.lo < c.difference < c.hi < 0 and c.p_value < 0.01
    assert c.matches_a == c.matches_b == 60 and "p = " in str(c)
    # the same population: the p-value is not small and the interval holds 0
    _, a2, _ = synthetic(60, rng, per_match=50, skill=0.02)
    a2 = a2.assign(match_key="c" + a2.match_key)
    same = compare(a[a.me], a2[a2.me], resamples=2000)
    assert same.lo < 0 < same.hi and same.p_value > 0.05
    # under the null the permutation p-value is near uniform: about 5 % of 60 pairs below 0.05
    small = 0
    for i in range(60):
        _, x, _ = synthetic(20, rng, per_match=30)
        _, y, _ = synthetic(20, rng, per_match=30)
        small += compare(x, y.assign(match_key="y" + y.match_key), resamples=300, seed=i).p_value < 0.05
    assert small <= 9


def test_rolling_pr(frames):
    _, d = frames
    r = rolling_pr(d, 500)
    assert len(r) == d.counted.sum() and r.n.iloc[-1] == len(r)
    ordered = d.sort_values(["date", "match_key", "game", "move_number", "action_index"], kind="stable")
    assert r.pr.iloc[-1] == pytest.approx(500 * ordered.equity_loss.iloc[-500:].mean())
    assert r.pr.iloc[0] == pytest.approx(500 * ordered.equity_loss.iloc[0]) and r.decisions.iloc[9] == 10
    assert (r.pr_lo <= r.pr).all() and (r.pr <= r.pr_hi).all() and r.date.is_monotonic_increasing
    with pytest.raises(StatsError):
        rolling_pr(d, 0)


def test_format_table(frames):
    m, d = frames
    t = stats_table(d, m, by="event", me=True, resamples=200)
    text = format_table(t).splitlines()
    assert text[0].split()[:3] == ["group", "matches", "decisions"] and len(text) == 4
    last = t.iloc[-1]
    assert text[-1].startswith("all") and f"{last.pr:.2f} [{last.pr_lo:.2f}, {last.pr_hi:.2f}]" in text[-1]
    assert text[-1].endswith(f"{last.wins}-{last.losses}")
