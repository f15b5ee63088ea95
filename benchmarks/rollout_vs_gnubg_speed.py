"""Rollout speed: bgtools against gnubg 1.07 on the same positions and settings, in one run.

Four positions (the opening position and the first contact, crashed and race records of
tests/data/evals.jsonl.gz; the race with 64 times the trials, as it is quick), each rolled out by both programs with the same settings, one
core each (gnubg ``set threads 1``; ours in this process, no workers), alternating
bgtools / gnubg for ``--repeat`` rounds:

* ``cubeless``: 0-ply checker play, cubeless, no variance reduction, played to the end;
* ``cubeless+VR``: the same with variance reduction (gnubg's lookahead VR; ``--vr-trials``);
* ``cubeful``: cubeful, 0-ply cubeful checker play and cube decisions, no VR.

Each program's figure is games per CPU second of its own process (gnubg: its user + system
time around the ``rollout`` command, measured inside gnubg; ours: ``time.process_time``
around :func:`bgtools.rollouts.rollout_many`, the kernels compiled before).  Printed per
position and mode: the median ratio ours/gnubg of games per CPU second (above 1: we are
faster).  Bear-off truncation is off in both, so every game is played to its end.

    python benchmarks/rollout_vs_gnubg_speed.py [--trials 1296] [--vr-trials 144] [--repeat 3]

gnubg only prints rollout results to a terminal, so it runs under ``script`` (util-linux);
without gnubg or ``script`` only our figures are printed (exit 0).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.gnubg_pty import run_in_gnubg  # noqa: E402
from bgtools.core.position import Position  # noqa: E402
from bgtools.rollouts import Job, RolloutSettings, rollout_many  # noqa: E402

DATA = ROOT / "tests" / "data" / "evals.jsonl.gz"
MODES = ("cubeless", "cubeless+VR", "cubeful")


def positions() -> list[tuple[str, str]]:
    out = [("opening", "4HPwATDgc/ABMA")]
    with gzip.open(DATA, "rt") as f:
        recs = [json.loads(line) for line in f]
    for cat in ("contact", "crashed", "race"):
        r = next(r for r in recs if r["category"] == cat)
        out.append((cat, r["position_id"]))
    return out


GNUBG_BODY = r'''
for c in BASE + ['set jacoby off', 'set rollout seed 1', 'set rollout chequerplay prune on',
                 'set rollout cubedecision prune on', 'set rollout bearofftruncation exact off', 'new session']:
    gnubg.command(c)
out = []
for pid, mode, trials in JOB['runs']:
    cubeful = mode == 'cubeful'
    for c in ['set rollout trials %d' % trials, 'set rollout cubeful %s' % ('on' if cubeful else 'off'),
              'set rollout chequerplay cubeful %s' % ('on' if cubeful else 'off'),
              'set rollout cubedecision cubeful on', 'set rollout varredn %s' % ('on' if 'VR' in mode else 'off'),
              'set turn 0', 'set board %s' % pid]:
        gnubg.command(c)
    txt, cpu = capture('rollout')
    out.append({'cpu': cpu, 'done': 'Rollout done' in txt})
done(out)
'''


def run_gnubg(runs: list[tuple[str, str, int]]) -> list[float] | None:
    """CPU seconds of each gnubg rollout in ``runs`` (position ID, mode, trials), one gnubg process."""
    got = run_in_gnubg(GNUBG_BODY, {"runs": runs})
    if got is None or not all(r["done"] for r in got):
        return None
    return [r["cpu"] for r in got]


def ours(pid: str, mode: str, trials: int, net) -> float:
    s = RolloutSettings(trials=trials, seed=1, cubeful=mode == "cubeful", variance_reduction="VR" in mode,
                        bearoff_truncation=False, jacoby=False)
    # no cube decision before the first roll: gnubg's ``rollout`` command has none either
    job = replace(Job.make(Position.from_id(pid), None, jacoby=False), first_cube=False)
    t0 = time.process_time()
    res = next(rollout_many([job], s, net, jobs=1))
    dt = time.process_time() - t0
    assert res.trials == trials
    return dt


def main(argv=None) -> int:
    from bgtools.engine.nets.nn import load_default_network

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trials", type=int, default=1296)
    ap.add_argument("--vr-trials", type=int, default=144)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    net = load_default_network().weights
    pos = positions()
    # races are quick: 64 x the trials, so that gnubg's time (about 0.5 s) is well above its
    # clock's 10 ms (with 16 x, 0.12 s: a tick is 8 %)
    runs = [(pid, mode, (64 if name == "race" else 1) * (args.vr_trials if "VR" in mode else args.trials))
            for name, pid in pos for mode in MODES]
    for pid, mode, _ in runs:  # compile (or load) every kernel first
        ours(pid, mode, 1, net)
    mine: dict = {r: [] for r in runs}
    theirs: dict = {r: [] for r in runs}
    have_gnubg = True
    for _ in range(args.repeat):
        for r in runs:
            mine[r].append(ours(*r, net))
        if have_gnubg:
            g = run_gnubg(runs)
            if g is None:
                have_gnubg = False
            else:
                for r, c in zip(runs, g):
                    theirs[r].append(c)
    print(f"games per CPU second, one core, median of {args.repeat} alternating rounds "
          f"({args.trials} trials, {args.vr_trials} with VR; bear-off truncation off)")
    if not have_gnubg:
        print("gnubg or `script` not found (or its rollout did not finish): gnubg columns skipped")
    print(f"{'position':10} {'mode':12} {'bgtools':>10} {'gnubg':>10} {'ratio':>7}")
    ratios = {m: [] for m in MODES}
    for (name, pid) in pos:
        for mode in MODES:
            r = next(x for x in runs if x[0] == pid and x[1] == mode)
            n = r[2]
            g_ours = n / statistics.median(mine[r])
            if have_gnubg and theirs[r]:
                per_round = [g / m for m, g in zip(mine[r], theirs[r]) if m > 0 and g > 0]
                if not per_round:  # too quick for the clocks: more trials needed
                    print(f"{name:10} {mode:12} {g_ours:10.0f} {'(too quick to time)':>18}")
                    continue
                ratio = statistics.median(per_round)
                ratios[mode].append(ratio)
                g_theirs = n / statistics.median(theirs[r])
                print(f"{name:10} {mode:12} {g_ours:10.0f} {g_theirs:10.0f} {ratio:7.2f}")
            else:
                print(f"{name:10} {mode:12} {g_ours:10.0f} {'-':>10} {'-':>7}")
    if have_gnubg:
        for mode in MODES:
            if ratios[mode]:
                print(f"median ratio, {mode}: {statistics.median(ratios[mode]):.2f} x gnubg's games per CPU second")
    return 0


if __name__ == "__main__":
    sys.exit(main())
