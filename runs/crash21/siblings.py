"""Sibling rollouts for the crashed net (issue 37, item 5; twenty-first session; for the contact net too since the
twenty-third, ``draw ... contact``): the plays of one roll rolled out together on common dice, as rows that name
their roll for ``train fit --within-roll``.

runs/crash20 fitted the crashed net to rollouts of single positions: each position's rollout error is its own, so
the net learnt values closer to the rollouts and picks among a roll's plays no better (the picks are the
differences).  Here the candidates of a roll share the dice stream (a batch rollout's dice depend only on the seed
and the trial number), so their differences are sharper than their values, and the fit's within-roll term weighs
exactly those differences.

From the repository root (``PYTHONPATH=.``):

* ``python runs/crash21/siblings.py draw POSITIONS.npz ROLLS SEED IDS.txt ROLLS.jsonl [CLASS]``: ROLLS crashed positions drawn
  (SEED) from POSITIONS (runs/crash19's crashed self-play), a roll each (the same generator), and for each the union
  of the three best plays at 0 ply and the three best at 1 ply by the shipped analysis net (1 ply over the eight best
  at 0 ply within 0.16, the analysis' filter), those within 0.2 of the best at 0 or at 1 ply that leave a crashed
  position, kept where there are at least two; IDS gets the
  positions after them (opponent on roll), roll by roll, each once, ROLLS one line a roll; CLASS (``contact``,
  twenty-third session; default ``crashed``) draws that class instead: the positions and the plays kept are of the
  class, and ``rows``' anchors and ``widen``'s plays follow each roll's class (its candidates');
* ``python runs/crash21/siblings.py rows ROLLOUTS ROLLS.jsonl REPEAT TRAIN.npz HELD.npz [LEVEL.npz]``: the rolls all
  of whose plays are rolled out; the last tenth of them held out; TRAIN holds the rest, each row REPEAT times, with
  ``roll``; with LEVEL, TRAIN's targets keep the rollouts' differences within each roll and take the net LEVEL's
  mean over the roll (each of the five probabilities shifted by the roll's mean gap to LEVEL at 0 ply): the rows
  then teach the plays' differences and leave the crashed net's level where its 2-ply rows put it; with ANCHOR
  (``rows ... LEVEL.npz ANCHOR``, twenty-second session) each training roll also holds the ANCHOR best crashed plays
  by LEVEL at 0 ply that were not rolled out, LEVEL's own values their targets, so that the within-roll term holds
  them where LEVEL put them against the candidates (the looks before moved plays never rolled out to the top);
* ``python runs/crash21/siblings.py heldout HELD.npz NET.npz [NET.npz ...]``: each net's 0-ply pick on the held-out
  rolls and its loss by the rollouts (the best candidate's rollout equity less the pick's), paired against the
  first net;
* ``python runs/crash21/siblings.py outside ROLLOUTS ROLLS.jsonl NET.npz [NET.npz ...]``: how often each net's 0-ply
  pick over all the plays of a held-out roll is not a candidate (twenty-second session);
* ``python runs/crash21/siblings.py widen ROLLS.jsonl NET.npz TOP NEW_IDS.txt NEW_ROLLS.jsonl``: each roll's
  candidates widened by NET's TOP best plays at 0 ply that leave a crashed position (a fitted look's own choices,
  which its fit may have moved away from the first candidates); NEW_IDS gets the positions not rolled out yet;
* ``python runs/crash21/siblings.py last CKPT.npz INIT.npz OUT.npz``: the weights of a fit's last epoch (its checkpoint,
  ``data/fit_ckpt.npz``) with INIT's meta, to look at a fit whose held-out rows cannot choose its epoch.
"""
from __future__ import annotations

import json
import sys

import numpy as np

from bgtools.base.fileio import atomic_write
from bgtools.core.movegen import legal_plays
from bgtools.core.position import Position, PositionClass
from bgtools.engine.evaluation import equity, evaluate_boards, evaluate_plays
from bgtools.engine.movefilter import MoveFilter
from bgtools.engine.nets.nn import NeuralEvaluator
from bgtools.engine.nets.networks import load_weights
from bgtools.training.calibrate import read_rollouts

TOP = 3  #: the best plays taken at each depth
KEEP, WITHIN = 8, 0.16  #: the 0-ply plays valued at 1 ply
CLOSE = 0.2  #: a candidate is kept within this of the best at 0 or at 1 ply


def write_ids_and_records(ids_out: str, ids: list[str], records_out: str, records: list) -> None:
    """IDS_OUT one position ID a line (what to roll out) and RECORDS_OUT one JSON record a line (dicts, or lines
    already dumped), each written whole (``atomic_write``)."""
    atomic_write(ids_out, "".join(i + "\n" for i in ids))
    atomic_write(records_out, "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records))


def _class_of(rec: dict) -> PositionClass:
    """The class of a roll's plays (that of its candidates: ``draw`` keeps one class a roll)."""
    return Position.from_id(rec["candidates"][0]).classify()


def draw(src: str, n_rolls: int, seed: int, ids_out: str, rolls_out: str,
         kind: PositionClass = PositionClass.CRASHED) -> None:
    boards = np.load(src)["boards"]
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(boards))
    seen: set[str] = set()
    ids: list[str] = []
    lines: list[str] = []
    chunk = []
    for i in order:
        if len(lines) >= n_rolls:
            break
        pos = Position.from_array(boards[i])
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        plays = legal_plays(pos, dice)
        after = {p.after_id: p for p in plays}
        if len(after) < 2:
            continue
        chunk.append((pos, dice, list(after.values())))
        if len(chunk) == 64 or len(lines) + len(chunk) >= n_rolls:
            for rec in _candidates(chunk, kind):
                if len(lines) >= n_rolls:
                    break
                new = [c for c in rec["candidates"] if c not in seen]
                seen.update(new)
                ids.extend(new)
                lines.append(json.dumps(rec))
            chunk = []
    write_ids_and_records(ids_out, ids, rolls_out, lines)
    print(f"{rolls_out}: {len(lines)} rolls; {ids_out}: {len(ids)} positions to roll out")


def _candidates(chunk, kind: PositionClass):
    after = np.stack([p.after.to_array() for _, _, plays in chunk for p in plays]).astype(np.int8)
    sizes = [len(plays) for _, _, plays in chunk]
    rolls_of = np.repeat(np.arange(len(chunk)), sizes)
    eq0 = equity(evaluate_plays(after, 0, None, rolls_of))
    offs = np.cumsum([0] + sizes)
    screen = MoveFilter(KEEP, WITHIN)
    deep = np.concatenate([offs[k] + screen.select(eq0[offs[k]:offs[k + 1]]) for k in range(len(chunk))])
    eq1 = np.full(eq0.shape, -np.inf)
    eq1[deep] = equity(evaluate_plays(after[deep], 1, None, rolls_of[deep]))
    for k, (pos, dice, plays) in enumerate(chunk):
        e0, e1 = eq0[offs[k]:offs[k + 1]], eq1[offs[k]:offs[k + 1]]
        pick = list(dict.fromkeys([*np.argsort(-e0, kind="stable")[:TOP], *np.argsort(-e1, kind="stable")[:TOP]]))
        pick = [j for j in pick if plays[j].after.classify() == kind
                and (e0[j] >= e0.max() - CLOSE or e1[j] >= e1.max() - CLOSE)]
        if len(pick) >= 2:
            yield {"id": pos.position_id(), "dice": list(dice), "candidates": [plays[j].after_id for j in pick],
                   "eq0": [round(float(e0[j]), 5) for j in pick],
                   "eq1": [round(float(e1[j]), 5) if np.isfinite(e1[j]) else None for j in pick]}


def _complete(rollouts: str, rolls: str, with_recs: bool = False):
    t = read_rollouts(rollouts)
    where = {i.split(":")[0]: k for k, i in enumerate(t.ids)}
    out, recs = [], []
    with open(rolls, encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            ks = [where.get(c) for c in rec["candidates"]]
            if all(k is not None for k in ks):
                out.append(ks)
                recs.append(rec)
    return (t, out, recs) if with_recs else (t, out)


def _anchors(recs: list[dict], level: str, top: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per roll, the ``top`` best plays of the roll's class by the net ``level`` at 0 ply that are not candidates:
    their boards (opponent on roll) and the net's own probabilities as targets."""
    ev = NeuralEvaluator(load_weights(level))
    out = []
    for r in recs:
        cand, kind = set(r["candidates"]), _class_of(r)
        plays = [p for p in legal_plays(Position.from_id(r["id"]), tuple(r["dice"]))
                 if p.after_id not in cand and p.after.classify() == kind]
        uniq = list({p.after_id: p for p in plays}.values())
        if not uniq:
            out.append((np.zeros((0, 2, 25), np.int8), np.zeros((0, 5))))
            continue
        b = np.stack([p.after.to_array() for p in uniq]).astype(np.int8)
        v = evaluate_boards(b, 0, ev)
        keep = np.argsort(equity(v), kind="stable")[:top]  # the mover's best: the opponent's lowest
        out.append((b[keep], v[keep]))
    return out


def rows(rollouts: str, rolls: str, repeat: int, train: str, held: str, level: str | None = None,
         anchor: int = 0) -> None:
    t, done, recs = _complete(rollouts, rolls, True)
    cut = len(done) - len(done) // 10
    probs = t.probs.astype(np.float64)
    if level is not None:  # keep the rollouts' differences within a roll, the level of the net LEVEL
        ks = np.array([k for r in done for k in r], np.int64)
        g = np.repeat(np.arange(len(done)), [len(r) for r in done])
        net = evaluate_boards(t.boards[ks], 0, NeuralEvaluator(load_weights(level)))
        gap = probs[ks] - net
        mean = np.stack([np.bincount(g, gap[:, j]) / np.bincount(g) for j in range(5)], axis=1)[g]
        probs = probs.copy()
        probs[ks] = np.clip(probs[ks] - mean, 0.0, 1.0)

    def arrays(part, rep, anchors=None):
        ks = np.array([k for r in part for k in r], np.int64)
        roll = np.repeat(np.arange(len(part)), [len(r) for r in part])
        boards, targets = t.boards[ks], probs[ks]
        if anchors:  # each roll's anchors after its candidates' rows (the rolls stay whole)
            boards = np.concatenate([boards] + [a[0] for a in anchors])
            targets = np.concatenate([targets] + [a[1] for a in anchors])
            roll = np.concatenate([roll] + [np.full(len(a[0]), j, np.int64) for j, a in enumerate(anchors)])
            order = np.argsort(roll, kind="stable")
            boards, targets, roll = boards[order], targets[order], roll[order]
        if rep > 1:  # the copies of a roll are rolls of their own, so each batch still holds whole rolls
            boards = np.concatenate([boards] * rep)
            targets = np.concatenate([targets] * rep)
            roll = np.concatenate([roll + c * len(part) for c in range(rep)])
        return dict(boards=boards, targets=targets.astype(np.float32), roll=roll)

    anchors = None
    if anchor > 0:
        if level is None:
            raise SystemExit("rows: anchors take their targets from the net LEVEL")
        anchors = _anchors(recs[:cut], level, anchor)
        print(f"anchors: {sum(len(a[0]) for a in anchors)} rows over {cut} rolls")
    np.savez_compressed(train, **arrays(done[:cut], repeat, anchors))
    probs = t.probs.astype(np.float64)  # the held-out rolls keep the rollouts' own values
    np.savez_compressed(held, **arrays(done[cut:], 1))
    print(f"{train}: {cut} rolls ({sum(len(r) for r in done[:cut])} rows) x {repeat}; "
          f"{held}: {len(done) - cut} rolls held out")


def heldout(held: str, nets: list[str]) -> None:
    z = np.load(held)
    roll = z["roll"]
    truth = -equity(z["targets"].astype(np.float64))  # the mover's: the rollouts are of the opponent on roll
    starts = np.flatnonzero(np.r_[True, roll[1:] != roll[:-1]])
    ends = np.r_[starts[1:], len(roll)]
    base = None
    for path in nets:
        got = -equity(evaluate_boards(z["boards"], 0, NeuralEvaluator(load_weights(path))))
        loss = np.array([truth[a:b].max() - truth[a + int(np.argmax(got[a:b]))] for a, b in zip(starts, ends)])
        dev = np.array([np.abs((got[a:b] - truth[a:b]) - (got[a:b] - truth[a:b]).mean()).mean()
                        for a, b in zip(starts, ends)])
        if base is None:
            base = loss
        d = loss - base
        print(f"{path}: {len(starts)} held-out rolls; 0-ply pick loss by the rollouts {1000 * loss.mean():.2f} "
              f"millipoints (paired vs {nets[0]} {1000 * d.mean():+.2f} ± {1000 * d.std(ddof=1) / np.sqrt(len(d)):.2f}); "
              f"mean |within-roll error| {dev.mean():.4f}; mean |error| {np.abs(got - truth).mean():.4f}")


def outside(rollouts: str, rolls: str, nets: list[str]) -> None:
    """How often each net's 0-ply pick over every play of a held-out roll (the last tenth of the complete rolls, as
    ``rows`` holds out) is not one of the roll's rolled-out candidates: the looks' fault the anchors are for."""
    _, done, recs = _complete(rollouts, rolls, True)
    recs = recs[len(done) - len(done) // 10:]
    plays = [legal_plays(Position.from_id(r["id"]), tuple(r["dice"])) for r in recs]
    after = np.stack([p.after.to_array() for ps in plays for p in ps]).astype(np.int8)
    sizes = [len(ps) for ps in plays]
    offs = np.cumsum([0] + sizes)
    for path in nets:
        eq = equity(evaluate_plays(after, 0, NeuralEvaluator(load_weights(path)), np.repeat(np.arange(len(recs)), sizes)))
        out = sum(ps[int(np.argmax(eq[a:b]))].after_id not in r["candidates"]
                  for r, ps, a, b in zip(recs, plays, offs[:-1], offs[1:]))
        print(f"{path}: 0-ply pick outside the candidates in {out} of {len(recs)} held-out rolls")


def widen(rolls: str, net: str, top: int, ids_out: str, rolls_out: str) -> None:
    recs = [json.loads(line) for line in open(rolls, encoding="utf-8")]
    seen = {c for r in recs for c in r["candidates"]}
    ev = NeuralEvaluator(load_weights(net))
    new: list[str] = []
    for lo in range(0, len(recs), 256):
        part = recs[lo:lo + 256]
        plays = [legal_plays(Position.from_id(r["id"]), tuple(r["dice"])) for r in part]
        after = np.stack([p.after.to_array() for ps in plays for p in ps]).astype(np.int8)
        sizes = [len(ps) for ps in plays]
        eq = equity(evaluate_plays(after, 0, ev, np.repeat(np.arange(len(part)), sizes)))
        offs = np.cumsum([0] + sizes)
        for r, ps, a, b in zip(part, plays, offs[:-1], offs[1:]):
            got, kind = 0, _class_of(r)
            for j in np.argsort(-eq[a:b], kind="stable"):
                if got == top:
                    break
                if ps[j].after.classify() != kind:
                    continue
                got += 1
                pid = ps[j].after_id
                if pid not in r["candidates"]:
                    r["candidates"].append(pid)
                    r.setdefault("added", []).append(pid)
                    if pid not in seen:
                        seen.add(pid)
                        new.append(pid)
    write_ids_and_records(ids_out, new, rolls_out, recs)
    print(f"{rolls_out}: {sum(1 for r in recs if 'added' in r)} of {len(recs)} rolls widened; {ids_out}: {len(new)} "
          "positions to roll out")


def last(ckpt: str, init: str, out: str) -> None:
    from bgtools.engine.nets.networks import Weights

    meta = dict(load_weights(init).meta)
    with np.load(ckpt) as z:
        p = [z[f"p{i}"] for i in range(12)]
    layer = [tuple(np.ascontiguousarray(p[4 * c + j], np.float32) for c in range(3)) for j in range(4)]
    Weights(layer[0], layer[1], layer[2], layer[3], meta).save(out)


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "draw":
        draw(args[0], int(args[1]), int(args[2]), args[3], args[4],
             PositionClass[args[5].upper()] if len(args) > 5 else PositionClass.CRASHED)
    elif cmd == "rows":
        rows(args[0], args[1], int(args[2]), args[3], args[4], args[5] if len(args) > 5 else None,
             int(args[6]) if len(args) > 6 else 0)
    elif cmd == "heldout":
        heldout(args[0], args[1:])
    elif cmd == "outside":
        outside(args[0], args[1], args[2:])
    elif cmd == "widen":
        widen(args[0], args[1], int(args[2]), args[3], args[4])
    elif cmd == "last":
        last(args[0], args[1], args[2])
    else:
        raise SystemExit(__doc__)
