"""With GNU Backgammon installed: gnubg imports our written .mat and SGF to the same positions."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

from bgtools.formats import read_match
from bgtools.formats.matfile import write_mat
from bgtools.formats.sgf import write_sgf

DATA = Path(__file__).parent / "data" / "matches"
GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")
pytestmark = [pytest.mark.gnubg, pytest.mark.skipif(GNUBG is None, reason="gnubg is not installed")]

ILLEGAL = {"cube_take.mat", "doubles_hit_bearoff.mat", "dance.mat"}
FILES = sorted(p for p in DATA.rglob("*") if p.suffix in (".mat", ".txt") and p.name not in ILLEGAL)

SCRIPT = textwrap.dedent("""
    import gnubg, json, sys
    out = {}
    for path, how in json.load(open(sys.argv[-1] if False else %r)):
        gnubg.command('%%s "%%s"' %% (how, path))
        m = gnubg.match()
        games = []
        for g in m['games']:
            games.append([[a.get('action'), a.get('player'), a.get('board'), list(a.get('dice', ()))]
                          for a in g['game']] + [[g['info'].get('winner'), g['info'].get('points-won')]])
        out[path] = games
    json.dump(out, open(%r, 'w'))
""")


def _gnubg_import(jobs, tmp: Path) -> dict:
    spec = tmp / "jobs.json"
    res = tmp / "out.json"
    spec.write_text(json.dumps(jobs))
    script = tmp / "imp.py"
    script.write_text(SCRIPT % (str(spec), str(res)))
    env = dict(os.environ, HOME=str(tmp))
    subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], check=True, capture_output=True, timeout=300, env=env)
    return json.loads(res.read_text())


def test_gnubg_imports_written_files_to_same_positions(tmp_path):
    jobs = []
    for i, f in enumerate(FILES):
        m = read_match(f)
        assert not m.errors
        mat, sgf = tmp_path / f"w{i}.mat", tmp_path / f"w{i}.sgf"
        write_mat(m, mat)
        write_sgf(m, sgf)
        jobs += [(str(f), "import mat"), (str(mat), "import mat"), (str(sgf), "load match")]
    got = _gnubg_import(jobs, tmp_path)
    for i, f in enumerate(FILES):
        orig = got[str(f)]
        assert orig, f
        assert got[str(tmp_path / f"w{i}.mat")] == orig, f"{f.name}: .mat differs"
        # gnubg's SGF loader keeps the same boards, dice and actions
        assert got[str(tmp_path / f"w{i}.sgf")] == orig, f"{f.name}: SGF differs"
