"""Fresh gnubg self-play matches, for a judge set of positions no bgtools run has seen.

gnubg 1.07 plays itself (both players its 0-ply engine, the cube off so every game is played to the end, its
Mersenne Twister seeded with ``--first-seed`` + k for match k) and each match is exported as gnubg's ``.mat``
into ``--output``.  The same gnubg build replays them exactly from the seeds, so the matches are not committed;
the judge set made from them (``benchmarks/make_judge_set.py``) is.  gnubg measures here only.

    python benchmarks/gnubg_selfplay.py -o /tmp/g4 --matches 40 --first-seed 6001 --length 9
    python benchmarks/make_judge_set.py /tmp/g4 -o benchmarks/data/judge_fourth.jsonl.gz --seed 4 \\
        --exclude benchmarks/data/judge_selfplay.jsonl.gz --exclude benchmarks/data/judge_third.jsonl.gz

Needs gnubg (``gnubg`` on PATH or /usr/games); about 8 s a 9-point match.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.gnubg_pty import run_in_gnubg  # noqa: E402

BODY = r'''
for seed in JOB['seeds']:
    for c in ['set player 0 gnubg', 'set player 1 gnubg', 'set cube use off', 'set rng mersenne', 'set seed %d' % seed,
              'set player 0 chequerplay evaluation plies 0', 'set player 1 chequerplay evaluation plies 0',
              'new match %d' % JOB['length']]:
        gnubg.command(c)
    gnubg.command('export match mat %s/m%d.mat' % (JOB['out'], seed))
done(len(JOB['seeds']))
'''


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", required=True, help="folder for the .mat files (made if missing)")
    ap.add_argument("--matches", type=int, default=40)
    ap.add_argument("--first-seed", type=int, default=6001)
    ap.add_argument("--length", type=int, default=9, help="match length (points)")
    args = ap.parse_args(argv)
    out = Path(args.output).resolve()
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    seeds = list(range(args.first_seed, args.first_seed + args.matches))
    got = run_in_gnubg(BODY, {"seeds": seeds, "length": args.length, "out": str(out)}, timeout=24 * 3600)
    if got is None:
        print("gnubg or `script` not found, or gnubg failed", file=sys.stderr)
        return 1
    made = sorted(out.glob("m*.mat"))
    print(f"{out}: {len(made)} matches (seeds {seeds[0]}-{seeds[-1]}, {args.length} points, cube off), "
          f"{time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
