"""The self-judge: how much the 0-ply net's picks lose against our own deeper search.

The judge sets (``benchmarks/judge.py``) use gnubg's 2-ply values as the referee; this one
uses ours, so it needs neither gnubg nor its files, and can be run on positions no net has
trained on.  The rolls are held out: positions come from self-play of the judged net with a
seed no training set uses (:data:`HELD_OUT_SEED`), one seeded roll each.  For each roll
every legal play is valued at 0 ply; the ``keep`` best within ``threshold`` of the best are
valued again at the referee's ply (2 by default); the loss of a pick is
``max referee equity - referee equity of the pick`` over those candidates, in millipoints
(the 0-ply pick is always among them).  The 1-ply pick among the same candidates is judged
too (the lookahead the analysis uses).  Figures are per category, as the judge sets have them:
``on_bar`` (the player on roll has a checker on the bar), else the position's class
(``contact``, ``crashed``, ``race``, ``bearoff``).

Only our own nets and bear-off databases are used: nothing here is a training target.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

import numpy as np

from bgtools.core.movegen import legal_plays
from bgtools.core.position import Position
from bgtools.engine.evaluation import MoveFilter, equity, evaluate_plays
from bgtools.engine.nets.nn import NeuralEvaluator, Weights
from bgtools.engine.nets.prune import Pruning
from bgtools.training.selfplay import selfplay_games

__all__ = ["CATEGORIES", "HELD_OUT_SEED", "SelfJudgeRolls", "held_out_rolls", "category", "self_judge",
           "summarize", "paired_summary"]

CATEGORIES = ("contact", "crashed", "race", "bearoff", "on_bar")
#: the self-play seed of the held-out positions (the training runs used 1-11; see docs/training.md)
HELD_OUT_SEED = 3701


def category(board: np.ndarray) -> str:
    """The judge category of an int8[2, 25] board (``[1]`` on roll, before his roll)."""
    if board[1, 24] > 0:
        return "on_bar"
    return Position.from_array(board).classify().name.lower()


@dataclass(frozen=True)
class SelfJudgeRolls:
    """Held-out rolls: positions before the roll (int8[n, 2, 25]) and their dice (int64[n, 2])."""

    boards: np.ndarray
    dice: np.ndarray

    def categories(self) -> list[str]:
        return [category(b) for b in self.boards]


def held_out_rolls(weights: Weights, n: int, seed: int = HELD_OUT_SEED, games_per_batch: int = 50,
                   categories: tuple[str, ...] = (), per_game: int = 2) -> SelfJudgeRolls:
    """``n`` positions of ``weights``' own greedy self-play (seed ``seed``), each with a seeded roll
    that has two or more legal plays, at most ``per_game`` from one game (positions of one game
    are alike: more games make the standard errors honest); the same arguments give the same
    rolls.  ``categories``: only positions of these (:data:`CATEGORIES`; empty: all)."""
    bad = [c for c in categories if c not in CATEGORIES]
    if bad:
        raise ValueError(f"unknown category {bad[0]!r}: choose from {', '.join(CATEGORIES)}")
    rng = np.random.default_rng([seed, 37])
    boards: list[np.ndarray] = []
    dice: list[tuple[int, int]] = []
    first = 0
    while len(boards) < n:
        d = selfplay_games(weights, first, games_per_batch, seed, explore=0.0)
        first += games_per_batch
        pos = d["boards"]
        taken = np.zeros(games_per_batch, np.int64)
        for i in rng.permutation(pos.shape[0]):
            g = int(d["game"][i]) - (first - games_per_batch)
            if taken[g] >= per_game or (categories and category(pos[i]) not in categories):
                continue
            r = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
            if len(legal_plays(Position.from_array(pos[i]), r)) < 2:
                continue
            boards.append(pos[i].copy())
            dice.append(r)
            taken[g] += 1
            if len(boards) == n:
                break
    return SelfJudgeRolls(np.stack(boards).astype(np.int8), np.array(dice, np.int64))


def summarize(losses: np.ndarray, cats: list[str]) -> dict[str, dict[str, float]]:
    """Per category and ``all``: ``n``, ``mean`` and its standard error ``se``."""
    arr = np.array(cats)
    out = {}
    for c in (*CATEGORIES, "all"):
        v = losses if c == "all" else losses[arr == c]
        out[c] = {"n": int(v.size), "mean": float(v.mean()) if v.size else float("nan"),
                  "se": float(v.std(ddof=1) / math.sqrt(v.size)) if v.size > 1 else float("nan")}
    return out


def self_judge(weights: Weights, rolls: SelfJudgeRolls, referee: Optional[Weights] = None, ply: int = 2,
               keep: int = 8, threshold: float = 0.16, prune: Optional[Pruning] = None, batch: int = 256) -> dict:
    """Judge ``weights``' 0- and 1-ply picks on ``rolls`` against ``referee``'s ``ply`` search
    (default: the same net), among the ``keep`` best plays by 0 ply within ``threshold``.

    Returns ``loss0`` and ``loss1`` (float64[n] millipoints), ``categories``, the summaries
    ``ply0`` and ``ply1``, ``mae0`` (mean |0-ply - referee equity| over the candidates, per
    category) and ``candidates`` (total plays valued by the referee).  ``prune``: the referee
    searches with that pruning net (None: every reply valued)."""
    ev = NeuralEvaluator(weights)
    ref = NeuralEvaluator(referee if referee is not None else weights, prune=prune)
    after: list[np.ndarray] = []
    offs = [0]
    for b, d in zip(rolls.boards, rolls.dice):
        plays = legal_plays(Position.from_array(b), (int(d[0]), int(d[1])))
        after.extend(p.after.to_array() for p in plays)
        offs.append(len(after))
    boards = np.stack(after)
    rolls_of = np.repeat(np.arange(len(offs) - 1), np.diff(offs))  # the plays of each roll together
    eq0 = np.asarray(equity(evaluate_plays(boards, 0, ev, rolls_of)))
    cand: list[np.ndarray] = []
    for i in range(len(offs) - 1):
        e = eq0[offs[i]:offs[i + 1]]
        cand.append(offs[i] + MoveFilter(keep, threshold).select(e))
    idx = np.concatenate(cand)
    eq_ref = np.full(eq0.shape, np.nan)
    eq1 = np.full(eq0.shape, -np.inf)
    for lo in range(0, idx.size, batch):  # batches: a 2-ply search of many boards at once holds GBs
        part = idx[lo:lo + batch]
        eq_ref[part] = equity(evaluate_plays(boards[part], ply, ref))
        eq1[part] = equity(evaluate_plays(boards[part], 1, ev))
    loss0 = np.empty(len(cand))
    loss1 = np.empty(len(cand))
    err = np.empty(len(cand))
    for i, c in enumerate(cand):
        best = eq_ref[c].max()
        loss0[i] = 1000.0 * (best - eq_ref[c[0]])  # c[0]: the 0-ply pick (first of equals)
        loss1[i] = 1000.0 * (best - eq_ref[c[int(np.argmax(eq1[c]))]])
        err[i] = float(np.abs(eq0[c] - eq_ref[c]).mean())
    cats = rolls.categories()
    return {"loss0": loss0, "loss1": loss1, "categories": cats, "ply0": summarize(loss0, cats),
            "ply1": summarize(loss1, cats), "mae0": summarize(err, cats), "candidates": int(idx.size)}


def paired_summary(a: np.ndarray, b: np.ndarray, cats: list[str]) -> dict[str, dict[str, float]]:
    """Per category: mean of ``a - b`` (losses of two nets on the same rolls) with its standard error."""
    return summarize(np.asarray(a) - np.asarray(b), cats)
