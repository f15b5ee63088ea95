"""``bgtools check`` reads every match file in tests/data as GNU Backgammon reads it.

For each file, ``gnubg_counts.jsonl`` beside it holds what gnubg 1.07 rebuilt from it (games,
checker plays, doubles, final score, length): ``import mat`` / ``import oldmoves`` / ``load
match``; gnubg imports neither XG nor BGBlitz files, so for those (``"via": "mat"``) it is
what gnubg rebuilt from bgtools' ``.mat`` of every game read (tests/gnubg_import.py, which also
regenerates missing records: ``python tests/gnubg_import.py FOLDER``).

* Without gnubg: every match file has a record, and ``bgtools check --json`` of each file gives
  the record's figures, and no error, except where the file breaks the rules (``KNOWN`` in
  tests/gnubg_import.py).
* With gnubg installed: gnubg is run on every file again and must give the stored figures, and
  ``check`` must agree with it; ``BGTOOLS_GNUBG_FOLDERS`` (folders, ``os.pathsep``-separated)
  adds more folders to the live comparison (e.g. the shared ``realmatches``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bgtools.cli.app import app
from bgtools.formats.read import expand_paths

from gnubg_import import GNUBG, KNOWN, gnubg_counts, gnubg_readable, record_file

DATA = Path(__file__).parent / "data" / "matches"
ROOTS = [DATA / "realmatches", DATA / "selfplay"]
FIELDS = ("games", "plays", "doubles", "final_score", "length")

def _records(root: Path) -> dict[str, dict]:
    return {r["file"]: r for r in map(json.loads, (root / "gnubg_counts.jsonl").read_text().splitlines())}


def _files(root: Path) -> list[Path]:
    return [Path(f) for f in expand_paths([root])]


def _check_json(paths: list[Path]) -> dict[str, dict]:
    r = CliRunner().invoke(app, ["check", "--json", *map(str, paths)])
    assert r.exit_code in (0, 1), r.stderr
    recs = [json.loads(x) for x in r.stdout.splitlines()]
    return {rec["file"]: rec for rec in recs}


def _want(name: str, gnubg: dict) -> tuple[dict, int]:
    diff, errors = KNOWN.get(name, ({}, 0))
    return {k: diff.get(k, gnubg[k]) for k in FIELDS}, errors


def test_every_match_file_has_a_gnubg_record():
    for root in ROOTS:
        names = sorted(record_file(p, root) for p in _files(root))
        assert names == sorted(_records(root)), root
    assert sum(len(_records(r)) for r in ROOTS) == 111


@pytest.mark.parametrize("root", ROOTS, ids=lambda p: p.name)
def test_check_reads_every_file_as_gnubg_does(root):
    recs = _records(root)
    files = _files(root)
    got = _check_json(files)
    assert len(got) == len(files) == len(recs)
    for p in files:
        rec = recs[record_file(p, root)]
        assert rec["ok"]
        s = got[str(p)]
        want, errors = _want(p.name, rec)
        assert {k: s[k] for k in FIELDS} == want, p.name
        assert len(s["errors"]) == errors, (p.name, s["errors"])


def _live_roots() -> list[Path]:
    extra = os.environ.get("BGTOOLS_GNUBG_FOLDERS", "")
    return ROOTS + [Path(x) for x in extra.split(os.pathsep) if x]


@pytest.mark.gnubg
@pytest.mark.skipif(GNUBG is None, reason="gnubg is not installed")
def test_gnubg_itself_reads_every_file_as_check_does(tmp_path):
    compared = 0
    for root in _live_roots():
        files = _files(root)
        given = {p: gnubg_readable(p, tmp_path)[0] for p in files}
        live = gnubg_counts([str(q) for q in given.values()])
        got = _check_json(files)
        stored = _records(root) if (root / "gnubg_counts.jsonl").exists() else {}
        for p in files:
            g = live[str(given[p])]
            assert "error" not in g, (p, g)
            rec = stored.get(record_file(p, root))
            if rec is not None:  # the stored figures are gnubg's
                assert {k: g[k] for k in FIELDS} == {k: rec[k] for k in FIELDS}, p
            want, errors = _want(p.name, g)
            s = got[str(p)]
            assert {k: s[k] for k in FIELDS} == want, p
            assert len(s["errors"]) == errors, (p, s["errors"])
            compared += 1
    assert compared >= 111
