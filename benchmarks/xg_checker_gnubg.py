"""How often GNU Backgammon's best checker play is eXtreme Gammon's, on the same analysed ``.xg``
files and by the same measures as ``benchmarks/xg_agreement.py`` (issue 35): a yardstick for
bgtools' own figure, since gnubg is what the issue's peer figure (90.3 % same play) comes from.

Every unforced play that XG analysed with two or more candidates is put to gnubg 1.07
(``gnubg -t -q -p``: ``set matchid``, ``set board``, ``set dice``, ``gnubg.hint``; cubeful checker
play at the match score, pruning, deterministic, no noise, gnubg's default move filters) at
``--ply``.  Reported, pooled and by XG's gap between its two best plays: the share of plays where
gnubg's first play is XG's, and "advice PR by XG" (500 x XG's equity cost of gnubg's first play,
over the plays where XG lists it).  gnubg only measures here.

    python benchmarks/xg_checker_gnubg.py [--ply 2] [--jobs 2] [--files F.xg ...] [--json rows.jsonl]

``--json`` writes one line per compared play: ``file``, ``key``, ``id``, ``dice``, gnubg's ``move``, ``same``
(gnubg's first play is XG's), ``xg_cost`` (XG's equity cost of it; null where XG does not list it).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Optional, Sequence

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from xg_agreement import GAPS, _after, default_files, gap_bucket  # noqa: E402

from bgtools.core.movegen import legal_plays  # noqa: E402
from bgtools.formats import read_match  # noqa: E402
from bgtools.model import Roll  # noqa: E402

GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")

#: gnubg's settings for ranking the plays of a roll at {ply} (cubeful at the score, pruning, deterministic, no noise),
#: as the start of a script gnubg runs (``runs/eg19/gnubg_referee.py`` starts its own with them too)
HINT_SETTINGS = r'''
import gnubg, json
for c in ['set confirm default yes', 'set player 0 human', 'set player 1 human', 'set automatic game off',
          'set automatic roll off', 'set threads 1', 'set cube use on',
          'set evaluation chequerplay evaluation cubeful on', 'set evaluation chequerplay evaluation prune on',
          'set evaluation chequerplay evaluation deterministic on', 'set evaluation chequerplay evaluation noise 0',
          'set evaluation chequerplay evaluation plies {ply}']:
    gnubg.command(c)
'''

_SCRIPT = HINT_SETTINGS + r'''
out = open({out!r}, 'w')
for line in open({inp!r}):
    q = json.loads(line)
    pid, mid = q['id'].split(':')
    gnubg.command('new match %d' % q['length'] if q['length'] else 'new session')
    gnubg.command('set matchid %s' % mid)
    gnubg.command('set board %s' % pid)
    gnubg.command('set dice %s %s' % (q['dice'][0], q['dice'][1]))
    h = gnubg.hint(1)['hint']
    out.write(json.dumps({{'key': q['key'], 'got': gnubg.positionid() + ':' + gnubg.matchid(),
                          'move': h[0]['move'] if h else None}}) + '\n')
out.close()
'''


def decisions(path: Path) -> list[dict]:
    """Each unforced play of ``path`` that XG analysed with two or more candidates, in the games
    bgtools analyses (those it replays without an error, as ``xg_agreement.py`` counts): the
    position and match ID before it, the dice, XG's candidates as resulting boards with their
    equities."""
    m = read_match(path, keep_steps=True)
    rows = []
    for step in m.replay():
        if m.games[step.game_index].errors:
            continue  # a game bgtools cannot replay to its end is left out of its analysis too
        a = step.action
        an = getattr(a, "analysis", None)
        if not isinstance(a, Roll) or step.legal_plays < 2 or an is None or an.error is None \
                or len(an.candidates) < 2:
            continue
        d = sorted(a.dice, reverse=True)
        eqs = [c.equity for c in an.candidates]
        rows.append({"key": f"{path.name}:{step.game_number}:{step.index}",
                     "id": f"{step.position_id}:{step.match_id}", "length": m.length, "dice": f"{d[0]}{d[1]}",
                     "xg": [_after(step.position, c.steps) for c in an.candidates], "eqs": eqs,
                     "gap": eqs[0] - max(eqs[1:])})
    return rows


def ask_gnubg(job: tuple[list[dict], int]) -> list[dict]:
    queries, ply = job
    with tempfile.TemporaryDirectory() as tmp:
        inp, out = Path(tmp) / "q.jsonl", Path(tmp) / "a.jsonl"
        inp.write_text("".join(json.dumps({k: q[k] for k in ("key", "id", "length", "dice")}) + "\n"
                               for q in queries))
        script = Path(tmp) / "s.py"
        script.write_text(_SCRIPT.format(inp=str(inp), out=str(out), ply=ply))
        subprocess.run([str(GNUBG), "-t", "-q", "-p", str(script)], capture_output=True, text=True, timeout=36000)
        return [json.loads(line) for line in out.read_text().splitlines()]


def after_of(row: dict, move: Optional[str]) -> Optional[bytes]:
    """The board after gnubg's ``move`` (gnubg's notation, which bgtools writes too)."""
    from bgtools.core.position import Position

    pos = Position.from_id(row["id"].split(":")[0])
    for p in legal_plays(pos, (int(row["dice"][0]), int(row["dice"][1]))):
        if p.notation() == move:
            return p.after.to_array().tobytes()
    return None


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ply", type=int, default=2, choices=(0, 1, 2, 3))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--files", nargs="*", type=Path, default=None)
    ap.add_argument("--json", type=Path, default=None, help="write one JSON line per compared play to this file")
    args = ap.parse_args(argv)
    if GNUBG is None:
        print("gnubg is not installed", file=sys.stderr)
        return 2
    files = args.files or default_files()
    rows = [r for f in files for r in decisions(f)]
    t0 = time.time()
    parts = [(rows[k::args.jobs], args.ply) for k in range(args.jobs)]
    with ProcessPoolExecutor(args.jobs) as ex:
        answers = {a["key"]: a for part in ex.map(ask_gnubg, parts) for a in part}
    wall = time.time() - t0
    same: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    cost: list[float] = []
    unmatched = unlisted = 0
    per_file: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    out_rows: list[dict] = []
    for r in rows:
        a = answers.get(r["key"])
        if a is None or a["got"] != r["id"]:
            unmatched += 1
            continue
        after = after_of(r, a["move"])
        if after is None:
            unmatched += 1
            continue
        hit = after == r["xg"][0]
        for b in ("all", gap_bucket(r["gap"])):
            same[b][0] += hit
            same[b][1] += 1
        f = r["key"].split(":")[0]
        per_file[f][0] += hit
        per_file[f][1] += 1
        k = next((i for i, x in enumerate(r["xg"]) if x == after), None)
        if k is None:
            unlisted += 1
        else:
            cost.append(max(0.0, r["eqs"][0] - r["eqs"][k]))
        out_rows.append({"file": f, "key": r["key"], "id": r["id"], "dice": r["dice"], "move": a["move"], "same": hit,
                         "xg_cost": None if k is None else max(0.0, r["eqs"][0] - r["eqs"][k])})
    if args.json is not None:
        args.json.write_text("".join(json.dumps(x) + "\n" for x in out_rows))
    print(f"# python benchmarks/xg_checker_gnubg.py --ply {args.ply} --jobs {args.jobs}: {len(files)} files, "
          f"{len(rows)} plays, gnubg {wall:.0f} s wall")
    for f, (h, n) in sorted(per_file.items()):
        print(f"{f}: same play {100 * h / n:5.1f}% ({h}/{n})")
    h, n = same["all"]
    print(f"POOLED: gnubg {args.ply}-ply's first play is XG's: {100 * h / n:.1f}% ({h}/{n})")
    for _, name in GAPS:
        h, n = same[name]
        if n:
            print(f"    XG gap {name:>9}: {100 * h / n:5.1f}% ({h}/{n})")
    print(f"advice PR by XG: {500 * sum(cost) / len(cost):.2f} (over {len(cost)} plays where XG lists gnubg's; "
          f"{unlisted} not listed)")
    if unmatched:
        print(f"{unmatched} plays not compared (gnubg's position or play not matched)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
