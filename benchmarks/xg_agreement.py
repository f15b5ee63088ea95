"""bgtools' analysis against eXtreme Gammon's own, on analysed ``.xg`` files (issue 35).

Every ``.xg`` file carries XG's analysis of each decision (``bgtools.read_match`` puts it on
the actions; :mod:`bgtools.analysis.filecompare` reads it for ``annotate``).  For each file
bgtools analyses the match (:func:`bgtools.analysis.analyse_match` at ``--ply``, or with
``--level`` at an analysis level as ``annotate --level`` runs it,
:func:`bgtools.analysis.levels.analyse_level`; no cache) and, per file and pooled over the files:

* **same best checker play**: our first candidate gives the same position as XG's *first*
  candidate (XG lists its deepest level first, so its first is not always its highest
  equity), over the unforced plays XG analysed with two or more candidates; split by XG's
  gap between its first play and its best other one (< 0.005, 0.005-0.02, 0.02-0.05, >= 0.05);
* **advice PR by XG**: 500 x the mean of XG's equity of its first play minus XG's equity of
  our best play (clamped at 0: a shallower XG candidate listed lower down can show a higher
  equity), over the plays where XG lists ours (how many it does not is printed);
* **same proper cube action** (no double, double/take, double/pass, too good: from the three
  equities of each side, per unit of the current cube) over the cube decisions XG counts
  (the doubler's: the no double before a roll and the double; the answer shares the
  position and is not counted again), split money / match; and how often each side doubles
  where the other holds;
* **PR per player and match**: XG's PR as the file lets it be rebuilt (see below) beside
  bgtools' in the same convention applied to bgtools' own values, and bgtools' own PR
  (``annotate``: every unforced play, cube decisions within 0.16 of doubling);
* the largest disagreements, with the position and match IDs (``ID`` below is
  ``position_id:match_id`` for ``bgtools eval``).

XG's displayed PR is not stored in the file; it is **rebuilt** with the counting rules of
gammonview's gvformat reader (``../shared/spec/xg-analysis.md``): a checker play counts when
XG analysed it and its candidates' equities span at least 1e-4 (loss = XG's first candidate's
equity minus the played one's, or XG's stored error when the play made is not listed); a no
double before a roll, and a double, count unless trivial (|ND - min(DT, DP)| < 0.001, or
ND - DT > 0.2, or ND - DP > 0.2, or ND and DT both below -0.9) with a loss under 0.001 (loss =
XG's stored cube error); a take or pass counts when |DT - DP| >= 0.001 (loss = XG's stored
take error); PR = 500 x total loss / decisions counted.  bgtools' PR "in XG's convention"
applies the same rules to bgtools' own equities and losses.  A reconstruction, within about
0.65 PR of what XG shows on the six player-sides checked in that reader.

    python benchmarks/xg_agreement.py [--ply 2 | --level fast|strong|deep|rollout] [--jobs 2] [--files F.xg ...]
                                      [--top 15] [--json rows.jsonl] [--no-cube-lookahead] [--cubeless-plays]

Default files: every ``*.xg`` under ``../shared/realmatches/`` (the copies in
``tests/data/matches/realmatches`` when it is absent).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Optional, Sequence

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bgtools.analysis.xgpr import (counts_doubling, cube_action, cube_cost, pr_of, pr_xg_convention,  # noqa: E402
                                   xg_file_pr)
from bgtools.core.position import Position  # noqa: E402
from bgtools.model.resolve import apply_steps  # noqa: E402

SHARED = ROOT.parent / "shared" / "realmatches"
LOCAL = ROOT / "tests" / "data" / "matches" / "realmatches"
#: XG's gap between its first play and its best other one: bucket upper bounds
GAPS = ((0.005, "< 0.005"), (0.02, "0.005-0.02"), (0.05, "0.02-0.05"), (math.inf, ">= 0.05"))
CUBE_ACTIONS = ("no double", "double/take", "double/pass", "too good")


# ----------------------------------------------------------------------------- measures
# XG's counting rules and the cube action / cost measures have one home: bgtools.analysis.xgpr
def cube_value(action: str, nd: float, dt: float, dp: float) -> float:
    """The doubler's value of ``action`` (a double answered as ``action`` says)."""
    return {"no double": nd, "too good": nd, "double/take": dt, "double/pass": dp}[action]


def gap_bucket(gap: float) -> str:
    for hi, name in GAPS:
        if gap < hi:
            return name
    return GAPS[-1][1]


def _after(pos: Position, steps) -> Optional[bytes]:
    try:
        return apply_steps(pos, steps)[0].to_array().tobytes()
    except (IndexError, ValueError):
        return None


def _notation(pos: Position, dice: str, after: Optional[bytes]) -> str:
    from bgtools.core.movegen import legal_plays

    for p in legal_plays(pos, (int(dice[0]), int(dice[1]))):
        if p.after.to_array().tobytes() == after:
            return p.notation()
    return "?"


def xg_plays(match, analysis):
    """Each unforced play of ``analysis`` that XG analysed with two or more candidates: (the decision, its
    position, XG's analysis of it, XG's candidates as resulting boards, their equities)."""
    from bgtools.model.game import Roll

    for d in analysis.decisions:
        if d.kind != "checker" or d.forced or not d.candidates:
            continue
        a = match.games[d.game - 1].actions[d.action_index]
        an = getattr(a, "analysis", None)
        if not isinstance(a, Roll) or an is None or an.error is None or len(an.candidates) < 2:
            continue
        pos = Position.from_id(d.position_id)
        yield d, pos, an, [_after(pos, c.steps) for c in an.candidates], [c.equity for c in an.candidates]


def checker_rows(match, analysis) -> list[dict]:
    """One row per unforced play of ``analysis`` that XG analysed with two or more candidates:
    same best play, XG's gap, XG's cost of our best play (None when XG does not list it)."""
    rows = []
    for d, pos, an, xg, eqs in xg_plays(match, analysis):
        ours = _after(pos, d.candidates[0].steps)
        gap = eqs[0] - max(eqs[1:])
        k = next((i for i, b in enumerate(xg) if b is not None and b == ours), None)
        xg_best = d.candidates[0].move if k == 0 else _notation(pos, d.dice, xg[0])
        # the depth bgtools valued XG's first play at (-1: not among the candidates it kept)
        xg_depth = next((c.ply for c in d.candidates if _after(pos, c.steps) == xg[0]), -1)
        rows.append({"file": analysis.source, "row_key": d.row_key, "id": f"{d.position_id}:{d.match_id}",
                     "dice": d.dice, "player": d.player, "money": match.length == 0, "same": k == 0,
                     "gap": gap, "bucket": gap_bucket(gap), "xg_best": xg_best, "ours": d.candidates[0].move,
                     "xg_cost": None if k is None else max(0.0, eqs[0] - eqs[k]), "xg_level": an.level,
                     "xg_best_depth": xg_depth})
    return rows


def cube_rows(match, analysis) -> list[dict]:
    """One row per doubling decision (no double before a roll, or a double) that XG analysed:
    both sides' equities and actions, whether XG counts it, and XG's cost of our action."""
    rows = []
    for d in analysis.decisions:
        if d.kind != "cube" or d.played not in ("no double", "double") or d.cube is None:
            continue
        a = match.games[d.game - 1].actions[d.action_index]
        an = getattr(a, "analysis", None)
        if an is None or an.no_double is None or an.double_take is None or an.double_pass is None \
                or an.cube_error is None:
            continue
        x = (an.no_double, an.double_take, an.double_pass)
        o = (d.cube.nd, d.cube.dt, d.cube.dp)
        xa, oa = cube_action(*x), cube_action(*o)
        rows.append({"file": analysis.source, "row_key": d.row_key, "id": f"{d.position_id}:{d.match_id}",
                     "player": d.player, "played": d.played, "money": match.length == 0,
                     "counted": counts_doubling(*x, an.cube_error), "xg": list(x), "ours": [round(v, 6) for v in o],
                     "xg_action": xa, "our_action": oa, "same": xa == oa, "xg_cost": cube_cost(oa, *x),
                     "xg_level": an.cube_level or an.level})
    return rows


def file_result(match, analysis) -> dict:
    """Every row and PR figure of one analysed file (plain data: it crosses processes)."""
    ours: list[Optional[float]] = [p.pr if (p.unforced_moves + p.cube_decisions) else None
                                   for p in analysis.players_summary] or [None, None]
    players = []
    for p, (x, o) in enumerate(zip(xg_file_pr(match), pr_xg_convention(analysis))):
        players.append({"player": p, "name": analysis.players[p], "xg_pr": pr_of(x), "xg_counted": x[1],
                        "our_pr_xg_rules": pr_of(o), "our_counted": o[1], "our_pr": ours[p]})
    return {"file": analysis.source, "length": match.length, "checker": checker_rows(match, analysis),
            "cube": cube_rows(match, analysis), "players": players}


# ----------------------------------------------------------------------------- summaries
def _pct(k: int, n: int) -> str:
    return f"{100.0 * k / n:5.1f}% ({k}/{n})" if n else "   - (0/0)"


def checker_summary(rows: Sequence[dict]) -> dict:
    n = len(rows)
    same = sum(r["same"] for r in rows)
    listed = [r["xg_cost"] for r in rows if r["xg_cost"] is not None]
    by = {name: (sum(r["same"] for r in rows if r["bucket"] == name), sum(r["bucket"] == name for r in rows))
          for _, name in GAPS}
    return {"plays": n, "same": same, "rate": same / n if n else None, "by_gap": by, "listed": len(listed),
            "advice_pr": 500.0 * sum(listed) / len(listed) if listed else None}


def cube_summary(rows: Sequence[dict]) -> dict:
    out = {}
    for kind, sel in (("all", None), ("money", True), ("match", False)):
        rs = [r for r in rows if r["counted"] and (sel is None or r["money"] == sel)]
        xg_holds = [r for r in rs if not r["xg_action"].startswith("double")]
        xg_doubles = [r for r in rs if r["xg_action"].startswith("double")]
        out[kind] = {"counted": len(rs), "same": sum(r["same"] for r in rs),
                     "we_double_xg_holds": (sum(r["our_action"].startswith("double") for r in xg_holds),
                                            len(xg_holds)),
                     "we_hold_xg_doubles": (sum(not r["our_action"].startswith("double") for r in xg_doubles),
                                            len(xg_doubles)),
                     "take_pass_differs": sum(r["xg_action"].startswith("double") and r["our_action"].startswith(
                         "double") and r["xg_action"] != r["our_action"] for r in rs),
                     "xg_cost_pr": 500.0 * sum(r["xg_cost"] for r in rs) / len(rs) if rs else None}
    return out


def pr_summary(players: Sequence[dict]) -> dict:
    both = [p for p in players if p["xg_pr"] is not None and p["our_pr_xg_rules"] is not None]
    gaps = [p["our_pr_xg_rules"] - p["xg_pr"] for p in both]
    own = [p["our_pr"] - p["xg_pr"] for p in both if p["our_pr"] is not None]
    n = len(gaps)
    return {"sides": n, "mean_abs_gap": sum(map(abs, gaps)) / n if n else None,
            "mean_gap": sum(gaps) / n if n else None, "within_1": sum(abs(g) <= 1.0 for g in gaps),
            "own_mean_abs_gap": sum(map(abs, own)) / len(own) if own else None,
            "own_mean_gap": sum(own) / len(own) if own else None}


def _f(v: Optional[float], fmt: str = "{:.2f}") -> str:
    return "-" if v is None else fmt.format(v)


def report(results: Sequence[dict], top: int) -> list[str]:
    lines = []
    for r in results:
        c = checker_summary(r["checker"])
        q = cube_summary(r["cube"])["all"]
        lines.append(f"{Path(r['file']).name} ({'money' if not r['length'] else str(r['length']) + '-point'}): "
                     f"same play {_pct(c['same'], c['plays'])}, advice PR by XG {_f(c['advice_pr'])}, "
                     f"same cube action {_pct(q['same'], q['counted'])}")
        for p in r["players"]:
            lines.append(f"    {p['name']}: XG PR (rebuilt) {_f(p['xg_pr'])} [{p['xg_counted']}], bgtools "
                         f"{_f(p['our_pr_xg_rules'])} in XG's convention [{p['our_counted']}], "
                         f"{_f(p['our_pr'])} in bgtools'")
    rows = [x for r in results for x in r["checker"]]
    cubes = [x for r in results for x in r["cube"]]
    players = [p for r in results for p in r["players"]]
    c = checker_summary(rows)
    lines += ["", f"POOLED over {len(results)} files",
              f"same best checker play: {_pct(c['same'], c['plays'])}"]
    for _, name in GAPS:
        k, n = c["by_gap"][name]
        lines.append(f"    XG gap {name:>10}: {_pct(k, n)}")
    lines.append(f"advice PR by XG: {_f(c['advice_pr'])} (over {c['listed']} plays where XG lists ours; "
                 f"{c['plays'] - c['listed']} not listed)")
    depth = Counter(r["xg_best_depth"] for r in rows if not r["same"])
    lines.append("    where the best plays differ, bgtools valued XG's at depth: "
                 + ", ".join(f"{'not kept' if k < 0 else f'{k}-ply'} {v}" for k, v in sorted(depth.items())))
    q = cube_summary(cubes)
    for kind in ("all", "money", "match"):
        s = q[kind]
        a, na = s["we_double_xg_holds"]
        b, nb = s["we_hold_xg_doubles"]
        lines.append(f"same cube action ({kind}): {_pct(s['same'], s['counted'])}; we double where XG holds "
                     f"{a}/{na}, we hold where XG doubles {b}/{nb}, take/pass differs {s['take_pass_differs']}; "
                     f"cost by XG {_f(s['xg_cost_pr'])} PR per counted decision")
    s = pr_summary(players)
    lines.append(f"PR per player-match ({s['sides']} sides): bgtools in XG's convention minus XG's rebuilt PR: "
                 f"mean |gap| {_f(s['mean_abs_gap'])}, mean gap {_f(s['mean_gap'], '{:+.2f}')}, within 1 PR "
                 f"{s['within_1']}/{s['sides']}; bgtools' own PR minus XG's: mean |gap| {_f(s['own_mean_abs_gap'])}, "
                 f"mean gap {_f(s['own_mean_gap'], '{:+.2f}')}")
    lines += ["", "largest checker disagreements (XG's cost of our best play; ID = position_id:match_id):"]
    worst = sorted((x for x in rows if not x["same"]), key=lambda x: -(x["xg_cost"] if x["xg_cost"] is not None
                                                                        else 9.0))[:top]
    for x in worst:
        lines.append(f"    {_f(x['xg_cost'], '{:.3f}') if x['xg_cost'] is not None else 'unlisted'}  {x['id']} "
                     f"{x['dice']}: XG {x['xg_best']} / bgtools {x['ours']}  ({Path(x['file']).name} "
                     f"{x['row_key'].rsplit(':', 2)[-2]}:{x['row_key'].rsplit(':', 1)[-1]}, XG {x['xg_level']})")
    lines.append("largest cube disagreements (counted; XG's cost of our action; equities ND DT DP):")
    for x in sorted((x for x in cubes if x["counted"] and not x["same"]), key=lambda x: -x["xg_cost"])[:top]:
        lines.append(f"    {x['xg_cost']:.3f}  {x['id']}: XG {x['xg_action']} "
                     f"({x['xg'][0]:+.3f} {x['xg'][1]:+.3f} {x['xg'][2]:+.3f}) / bgtools {x['our_action']} "
                     f"({x['ours'][0]:+.3f} {x['ours'][1]:+.3f} {x['ours'][2]:+.3f})  "
                     f"{'money' if x['money'] else 'match'}, {Path(x['file']).name}")
    return lines


# ----------------------------------------------------------------------------- running
def default_files() -> list[Path]:
    base = SHARED if SHARED.is_dir() else LOCAL
    return sorted(base.rglob("*.xg"))


def analyse_one(job: tuple[str, int, dict, Optional[str], Optional[str], Optional[str], bool]) -> dict:
    from bgtools.analysis import AnalysisSettings, analyse_match
    from bgtools.analysis.levels import analyse_level
    from bgtools.formats import read_match

    path, ply, opts, weights, level, rollout_weights, prune = job  # opts: AnalysisSettings' switches by name
    evaluator = None  # the shipped net with the shipped pruning net (and the shipped rollout net for rollouts)
    if weights or rollout_weights or not prune:
        from bgtools.engine.evaluation import default_evaluator
        from bgtools.engine.nets.networks import load_weights
        from bgtools.engine.nets.nn import NeuralEvaluator
        from bgtools.engine.nets.prune import load_default_pruning

        shipped = default_evaluator()
        assert isinstance(shipped, NeuralEvaluator)
        evaluator = NeuralEvaluator(load_weights(weights) if weights else shipped.weights,
                                    prune=load_default_pruning() if prune else None,
                                    rollout_weights=load_weights(rollout_weights) if rollout_weights else
                                    (None if weights else shipped.rollout_weights))
    m = read_match(path)
    t = time.process_time()
    if level is None:
        a = analyse_match(m, evaluator=evaluator, settings=AnalysisSettings(ply=ply, **opts), cache=None,
                          label=path)
    else:
        a = analyse_level(m, AnalysisSettings(level=level, **opts), evaluator, cache=None, label=path)
    r = file_result(m, a)
    r["seconds"] = time.process_time() - t
    return r


def main(argv: Optional[Sequence[str]] = None) -> int:
    from bgtools.base.parallel import ordered_map

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", nargs="+", help="analysed .xg files (default: every *.xg under ../shared/realmatches)")
    depth = ap.add_mutually_exclusive_group()
    depth.add_argument("--ply", type=int, default=2, choices=(0, 1, 2, 3))
    depth.add_argument("--level", default=None, choices=("fast", "strong", "deep", "rollout"),
                       help="analyse at this level (annotate --level) instead of every decision at --ply")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--top", type=int, default=15, help="largest disagreements shown")
    ap.add_argument("--no-cube-lookahead", action="store_true",
                    help="cube decisions from the formula on the ply's cubeless probabilities only")
    ap.add_argument("--cubeless-plays", action="store_true",
                    help="the checker plays valued by the cube formula on their cubeless probabilities alone, not the close "
                         "ones by the cubeful lookahead (AnalysisSettings(cubeful_plays=False))")
    ap.add_argument("--endgame-trials", type=int, default=None, metavar="N",
                    help="the late-game plays' rollouts: at most N trials (0: off, the 2-ply values alone; default: "
                         "AnalysisSettings' own)")
    ap.add_argument("--json", help="write every row (checker, cube, players) as JSON lines to this file")
    ap.add_argument("--weights", default=None, metavar="NPZ",
                    help="analyse with this net (and the shipped pruning net) instead of the shipped one")
    ap.add_argument("--rollout-weights", default=None, metavar="NPZ",
                    help="the rollout tier (--level rollout) plays this net instead of the shipped rollout net")
    ap.add_argument("--no-prune", action="store_true",
                    help="the searches value every reply with the net (no pruning net), to see what pruning changes")
    args = ap.parse_args(argv)
    files = [Path(f) for f in args.files] if args.files else default_files()
    if not files:
        print("no .xg files", file=sys.stderr)
        return 2
    t = time.perf_counter()
    opts = {"cube_lookahead": not args.no_cube_lookahead, "cubeful_plays": not args.cubeless_plays}
    if args.endgame_trials is not None:
        opts["endgame_trials"] = args.endgame_trials
    results = list(ordered_map(analyse_one, [(str(f), args.ply, opts, args.weights, args.level,
                                                        args.rollout_weights, not args.no_prune) for f in files],
                               jobs=args.jobs))
    flags = (" --no-cube-lookahead" if args.no_cube_lookahead else "") + (
        " --cubeless-plays" if args.cubeless_plays else "") + (
        f" --endgame-trials {args.endgame_trials}" if args.endgame_trials is not None else "") + (f" --weights {args.weights}" if args.weights else "") + (
        f" --rollout-weights {args.rollout_weights}" if args.rollout_weights else "") + (
        " --no-prune" if args.no_prune else "")
    depth = f"--level {args.level}" if args.level else f"--ply {args.ply}"
    print(f"# python benchmarks/xg_agreement.py {depth}{flags} --jobs {args.jobs}: {len(files)} files, "
          f"{time.perf_counter() - t:.0f} s wall ({sum(r['seconds'] for r in results):.0f} CPU s of analysis)")
    print("\n".join(report(results, args.top)))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            for r in results:
                for kind in ("checker", "cube"):
                    for x in r[kind]:
                        f.write(json.dumps({"kind": kind, **x}) + "\n")
                for p in r["players"]:
                    f.write(json.dumps({"kind": "player", "file": r["file"], **p}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
