"""SVG board diagrams and the board command."""

import itertools
import re
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from bgtools.cli.app import app
from bgtools.core.matchstate import MatchState, parse_any_id
from bgtools.core.moveparse import parse_play
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
    arrows = [e for e in root.iter() if e.get("class") == "move-arrow"]
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


# -- the cube on its owner's side, arrows that share a point (issue 13) --------------------------
_H = 420  # board height without the caption


def _cube(svg: str):
    root = ET.fromstring(svg)
    cubes = [g for g in root.iter(f"{NS}g") if g.get("class") == "cube"]
    assert len(cubes) <= 1
    if not cubes:
        return None
    rect = cubes[0].find(f"{NS}rect")
    y = float(rect.get("y")) + float(rect.get("height")) / 2
    return cubes[0].get("data-owner"), y, cubes[0].find(f"{NS}text").text


@pytest.mark.parametrize("owner, on_roll, side", [(-1, 1, "centred"), (1, 1, "on roll"), (0, 1, "opponent"),
                                                  (0, 0, "on roll"), (1, 0, "opponent")])
def test_cube_is_drawn_on_its_owners_side(owner, on_roll, side):
    ms = MatchState(cube=1 if owner == -1 else 4, cube_owner=owner, player_on_roll=on_roll, turn=on_roll)
    got_side, y, text = _cube(board_svg(Position.initial(), state=ms))
    assert got_side == side and text == str(ms.cube)
    if side == "centred":
        assert y == pytest.approx(_H / 2)
    elif side == "on roll":  # the player on roll sits at the bottom
        assert y > _H / 2 + 40
    else:
        assert y < _H / 2 - 40


def test_cube_without_state():
    assert _cube(board_svg(Position.initial())) is None
    assert _cube(board_svg(Position.initial(), cube=2))[0] == "centred"
    assert _cube(board_svg(Position.initial(), cube=8, cube_owner="opponent"))[:2] == ("opponent", _H / 2 - 70)
    with pytest.raises(ValueError, match="cube owner"):
        board_svg(Position.initial(), cube=2, cube_owner="me")


_CURVE = re.compile(r"M([-\d.]+),([-\d.]+) Q([-\d.]+),([-\d.]+) ([-\d.]+),([-\d.]+)$")


def _curves(svg: str) -> list[tuple[float, ...]]:
    root = ET.fromstring(svg)
    out = []
    for e in root.iter():
        if e.get("class") == "move-arrow":
            m = _CURVE.match(e.get("d"))
            assert m, e.get("d")
            out.append(tuple(float(v) for v in m.groups()))
    return out


def _apart(p, q, d=8.0) -> bool:
    return ((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) ** 0.5 >= d


def _all_visible(curves) -> None:
    for a, b in itertools.combinations(curves, 2):
        assert _apart(a[4:], b[4:]), (a, b)  # arrow heads not on top of each other
        assert _apart(a[2:4], b[2:4], 4.0), (a, b)  # nor the same curve
    for c in curves:
        assert all(0 <= c[i] <= 560 and 0 <= c[i + 1] <= _H for i in (0, 2, 4)), c


@pytest.mark.parametrize("play, dice", [("8/5 6/5", (3, 1)), ("6/4(2) 13/11(2)", (2, 2)), ("8/2 6/2", (6, 4)),
                                        ("13/7 13/7 8/2 8/2", (6, 6)), ("24/18/14", (6, 4))])
def test_arrows_that_share_a_point_are_all_visible(play, dice):
    pos = Position.initial()
    made = parse_play(pos, dice, play)
    curves = _curves(board_svg(pos, play=made.steps))
    assert len(curves) == len(made.steps)
    _all_visible(curves)


def test_steps_of_one_checker_join():
    pos = Position.initial()
    made = parse_play(pos, (6, 4), "24/14")
    (a, b) = _curves(board_svg(pos, play=made.steps))
    assert made.steps[0][1] == made.steps[1][0] and a[4:] == b[:2]


def test_board_command_draws_both_arrows(tmp_path):
    out = tmp_path / "x.svg"
    r = CliRunner().invoke(app, ["board", "4HPwATDgc/ABMA", "--play", "8/5 6/5", "--dice", "31", "-o", str(out)])
    assert r.exit_code == 0, r.output
    curves = _curves(out.read_text())
    assert len(curves) == 2
    _all_visible(curves)


def test_board_command_draws_the_owned_cube_on_its_side(tmp_path):
    xgid = "XGID=-b----E-C---eE---c-e----B-:2:1:1:00:0:0:0:7:10"  # cube 4 owned by the player on roll
    pos, ms = parse_any_id(xgid)
    assert ms.cube_owner == ms.player_on_roll
    out = tmp_path / "c.svg"
    r = CliRunner().invoke(app, ["board", xgid, "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert _cube(out.read_text())[0] == "on roll"
