"""Issue 35: the late-game checker plays (race, crashed) settled by full rollouts of their close candidates: what it
gains against XG's analysis and what it costs, per setting (docs/analysis.md, "Late-game plays settled by rollouts").

Analyses every shared ``.xg`` file at 2 ply once without it (``endgame_trials=0``, kept in a pickle), then re-values
the race and crashed plays that XG analysed (of any length) with each setting given, by the analysis' own
``EndgameRollouts.settle`` (bgtools.analysis.endgame) on the screen's candidates (the 2-ply analysis also skips the 1-ply filter in these positions;
this study does not), and prints, per class: plays, same best play as XG, advice PR by XG (500 x the mean XG cost over
the class) and the CPU seconds of the rollouts (cubeful, variance reduction); ``UNTIL_SE`` and ``SIGMA`` are the
stopping rule (empty: none).  From the repository root:

    python runs/eg19/study.py /tmp/eg19.pkl TRIALS:MARGIN:CANDIDATES[:UNTIL_SE:SIGMA] ...

(``runs/eg19/study.txt``: the first figures, made with an earlier form of the same re-valuation.)
"""
from __future__ import annotations

import os
import pickle
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from xg_agreement import _after, default_files, xg_plays  # noqa: E402

from bgtools.analysis import AnalysisSettings, analyse_match  # noqa: E402
from bgtools.core.position import PositionClass  # noqa: E402
from bgtools.formats import read_match  # noqa: E402


def screen(cache: str):
    if os.path.exists(cache):
        return pickle.load(open(cache, "rb"))
    out = []
    for f in default_files():
        m = read_match(str(f))
        a = analyse_match(m, settings=AnalysisSettings(ply=2, endgame_trials=0), cache=None, label=str(f))
        rows = []
        for d, pos, an, xg, eqs in xg_plays(m, a):
            cls = pos.classify()
            rows.append((d, cls, xg, eqs))
        out.append((str(f), rows))
    pickle.dump(out, open(cache, "wb"))
    return out


def cost(d, pos, xg, eqs):
    ours = _after(pos, d.candidates[0].steps)
    k = next((i for i, b in enumerate(xg) if b is not None and b == ours), None)
    return (k == 0), (None if k is None else max(0.0, eqs[0] - eqs[k]))


def settle_screen(rows, trials: int, margin: float, count: int, until_se, sigma) -> tuple[list, float]:
    """The decisions of ``rows`` with their close candidates rolled out as the analysis does; the CPU seconds."""

    from bgtools.analysis import endgame
    from bgtools.analysis.analyse import _Analyser, _cube_of
    from bgtools.core.movegen import legal_plays

    endgame.ENDGAME_MARGIN, endgame.ENDGAME_CANDIDATES = margin, count
    endgame.ENDGAME_UNTIL_SE, endgame.ENDGAME_SIGMA = until_se, sigma
    an = _Analyser(None, AnalysisSettings(ply=2, endgame_trials=trials), None)
    out, secs = [], 0.0
    for d, cls, _, _ in rows:
        if cls not in (PositionClass.RACE, PositionClass.CRASHED) or len(d.candidates) < 2:
            out.append(d)
            continue
        best = d.candidates[0].equity
        pick = [i for i, c in enumerate(d.candidates[:count]) if c.equity >= best - margin]
        if len(pick) < 2:
            out.append(d)
            continue
        if d.played_index is not None and d.played_index not in pick:
            pick.append(d.played_index)
        dice = (int(d.dice[0]), int(d.dice[1]))
        plays = {p.notation(): p for p in legal_plays(d.position, dice)}
        t = time.process_time()
        got = an.endgame.settle(d.position, dice, [plays[d.candidates[i].move] for i in pick], _cube_of(d.state, True))
        secs += time.process_time() - t
        new = list(d.candidates)
        for k, i in enumerate(pick):
            new[i] = replace(new[i], equity=float(got[k, 0]), trials=int(got[k, 4]))
        order = sorted(range(len(new)), key=lambda i: (-new[i].trials, -new[i].equity))
        out.append(replace(d, candidates=tuple(new[i] for i in order)))
    return out, secs


def main() -> None:
    from bgtools.core.position import Position

    data = screen(sys.argv[1])
    n_all = sum(len(r) for _, r in data)
    for v in ["screen"] + sys.argv[2:]:
        tot: dict = {}
        secs = 0.0
        for f, rows in data:
            ds = [r[0] for r in rows]
            if v != "screen":
                trials, margin, cands, use, sig = (v.split(":") + ["", ""])[:5]
                ds, t = settle_screen(rows, int(trials), float(margin), int(cands),
                                      float(use) if use else None, float(sig) if sig else None)
                secs += t
            for d, (_, cls, xg, eqs) in zip(ds, rows):
                same, c = cost(d, Position.from_id(d.position_id), xg, eqs)
                t = tot.setdefault(cls.label, [0, 0, 0.0, 0])
                t[0] += 1
                t[1] += same
                if c is not None:
                    t[2] += c
                    t[3] += 1
        all_c = sum(t[2] for t in tot.values())
        all_s = sum(t[1] for t in tot.values())
        parts = "  ".join(f"{k} {t[1]}/{t[0]} PR {500 * t[2] / t[3]:.2f}" for k, t in sorted(tot.items()))
        print(f"{v:>20}: pooled {100 * all_s / n_all:.1f} % PR {500 * all_c / n_all:.3f}  |  {parts}  |  {secs:.0f} CPU s",
              flush=True)


if __name__ == "__main__":
    main()
