"""Whose side gnubg takes on the cube decisions of analysed .xg files, and whether bgtools'
differences from XG come from its net's probabilities or from its cube model (issue 35).

Reads the cube rows that ``benchmarks/xg_agreement.py --json ROWS`` wrote (XG's and bgtools'
no double / double-take / double-pass equities of every doubling decision) and asks gnubg
1.07 (``gnubg -t -q -p``; ``set matchid``, ``set board``, then ``gnubg.evaluate`` for the
cubeless probabilities and ``gnubg.cfevaluate`` for the cubeful equities, at 0 and 2 ply,
cubeful, pruning, no noise) about each position.  Then, over the decisions XG counts:

* the proper action (no double, double/take, double/pass, too good) of XG, gnubg 2-ply and
  bgtools, and how often each pair agrees;
* **the model**: bgtools' cube model (:func:`bgtools.engine.cubeful.cubeaction.cube_advice`) given
  gnubg's own cubeless probabilities, against gnubg's cubeful equities at the same ply (0-ply:
  both are a formula on the same probabilities; 2-ply: gnubg looks ahead cubefully, bgtools'
  analysis applies its formula to 2-ply cubeless probabilities) and against XG;
* **the net**: the mean difference of bgtools' probabilities (the analysis' 2-ply) from
  gnubg's 2-ply ones, and bgtools' cube model on its own probabilities.

    python benchmarks/xg_agreement.py --json rows.jsonl && python benchmarks/xg_cube_gnubg.py rows.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Optional, Sequence

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from bgtools.core.matchstate import MatchState  # noqa: E402
from bgtools.core.position import Position  # noqa: E402
from bgtools.engine.cubeful.cube import CubeInfo, cube_efficiency  # noqa: E402
from bgtools.engine.cubeful.cubeaction import cube_advice  # noqa: E402

GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")

_SCRIPT = r'''
import gnubg, json
for c in ['set confirm default yes', 'set player 0 human', 'set player 1 human', 'set automatic game off',
          'set automatic roll off', 'set threads 1', 'set cube use on',
          'set evaluation cubedecision evaluation cubeful on', 'set evaluation cubedecision evaluation prune on',
          'set evaluation cubedecision evaluation deterministic on', 'set evaluation cubedecision evaluation noise 0']:
    gnubg.command(c)
out = open({out!r}, 'w')
for line in open({inp!r}):
    q = json.loads(line)
    pid, mid = q['id'].split(':')
    if q['length']:
        gnubg.command('new match %d' % q['length'])
    else:
        gnubg.command('new session')
    gnubg.command('set matchid %s' % mid)
    gnubg.command('set board %s' % pid)
    b = gnubg.board()
    ci = gnubg.cubeinfo()
    r = {{'id': q['id'], 'got': gnubg.positionid() + ':' + gnubg.matchid()}}
    for ply in (0, 2):
        ec = gnubg.evalcontext(1, ply, 1, 1, 0.0)
        cf = gnubg.cfevaluate(b, ci, ec)
        ev = gnubg.evaluate(b, ci, ec)
        r[str(ply)] = {{'probs': list(ev[:5]), 'nd': cf[1], 'dt': cf[2], 'dp': cf[3], 'action': cf[5]}}
    out.write(json.dumps(r) + '\n')
out.close()
'''


def ask_gnubg(queries: Sequence[dict]) -> dict[str, dict]:
    """gnubg's 0- and 2-ply probabilities and cubeful equities for each ``{"id", "length"}``."""
    if GNUBG is None:
        raise SystemExit("gnubg is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        inp, out = Path(tmp) / "q.jsonl", Path(tmp) / "a.jsonl"
        inp.write_text("".join(json.dumps(q) + "\n" for q in queries))
        script = Path(tmp) / "s.py"
        script.write_text(_SCRIPT.format(inp=str(inp), out=str(out)))
        subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], capture_output=True, text=True, timeout=3600)
        got = [json.loads(line) for line in out.read_text().splitlines()]
    return {g["id"]: g for g in got}


def action(nd: float, dt: float, dp: float) -> str:
    if min(dt, dp) > nd:
        return "double/take" if dt <= dp else "double/pass"
    return "too good" if dt > dp and nd >= dp else "no double"


def model(probs, gid: str) -> tuple[float, float, float]:
    pid, mid = gid.split(":")
    pos = Position.from_id(pid)
    a = cube_advice(np.clip(probs, 0.0, 1.0), CubeInfo.from_state(MatchState.from_match_id(mid)),
                    x=cube_efficiency(pos))
    assert a.double_take is not None and a.double_pass is not None
    return a.no_double, a.double_take, a.double_pass


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rows", help="the --json output of benchmarks/xg_agreement.py")
    ap.add_argument("--all", action="store_true", help="every doubling decision, not only those XG counts")
    ap.add_argument("--top", type=int, default=12)
    args = ap.parse_args(argv)
    rows = [r for r in map(json.loads, Path(args.rows).read_text().splitlines())
            if r["kind"] == "cube" and (args.all or r["counted"])]
    ids = {r["id"]: MatchState.from_match_id(r["id"].split(":")[1]).match_length for r in rows}
    g = ask_gnubg([{"id": i, "length": n} for i, n in ids.items()])
    pairs: Counter = Counter()
    n = 0
    diffs: dict[str, list] = {"m0": [], "m2": [], "net": []}
    table = []
    for r in rows:
        e = g.get(r["id"])
        if e is None or e["got"] != r["id"] or e["2"]["dt"] is None:
            continue
        n += 1
        acts = {"XG": r["xg_action"], "bgtools": r["our_action"],
                "gnubg2": action(e["2"]["nd"], e["2"]["dt"], e["2"]["dp"]),
                "gnubg0": action(e["0"]["nd"], e["0"]["dt"], e["0"]["dp"])}
        m0 = model(e["0"]["probs"], r["id"])
        m2 = model(e["2"]["probs"], r["id"])
        acts["model(gnubg0 probs)"] = action(*m0)
        acts["model(gnubg2 probs)"] = action(*m2)
        diffs["m0"].append([m0[0] - e["0"]["nd"], m0[1] - e["0"]["dt"]])
        diffs["m2"].append([m2[0] - e["2"]["nd"], m2[1] - e["2"]["dt"]])
        names = list(acts)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                pairs[(a, b)] += acts[a] == acts[b]
        # net: our 2-ply probabilities (from the analysis) are not in the rows: evaluate them here
        table.append((r, e, acts, m2))
    from bgtools.engine.evaluation import evaluate_boards

    boards = np.stack([Position.from_id(r["id"].split(":")[0]).to_array() for r, *_ in table]) if table else None
    ours = evaluate_boards(boards, 2) if boards is not None else np.zeros((0, 5))
    for (r, e, acts, m2), p in zip(table, ours):
        diffs["net"].append(np.asarray(p) - np.asarray(e["2"]["probs"]))
    print(f"{n} {'' if args.all else 'counted '}doubling decisions of {Path(args.rows).name}; gnubg 1.07 at 0 and 2 ply "
          f"(cubeful, prune), bgtools' cube model (cube_advice) on gnubg's probabilities")
    print("same proper action (no double / double-take / double-pass / too good):")
    for (a, b), k in pairs.items():
        print(f"    {a:>20} vs {b:<20} {k:4d}/{n} ({100.0 * k / max(n, 1):.1f}%)")
    for key, label in (("m0", "model(gnubg 0-ply probs) - gnubg 0-ply cubeful"),
                       ("m2", "model(gnubg 2-ply probs) - gnubg 2-ply cubeful")):
        d = np.asarray(diffs[key])
        if len(d):
            print(f"{label}: ND mean {d[:, 0].mean():+.4f} (|{np.abs(d[:, 0]).mean():.4f}|), "
                  f"DT mean {d[:, 1].mean():+.4f} (|{np.abs(d[:, 1]).mean():.4f}|), ND-DT mean "
                  f"{(d[:, 0] - d[:, 1]).mean():+.4f}")
    d = np.asarray(diffs["net"])
    if len(d):
        print("bgtools 2-ply probabilities - gnubg 2-ply (win, win g, win bg, lose g, lose bg): mean "
              + " ".join(f"{v:+.4f}" for v in d.mean(axis=0)) + "; mean |.| "
              + " ".join(f"{v:.4f}" for v in np.abs(d).mean(axis=0)))
    doubles = Counter((acts["XG"].startswith("double"), acts["gnubg2"].startswith("double"),
                       acts["bgtools"].startswith("double"), acts["model(gnubg2 probs)"].startswith("double"))
                      for _, _, acts, _ in table)
    print("double? (XG, gnubg 2-ply, bgtools, model on gnubg 2-ply probs): count")
    for k, v in sorted(doubles.items(), key=lambda kv: -kv[1]):
        print(f"    {tuple('D' if x else '-' for x in k)}: {v}")
    print("largest bgtools-XG differences (by |our ND-DT - XG's ND-DT|), equities ND DT:")
    table.sort(key=lambda t: -abs((t[0]["ours"][0] - t[0]["ours"][1]) - (t[0]["xg"][0] - t[0]["xg"][1])))
    for r, e, acts, m2 in table[:args.top]:
        print(f"  {r['id']}  XG {r['xg'][0]:+.3f} {r['xg'][1]:+.3f} {acts['XG']:<11} | gnubg2 {e['2']['nd']:+.3f} "
              f"{e['2']['dt']:+.3f} {acts['gnubg2']:<11} | bgtools {r['ours'][0]:+.3f} {r['ours'][1]:+.3f} "
              f"{acts['bgtools']:<11} | model(gnubg2 p) {m2[0]:+.3f} {m2[1]:+.3f} | p gnubg2 "
              + " ".join(f"{v:.3f}" for v in e["2"]["probs"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
