"""Why our 1 ply turns clear plays round (issue 35; twenty-fifth session).

Against XG's own analysis our 0 ply agrees as often as gnubg's, our 1 ply much less (docs/analysis.md, the table by
ply): where XG's best play leads by 0.05 or more, our 1 ply misses it 18 times, gnubg's 4
(``runs/cube18/who_agrees_ply1.txt``).  A 1-ply value is the mean over the opponent's 21 rolls of the net's value of
the position after his best reply (by 0 ply), we on roll: the leaves.  Here the leaves of those plays are rolled
out, and each play's 1-ply value is made again with the leaves valued by the rollouts instead of the net: if that
picks XG's play, the net's values of the leaves are what turned the play round (not the reply chosen, nor the
search).

From the repository root (``PYTHONPATH=.``):

* ``python runs/ply25/leaves.py draw OURS.jsonl GNUBG.jsonl IDS.txt PLAYS.jsonl``: the plays of
  ``benchmarks/xg_agreement.py --ply 1 --json OURS`` and ``benchmarks/xg_checker_gnubg.py --ply 1 --json GNUBG`` where
  XG's best leads by 0.05 or more and gnubg's 1-ply pick is XG's, ours is not; for each, XG's play and ours, and for
  each of those the 21 leaves of our 1 ply (the shipped analysis net, its pruning net); IDS the leaves to roll out;
* ``python runs/ply25/leaves.py control OURS.jsonl GNUBG.jsonl IDS.txt PLAYS.jsonl N SEED``: the control: N plays
  (drawn with SEED) of the same kind where both 1-ply picks are XG's, each with XG's play and the best other play by
  our 0 ply;
* ``python runs/ply25/leaves.py report PLAYS.jsonl ROLLOUTS``: per play, both candidates' cubeless 1-ply equity with
  the leaves valued by the net and by the rollouts, and how often each picks XG's play.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from bgtools.core.dice import ROLL_WEIGHTS
from bgtools.core.movegen import legal_plays
from bgtools.core.position import Position
from bgtools.engine.evaluation import best_replies, equity, evaluate_boards

W = np.asarray(ROLL_WEIGHTS, np.float64) / np.sum(ROLL_WEIGHTS)


def _key(file: str, pid: str, dice: str) -> tuple[str, str, str]:
    return Path(file).name, pid, "".join(sorted(str(dice), reverse=True))


def draw(ours_path: str, gnubg_path: str, ids_out: str, plays_out: str, control: int = 0, seed: int = 0) -> None:
    gnubg = {}
    for line in open(gnubg_path, encoding="utf-8"):
        r = json.loads(line)
        gnubg.setdefault(_key(r["file"], r["id"], r["dice"]), r)
    ids: list[str] = []
    seen: set[str] = set()
    out = []
    rows = []
    for line in open(ours_path, encoding="utf-8"):
        r = json.loads(line)
        if r.get("kind", "checker") != "checker" or "xg_best" not in r or r["bucket"] != ">= 0.05":
            continue
        g = gnubg.get(_key(r["file"], r["id"], r["dice"]))
        if g is None or not g["same"] or r["same"] != bool(control):
            continue
        rows.append(r)
    if control:
        rows = [rows[i] for i in sorted(np.random.default_rng(seed).choice(len(rows), control, replace=False))]
    for r in rows:
        pos = Position.from_id(r["id"].split(":")[0])
        dice = tuple(int(c) for c in r["dice"])
        plays = {p.notation(): p for p in legal_plays(pos, dice)}
        if control:  # XG's play (ours too) and the best other play by our 0 ply
            other = [n for n in plays if n != r["xg_best"]]
            if not other:
                continue
            e0 = -equity(evaluate_boards(np.stack([plays[n].after.to_array() for n in other]), 0))
            names = [r["xg_best"], other[int(np.argmax(e0))]]
        else:
            names = [r["xg_best"], r["ours"]]
        boards = np.stack([plays[n].after.to_array() for n in names])  # the opponent on roll
        leaves, probs = best_replies(boards)  # after his best reply by 0 ply, we on roll
        leaf_ids = [Position.from_array(b).position_id() for b in leaves]
        net = equity(probs).reshape(2, 21)
        out.append({"file": Path(r["file"]).name, "id": r["id"], "dice": r["dice"], "plays": names,
                    "xg_cost": r["xg_cost"], "leaves": [leaf_ids[:21], leaf_ids[21:]], "net": net.tolist()})
        for i in leaf_ids:
            if i not in seen:
                seen.add(i)
                ids.append(i)
    Path(ids_out).write_text("".join(i + "\n" for i in ids), encoding="utf-8")
    Path(plays_out).write_text("".join(json.dumps(o) + "\n" for o in out), encoding="utf-8")
    print(f"{plays_out}: {len(out)} plays; {ids_out}: {len(ids)} leaves to roll out")


def rollout_values(path: str, sign: float = 1.0) -> dict[str, float]:
    """Each rolled-out position's cubeless equity for the player on roll (times ``sign``), by Position ID."""
    from bgtools.training.calibrate import read_rollouts

    t = read_rollouts(path)
    return {i.split(":")[0]: sign * float(equity(p[None].astype(np.float64))[0]) for i, p in zip(t.ids, t.probs)}


def complete(path: str, ro: dict[str, float]):
    """The records of ``path`` (a line each, with ``leaves`` and ``net``) whose leaves are all in ``ro``: each with
    the net's and the rollouts' leaf values (float64[candidates, 21])."""
    for line in open(path, encoding="utf-8"):
        o = json.loads(line)
        if all(i in ro for side in o["leaves"] for i in side):
            yield o, np.array(o["net"]), np.array([[ro[i] for i in side] for side in o["leaves"]])


def report(plays_path: str, rollouts: str) -> None:
    ro = rollout_values(rollouts)
    n = by_net = by_ro = 0
    err = []
    for o, net, rol in complete(plays_path, ro):
        n += 1
        v_net, v_ro = net @ W, rol @ W
        by_net += v_net[0] > v_net[1]
        by_ro += v_ro[0] > v_ro[1]
        d = (net - rol) @ W  # the net's error on each candidate's 1-ply value
        err.append(d[1] - d[0])
        print(f"{o['id']} {o['dice']}: XG {o['plays'][0]} / ours {o['plays'][1]}: 1 ply by the net "
              f"{v_net[0]:+.3f} / {v_net[1]:+.3f}, by the rolled-out leaves {v_ro[0]:+.3f} / {v_ro[1]:+.3f}")
    e = np.array(err)
    print(f"{n} plays: 1 ply picks XG's play with the net's leaves {by_net}, with the rolled-out leaves {by_ro}; the net's "
          f"leaf errors favour our play over XG's by {e.mean():+.3f} ± {e.std(ddof=1) / np.sqrt(max(n, 1)):.3f} a play")


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "draw":
        draw(*args[:4])
    elif cmd == "control":
        draw(*args[:4], control=int(args[4]), seed=int(args[5]))
    elif cmd == "report":
        report(*args[:2])
    else:
        raise SystemExit(__doc__)
