"""Cube decisions by rollout: ours against gnubg 1.07's, same settings, same positions.

Three money positions (cube centred, contact) from gnubg's cube oracle
(tests/data/cube.jsonl.gz): for each of No double, Double/take and Double/pass, the record
where gnubg's 2-ply action is clearest (the smaller of the two equity gaps that decide it).  For each, both programs roll
out the two cube branches, as gnubg does for a cube decision: *no double* (the position as
it is; nobody doubles before the first roll) and *double/take* (cube 2, owned by the
opponent), cubeful, 0-ply cubeful checker play and cube decisions, no variance reduction,
games played to the end (exact two-sided bear-off truncation on), the same number of trials
and the Jacoby/beaver rules of the record.  The proper action is then read from the two
values and double/pass = 1 by the same rule (:func:`bgtools.engine.cubeful.cubeaction.proper_action`);
gnubg's values are taken from its own ``rollout`` output ("CF", per unit of the branch's
cube, so its double/take is doubled to be per unit of the current cube).

    python benchmarks/cube_rollout_vs_gnubg.py [--trials 1296] [--seed 1]

gnubg only prints rollout results to a terminal, so it is run under ``script`` (util-linux)
for a pseudo-terminal; without gnubg or ``script`` the gnubg columns are skipped (exit 0).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bgtools.core.matchstate import MatchState, parse_any_id  # noqa: E402
from benchmarks.gnubg_pty import available, run_in_gnubg  # noqa: E402
from bgtools.rollouts import RolloutSettings  # noqa: E402
from bgtools.rollouts.cuberollout import cube_rollout  # noqa: E402

DATA = ROOT / "tests" / "data" / "cube.jsonl.gz"
WANT = ("No double, take", "Double, take", "Double, pass")


def _margin(e: dict) -> tuple[str, float]:
    """gnubg 2-ply action and how clear it is (the smaller of the two equity gaps that decide it)."""
    nd, dt, dp, act = e["nd"], e["dt"], e["dp"], e["action"]
    if act == "No double, take":
        return act, min(nd - dt, dp - nd) if nd > 0.2 else -1.0  # a plus position, doubling wrong
    if act == "Double, take":
        return act, min(dt - nd, dp - dt)
    if act == "Double, pass":
        return act, min(dt - dp, dp - nd)
    return act, -1.0


def pick() -> list[dict]:
    """For each wanted action, the money record (cube centred, contact) where it is clearest."""
    best: dict[str, tuple[float, dict]] = {}
    with gzip.open(DATA, "rt") as f:
        for line in f:
            r = json.loads(line)
            if r["match_length"] != 0 or r["cube"] != 1 or r["cube_owner_rel"] != "centred" or r["category"] != "contact":
                continue
            e = r.get("eval_2ply")
            if not e:
                continue
            act, m = _margin(e)
            if act in WANT and m > best.get(act, (0.0, {}))[0]:
                best[act] = (m, r)
    out = []
    for act in WANT:
        if act not in best:
            continue
        r = best[act][1]
        me = MatchState.from_match_id(r["match_id"]).player_on_roll
        r.update(gnubg_id=f"{r['position_id']}:{r['match_id']}", player_on_roll=me,
                 commands=[f"set jacoby {'on' if r['jacoby'] else 'off'}", f"set beavers {3 if r['beavers'] else 0}",
                           "new session", f"set turn {me}", f"set board {r['position_id']}"])
        out.append(r)
    return out


GNUBG_BODY = r'''
for c in BASE + ['set rollout trials %d' % JOB['trials'], 'set rollout seed %d' % JOB['seed'],
                 'set rollout cubeful on', 'set rollout chequerplay cubeful on', 'set rollout cubedecision cubeful on',
                 'set rollout varredn off', 'set rollout bearofftruncation exact on']:
    gnubg.command(c)
out = []
for p in JOB['positions']:
    for c in p['commands']:
        gnubg.command(c)
    nd, c_nd = capture('rollout')
    gnubg.command('set cube value 2')
    gnubg.command('set cube owner %d' % (1 - p['player_on_roll']))
    dt, c_dt = capture('rollout')
    out.append({'nd': nd[nd.rfind('Rollout done'):], 'dt': dt[dt.rfind('Rollout done'):], 'cpu': c_nd + c_dt})
done(out)
'''

CF = re.compile(r"Current Position:\s*\n.*?CF\s+([-+]?\d+\.\d+)\s*\n\s*\[.*?CF\s+([-+]?\d+\.\d+)\]", re.S)


def run_gnubg(positions: list[dict], trials: int, seed: int) -> list[dict] | None:
    if not available():
        return None
    got = run_in_gnubg(GNUBG_BODY, {"trials": trials, "seed": seed, "positions": [
        {"commands": p["commands"], "player_on_roll": p["player_on_roll"]} for p in positions]}, timeout=3600)
    if got is None:
        print("gnubg: no result (its rollout output could not be read)", file=sys.stderr)
        return None
    out = []
    for r in got:
        m_nd, m_dt = CF.search(r["nd"]), CF.search(r["dt"])
        if not m_nd or not m_dt:
            print("gnubg: could not parse a rollout result", file=sys.stderr)
            return None
        out.append({"nd": float(m_nd.group(1)), "nd_se": float(m_nd.group(2)),
                    "dt": 2.0 * float(m_dt.group(1)), "dt_se": 2.0 * float(m_dt.group(2)), "cpu": r["cpu"]})
    return out


def main(argv=None) -> int:
    from bgtools.engine.cubeful.cubeaction import proper_action

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trials", type=int, default=1296)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    positions = pick()
    print(f"{len(positions)} positions from {DATA.name}; {args.trials} trials per branch, seed {args.seed}, "
          "0-ply cubeful play and cube, no VR, played to the end")
    gn = run_gnubg(positions, args.trials, args.seed)
    if gn is None:
        print("gnubg or `script` not found (or its output unreadable): gnubg columns skipped")
    agree = 0
    print(f"{'position':28} {'gnubg 2-ply':16} {'gnubg rollout ND / DT':28} {'gnubg action':16} "
          f"{'ours ND / DT':28} {'our action':16}")
    for i, r in enumerate(positions):
        pos, st = parse_any_id(r["gnubg_id"])
        s = RolloutSettings(trials=args.trials, seed=args.seed, cubeful=True, jacoby=bool(r["jacoby"]),
                            beavers=bool(r["beavers"]))
        t0 = time.process_time()
        ours = cube_rollout(pos, st, s)
        t_ours = time.process_time() - t0
        g_txt, g_act = "-", "-"
        if gn is not None:
            g = gn[i]
            g_act = proper_action(g["nd"], g["dt"], 1.0, win_gammon=True, match=False, centred=True,
                                  jacoby=bool(r["jacoby"]), beavers=bool(r["beavers"]))
            g_txt = f"{g['nd']:+.3f}±{g['nd_se']:.3f} / {g['dt']:+.3f}±{g['dt_se']:.3f}"
            agree += g_act == ours.action
        o_txt = f"{ours.no_double:+.3f}±{ours.no_double_se:.3f} / {ours.double_take:+.3f}±{ours.double_take_se:.3f}"
        print(f"{r['gnubg_id']:28} {r['eval_2ply']['action']:16} {g_txt:28} {g_act:16} {o_txt:28} {ours.action:16}"
              f"  (ours {t_ours:.1f} s CPU" + (f", gnubg {gn[i]['cpu']:.1f} s)" if gn else ")"))
    if gn is not None:
        print(f"same proper action as gnubg's rollout: {agree}/{len(positions)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
