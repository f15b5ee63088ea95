"""Statistics over a library's decisions: PR with a 95 % interval, per period or group.

The inputs are the frames of :class:`bgtools.library.api.Library` (``decisions()`` and
``matches()``, columns in docs/library.md); any frame with those columns will do.

**PR** is 500 x the mean normalised equity lost per counted decision (checker PR over
counted checker rows, cube PR over counted cube rows), as
:attr:`bgtools.analysis.records.PlayerSummary.pr`.

**Interval: bootstrap over matches.**  Decisions of one match are not independent (one
opponent, one day, one kind of game), so the unit resampled is the match: each of
``resamples`` replicates draws the group's matches with replacement, the PR of a replicate
is 500 x (its total loss) / (its counted decisions), and the interval is the percentile
interval of the replicates (``confidence`` = 0.95: the 2.5 % and 97.5 % points).  It needs
no assumption about the shape of the loss distribution (a few blunders carry most of a
PR) and keeps the weight of long matches.  Its coverage is checked by simulation in
tests/test_library_stats.py.  A group of one match has no interval (its bootstrap
cannot vary the match).

**Comparison** (:func:`compare`): the difference PR(A) - PR(B), its interval from
independent bootstraps of A's and B's matches, and a two-sided permutation p-value: the
matches of A and B are pooled and dealt again at random into sets of the same sizes
(``resamples`` times); p is the share of deals whose difference is at least as far from 0 as
the observed one (with the observed deal counted, so p > 0).

>>> import pandas as pd
>>> d = pd.DataFrame({"match_key": ["a", "a", "b"], "kind": ["checker", "cube", "checker"],
...                   "counted": [True, True, True], "equity_loss": [0.02, 0.0, 0.04]})
>>> round(pr(d), 3)
10.0
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from statistics import NormalDist
from typing import Optional

import numpy as np
import pandas as pd

from bgtools.base.errors import BgtoolsError

__all__ = ["BY", "STATS_COLUMNS", "Comparison", "StatsError", "pr", "bootstrap_pr", "stats_table", "compare",
           "rolling_pr", "format_table"]

#: the groupings of :func:`stats_table`
BY = (None, "month", "year", "event", "opponent", "length", "site")
#: the columns of :func:`stats_table`, in order
STATS_COLUMNS = (
    "group", "matches", "games", "decisions", "pr", "pr_lo", "pr_hi",
    "checker_decisions", "checker_pr", "checker_pr_lo", "checker_pr_hi",
    "cube_decisions", "cube_pr", "cube_pr_lo", "cube_pr_hi",
    "doubtful_rate", "bad_rate", "very_bad_rate", "luck_per_game", "luck_adjusted", "wins", "losses",
)
UNKNOWN = "unknown"
ALL = "all"
_CHUNK = 4_000_000  # resampled indices held at once


class StatsError(BgtoolsError, ValueError):
    """Statistics asked for in a way that cannot work (an unknown grouping, a missing column)."""


def _need(frame: pd.DataFrame, cols: tuple[str, ...], what: str) -> None:
    missing = [c for c in cols if c not in frame.columns]
    if missing:
        raise StatsError(f"{what} frame lacks the column(s) {', '.join(missing)}")


def _counted(decisions: pd.DataFrame) -> pd.DataFrame:
    return decisions[decisions["counted"].astype(bool)]


def pr(decisions: pd.DataFrame, kind: Optional[str] = None) -> float:
    """The PR of ``decisions`` (counted rows; ``kind`` "checker" or "cube" for one kind);
    NaN when none counts."""
    d = _counted(decisions)
    if kind is not None:
        d = d[d["kind"] == kind]
    return 500.0 * float(d["equity_loss"].mean()) if len(d) else float("nan")


def _codes(decisions: pd.DataFrame, keys: pd.Index) -> np.ndarray:
    """The position in ``keys`` of each row's match (-1 when not among them)."""
    return keys.get_indexer(decisions["match_key"])


def _per_match(decisions: pd.DataFrame, keys: pd.Index) -> np.ndarray:
    """Per match of ``keys``: [loss, count] for all counted rows, checker rows and cube rows
    (an array of shape (len(keys), 6))."""
    d = _counted(decisions)
    code = _codes(d, keys)
    ok = code >= 0
    code = code[ok]
    loss = d["equity_loss"].to_numpy(float)[ok]
    chk = (d["kind"] == "checker").to_numpy(bool)[ok]
    n = len(keys)
    out = np.empty((n, 6))
    for j, (w, sel) in enumerate(((loss, None), (None, None), (loss, chk), (None, chk), (loss, ~chk),
                                  (None, ~chk))):
        c, v = (code, w) if sel is None else (code[sel], None if w is None else w[sel])
        out[:, j] = np.bincount(c, weights=v, minlength=n)[:n]
    return out


def _replicates(sums: np.ndarray, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Bootstrap replicates of the PRs (shape (resamples, k)) from per-match sums (loss,
    count pairs: shape (matches, 2k)): matches drawn with replacement, ``resamples`` times.
    Each chunk of replicates is a matrix of how often each match is drawn (the row's
    bincount of uniform draws) times the per-match sums."""
    n = len(sums)
    out = np.empty((resamples, sums.shape[1] // 2))
    step = max(1, _CHUNK // max(n, 1))
    for a in range(0, resamples, step):
        b = min(resamples, a + step)
        idx = rng.integers(0, n, size=(b - a, n), dtype=np.int64)
        idx += (np.arange(b - a, dtype=np.int64) * n)[:, None]
        weights = np.bincount(idx.ravel(), minlength=(b - a) * n).reshape(b - a, n).astype(float)
        tot = weights @ sums
        with np.errstate(invalid="ignore", divide="ignore"):
            out[a:b] = 500.0 * tot[:, 0::2] / tot[:, 1::2]
    return out


def _bounds(reps: np.ndarray, confidence: float) -> np.ndarray:
    """(lo, hi) per column of replicates; NaN where no replicate has a value."""
    alpha = (1.0 - confidence) / 2.0
    out = np.full((2, reps.shape[1]), np.nan)
    for j in range(reps.shape[1]):
        col = reps[:, j]
        col = col[np.isfinite(col)]
        if len(col):
            out[:, j] = np.quantile(col, [alpha, 1.0 - alpha])
    return out


def bootstrap_pr(decisions: pd.DataFrame, *, confidence: float = 0.95, resamples: int = 2000,
                 seed: int = 0) -> dict:
    """PR, checker PR, cube PR of ``decisions`` with their intervals (bootstrap over matches):
    keys ``pr``, ``pr_lo``, ``pr_hi``, ``checker_pr``... ``cube_pr_hi``."""
    _check_confidence(confidence, resamples)
    keys = pd.Index(pd.unique(decisions["match_key"]))
    sums = _per_match(decisions, keys)
    return _pr_block(sums, confidence, resamples, np.random.default_rng(seed))


def _pr_block(sums: np.ndarray, confidence: float, resamples: int, rng: np.random.Generator) -> dict:
    tot = sums.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        point = 500.0 * tot[0::2] / tot[1::2]
    if len(sums) >= 2:
        lo, hi = _bounds(_replicates(sums, resamples, rng), confidence)
    else:
        lo = hi = np.full(3, np.nan)
    out = {}
    for j, name in enumerate(("pr", "checker_pr", "cube_pr")):
        out[name], out[name + "_lo"], out[name + "_hi"] = float(point[j]), float(lo[j]), float(hi[j])
    out["decisions"], out["checker_decisions"], out["cube_decisions"] = (int(tot[1]), int(tot[3]), int(tot[5]))
    return out


def _check_confidence(confidence: float, resamples: int) -> None:
    if not 0.0 < confidence < 1.0:
        raise StatsError(f"confidence must be between 0 and 1, not {confidence}")
    if resamples < 10:
        raise StatsError(f"resamples must be at least 10, not {resamples}")


def _select(decisions: pd.DataFrame, me: Optional[bool]) -> pd.DataFrame:
    if me is None:
        return decisions
    _need(decisions, ("me",), "decisions")
    mine = decisions["me"].fillna(False).astype(bool)
    if me:
        return decisions[mine]
    # the opponents of the user: the other side of matches where the user plays
    his = pd.unique(decisions.loc[mine.to_numpy(bool), "match_key"])
    return decisions[~mine & decisions["match_key"].isin(his)]


def _group_keys(matches: pd.DataFrame, by: Optional[str]) -> pd.Series:
    """The group of each match (indexed by match_key)."""
    idx = matches["match_key"]
    if by is None:
        return pd.Series(ALL, index=idx)
    if by in ("month", "year"):
        date = pd.to_datetime(matches["date"], errors="coerce")
        text = date.dt.strftime("%Y-%m" if by == "month" else "%Y")
        return pd.Series(text.fillna(UNKNOWN).to_numpy(), index=idx)
    if by == "length":
        n = pd.to_numeric(matches["length"], errors="coerce")
        text = [UNKNOWN if pd.isna(v) else ("money" if int(v) == 0 else f"{int(v)}pt") for v in n]
        return pd.Series(text, index=idx)
    col = matches[by].fillna("").astype(str).str.strip()
    return pd.Series(col.where(col != "", UNKNOWN).to_numpy(), index=idx)


def _sort_groups(groups: list[str], by: Optional[str]) -> list[str]:
    def key(g: str):
        if g == UNKNOWN:
            return (1, 0, "")
        if by == "length":
            return (0, int(g[:-2]) if g.endswith("pt") else 0, g)
        return (0, 0, g)
    return sorted(groups, key=key)


def _results(matches: pd.DataFrame, me: Optional[bool]) -> pd.DataFrame:
    """Per match: wins, losses (1/0, NaN when not oriented), net points for the chosen side."""
    n = len(matches)
    if me is None or "me_side" not in matches.columns:
        return pd.DataFrame({"win": np.full(n, np.nan), "loss": np.full(n, np.nan),
                             "net": np.full(n, np.nan)}, index=matches["match_key"])
    side = pd.to_numeric(matches["me_side"], errors="coerce").to_numpy(float)
    if not me:
        side = 1.0 - side
    winner = pd.to_numeric(matches["winner"], errors="coerce").to_numpy(float)
    s0 = pd.to_numeric(matches["score0"], errors="coerce").to_numpy(float)
    s1 = pd.to_numeric(matches["score1"], errors="coerce").to_numpy(float)
    known = ~np.isnan(side)
    win = np.where(known & ~np.isnan(winner), (winner == side).astype(float), np.nan)
    loss = np.where(known & ~np.isnan(winner), (winner == 1.0 - side).astype(float), np.nan)
    net = np.where(known, np.where(side == 0.0, s0 - s1, s1 - s0), np.nan)
    return pd.DataFrame({"win": win, "loss": loss, "net": net}, index=matches["match_key"])


def stats_table(decisions: pd.DataFrame, matches: pd.DataFrame, *, by: Optional[str] = None,
                me: Optional[bool] = None, confidence: float = 0.95, resamples: int = 2000,
                seed: int = 0) -> pd.DataFrame:
    """One row per group (``by``: None, "month", "year", "event", "opponent", "length", "site";
    matches with no value are grouped as "unknown"), then a row "all" when ``by`` is set.

    ``me``: None = every decision of both players; True = the user's decisions (``me``
    rows); False = his opponents' (the other side of matches where the user plays).
    Only matches with a decision of the chosen side count.

    Columns: ``group``; ``matches``, ``games`` (their games), ``decisions`` (counted ones);
    ``pr``, ``pr_lo``, ``pr_hi`` (PR and its interval, bootstrap over matches, see the module
    docstring), the same for ``checker_`` and ``cube_`` (with ``checker_decisions``,
    ``cube_decisions``); ``doubtful_rate``, ``bad_rate``, ``very_bad_rate`` (share of counted
    decisions in each error class); ``luck_per_game`` (sum of the side's luck, normalised
    equity, per game); ``luck_adjusted`` (net points won per game minus the luck per game:
    the result the play earned, in points at cube 1; NaN unless ``me`` is set); ``wins``,
    ``losses`` (finished matches won and lost by the chosen side; <NA> unless ``me`` is set).
    """
    if by not in BY:
        raise StatsError(f"unknown grouping {by!r}: expected one of {', '.join(str(b) for b in BY)}")
    _check_confidence(confidence, resamples)
    _need(decisions, ("match_key", "kind", "counted", "equity_loss", "error", "luck"), "decisions")
    grouping: tuple[str, ...] = () if by is None else ("date",) if by in ("month", "year") else (by,)
    _need(matches, ("match_key", "games", "winner", "score0", "score1") + grouping, "matches")
    dec = _select(decisions, me)
    keys = pd.Index(pd.unique(dec["match_key"]))
    mt = matches.drop_duplicates("match_key").set_index("match_key", drop=False).reindex(keys)
    mt["match_key"] = keys
    group = _group_keys(mt, by)
    sums = _per_match(dec, keys)
    counted = _counted(dec)
    n = len(keys)
    code = _codes(counted, keys)
    err = np.stack([np.bincount(code[(counted["error"] == c).to_numpy(bool)], minlength=n)
                    for c in ("doubtful", "bad", "very bad")], axis=1).astype(float)
    lk = dec["luck"].to_numpy(float)
    has = np.isfinite(lk)
    lcode = _codes(dec, keys)[has]
    luck = np.bincount(lcode, weights=lk[has], minlength=n).astype(float)
    luck[np.bincount(lcode, minlength=n) == 0] = np.nan
    games = pd.to_numeric(mt["games"], errors="coerce").fillna(0).to_numpy(float)
    res = _results(mt.reset_index(drop=True), me)
    rng = np.random.default_rng(seed)
    labels = group.to_numpy()
    rows = []
    names = [ALL] if by is None else _sort_groups(list(pd.unique(labels)), by) + [ALL]
    for name in names:
        sel = np.ones(len(keys), bool) if name == ALL else labels == name
        rows.append(_row(name, sel, sums, err, luck, games, res, confidence, resamples, rng))
    out = pd.DataFrame(rows, columns=list(STATS_COLUMNS))
    for c in ("wins", "losses"):
        out[c] = out[c].astype("Int64")
    return out


def _row(name: str, sel: np.ndarray, sums: np.ndarray, err: np.ndarray, luck: np.ndarray, games: np.ndarray,
         res: pd.DataFrame, confidence: float, resamples: int, rng: np.random.Generator) -> dict:
    block = _pr_block(sums[sel], confidence, resamples, rng)
    n = max(block["decisions"], 1)
    ngames = float(games[sel].sum())
    lk = luck[sel]
    luck_pg = float(np.nansum(lk) / ngames) if ngames and np.isfinite(lk).any() else float("nan")
    net = res["net"].to_numpy()[sel]
    net_pg = float(np.nansum(net) / ngames) if ngames and np.isfinite(net).any() else float("nan")
    wins, losses = res["win"].to_numpy()[sel], res["loss"].to_numpy()[sel]
    e = err[sel].sum(axis=0) / n if block["decisions"] else np.full(3, np.nan)
    return {"group": name, "matches": int(sel.sum()), "games": int(ngames), **block,
            "doubtful_rate": float(e[0]), "bad_rate": float(e[1]), "very_bad_rate": float(e[2]),
            "luck_per_game": luck_pg, "luck_adjusted": net_pg - luck_pg,
            "wins": int(np.nansum(wins)) if np.isfinite(wins).any() else None,
            "losses": int(np.nansum(losses)) if np.isfinite(losses).any() else None}


@dataclass(frozen=True)
class Comparison:
    """PR(A) - PR(B) with its interval and a permutation p-value (see the module docstring)."""

    pr_a: float
    pr_b: float
    difference: float
    lo: float
    hi: float
    p_value: float
    matches_a: int
    matches_b: int
    decisions_a: int
    decisions_b: int
    confidence: float

    def to_dict(self) -> dict:
        return asdict(self)

    def __str__(self) -> str:
        pct = round(100 * self.confidence)
        return (f"PR A {self.pr_a:.2f} ({self.matches_a} matches, {self.decisions_a} decisions), "
                f"PR B {self.pr_b:.2f} ({self.matches_b} matches, {self.decisions_b} decisions): "
                f"A - B = {self.difference:+.2f}, {pct} % interval [{self.lo:+.2f}, {self.hi:+.2f}], "
                f"p = {self.p_value:.3g}")


def compare(decisions_a: pd.DataFrame, decisions_b: pd.DataFrame, *, confidence: float = 0.95,
            resamples: int = 2000, seed: int = 0) -> Comparison:
    """PR(A) - PR(B) (counted decisions of both kinds), its bootstrap interval and a two-sided
    permutation p-value (matches dealt again between A and B)."""
    _check_confidence(confidence, resamples)
    for d, what in ((decisions_a, "A"), (decisions_b, "B")):
        _need(d, ("match_key", "kind", "counted", "equity_loss"), f"decisions {what}")
    sa = _per_match(decisions_a, pd.Index(pd.unique(decisions_a["match_key"])))[:, :2]
    sb = _per_match(decisions_b, pd.Index(pd.unique(decisions_b["match_key"])))[:, :2]
    sa, sb = sa[sa[:, 1] > 0], sb[sb[:, 1] > 0]
    if not len(sa) or not len(sb):
        raise StatsError("nothing to compare: a side has no counted decision")
    rng = np.random.default_rng(seed)
    pa, pb = 500.0 * sa[:, 0].sum() / sa[:, 1].sum(), 500.0 * sb[:, 0].sum() / sb[:, 1].sum()
    diff = pa - pb
    ra = _replicates(sa, resamples, rng)[:, 0]
    rb = _replicates(sb, resamples, rng)[:, 0]
    lo, hi = np.quantile(ra - rb, [(1 - confidence) / 2, 1 - (1 - confidence) / 2])
    p = _permutation_p(sa, sb, diff, resamples, rng)
    return Comparison(float(pa), float(pb), float(diff), float(lo), float(hi), p, len(sa), len(sb),
                      int(sa[:, 1].sum()), int(sb[:, 1].sum()), confidence)


def _permutation_p(sa: np.ndarray, sb: np.ndarray, observed: float, resamples: int,
                   rng: np.random.Generator) -> float:
    pooled = np.vstack([sa, sb])
    n, na = len(pooled), len(sa)
    total = pooled.sum(axis=0)
    extreme = 0
    step = max(1, _CHUNK // n)
    for a in range(0, resamples, step):
        b = min(resamples, a + step)
        order = rng.random((b - a, n)).argsort(axis=1)[:, :na]  # a random set of na matches for A
        ta = pooled[order].sum(axis=1)
        tb = total - ta
        with np.errstate(invalid="ignore", divide="ignore"):
            d = 500.0 * ta[:, 0] / ta[:, 1] - 500.0 * tb[:, 0] / tb[:, 1]
        extreme += int(np.sum(np.abs(d) >= abs(observed) - 1e-12))
    return (extreme + 1) / (resamples + 1)


def rolling_pr(decisions: pd.DataFrame, window: int, *, confidence: float = 0.95) -> pd.DataFrame:
    """PR over the last ``window`` counted decisions, after each one, in playing order (date,
    match, game, move).  Columns: ``n`` (1-based count), ``date``, ``match_key``,
    ``decisions`` (in the window), ``pr``, and ``pr_lo``/``pr_hi``: a normal-approximation
    band (mean +- z x sd / sqrt(window)), which treats the decisions of the window as
    independent and so is narrower than the bootstrap over matches of :func:`stats_table`."""
    if window < 1:
        raise StatsError(f"window must be at least 1, not {window}")
    _need(decisions, ("match_key", "counted", "equity_loss"), "decisions")
    d = _counted(decisions)
    order = [c for c in ("date", "match_key", "game", "move_number", "action_index") if c in d.columns]
    d = d.sort_values(order, kind="stable", na_position="first") if order else d
    loss = pd.Series(d["equity_loss"].to_numpy(float))
    roll = loss.rolling(window, min_periods=1)
    mean, sd, cnt = roll.mean(), roll.std(ddof=1).fillna(0.0), roll.count()
    _check_confidence(confidence, 10)
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    half = z * sd / np.sqrt(cnt)
    dates = d["date"].to_numpy() if "date" in d.columns else np.full(len(d), np.datetime64("NaT"))
    return pd.DataFrame({"n": np.arange(1, len(d) + 1), "date": dates, "match_key": d["match_key"].to_numpy(),
                         "decisions": cnt.to_numpy(int), "pr": 500.0 * mean.to_numpy(),
                         "pr_lo": 500.0 * (mean - half).clip(lower=0.0).to_numpy(),
                         "pr_hi": 500.0 * (mean + half).to_numpy()})


def _interval_text(v: float, lo: float, hi: float) -> str:
    if not np.isfinite(v):
        return "-"
    return f"{v:.2f}" + (f" [{lo:.2f}, {hi:.2f}]" if np.isfinite(lo) and np.isfinite(hi) else "")


def format_table(table: pd.DataFrame) -> str:
    """A :func:`stats_table` as aligned text, one line per group: PR with its interval,
    checker and cube PR, the share of bad and very bad decisions, luck per game, the
    luck-adjusted result and wins-losses where the table has them."""
    head = ["group", "matches", "decisions", "PR [95 %]", "checker PR", "cube PR", "bad+ %", "luck/game",
            "luck-adj", "W-L"]
    lines = [head]
    for r in table.to_dict("records"):
        bad = r["bad_rate"] + r["very_bad_rate"]
        wl = "" if pd.isna(r["wins"]) else f"{r['wins']}-{r['losses']}"
        lines.append([str(r["group"]), str(r["matches"]), str(r["decisions"]),
                      _interval_text(r["pr"], r["pr_lo"], r["pr_hi"]),
                      _interval_text(r["checker_pr"], r["checker_pr_lo"], r["checker_pr_hi"]),
                      _interval_text(r["cube_pr"], r["cube_pr_lo"], r["cube_pr_hi"]),
                      "-" if not np.isfinite(bad) else f"{100 * bad:.1f}",
                      "-" if not np.isfinite(r["luck_per_game"]) else f"{r['luck_per_game']:+.3f}",
                      "-" if not np.isfinite(r["luck_adjusted"]) else f"{r['luck_adjusted']:+.3f}", wl])
    widths = [max(len(row[i]) for row in lines) for i in range(len(head))]
    return "\n".join("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
                     .rstrip() for row in lines) + "\n"
