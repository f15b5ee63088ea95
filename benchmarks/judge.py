"""Checker-play strength on the judge set: mean loss of our picks against gnubg's 2-ply values.

The set (``../shared/oracle/judge_dev.jsonl``, described in ``judge_dev.md`` beside it) has
1,035 positions with one roll each and, for every legal play, gnubg's 2-ply cubeless equity
``eq2``.  An engine's loss on a position is ``max eq2 - eq2(its pick)`` in millipoints; its
figure is the mean loss, per ``judge_category`` and overall, with the standard error of the
mean.  gnubg 0-ply, pubeval and a random legal play come from the file's ``loss_millipoints``.
gnubg only measures here: nothing from it is trained on.

Our pick: every legal play ranked by our evaluator at ``--ply`` with the same rule as
:func:`bgtools.engine.evaluation.rank_plays` (0-ply for all plays; at ``ply > 0`` the best 8
within 0.16 are searched deeper), batched over the whole set, and mapped to the file's plays
by the resulting Position ID.  Examples::

    PYTHONPATH=. python benchmarks/judge.py --ply 0
    PYTHONPATH=. python benchmarks/judge.py --ply 1 --weights runs/gen1/fit.npz --json
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

from bgtools.base.errors import BgtoolsError

DEFAULT_SET = Path(__file__).resolve().parents[2] / "shared" / "oracle" / "judge_dev.jsonl"
CATEGORIES = ("contact", "crashed", "race", "bearoff", "on_bar")
BASELINES = ("gnubg_0ply", "pubeval", "random")


class JudgeSetError(BgtoolsError, ValueError):
    """A judge file that cannot be read (one line: file, line number, what is wrong)."""


def load_records(path: str | Path) -> list[dict]:
    """The records of a judge ``.jsonl`` (or ``.jsonl.gz``) file."""
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    out = []
    try:
        with opener(path, "rt", encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                    rec["plays"], rec["dice"], rec["position_id"]  # noqa: B018 - required fields
                except (json.JSONDecodeError, KeyError, TypeError) as e:
                    raise JudgeSetError(f"{path}:{n}: not a judge record ({e})") from None
                out.append(rec)
    except OSError as e:
        raise JudgeSetError(f"{path}: {e.strerror or e}") from None
    return out


def loss_of(record: dict, pick_id: str) -> float:
    """Millipoints lost by the play that leads to ``pick_id``: ``max eq2 - eq2(pick)``."""
    eq2 = {p["position_id"]: p["eq2"] for p in record["plays"]}
    if pick_id not in eq2:
        raise JudgeSetError(f"record idx {record.get('idx')}: play {pick_id} is not among the file's plays")
    return 1000.0 * (max(eq2.values()) - eq2[pick_id])


def summarize(losses: np.ndarray, cats: list[str]) -> dict[str, dict[str, float]]:
    """Per category and ``all``: positions ``n``, ``mean`` loss and its standard error ``se``."""
    out = {}
    cats_arr = np.array(cats)
    for c in (*CATEGORIES, "all"):
        v = losses if c == "all" else losses[cats_arr == c]
        n = int(v.size)
        mean = float(v.mean()) if n else float("nan")
        se = float(v.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
        out[c] = {"n": n, "mean": mean, "se": se}
    return out


#: records judged in one batch by :func:`our_picks` (memory grows with the batch)
CHUNK = 256


def our_picks(records: list[dict], evaluator, ply: int = 0, keep: int = 8, threshold: float = 0.16) -> list[str]:
    """Position ID after the play our ``evaluator`` picks at ``ply`` for each record's roll.

    Same rule as ``rank_plays``: all plays at 0 ply; for ``ply > 0`` the ``keep`` best within
    ``threshold`` of the best are valued at ``ply`` and the best of those wins.  Done in two
    batched calls a chunk of ``CHUNK`` records (a 2-ply batch of the whole 2,070-record set held
    12.5 GB), the same picks as one batch.
    """
    if len(records) > CHUNK:
        return [p for i in range(0, len(records), CHUNK)
                for p in our_picks(records[i:i + CHUNK], evaluator, ply, keep, threshold)]
    from bgtools.core.movegen import legal_plays
    from bgtools.core.position import Position
    from bgtools.engine.evaluation import MoveFilter, best_first, equity, evaluate_plays

    ids: list[list[str]] = []
    roll_plays = []
    boards = []
    for rec in records:
        d = rec["dice"]
        plays = legal_plays(Position.from_id(rec["position_id"]), (int(d[0]), int(d[1])))
        if not plays:
            raise JudgeSetError(f"record idx {rec.get('idx')}: no legal play for {d}")
        ids.append([p.after_id for p in plays])
        roll_plays.append(plays)
        boards.extend(p.after.to_array() for p in plays)
    after = np.stack(boards)
    offs = np.cumsum([0] + [len(x) for x in ids])
    rolls_of = np.repeat(np.arange(len(ids)), [len(x) for x in ids])  # each record's plays are one roll's
    eq = equity(evaluate_plays(after, 0, evaluator, rolls_of))
    if ply > 0:
        move_filter = MoveFilter(keep, threshold)
        deep_idx = np.concatenate([offs[i] + move_filter.select(eq[offs[i]:offs[i + 1]]) for i in range(len(records))])
        deep_eq = np.full(eq.shape, -np.inf)
        deep_eq[deep_idx] = equity(evaluate_plays(after[deep_idx], ply, evaluator))
        eq = deep_eq
    picks = []
    for i in range(len(records)):
        e = eq[offs[i]:offs[i + 1]]
        picks.append(ids[i][best_first(roll_plays[i], e.tolist())[0]])  # of equals, as rank_plays picks
    return picks


def judge(records: list[dict], picks: list[str]) -> dict:
    """Our summary and the baselines' from the file, on the same positions."""
    cats = [r["judge_category"] for r in records]
    ours = np.array([loss_of(r, p) for r, p in zip(records, picks)])
    out = {"ours": summarize(ours, cats)}
    for b in BASELINES:
        out[b] = summarize(np.array([float(r["loss_millipoints"][b]) for r in records]), cats)
    return out


def paired(records: list[dict], picks: list[str], other: list[str]) -> dict[str, dict[str, float]]:
    """Per category: mean of (our loss - the other net's loss) on the same positions, with its
    standard error (negative: we lose less)."""
    d = np.array([loss_of(r, a) - loss_of(r, b) for r, a, b in zip(records, picks, other)])
    return summarize(d, [r["judge_category"] for r in records])


def shown(result: dict) -> list[str]:
    """The categories a set has positions of, and "all" (a set may lack some: judge_third.jsonl.gz
    has only contact and on_bar positions)."""
    return [c for c in (*CATEGORIES, "all") if result["ours"][c]["n"]]


def table(result: dict, label: str) -> str:
    """A Markdown table: mean loss ± standard error per category, ours beside the baselines."""
    cols = [("ours", label), ("gnubg_0ply", "gnubg 0-ply"), ("pubeval", "pubeval"), ("random", "random")]
    lines = ["| category | positions | " + " | ".join(c[1] for c in cols) + " |",
             "| --- | ---: | " + " | ".join("---:" for _ in cols) + " |"]
    for c in shown(result):
        cells = [f"{result[k][c]['mean']:.2f} ± {result[k][c]['se']:.2f}" for k, _ in cols]
        name = f"**{c}**" if c == "all" else c
        lines.append(f"| {name} | {result['ours'][c]['n']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default=str(DEFAULT_SET), help="judge .jsonl[.gz] (default: shared judge_dev)")
    ap.add_argument("--weights", default=None, help="an .npz of weights (default: the shipped net)")
    ap.add_argument("--ply", type=int, choices=(0, 1, 2), default=0)
    ap.add_argument("--against", default=None, metavar="NPZ",
                    help="also judge this net (same ply, searched with the same --prune) and give the paired "
                         "difference")
    ap.add_argument("--limit", type=int, default=0, help="first N records only (0: all)")
    ap.add_argument("--prune", default="none", metavar="NPZ|shipped|none",
                    help="search with a pruning net (bgtools.engine.nets.prune; 'shipped': the shipped one); at 1 and "
                         "2 ply the same net is also judged without it: the picks that differ and the paired "
                         "difference (default: none, the full search)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = ap.parse_args(argv)

    from bgtools.engine.nets.networks import WeightsFileError, load_weights
    from bgtools.engine.nets.nn import NeuralEvaluator

    try:
        records = load_records(args.set)
        w = load_weights(args.weights)
    except (JudgeSetError, WeightsFileError) as e:
        print(f"judge: {e}", file=sys.stderr)
        return 2
    if args.limit:
        records = records[: args.limit]
    pruning = None
    if args.prune != "none":
        from bgtools.engine.nets.prune import Pruning, load_default_pruning

        pruning = load_default_pruning() if args.prune == "shipped" else Pruning.load(args.prune)
        if pruning is None:
            print("judge: no pruning net is shipped", file=sys.stderr)
            return 2
    ev = NeuralEvaluator(w, prune=pruning)
    t0 = time.perf_counter()
    try:
        picks = our_picks(records, ev, args.ply)
        dt_pruned = time.perf_counter() - t0
        res = judge(records, picks)
        if pruning is not None and args.ply > 0:
            t1 = time.perf_counter()
            full = our_picks(records, NeuralEvaluator(w), args.ply)
            res["unpruned"] = {"differ": sum(a != b for a, b in zip(picks, full)), "positions": len(picks),
                               "seconds_pruned": round(dt_pruned, 1),
                               "seconds_unpruned": round(time.perf_counter() - t1, 1),
                               "paired": paired(records, picks, full), "judge": judge(records, full)}
        if args.against:
            # searched as ours is (the same pruning net, or none): the difference is the nets', not the search's
            res["paired_vs_against"] = paired(records, picks, our_picks(records, NeuralEvaluator(
                load_weights(args.against), prune=pruning), args.ply))
    except (JudgeSetError, WeightsFileError) as e:
        print(f"judge: {e}", file=sys.stderr)
        return 2
    dt = time.perf_counter() - t0
    label = f"ours {args.ply}-ply"
    if args.json:
        print(json.dumps({"set": args.set, "weights": args.weights or "shipped", "version": ev.version,
                          "ply": args.ply, "seconds": round(dt, 1), "result": res}, indent=1))
    else:
        print(f"net {ev.version} ({args.weights or 'shipped'}), {args.ply}-ply, {len(records)} positions, "
              f"{dt:.0f} s; mean loss in millipoints ± standard error")
        print(table(res, label))
        if "unpruned" in res:
            u = res["unpruned"]
            pv = u["paired"]
            print(f"pruning {pruning.tag}: {u['differ']} of {u['positions']} picks differ from the full search's; "
                  f"{u['seconds_pruned']} s against {u['seconds_unpruned']} s unpruned; paired difference "
                  "(pruned - full): " + ", ".join(f"{c} {pv[c]['mean']:+.2f} ± {pv[c]['se']:.2f}"
                                                  for c in shown(res)))
        if args.against:
            pv = res["paired_vs_against"]
            print(f"paired difference vs {args.against} (ours - theirs, negative = we lose less): "
                  + ", ".join(f"{c} {pv[c]['mean']:+.2f} ± {pv[c]['se']:.2f}" for c in shown(res)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
