"""Issue 35, out of sample, by gnubg's rollouts: the plays where the late-game rollouts changed our pick
(``runs/eg19/gnubg_referee.py``'s listing), each of the two picks rolled out by gnubg 1.07 (the position after the
play, the opponent on roll: cubeful at the score, variance reduction, 0-ply cubeful play, 648 trials, seed 1, the
same dice for both), so that gnubg's rollouts, not its 2-ply search, say which pick was better.  From the repository
root (gnubg and ``script`` needed):

    python runs/eg19/gnubg_rollout_referee.py runs/eg19/gnubg_referee.txt > runs/eg19/gnubg_rollout_referee.txt
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from gnubg_pty import run_in_gnubg  # noqa: E402

from bgtools.core.matchstate import parse_any_id  # noqa: E402
from bgtools.core.movegen import legal_plays  # noqa: E402

LINE = re.compile(r"^  (\S+) (\d)(\d) \((\w+)\): settled (.+?) \(gnubg ([\d.]+)\), 2 ply (.+?) \(gnubg ([\d.]+)\)$")

BODY = r'''
for c in BASE + ['set rollout seed 1', 'set rollout trials 648', 'set rollout cubeful on',
                 'set rollout chequerplay cubeful on', 'set rollout cubedecision cubeful on', 'set rollout varredn on',
                 'set rollout chequerplay prune on', 'set rollout cubedecision prune on']:
    gnubg.command(c)
out = []
for key, pid, mid, length, jacoby in JOB['runs']:
    gnubg.command('set jacoby %s' % ('on' if jacoby else 'off'))
    gnubg.command('new match %d' % length if length else 'new session')
    gnubg.command('set matchid %s' % mid)
    gnubg.command('set board %s' % pid)
    txt, cpu = capture('rollout')
    out.append({'key': key, 'text': txt[txt.rfind('Rollout done'):]})
done(out)
'''


def main(listing: str) -> int:
    rows = []
    for line in open(listing, encoding="utf-8"):
        m = LINE.match(line.rstrip("\n"))
        if m:
            rows.append(m.groups())
    runs = []
    for gid, d1, d2, cls, on, _, off, _ in rows:
        pos, st = parse_any_id(gid)
        plays = {p.notation(): p for p in legal_plays(pos, (int(d1), int(d2)))}
        after = st.replace(player_on_roll=1 - st.player_on_roll, dice=(0, 0))
        for which, move in (("on", on), ("off", off)):
            runs.append((f"{gid} {d1}{d2} {which}", plays[move].after.position_id(), after.match_id(),
                         st.match_length, bool(st.jacoby)))
    got = run_in_gnubg(BODY, {"runs": runs}, timeout=7200)
    if got is None:
        print("gnubg or `script` not found, or gnubg gave no result", file=sys.stderr)
        return 2
    value = {}
    for g in got:
        m = re.search(r"CF\s+(-?[\d.]+)", g["text"])
        if m:
            value[g["key"]] = -float(m.group(1))  # the opponent's cubeful equity, turned to ours
    totals = {}
    for gid, d1, d2, cls, on, gon, off, goff in rows:
        v_on, v_off = value.get(f"{gid} {d1}{d2} on"), value.get(f"{gid} {d1}{d2} off")
        if v_on is None or v_off is None:
            continue
        t = totals.setdefault(cls, [0, 0.0, 0, 0.0, 0.0])
        t[0] += 1
        t[1] += v_on - v_off
        t[2] += v_on > v_off
        t[3] += float(gon)
        t[4] += float(goff)
        print(f"  {gid} {d1}{d2} ({cls}): settled {on} {v_on:+.4f}, 2 ply {off} {v_off:+.4f}: "
              f"settled minus 2 ply {v_on - v_off:+.4f} by gnubg's rollout (gnubg 2 ply: {float(goff) - float(gon):+.4f})")
    for cls, t in sorted(totals.items()):
        print(f"{cls}: {t[0]} changed picks; settled better by gnubg's rollouts in {t[2]}; mean settled minus 2 ply "
              f"{t[1] / t[0]:+.4f} by gnubg's rollouts, {(t[4] - t[3]) / t[0]:+.4f} by gnubg's 2 ply")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
