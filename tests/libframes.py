"""Synthetic library frames with the columns of ``Library.matches()`` and
``Library.decisions()`` exactly (docs/library.md, the contract between the library modules),
for the tests of bgtools.library's statistics, catalogue, quiz and plot."""

from __future__ import annotations

import numpy as np
import pandas as pd

from bgtools.analysis.records import ERROR_THRESHOLDS

MATCH_COLUMNS = ("match_key", "player0", "player1", "length", "date", "time", "event", "round", "place", "site",
                 "rating0", "rating1", "winner", "score0", "score1", "games", "paths", "me_side", "opponent")
DECISION_COLUMNS = ("match_key", "file", "game", "move_number", "action_index", "side", "player", "me", "kind",
                    "phase", "forced", "counted", "dice", "position_id", "match_id", "played", "best",
                    "equity_loss", "mwc_loss", "error", "luck", "cube_nd", "cube_dt", "cube_dp", "cube_action",
                    "cube_response", "ply", "tags", "date")


def synthetic(n_matches: int, rng: np.random.Generator, *, per_match: float = 100.0, p_error: float = 0.3,
              skill: float = 0.02, spread: float = 0.5, start: str = "2024-01-01",
              days: int = 730) -> tuple[pd.DataFrame, pd.DataFrame, float]:
    """(matches, decisions, true PR) of ``n_matches`` 7-point matches between "Me" (side 0) and
    opponents.  Each match has a Poisson(per_match) number of decisions of the user and of his
    opponent (at least 1), a tenth of them cube decisions; a decision is an error with
    probability ``p_error`` and then loses Exp(mean = the match's skill), the match's skill being
    ``skill`` x Gamma(shape 1/spread^2, scale spread^2) (mean ``skill``): the decisions of one
    match are correlated, as in real play.  True PR of either side = 500 x p_error x skill."""
    keys = [f"{i:040x}" for i in range(1, n_matches + 1)]
    dates = pd.Timestamp(start) + pd.to_timedelta(np.sort(rng.integers(0, days, n_matches)), unit="D")
    winner = rng.integers(0, 2, n_matches)
    score_w = np.full(n_matches, 7)
    score_l = rng.integers(0, 7, n_matches)
    games = rng.integers(3, 12, n_matches)
    opponents = np.array(["Ann", "Bob", "Cy"])[rng.integers(0, 3, n_matches)]
    matches = pd.DataFrame({
        "match_key": keys, "player0": "Me", "player1": opponents, "length": 7,
        "date": pd.to_datetime(dates).astype("datetime64[ns]"), "time": "", "event": np.where(np.arange(n_matches) % 2, "Club", "Open"),
        "round": "", "place": "", "site": np.where(np.arange(n_matches) % 3, "Galaxy", ""),
        "rating0": "", "rating1": "", "winner": pd.array(winner, dtype="Int64"),
        "score0": np.where(winner == 0, score_w, score_l), "score1": np.where(winner == 1, score_w, score_l),
        "games": games, "paths": [f"/m/{k[-6:]}.mat" for k in keys], "me_side": pd.array([0] * n_matches, "Int64"),
        "opponent": opponents})
    shape = 1.0 / spread ** 2
    counts = np.maximum(1, rng.poisson(per_match, (n_matches, 2)))  # decisions per match and side
    mu = skill * rng.gamma(shape, 1.0 / shape, (n_matches, 2))
    m_idx = np.repeat(np.arange(n_matches), counts.sum(axis=1))
    side = np.concatenate([np.repeat([0, 1], c) for c in counts])
    j = np.concatenate([np.arange(c) for c in counts.ravel()])
    n = len(m_idx)
    loss = np.where(rng.random(n) < p_error, rng.exponential(1.0, n) * mu[m_idx, side], 0.0)
    kind = np.where(rng.random(n) < 0.1, "cube", "checker")
    is_cube = kind == "cube"
    luck = np.where(is_cube, np.nan, rng.normal(0, 0.1, n))
    k = np.asarray(keys)[m_idx]
    ng = games[m_idx]
    decisions = pd.DataFrame({
        "match_key": k, "file": np.asarray(matches["paths"])[m_idx], "game": j % ng + 1,
        "move_number": j // 2 + 1, "action_index": j, "side": side,
        "player": np.where(side == 0, "Me", "Opp"), "me": side == 0, "kind": kind,
        "phase": np.where(np.arange(n) % 5 == 0, "race", "contact"), "forced": False, "counted": True,
        "dice": np.where(is_cube, "", "31"), "position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA",
        "played": np.where(is_cube, "no double", "8/5 6/5"), "best": np.where(is_cube, "no double", "8/5 6/5"),
        "equity_loss": loss, "mwc_loss": loss / 2, "error": _classes(loss),
        "luck": luck, "cube_nd": np.where(is_cube, 0.5, np.nan), "cube_dt": np.where(is_cube, 0.6, np.nan),
        "cube_dp": np.where(is_cube, 1.0, np.nan), "cube_action": np.where(is_cube, "no double", ""),
        "cube_response": np.where(is_cube, "take", ""), "ply": 0,
        "tags": np.where(np.arange(n) % 7 == 0, "on_roll:backgame,hit", "on_roll:holding"),
        "date": pd.to_datetime(np.asarray(matches["date"])[m_idx]).astype("datetime64[ns]")})
    return matches, decisions, 500.0 * p_error * skill


def _classes(loss: np.ndarray) -> np.ndarray:
    """error_class of each loss, vectorised."""
    return np.select([loss > limit for _, limit in ERROR_THRESHOLDS], [name for name, _ in ERROR_THRESHOLDS],
                     "none")


# real positions of gnu-gibbon/7point.mat (Position and Match IDs of its plays and doubles)
DOUBLE_POS = ("4HPiAVBsVvABIQ", "cAngAAAAAAAE")  # game 1, action 6 of 7point.mat: a double
ROLLS = [("4HPwATDgc/ABMA", "cAnqAAAAAAAE", "42", "8/4 6/4", "24/22 24/20"),
         ("mGfwATDgc/ABMA", "MIHpAAAAAAAE", "32", "24/22 13/10", "13/11 13/10"),
         ("4HPiASSYZ/ABMA", "cAnuAAAAAAAE", "43", "24/20 6/3*", "24/21 24/20")]


def catalogue_frame() -> pd.DataFrame:
    """Seven decisions: three checker errors, one repeated in another file; a missed double, a
    wrong take; a small error and a correct play."""
    rows = []

    def add(**kw):
        base = {c: None for c in DECISION_COLUMNS}
        base.update(match_key="k1", file="a.mat", game=1, move_number=1, action_index=0, side=0, player="Me",
                    me=True, phase="contact", forced=False, counted=True, dice="", mwc_loss=np.nan,
                    luck=np.nan, cube_nd=np.nan, cube_dt=np.nan, cube_dp=np.nan, cube_action="",
                    cube_response="", ply=0, tags="", date=pd.Timestamp("2025-01-02"))
        base.update(kw)
        base["error"] = ("very bad" if base["equity_loss"] > 0.12 else "bad" if base["equity_loss"] > 0.06
                         else "doubtful" if base["equity_loss"] > 0.03 else "none")
        rows.append(base)

    for i, (pid, mid, dice, played, best) in enumerate(ROLLS):
        add(kind="checker", position_id=pid, match_id=mid, dice=dice, played=played, best=best,
            equity_loss=(0.10, 0.15, 0.20)[i], game=1, move_number=i + 1, action_index=i,
            tags="on_roll:holding,hit" if i == 2 else "opponent:priming", phase="race" if i == 1 else "contact")
    pid, mid, dice, played, best = ROLLS[0]
    add(kind="checker", position_id=pid, match_id=mid, dice=dice, played=played, best=best, equity_loss=0.09,
        file="b.xg", match_key="k2", game=3, move_number=1)  # the same position in another match
    add(kind="cube", position_id=DOUBLE_POS[0], match_id=DOUBLE_POS[1], played="no double", best="double",
        equity_loss=0.3, cube_nd=0.5, cube_dt=0.8, cube_dp=1.0, cube_action="double", cube_response="take",
        game=1, move_number=4, tags="on_roll:blitz")
    add(kind="cube", position_id=DOUBLE_POS[0], match_id="cBHgAAAAAAAE", played="take", best="pass",
        equity_loss=0.11, cube_nd=0.6, cube_dt=1.3, cube_dp=1.0, cube_action="double", cube_response="pass",
        game=1, move_number=4, action_index=7, side=1, player="Opp", me=False)
    add(kind="checker", position_id=ROLLS[1][0], match_id=ROLLS[1][1], dice="32", played=ROLLS[1][3],
        best=ROLLS[1][3], equity_loss=0.0, game=2)
    add(kind="checker", position_id=ROLLS[2][0], match_id=ROLLS[2][1], dice="43", played=ROLLS[2][3],
        best=ROLLS[2][4], equity_loss=0.05, game=2)
    return pd.DataFrame(rows, columns=list(DECISION_COLUMNS))
