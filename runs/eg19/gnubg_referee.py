"""Issue 35, out of sample: the late-game plays settled by rollouts, judged by GNU Backgammon on matches the settings
were not chosen on (docs/analysis.md, "Late-game plays settled by rollouts").

The 20 gnubg self-play matches of ``../shared/selfplay`` (money and match play) and the shipped 7-point sample are
analysed at 2 ply as ``annotate`` does (late-game plays settled by rollouts); each settled play is valued again with
``endgame_trials=0`` (the analysis before); gnubg 1.07 then ranks every play of each such position at 2 ply (cubeful
at the score, gnubg's default filters, it only measures), and the cost by gnubg's equities of our first play with and
without the rollouts is summed: "PR by gnubg" = 500 x the mean cost over the settled plays.  From the repository root:

    python runs/eg19/gnubg_referee.py > runs/eg19/gnubg_referee.txt
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bgtools.analysis import AnalysisSettings, analyse_match
from bgtools.analysis.analyse import DecisionValuer
from bgtools.core.movegen import legal_plays
from bgtools.formats import read_match

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from xg_checker_gnubg import HINT_SETTINGS  # noqa: E402

GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")

_SCRIPT = HINT_SETTINGS + r'''
out = open({out!r}, 'w')
for line in open({inp!r}):
    q = json.loads(line)
    pid, mid = q['id'].split(':')
    gnubg.command('set jacoby %s' % ('on' if q['jacoby'] else 'off'))
    gnubg.command('new match %d' % q['length'] if q['length'] else 'new session')
    gnubg.command('set matchid %s' % mid)
    gnubg.command('set board %s' % pid)
    gnubg.command('set dice %s %s' % (q['dice'][0], q['dice'][1]))
    h = gnubg.hint(64)['hint']
    out.write(json.dumps({{'key': q['key'], 'moves': [[x['move'], x['equity']] for x in h]}}) + '\n')
out.close()
'''


def files() -> list[Path]:
    shared = ROOT.parent / "shared" / "selfplay"
    return sorted(shared.glob("[0-9][0-9][0-9].mat")) + [ROOT / "samples" / "selfplay-7pt.mat"]


def main() -> int:
    if GNUBG is None:
        print("gnubg is not installed", file=sys.stderr)
        return 2
    rows = []
    for f in files():
        m = read_match(str(f), keep_steps=True)
        a = analyse_match(m, settings=AnalysisSettings(ply=2), cache=None)
        before = DecisionValuer(AnalysisSettings(ply=2, endgame_trials=0))
        for d in a.decisions:
            if d.kind != "checker" or d.forced or not d.candidates or not d.candidates[0].trials:
                continue
            dice = (int(d.dice[0]), int(d.dice[1]))
            play = next(p for p in legal_plays(d.position, dice) if p.notation() == d.played)
            old, _, _ = before.checker(d.position, dice, play, d.state)
            rows.append({"key": f"{f.name}:{d.row_key}", "id": f"{d.position_id}:{d.match_id}", "length": m.length,
                         "dice": f"{max(dice)}{min(dice)}", "on": d.candidates[0].move, "off": old[0].move,
                         "phase": d.phase, "jacoby": bool(d.state.jacoby)})
    with tempfile.TemporaryDirectory() as tmp:
        inp, out, script = Path(tmp) / "q.jsonl", Path(tmp) / "a.jsonl", Path(tmp) / "s.py"
        inp.write_text("".join(json.dumps(r) + "\n" for r in rows))
        script.write_text(_SCRIPT.format(inp=str(inp), out=str(out), ply=2))
        subprocess.run([str(GNUBG), "-t", "-q", "-p", str(script)], capture_output=True, text=True, timeout=36000)
        answers = {x["key"]: x["moves"] for x in map(json.loads, out.read_text().splitlines())}
    cost = {"on": 0.0, "off": 0.0}
    same = {"on": 0, "off": 0}
    n = changed = 0
    for r in rows:
        moves = dict((mv, eq) for mv, eq in answers.get(r["key"], []))
        if not moves or r["on"] not in moves or r["off"] not in moves:
            continue
        best = max(moves.values())
        first = max(moves, key=lambda mv: moves[mv])
        n += 1
        changed += r["on"] != r["off"]
        for k in ("on", "off"):
            cost[k] += best - moves[r[k]]
            same[k] += r[k] == first
        if r["on"] != r["off"]:
            print(f"  {r['id']} {r['dice']} ({r['phase']}): settled {r['on']} (gnubg {best - moves[r['on']]:.3f}), "
                  f"2 ply {r['off']} (gnubg {best - moves[r['off']]:.3f})")
    print(f"{len(rows)} settled plays in {len(files())} matches, {n} ranked by gnubg at 2 ply, {changed} picks changed")
    for k, name in (("off", "2 ply alone (--endgame-trials 0)"), ("on", "settled by rollouts (the default)")):
        print(f"{name}: gnubg's first play {same[k]}/{n}, PR by gnubg {500 * cost[k] / max(n, 1):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
