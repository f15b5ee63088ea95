"""Another match equity table: read from gnubg's XML or bgtools' JSON, chosen with --met or BGTOOLS_MET
(read by the command line only, which passes the table down: no environment in the library)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from bgtools.cli.app import app
from bgtools.analysis import AnalysisSettings, analyse_match
from bgtools.analysis.evalcache import EvalCache
from bgtools.cli.common import MET_ENV
from bgtools.engine.assess import assess_position
from bgtools.core.matchstate import parse_any_id
from bgtools.engine.cubeful.met import METFileError, load_met
from bgtools.formats import read_match

XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:2:4:0:7:10"  # 7-point match, 5-away 3-away
GNUBG_XML = Path("/usr/share/gnubg/met/Kazaross-XG2.xml")


def _xml(pre: np.ndarray, post: np.ndarray, name: str = "Test table", kind: str = "explicit") -> str:
    """A table in gnubg's met.dtd form (written here, not copied)."""
    rows = "\n".join("<row>" + "".join(f"<me>{v:.6f}</me>" for v in r) + "</row>" for r in pre)
    prow = "<row>" + "".join(f"<me>{v:.6f}</me>" for v in post) + "</row>"
    return (f'<?xml version="1.0"?>\n<met><info><name>{name}</name><length>{len(pre)}</length></info>\n'
            f'<pre-crawford-table type="{kind}">\n{rows}\n</pre-crawford-table>\n'
            f'<post-crawford-table type="explicit" player="both">{prow}</post-crawford-table></met>\n')


def test_a_gnubg_xml_table_reads_back_the_same_values(tmp_path):
    ship = load_met("kazaross-xg2")
    f = tmp_path / "t.xml"
    f.write_text(_xml(ship.pre, ship.post))
    m = load_met(str(f))
    assert m.name == "Test table" and m.length == 25
    assert np.abs(m.pre - ship.pre).max() < 1e-6 and np.abs(m.post - ship.post).max() < 1e-6


@pytest.mark.skipif(not GNUBG_XML.is_file(), reason="gnubg's match equity tables are not installed")
def test_gnubgs_own_kazaross_file_equals_the_shipped_table():
    ship, theirs = load_met("kazaross-xg2"), load_met(str(GNUBG_XML))
    assert np.array_equal(ship.pre, theirs.pre) and np.array_equal(ship.post, theirs.post)


def test_a_json_table_and_a_smaller_one(tmp_path):
    pre = np.array([[0.5, 0.7, 0.8], [0.3, 0.5, 0.6], [0.2, 0.4, 0.5]])
    post = np.array([0.5, 0.48, 0.32])
    f = tmp_path / "t.json"
    f.write_text(json.dumps({"name": "small", "pre_crawford": pre.tolist(), "post_crawford": post.tolist()}))
    m = load_met(str(f))
    assert m.length == 3 and m.mwc(1, 2) == pytest.approx(0.7) and m.mwc(2, 1, post_crawford=True) == 0.48
    with pytest.raises(ValueError, match="beyond the 3-point"):
        m.mwc(4, 2)


@pytest.mark.parametrize("text, message", [
    ("<met><pre-crawford-table>", "not XML"),
    ("<other/>", "not a gnubg match equity table"),
    (None, "only explicit tables"),
    ('{"name": "x", "pre_crawford": [[0.5, 0.6]], "post_crawford": [0.5]}', "must be n x n"),
    ('{"name": "x", "pre_crawford": [[1.5]], "post_crawford": [0.5]}', "between 0 and 1"),
])
def test_bad_tables_are_refused_with_the_file_named(tmp_path, text, message):
    f = tmp_path / "bad.xml"
    f.write_text(text if text is not None else _xml(np.full((2, 2), 0.5), np.full(2, 0.5), kind="mec"))
    with pytest.raises(METFileError, match=message) as e:
        load_met(str(f))
    assert str(f) in str(e.value)


def _edited(tmp_path) -> Path:
    ship = load_met()
    pre = ship.pre.copy()
    pre[4, 2] = 0.25  # 5-away 3-away
    pre[3, 2] = 0.30  # 4-away 3-away
    f = tmp_path / "t.xml"
    f.write_text(_xml(pre, ship.post, "Edited"))
    return f


def test_the_library_reads_no_environment_the_command_line_does(tmp_path, monkeypatch):
    f = _edited(tmp_path)
    monkeypatch.setenv(MET_ENV, str(f))
    assert load_met().name == "Kazaross-XG2"  # the library: the shipped table unless given one
    pos, ms = parse_any_id(XGID)
    edited = load_met(str(f))
    assert edited.mwc(5, 3) == 0.25
    a = assess_position(pos, ms, 0, met=edited)
    assert a.rules.endswith("MET Edited")
    assert a.cube.to_dict() != assess_position(pos, ms, 0).cube.to_dict()
    # the command line reads BGTOOLS_MET once, as the default of --met, and passes the table down
    r = CliRunner()
    by_env = r.invoke(app, ["eval", XGID, "--json"], env={MET_ENV: str(f)})
    by_option = r.invoke(app, ["--met", str(f), "eval", XGID, "--json"], env={MET_ENV: None})
    assert by_env.exit_code == 0 and by_option.exit_code == 0, by_env.output
    assert json.loads(by_env.stdout) == json.loads(by_option.stdout) == {"id": XGID, **a.to_dict()}
    assert os.environ[MET_ENV] == str(f)  # left as it was


MATCH = (" 5 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   42: 8/4 6/4\n"
         "  2) 65: 24/13   53: 8/3 6/3\n  3) 62: 24/18 13/11\n")


def test_analysis_takes_the_table_in_its_settings_and_shares_the_cubeless_cache(tmp_path, monkeypatch):
    """The table travels in AnalysisSettings (to workers too, no environment); the evaluation
    cache holds cubeless values, which no table changes: another table re-uses them and gives
    what a run without the cache gives."""
    monkeypatch.delenv(MET_ENV, raising=False)
    edited = load_met(str(_edited(tmp_path)))
    m = read_match(MATCH)
    ship_s, edit_s = AnalysisSettings(ply=1), AnalysisSettings(ply=1, met=edited)
    assert ship_s.to_dict() == edit_s.to_dict() and "met" not in ship_s.to_dict()  # the JSON is as before
    with EvalCache(tmp_path / "e.sqlite") as cache:
        first = analyse_match(m, settings=ship_s, cache=cache)
        other = analyse_match(m, settings=edit_s, cache=cache)
    # (the counts are the cache's, since it was opened): the second run only hit
    assert first.cache_misses > 0 and other.cache_misses == first.cache_misses
    assert other.cache_hits - first.cache_hits >= first.cache_misses
    fresh = analyse_match(m, settings=edit_s, cache=None)
    assert other.to_dict() == fresh.to_dict()
    assert first.to_dict() != other.to_dict()  # 5-away 3-away is valued under the edited table


def test_met_option_changes_match_values_and_refuses_a_bad_file(tmp_path, monkeypatch):
    monkeypatch.delenv(MET_ENV, raising=False)
    ship = load_met()
    pre = ship.pre.copy()
    pre[2:6, 2:6] = 0.5 + 0.5 * (pre[2:6, 2:6] - 0.5)  # flatter around 5-away 3-away
    f = tmp_path / "flat.xml"
    f.write_text(_xml(pre, ship.post, "Flat"))
    r = CliRunner()
    base = r.invoke(app, ["eval", XGID, "--json"])
    other = r.invoke(app, ["--met", str(f), "eval", XGID, "--json"])
    assert MET_ENV not in os.environ  # the option sets no environment
    assert base.exit_code == 0 and other.exit_code == 0, other.output
    a, b = json.loads(base.stdout), json.loads(other.stdout)
    assert a["cube"]["mwc"]["double_pass"] != b["cube"]["mwc"]["double_pass"]
    bad = r.invoke(app, ["--met", str(tmp_path / "missing.xml"), "eval", XGID])
    assert bad.exit_code == 2 and "not a match equity table name" in bad.output
    assert "Traceback" not in bad.output


def test_library_analyse_keys_finished_work_on_the_table(tmp_path, monkeypatch):
    """A library analysed under one table is analysed again under another, and only then;
    the shipped table adds nothing to the key (libraries analysed before stay done)."""
    monkeypatch.delenv(MET_ENV, raising=False)
    f = _edited(tmp_path)
    (tmp_path / "m.mat").write_text(MATCH)
    db = str(tmp_path / "lib.sqlite")
    r = CliRunner()

    def bg(*args):
        res = r.invoke(app, list(args))
        assert res.exit_code == 0, res.output
        return res.stdout

    bg("library", "add", str(tmp_path / "m.mat"), "--db", db)
    assert bg("library", "analyse", "--ply", "0", "--db", db).startswith("1 analysed")
    assert bg("library", "analyse", "--ply", "0", "--db", db).startswith("0 analysed")
    assert bg("--met", str(f), "library", "analyse", "--ply", "0", "--db", db).startswith("1 analysed")
    assert bg("--met", str(f), "library", "analyse", "--ply", "0", "--db", db).startswith("0 analysed")
    assert bg("library", "analyse", "--ply", "0", "--db", db).startswith("1 analysed")
