"""An analysed match as gnubg SGF: the analysis written as gnubg's own node properties."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from bgtools.analysis.records import Decision, MatchAnalysis
from bgtools.engine.evaluation import equity
from bgtools.formats.sgf import point_letter

__all__ = ["annotated_match", "SGF_ANALYSIS_KEYS"]


#: node properties that carry gnubg analysis; replaced when a match is annotated
SGF_ANALYSIS_KEYS = ("A", "DA", "LU", "MR", "BM", "DO", "IT", "TE", "BC", "DC", "GB", "GW", "GS")


def _sgf_eval(probs, value: float, ply: int) -> str:
    return " ".join(f"{x:.6f}" for x in probs) + f" {value:.6f}"


def annotated_match(match, analysis: MatchAnalysis):
    """A copy of ``match`` whose per-action SGF notes carry the analysis as gnubg's properties
    (``A`` candidate plays, ``DA`` cube decision, ``LU`` luck, ``BM``/``DO`` skill marks,
    ``BC``/``DC`` on a roll whose cube action before it was wrong, ``GW``/``GB`` luck marks);
    write it with :func:`bgtools.formats.sgf.format_sgf`."""
    by_game: dict[int, list[Decision]] = {}
    for d in analysis.decisions:
        by_game.setdefault(d.game, []).append(d)
    games = []
    for gi, g in enumerate(match.games):
        if len(g.notes) == len(g.actions):
            notes = [{k: v for k, v in n.items() if k not in SGF_ANALYSIS_KEYS} for n in g.notes]
        else:
            notes = [{} for _ in g.actions]
        for d in by_game.get(gi + 1, []):
            n = notes[d.action_index]
            mark = {"very bad": ("BM", "2"), "bad": ("BM", "1"), "doubtful": ("DO", "")}.get(d.error_class)
            if d.kind == "checker":
                if d.candidates:
                    vals = [str(d.played_index)]
                    for c in d.candidates:
                        letters = "".join(point_letter(a, d.player) + point_letter(b, d.player) for a, b in c.steps)
                        vals.append(f"{letters} E ver 3 {_sgf_eval(c.probs, c.equity, c.ply)} {c.ply}C 0 1 0.000000 1")
                    n["A"] = vals
                    if mark:
                        n[mark[0]] = [mark[1]]
                if d.luck is not None:
                    n["LU"] = [f"{d.luck:.5f}"]
                    lc = d.luck_class
                    if lc != "none":
                        lucky_side = d.player if lc in ("lucky", "very lucky") else 1 - d.player
                        n["GW" if lucky_side == 0 else "GB"] = ["2" if lc.startswith("very") else "1"]
            elif d.cube is not None:
                cu = d.cube
                p = cu.probs
                ce = float(equity(np.array(p)))
                nd, dt = (cu.mwc[0], cu.mwc[1]) if cu.mwc is not None else (cu.nd, cu.dt)
                n["DA"] = [f"E ver 3 {cu.ply}C 1 0.000000 1 {_sgf_eval(p, ce, cu.ply)} {nd:.6f} "
                           f"{_sgf_eval(p, ce, cu.ply)} {dt:.6f}"]
                if mark:
                    if d.played == "no double":
                        n["BC" if mark[0] == "BM" else "DC"] = [mark[1]]
                    else:
                        n[mark[0]] = [mark[1]]
        games.append(replace(g, notes=tuple(notes)))
    return replace(match, games=tuple(games))

