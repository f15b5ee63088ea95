"""Import match files into GNU Backgammon (where it is installed) and say what it rebuilt.

:func:`gnubg_counts` runs one gnubg process over a list of files (``import mat`` for .mat text,
``import oldmoves`` for FIBS oldmoves, ``load match`` for SGF) and returns, per file, the record of ``gnubg_counts.jsonl``
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
        low = path.lower()
        how = 'load match' if low.endswith('.sgf') else 'import oldmoves' if low.endswith('.oldmoves') else 'import mat'
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


#: files where check and gnubg differ, and why: the check figures that differ from gnubg's, and
#: the number of errors check reports
KNOWN = {
    # illegal plays (gnubg drops the play, or for dance.mat counts the 21 played as 24/23 6/5)
    "cube_take.mat": ({}, 1),
    "doubles_hit_bearoff.mat": ({}, 1),
    "dance.mat": ({"plays": 2}, 1),
    # an illegal play in the BGBlitz / XG record: bgtools keeps the plays after it, unchecked; gnubg
    # drops it and the plays its board then refuses
    "5nqfGw9bWG3deTaU.bgf": ({"plays": 217}, 1),
    "Squire-J\u00f8rgensen-Harmand-Unger 7 point match 18-08-2024.xg": ({"plays": 313}, 1),
    # game 9 is a resignation before the first roll, which gnubg's .mat import does not record
    "uwvEbd63UvdX7SDin5o_Iw.bgf": ({"final_score": [7, 6]}, 0),
}


#: binary formats gnubg 1.07 cannot import: it reads bgtools' ``.mat`` conversion of them instead
VIA_MAT = (".xg", ".xgp", ".bgf")


def gnubg_readable(path: Path, folder: Path) -> tuple[Path, bool]:
    """The file gnubg is given for ``path`` (and whether it is a conversion): the file itself,
    an SGF ungzipped into ``folder``, or for an XG/BGBlitz file every game bgtools read from it
    written as ``.mat`` (games with illegal plays too, as the .mat files that have them: gnubg
    drops such plays)."""
    import gzip
    import warnings

    from bgtools.formats import read_match
    from bgtools.formats.matfile import write_mat

    name = path.name
    if name.lower().endswith(".gz"):
        dest = folder / f"{abs(hash(str(path)))}-{name[:-3]}"
        dest.write_bytes(gzip.decompress(path.read_bytes()))
        return dest, False
    if path.suffix.lower() in VIA_MAT:
        dest = folder / f"{abs(hash(str(path)))}-{path.stem}.mat"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            write_mat(read_match(path), dest)
        return dest, True
    return path, False


def record_file(path: Path, root: Path) -> str:
    """The name of ``path`` in a ``gnubg_counts.jsonl`` of ``root`` (an SGF without its ``.gz``)."""
    rel = path.relative_to(root).as_posix()
    return rel[:-3] if rel.lower().endswith(".sgf.gz") else rel


if __name__ == "__main__":  # print the records missing from the gnubg_counts.jsonl of each folder given
    import sys

    from bgtools.formats.read import expand_paths

    for root in map(Path, sys.argv[1:]):
        have = {json.loads(x)["file"] for x in (root / "gnubg_counts.jsonl").read_text().splitlines()}
        with tempfile.TemporaryDirectory() as tmp:
            todo = {}
            for f in expand_paths([root]):
                p = Path(f)
                if record_file(p, root) not in have:
                    todo[p] = gnubg_readable(p, Path(tmp))
            got = gnubg_counts([str(q) for q, _ in todo.values()])
            for p, (q, via) in todo.items():
                g = got[str(q)]
                rec = {"ok": "error" not in g, **{k: g.get(k) for k in ("games", "plays", "doubles", "final_score",
                                                                          "length")}, "file": record_file(p, root)}
                if via:
                    rec["via"] = "mat"  # gnubg read bgtools' .mat of the file (gnubg_readable)
                print(json.dumps(rec, ensure_ascii=False))
