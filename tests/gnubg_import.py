"""Import match files into GNU Backgammon (where it is installed) and say what it rebuilt.

:func:`gnubg_counts` runs one gnubg process over a list of files (``import mat`` for text,
``load match`` for SGF) and returns, per file, the record of ``gnubg_counts.jsonl``
(games, plays, doubles, final score, length) plus each game's winner and points, or
``{"error": ...}`` where gnubg failed on it.  A file on which gnubg itself crashes (it does
on a score line whose first name is empty) is retried alone, so one file never costs the
others their answer.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import textwrap
from pathlib import Path
from typing import Optional

GNUBG: Optional[str] = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")

_SCRIPT = textwrap.dedent("""
    import gnubg, json
    jobs = json.load(open(%(jobs)r))
    out = {}
    for path in jobs:
        how = 'load match' if path.lower().endswith('.sgf') else 'import mat'
        try:
            gnubg.command('%%s "%%s"' %% (how, path))
            m = gnubg.match()
        except Exception as e:
            out[path] = {'error': repr(e)}
            continue
        if not m or not m.get('games'):
            out[path] = {'error': 'no games'}
            continue
        info = m['match-info']
        games, plays, doubles = [], 0, 0
        for g in m['games']:
            for a in g['game']:
                if a.get('action') == 'move' and a.get('move'):
                    plays += 1
                elif a.get('action') == 'double':
                    doubles += 1
            gi = g['info']
            games.append([gi.get('winner'), gi.get('points-won'), gi.get('score-X'), gi.get('score-O')])
        last = games[-1]
        score = [last[2] or 0, last[3] or 0]
        if last[0] == 'X':
            score[0] += last[1]
        elif last[0] == 'O':
            score[1] += last[1]
        out[path] = {'games': len(games), 'plays': plays, 'doubles': doubles, 'final_score': score,
                     'length': info.get('match-length', 0), 'results': games}
        json.dump(out, open(%(out)r, 'w'))
    json.dump(out, open(%(out)r, 'w'))
""")


def _run(paths: list[str], folder: Path) -> dict:
    jobs, res = folder / "jobs.json", folder / "out.json"
    jobs.write_text(json.dumps(paths))
    res.unlink(missing_ok=True)
    script = folder / "imp.py"
    script.write_text(_SCRIPT % {"jobs": str(jobs), "out": str(res)})
    assert GNUBG is not None
    subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], capture_output=True, timeout=600,
                   env=dict(os.environ, HOME=str(folder)))
    return json.loads(res.read_text()) if res.exists() else {}


def gnubg_counts(paths: list[str]) -> dict:
    """``{path: record}`` for every path (see the module docstring); needs :data:`GNUBG`."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        got = _run(paths, folder)
        for p in paths:
            if p not in got:  # gnubg stopped on this one (or before it): alone, then the rest
                got.update(_run([p], folder))
                got.setdefault(p, {"error": "gnubg stopped on this file"})
                rest = [q for q in paths if q not in got]
                if rest:
                    got.update(gnubg_counts(rest))
                break
    return got
