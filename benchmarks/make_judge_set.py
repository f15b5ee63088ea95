"""Build a second checker-play judge set from gnubg self-play matches, for benchmarks/judge.py.

The shared set (``../shared/oracle/judge_dev.jsonl``) has 1,035 positions; the differences
between our nets are now below its paired standard error.  This makes another set the same
way (see ``judge_dev.md``) from other positions: every roll of the gnubg self-play matches
given (default ``../shared/selfplay``) whose roll has two or more legal plays and whose
position is not in judge_dev, sampled with a seed to judge_dev's mix of categories times
``--scale``; for each, gnubg 1.07's cubeless money equity of **every** legal play at 0 ply
(``eq0``) and at 2 ply with the move filter widened to every play (``eq2``), as judge_dev's.
The baselines of ``loss_millipoints``: gnubg 0-ply (the best ``eq0``), pubeval (Tesauro's
weights, our implementation, race weights as judge_dev decides them) and a random legal play.
gnubg measures here only: nothing from it is trained on.

    python benchmarks/make_judge_set.py -o benchmarks/data/judge_selfplay.jsonl.gz [--scale 2] [--seed 1]
    python benchmarks/make_judge_set.py -o benchmarks/data/judge_third.jsonl.gz \
        --exclude benchmarks/data/judge_selfplay.jsonl.gz --seed 3 ../shared/selfplay ../shared/realmatches

(``--exclude`` leaves out the positions of other judge sets too, so the new set is independent
of them.)  The fourth set comes from matches no earlier run saw, gnubg's self-play made afresh from seeds
(``benchmarks/gnubg_selfplay.py``, whose docstring has the commands).

Needs gnubg (``gnubg`` on PATH or /usr/games) and ``script``; about 0.3 s of gnubg per position.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from benchmarks.gnubg_pty import run_in_gnubg  # noqa: E402
from benchmarks.judge import load_records  # noqa: E402
from bgtools.core.movegen import legal_plays  # noqa: E402
from bgtools.core.position import Position  # noqa: E402
from bgtools.engine.nets.pubeval import is_race, pubeval_scores  # noqa: E402
from bgtools.formats import read_match  # noqa: E402
from bgtools.model import Roll  # noqa: E402

SHARED = ROOT.parent / "shared"
#: judge_dev's positions per judge category
MIX = {"contact": 553, "crashed": 88, "race": 164, "bearoff": 147, "on_bar": 83}

GNUBG_BODY = r'''
for c in ['set player 0 human', 'set player 1 human', 'new session', 'set cube use off',
          'set evaluation chequerplay evaluation cubeful off', 'set evaluation chequerplay evaluation prune on',
          'set evaluation chequerplay evaluation deterministic on', 'set evaluation chequerplay evaluation noise 0']:
    gnubg.command(c)

def category(board):
    opp, me = board
    if me[24]:
        return 'on_bar'
    if opp[24]:
        return 'contact'
    c = gnubg.classifypos(board)
    if c in (9, 10):
        return 'contact' if c == 10 or sum(me) < 15 or sum(opp) < 15 else 'crashed'
    return 'race' if c == 8 else 'bearoff'

def hint(pid, dice, plies):
    gnubg.command('set evaluation chequerplay evaluation plies %d' % plies)
    gnubg.command('set turn 0')
    gnubg.command('set board %s' % pid)  # again: gnubg reuses a hint of the same position otherwise
    gnubg.command('set dice %s %s' % (dice[0], dice[1]))
    return {m['move']: m['equity'] for m in gnubg.hint(3060)['hint']}

gnubg.command('set evaluation movefilter 2 0 3060 0 0')
quota = dict(JOB['quota'])
out = []
for pid, dice, board in JOB['candidates']:
    cat = category(board)
    if quota.get(cat, 0) <= 0:
        continue
    e0 = hint(pid, dice, 0)
    e2 = hint(pid, dice, 2)
    if len(e0) < 2 or set(e0) != set(e2):
        continue
    quota[cat] -= 1
    out.append({'position_id': pid, 'dice': dice, 'category': cat, 'gnubg_class': gnubg.classifypos(board),
                'eq0': e0, 'eq2': e2})
    if not any(v > 0 for v in quota.values()):
        break
done(out)
'''


def candidates(folders, exclude: set[str], seed: int) -> list[tuple[str, str, list]]:
    """(position ID, dice, board as gnubg's [opponent, player on roll]) of every roll of the
    matches with two or more legal plays (a position once, none in ``exclude``), shuffled
    with ``seed``."""
    out = []
    for folder in folders:
        for f in sorted(Path(folder).rglob("*.mat")):
            m = read_match(f, keep_steps=True)
            for step in m.replay():
                a = step.action
                if isinstance(a, Roll) and step.legal_plays >= 2:
                    pos = step.position
                    pid = pos.position_id()
                    if pid not in exclude:
                        exclude.add(pid)  # each position once
                        d = sorted(a.dice, reverse=True)
                        out.append((pid, f"{d[0]}{d[1]}", [list(pos.opponent), list(pos.on_roll)]))
    random.Random(seed).shuffle(out)
    return out


def record(idx: int, got: dict) -> dict | None:
    """A judge record (judge_dev's fields) from gnubg's answer, or None when its plays and
    ours differ."""
    pos = Position.from_id(got["position_id"])
    dice = (int(got["dice"][0]), int(got["dice"][1]))
    plays = legal_plays(pos, dice)
    by_text = {p.notation(): p for p in plays}
    if set(by_text) != set(got["eq2"]):
        return None
    order = sorted(got["eq0"], key=lambda k: -got["eq0"][k])  # gnubg's 0-ply order
    rows = [{"move": k, "position_id": by_text[k].after_id, "eq0": got["eq0"][k], "eq2": got["eq2"][k]}
            for k in order]
    best2 = max(r["eq2"] for r in rows)
    boards = np.array([by_text[k].after.to_array()[::-1] for k in order], np.int8)  # the mover as [1]
    race = bool(is_race(pos.to_array()))
    pub = rows[int(np.argmax(pubeval_scores(boards, race)))]

    def loss(r):
        return 1000.0 * (best2 - r["eq2"])
    return {"idx": idx, "judge_category": got["category"], "gnubg_class": got["gnubg_class"],
            "position_id": got["position_id"], "dice": got["dice"], "pubeval_race": race, "n_plays": len(rows),
            "plays": rows,
            "picks": {"gnubg_0ply": rows[0]["position_id"], "pubeval": pub["position_id"],
                      "best_2ply": max(rows, key=lambda r: r["eq2"])["position_id"]},
            "loss_millipoints": {"gnubg_0ply": loss(rows[0]), "pubeval": loss(pub),
                                 "random": float(np.mean([loss(r) for r in rows]))}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*", help="folders of gnubg self-play .mat files (default: ../shared/selfplay)")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--scale", type=float, default=2.0, help="judge_dev's number of positions per category times this")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--exclude", action="append", default=[], metavar="SET",
                    help="a judge set (.jsonl or .jsonl.gz) whose positions to leave out; may be repeated")
    args = ap.parse_args(argv)
    folders = args.folders or [SHARED / "selfplay"]
    dev = SHARED / "oracle" / "judge_dev.jsonl"
    sets = ([dev] if dev.exists() else []) + [Path(f) for f in args.exclude]
    exclude = {r["position_id"] for f in sets for r in load_records(f)}
    t0 = time.time()
    cands = candidates(folders, exclude, args.seed)
    quota = {k: round(v * args.scale) for k, v in MIX.items()}
    print(f"{len(cands)} candidate rolls; quota {quota}", flush=True)
    got = run_in_gnubg(GNUBG_BODY, {"candidates": cands, "quota": quota}, timeout=24 * 3600)
    if got is None:
        print("gnubg or `script` not found, or gnubg failed", file=sys.stderr)
        return 1
    recs = [r for r in (record(i, g) for i, g in enumerate(got)) if r is not None]
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".part")
    with gzip.open(tmp, "wt", encoding="utf-8") as f:
        for r in recs:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")
    tmp.replace(out)
    counts = {k: sum(r["judge_category"] == k for r in recs) for k in MIX}
    print(f"{out}: {len(recs)} positions ({len(got) - len(recs)} dropped: plays differ) {counts}, "
          f"{time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
