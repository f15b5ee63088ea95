"""Our checker-play analysis against gnubg's, on matches gnubg analysed (its SGF ``A[...]`` data).

For every unforced play of each file, prints our normalised equity loss beside the one
gnubg recorded (``A[i][move E ver 3 p1..p5 equity ...]...``: ``i`` is the index of the
play made; gnubg lists the best candidate first, so its loss is ``eq[0] - eq[i]``), and
both error classes (gnubg 1.07 thresholds 0.03 / 0.06 / 0.12).  Then per file and overall:
the share of unforced plays given the same class by both (``none`` included), the share
of plays either calls an error that both put in the same class, and the Pearson and
Spearman correlations of the losses.  For cube positions where gnubg recorded ``DA`` (its
no double and double/take values), the share where its proper action (double / no double /
too good) and take/pass equal ours.  (Scale: gnubg re-analysing its own 0-ply analysed
matches at 2 ply agrees on the class of about 80 % of unforced plays.)

    python benchmarks/annotate_vs_gnubg.py [--ply 0] [--cubeless-plays] [--quiet] [FILES...]

``--cubeless-plays`` values the plays by the cube formula on their cubeless probabilities alone
(``AnalysisSettings(cubeful_plays=False)``; by default the close ones take the cubeful lookahead).

Default files: shared/selfplay/010-analysed.sgf, 020-analysed.sgf and
shared/realmatches/lhm-gnubg-scripts/*_analyzed.sgf (the gzipped copies in tests/data
when ../shared is absent).  The evaluation cache is not used.
"""

from __future__ import annotations

import argparse
import gzip
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from bgtools.analysis.analyse import analyse_match, error_class  # noqa: E402
from bgtools.analysis.records import AnalysisSettings  # noqa: E402
from bgtools.formats import read_match  # noqa: E402

SHARED = ROOT.parent / "shared"
DEFAULT = [("selfplay/010-analysed.sgf", "matches/selfplay/010-analysed.sgf.gz"),
           ("selfplay/020-analysed.sgf", "matches/selfplay/020-analysed.sgf.gz"),
           ("realmatches/lhm-gnubg-scripts/match1486073_analyzed.sgf",
            "matches/realmatches/lhm-gnubg-scripts/match1486073_analyzed.sgf.gz"),
           ("realmatches/lhm-gnubg-scripts/test-match01_analyzed.sgf",
            "matches/realmatches/lhm-gnubg-scripts/test-match01_analyzed.sgf.gz")]


def gnubg_move_loss(note: dict) -> tuple[float, int, str] | None:
    """(loss, ply, best move letters) from a node's ``A`` property, None when absent."""
    vals = note.get("A")
    if not vals or len(vals) < 2:
        return None
    try:
        played = int(vals[0])
        eqs, plies = [], []
        for v in vals[1:]:
            t = v.split()
            eqs.append(float(t[9]))
            plies.append(int(t[10].rstrip("C")))
    except (ValueError, IndexError):
        return None
    if not 0 <= played < len(eqs):
        return None
    return max(0.0, eqs[0] - eqs[played]), plies[played], vals[1].split()[0]


def gnubg_cube(note: dict, d, met) -> tuple[str, str] | None:
    """gnubg's proper (action, response) from a node's ``DA`` (ND and DT cubeful values; DP
    from our match equity table in match play), None when absent."""
    vals = note.get("DA")
    if not vals:
        return None
    try:
        t = [float(x) for x in vals[0].split()[-14:]]
    except ValueError:
        return None
    nd, dt = t[6], t[13]
    if d.mwc_loss is None:
        dp = 1.0
    else:
        from bgtools.core.matchstate import MatchState

        s = MatchState.from_match_id(d.match_id)
        me = s.player_on_roll
        away = s.away
        dp = met.after(away[me], away[1 - me], s.cube)
    best = min(dt, dp)
    action = "double" if best > nd else ("too good" if nd >= dp and dt > dp else "no double")
    return action, "take" if dt <= dp else "pass"


def load(path: Path):
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    name = path.name[:-3] if path.suffix == ".gz" else path.name
    return read_match(data.decode("utf-8"), name=name)


def rank(x: np.ndarray) -> np.ndarray:
    order = np.argsort(x, kind="stable")
    r = np.empty(len(x))
    r[order] = np.arange(len(x))
    # average ties
    for v in np.unique(x):
        m = x == v
        if m.sum() > 1:
            r[m] = r[m].mean()
    return r


def stats(ours: list[float], theirs: list[float]) -> str:
    a, b = np.array(ours), np.array(theirs)
    ca = [error_class(v) for v in a]
    cb = [error_class(v) for v in b]
    same = sum(x == y for x, y in zip(ca, cb))
    either = [(x, y) for x, y in zip(ca, cb) if x != "none" or y != "none"]
    same_err = sum(x == y for x, y in either)
    pear = float(np.corrcoef(a, b)[0, 1]) if len(a) > 2 and a.std() > 0 and b.std() > 0 else float("nan")
    spear = float(np.corrcoef(rank(a), rank(b))[0, 1]) if len(a) > 2 and a.std() > 0 and b.std() > 0 \
        else float("nan")
    err_a = sum(c != "none" for c in ca)
    err_b = sum(c != "none" for c in cb)
    return (f"{len(a)} unforced plays: same class {same}/{len(a)} = {100 * same / max(len(a), 1):.1f} %; "
            f"errors (ours {err_a}, gnubg {err_b}), same class among plays either calls an error "
            f"{same_err}/{len(either)} = {100 * same_err / max(len(either), 1):.1f} %; "
            f"loss correlation Pearson {pear:.3f}, Spearman {spear:.3f}; mean loss ours {a.mean():.4f} "
            f"gnubg {b.mean():.4f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--ply", type=int, default=0)
    ap.add_argument("--cubeless-plays", action="store_true",
                    help="value the plays by the cube formula alone (AnalysisSettings(cubeful_plays=False))")
    ap.add_argument("--quiet", action="store_true", help="summaries only, no per-move lines")
    args = ap.parse_args()
    if args.files:
        paths = [Path(f) for f in args.files]
    else:
        paths = [SHARED / s if (SHARED / s).exists() else ROOT / "tests" / "data" / t for s, t in DEFAULT]
    all_ours: list[float] = []
    all_theirs: list[float] = []
    cube_tally: list[tuple[bool, bool]] = []
    for path in paths:
        m = load(path)
        t0 = time.perf_counter()
        a = analyse_match(m, settings=AnalysisSettings(ply=args.ply, cubeful_plays=not args.cubeless_plays), cache=None)
        dt = time.perf_counter() - t0
        ours, theirs = [], []
        print(f"\n== {path.name}: {m.length}-point match, {len(m.games)} games, our {args.ply}-ply analysis "
              f"took {dt:.1f} s")
        if not args.quiet:
            print(f"{'game':>4} {'move':>4} {'pl':>2} {'dice':>4}  {'played':<22} {'ours':>7} {'gnubg':>7} "
                  f"{'gply':>4}  {'our class':<9} {'gnubg class':<9}")
        for d in a.decisions:
            if d.kind != "checker" or d.forced:
                continue
            g = m.games[d.game - 1]
            note = g.notes[d.action_index] if len(g.notes) == len(g.actions) else {}
            gl = gnubg_move_loss(note)
            if gl is None:
                continue
            loss, gply, _ = gl
            ours.append(d.equity_loss)
            theirs.append(loss)
            if not args.quiet:
                print(f"{d.game:>4} {d.move_number:>4} {d.player:>2} {d.dice:>4}  {d.played:<22} "
                      f"{d.equity_loss:7.4f} {loss:7.4f} {gply:>4}  {d.error_class:<9} {error_class(loss):<9}")
        if ours:
            print(f"-- {path.name}: {stats(ours, theirs)}")
        from bgtools.engine.cubeful.met import load_met

        met = load_met()
        same_action = same_resp = n_cube = 0
        for d in a.decisions:
            if d.kind != "cube" or d.played not in ("no double", "double"):
                continue
            g = m.games[d.game - 1]
            gc = gnubg_cube(g.notes[d.action_index] if len(g.notes) == len(g.actions) else {}, d, met)
            if gc is None:
                continue
            n_cube += 1
            same_action += gc[0] == d.cube.action
            same_resp += gc[1] == d.cube.response
            cube_tally.append((gc[0] == d.cube.action, gc[1] == d.cube.response))
        if n_cube:
            print(f"-- {path.name}: cube: {n_cube} positions with gnubg's DA; same proper action "
                  f"{same_action}/{n_cube} = {100 * same_action / n_cube:.1f} %, same take/pass "
                  f"{same_resp}/{n_cube} = {100 * same_resp / n_cube:.1f} %")
        all_ours += ours
        all_theirs += theirs
    if all_ours:
        print(f"\n== all files, ours at {args.ply} ply vs gnubg's recorded analysis: {stats(all_ours, all_theirs)}")
    if cube_tally:
        n = len(cube_tally)
        print(f"== all files, cube: {n} positions; same proper action {sum(a for a, _ in cube_tally)}/{n}, "
              f"same take/pass {sum(b for _, b in cube_tally)}/{n}")


if __name__ == "__main__":
    main()
