"""SVG board diagrams and the board command."""

import xml.etree.ElementTree as ET

from typer.testing import CliRunner

from bgtools.cli.app import app
from bgtools.core.position import Position
from bgtools.analysis.svg import board_svg

NS = "{http://www.w3.org/2000/svg}"


def _checkers(svg: str) -> list:
    root = ET.fromstring(svg)
    return [c for c in root.iter(f"{NS}circle") if c.get("class") == "checker"]


def test_svg_is_well_formed_with_all_checkers():
    svg = board_svg(Position.initial())
    assert len(_checkers(svg)) == 30
    # a 6-checker stack is drawn as five checkers and a count
    p = Position.from_sides([0, 0, 0, 0, 0, 6] + [0] * 19, [0, 0, 0, 0, 0, 2] + [0] * 19)
    svg = board_svg(p)
    assert len(_checkers(svg)) == 7 and ">6</text>" in svg


def test_bar_and_off_and_arrows():
    pos = Position.from_id("NjuHAAmGYBh4XA")  # on roll has a checker on the bar
    svg = board_svg(pos, play=[(25, 21), (6, 4)], caption="42: bar/21 6/4")
    root = ET.fromstring(svg)
    arrows = [e for e in root.iter(f"{NS}line") if e.get("class") == "move-arrow"]
    assert len(arrows) == 2
    assert "42: bar/21 6/4" in svg
    assert len(_checkers(svg)) == sum(pos.on_roll) + sum(pos.opponent)


def test_board_command_writes_file(tmp_path):
    out = tmp_path / "b.svg"
    r = CliRunner().invoke(app, ["board", "4HPwATDgc/ABMA", "-o", str(out), "--play", "8/5 6/5", "--dice", "31"])
    assert r.exit_code == 0, r.output
    assert ET.fromstring(out.read_text()).tag == f"{NS}svg"
    r = CliRunner().invoke(app, ["board", "4HPwATDgc/ABMA", "-o", str(tmp_path / "x.svg"), "--play", "8/4 6/5",
                                 "--dice", "31"])
    assert r.exit_code == 2 and "not a legal play" in r.stderr
    assert not (tmp_path / "x.svg").exists()
