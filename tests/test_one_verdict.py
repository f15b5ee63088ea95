"""One reading, one verdict, one exit status for every command that reads match files
(issue 38, item 13): ``check``, ``convert``, ``export`` and ``annotate`` read a file the same way
(:func:`bgtools.formats.read.read_file`), print the same errors and warnings, and exit with the
same status: 0 read, 1 read but holds errors, 2 cannot be read.  ``check --json`` carries the
warnings it prints; ``export`` leaves no output behind for input that cannot be read.
"""

from __future__ import annotations

import gzip
import json
import warnings

import pytest
from typer.testing import CliRunner

from bgtools.cli.app import app
from bgtools.formats.read import read_file

from binfiles import DATA, REC, XG_DIR, build_xg, first_game_records, xg_parts

#: the shared test.xg (7 games), as parts to damage
HEAD, MEMBERS = xg_parts((XG_DIR / "test.xg").read_bytes())


def _xg(recs: bytes) -> bytes:
    return build_xg(HEAD, dict(MEMBERS, **{"temp.xg": recs}))


def _one_game() -> bytes:
    return first_game_records(MEMBERS["temp.xg"])


def _record_type(recs: bytes, k: int, t: int) -> bytes:
    r = bytearray(recs)
    r[k * REC + 8] = t
    return bytes(r)


def _cases(tmp_path) -> dict:
    """name -> (file, exit status every command gives, what its stderr says)."""
    out = {}
    full = _xg(MEMBERS["temp.xg"])
    # the archive cut after the second game: two games read, the damage is an error (1)
    cut = tmp_path / "cut_late.xg"
    cut.write_bytes(full[:60000])
    out["cut_late"] = (cut, 1, "archive truncated")
    # cut inside the XG header: nothing read (2)
    early = tmp_path / "cut_early.xg"
    early.write_bytes(full[:3000])
    out["cut_early"] = (early, 2, "truncated")
    # an unknown record type where the first game should start: no game read (2)
    unk = tmp_path / "unknown_record.xg"
    unk.write_bytes(_xg(_record_type(_one_game(), 1, 9)))
    out["unknown_record"] = (unk, 2, "unknown record type 9")
    # one byte of the first game header changed (the start position): the game reads from an
    # edited board, not replayed; every command says why, none calls it an error (0)
    r = bytearray(_one_game())
    r[REC + 21] = (r[REC + 21] + 1) % 256
    edited = tmp_path / "edited_header.xg"
    edited.write_bytes(_xg(bytes(r)))
    out["edited_header"] = (edited, 0, "starts from a board set up in the record")
    # gibbon's SGF with board edits (gnu-gibbon/edited.sgf): the same
    sgf = tmp_path / "edited.sgf"
    sgf.write_bytes(gzip.decompress((DATA / "gnu-gibbon" / "edited.sgf.gz").read_bytes()))
    out["edited_sgf"] = (sgf, 0, "starts from a board set up in the record")
    return out


def _run(args):
    r = CliRunner().invoke(app, [str(a) for a in args])
    return r.exit_code, r.stderr


@pytest.mark.parametrize("name", ["cut_late", "cut_early", "unknown_record", "edited_header", "edited_sgf"])
def test_every_command_gives_the_same_verdict(tmp_path, name):
    path, status, says = _cases(tmp_path)[name]
    reading = read_file(path)
    assert reading.verdict == {0: "ok", 1: "errors", 2: "unreadable"}[status]
    got = {}
    csv = tmp_path / "out.csv"
    for cmd, args in (("check", ["check", path]), ("convert", ["convert", path, "-o", tmp_path / "out.mat"]),
                      ("export", ["export", path, "-o", csv]),
                      ("annotate", ["annotate", "--ply", "0", "--no-cache", path])):
        code, err = _run(args)
        got[cmd] = code
        assert says in err, (cmd, err)
        assert "Traceback" not in err
        if status == 0:
            assert "error" not in err, (cmd, err)  # a warning, and nothing claimed to be an error
            assert "not analysed (errors" not in err
        if cmd == "export" and status == 2:
            assert not csv.exists()  # nothing left behind, not even a header
        if cmd == "convert" and name.startswith("edited"):
            # no output holds a game's edited start: it is not converted (rather than written as a
            # game from the opening position), said on stderr, and that is no error in the input
            assert not (tmp_path / "out.mat").exists() and "not converted (see the warnings above)" in err
    assert got == dict.fromkeys(got, status), got


def test_check_json_carries_the_warnings_it_prints(tmp_path):
    f = tmp_path / "unknown.mat"
    f.write_text(" 1 point match\n\n Game 1\n A : 0                          B : 0\n"
                 "  1) 31: ????                    42: 8/4 6/4\n")
    code, err = _run(["check", f])
    assert code == 0 and "bgtools: warning:" in err and "not written" in err
    r = CliRunner().invoke(app, ["check", "--json", str(f)])
    rec = json.loads(r.stdout)
    assert rec["errors"] == [] and len(rec["warnings"]) == 1
    w = rec["warnings"][0]
    assert (w["line"], w["column"], w["game"], w["move"]) == (5, 6, 1, 1) and "not written" in w["message"]
    assert w["message"] in err


def test_read_file_collects_warnings_instead_of_issuing_them(tmp_path):
    f = tmp_path / "unknown.mat"
    f.write_text(" 1 point match\n\n Game 1\n A : 0                          B : 0\n"
                 "  1) 31: ????                    42: 8/4 6/4\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = read_file(f)
    assert r.verdict == "ok" and len(r.warnings) == 1 and r.warnings[0].is_warning


def test_export_of_readable_and_unreadable_files_keeps_the_rows(tmp_path):
    good = tmp_path / "good.mat"
    good.write_text(" 1 point match\n\n Game 1\n A : 0                          B : 0\n"
                    "  1) 31: 8/5 6/5                 42: 8/4 6/4\n")
    bad = tmp_path / "bad.xg"
    bad.write_bytes(b"RGMH" + bytes(100))
    csv = tmp_path / "out.csv"
    code, err = _run(["export", good, bad, "-o", csv])
    assert code == 2 and csv.exists() and len(csv.read_text().splitlines()) == 3
