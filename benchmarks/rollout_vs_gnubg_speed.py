"""Rollout speed: bgtools against gnubg 1.07 on the same positions and settings, in one run.

Three positions per class (``--per-class``): opening (the opening position and the two
contact records of tests/data/evals.jsonl.gz nearest it by pip counts), contact, crashed
and race (the first records of each class there), each rolled out by both programs with the same settings, one core each (gnubg
``set threads 1``; ours in this process, no workers), alternating bgtools / gnubg for
``--repeat`` rounds:

* ``cubeless``: 0-ply checker play, cubeless, no variance reduction, played to the end;
* ``cubeless+VR``: the same with variance reduction (gnubg's lookahead VR; ``--vr-trials``);
* ``cubeful``: cubeful, 0-ply cubeful checker play and cube decisions, no VR.

Quick positions (short games: races, bear-ins) get a power of two times the trials, the
fewest with which our cubeless rollout of them (from cold caches) takes ``--min-cpu`` CPU
seconds (0.15; found by doubling before the rounds, or given by ``--factors``), so that
gnubg's time, slower still, spans many ticks of its 10 ms clock.

Every rollout starts from cold caches, as in a new process: ours with this process's
evaluation and choice caches cleared (:func:`bgtools.rollouts.executors.clear_caches`; the
compiled kernels are kept), gnubg's with its evaluation cache resized away and back (a new,
empty one).  Each program's figure is games per CPU second of its own process (gnubg: its
user + system time around the ``rollout`` command, measured inside gnubg; ours:
``time.process_time`` around :func:`bgtools.rollouts.rollout_many`, the kernels compiled
before).  Printed per position and mode: the median over the rounds of the ratio ours/gnubg
of games per CPU second (above 1: we are faster); then per class and mode the median of its
positions' ratios.  Bear-off truncation is off in both, so every game is played to its end.

    python benchmarks/rollout_vs_gnubg_speed.py [--trials 648] [--vr-trials 72] [--repeat 3] [--per-class 3] [--min-cpu 0.15]
        [--positions ID,ID,...]

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
from bgtools.rollouts.executors import clear_caches  # noqa: E402

DATA = ROOT / "tests" / "data" / "evals.jsonl.gz"
MODES = ("cubeless", "cubeless+VR", "cubeful")


CLASSES = ("opening", "contact", "crashed", "race")
START_PIPS = 167


def _pips(board) -> tuple[int, int]:
    return tuple(sum((i + 1) * n for i, n in enumerate(side)) for side in board)  # type: ignore[return-value]


def positions(per_class: int = 3) -> list[tuple[str, str]]:
    """(class, position ID), ``per_class`` of each class (see the module notes)."""
    with gzip.open(DATA, "rt") as f:
        recs = [json.loads(line) for line in f]
    contact = [r for r in recs if r["category"] == "contact"]
    near = sorted(contact, key=lambda r: sum(abs(START_PIPS - p) for p in _pips(r["board"])))[:per_class - 1]
    out = [("opening", "4HPwATDgc/ABMA")] + [("opening", r["position_id"]) for r in near]
    used = {r["position_id"] for r in near}
    for cat in CLASSES[1:]:
        rs = [r for r in recs if r["category"] == cat and r["position_id"] not in used][:per_class]
        out += [(cat, r["position_id"]) for r in rs]
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
    for c in ['set cache 262144', 'set cache 524288']:  # a new, empty evaluation cache (524288: the default)
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
    clear_caches()  # cold, as in a new process
    t0 = time.process_time()
    res = next(rollout_many([job], s, net, jobs=1))
    dt = time.process_time() - t0
    assert res.trials == trials
    return dt


def main(argv=None) -> int:
    from bgtools.engine.nets.nn import Weights, load_default_network

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--weights", default=None, metavar="NPZ", help="roll out with this net (default: the shipped rollout net)")
    ap.add_argument("--trials", type=int, default=648)
    ap.add_argument("--vr-trials", type=int, default=72)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--per-class", type=int, default=3)
    ap.add_argument("--min-cpu", type=float, default=0.15, help="least CPU seconds of our cubeless rollout of a position")
    ap.add_argument("--positions", default=None,
                    help="comma-separated position IDs: only these of the benchmark's positions (e.g. the slow ones)")
    ap.add_argument("--factors", default=None,
                    help="the trial factors as JSON {position ID: factor} (another run's, to compare like with like)")
    args = ap.parse_args(argv)
    net = Weights.load(args.weights) if args.weights else load_default_network("rollout").weights
    pos = positions(args.per_class)
    if args.positions:
        wanted = args.positions.split(",")
        unknown = sorted(set(wanted) - {pid for _, pid in pos})
        if unknown:
            ap.error(f"not among the benchmark's positions: {', '.join(unknown)}")
        pos = [(name, pid) for name, pid in pos if pid in wanted]
    for name, pid in pos:  # compile (or load) every kernel first
        for mode in MODES:
            ours(pid, mode, 1, net)
    # quick positions: a power of two times the trials, so that each rollout takes a while
    scale = json.loads(args.factors) if args.factors else {}
    for name, pid in pos:
        if pid in scale:
            continue
        m = 1
        while ours(pid, "cubeless", m * args.trials, net) < args.min_cpu and m < 4096:
            m *= 2
        scale[pid] = m
    runs = [(pid, mode, scale[pid] * (args.vr_trials if "VR" in mode else args.trials))
            for name, pid in pos for mode in MODES]
    print("trial factors:", json.dumps(scale), flush=True)
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
    print(f"games per CPU second, one core, cold caches, median of {args.repeat} alternating rounds "
          f"({args.trials} trials, {args.vr_trials} with VR, times the position's factor; bear-off truncation off)")
    if not have_gnubg:
        print("gnubg or `script` not found (or its rollout did not finish): gnubg columns skipped")
    print(f"{'class':8} {'position':15} {'mode':12} {'trials':>7} {'bgtools':>9} {'gnubg':>9} {'ratio':>6}")
    by_class: dict = {(c, m): [] for c in CLASSES for m in MODES}
    for (name, pid) in pos:
        for mode in MODES:
            r = next(x for x in runs if x[0] == pid and x[1] == mode)
            n = r[2]
            g_ours = n / statistics.median(mine[r])
            if have_gnubg and theirs[r]:
                per_round = [g / m for m, g in zip(mine[r], theirs[r]) if m > 0 and g > 0]
                if not per_round:  # too quick for the clocks: more trials needed
                    print(f"{name:8} {pid:15} {mode:12} {n:7} {g_ours:9.0f} {'(too quick to time)':>16}")
                    continue
                ratio = statistics.median(per_round)
                by_class[name, mode].append(ratio)
                g_theirs = n / statistics.median(theirs[r])
                print(f"{name:8} {pid:15} {mode:12} {n:7} {g_ours:9.0f} {g_theirs:9.0f} {ratio:6.2f}")
            else:
                print(f"{name:8} {pid:15} {mode:12} {n:7} {g_ours:9.0f} {'-':>9} {'-':>6}")
    if have_gnubg:
        print()
        print("median ratio (bgtools / gnubg games per CPU second) per class and mode")
        print(f"{'class':8} " + " ".join(f"{m:>12}" for m in MODES))
        for c in CLASSES:
            cells = [f"{statistics.median(by_class[c, m]):12.2f}" if by_class[c, m] else f"{'-':>12}" for m in MODES]
            print(f"{c:8} " + " ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
