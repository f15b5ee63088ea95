"""Race counts (Keith, Thorp, Kleinman, Trice, EPC) and their place in ``bgtools show``."""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from bgtools.engine import bearoff as B
from conftest import isolated_cache
from bgtools.engine.cubeful import race as R
from bgtools.core.position import Position


@pytest.fixture(autouse=True, scope="module")
def cache(tmp_path_factory):
    with isolated_cache(tmp_path_factory.getbasetemp() / "bgtools-cache"):
        yield


def side(points: dict[int, int]) -> tuple[int, ...]:
    s = [0] * 25
    for p, n in points.items():
        s[p - 1] = n
    return tuple(s)


def test_keith_count_adjustments():
    # 3 on the ace (+4), 2 on the 2 (+1), 5 on the 3 (+2), empty 4 (+1), 5 and 6 occupied
    s = side({1: 3, 2: 2, 3: 5, 5: 1, 6: 4})
    pips = 3 + 4 + 15 + 5 + 24
    assert R.keith_count(s) == pips + 4 + 1 + 2 + 1


def test_thorp_count():
    s = side({1: 3, 2: 2, 3: 5, 5: 1, 6: 4})  # 15 men, 3 on the ace, 5 home points
    assert R.thorp_count(s) == 51 + 2 * 15 + 3 - 5


def test_trice_point_of_last_take_examples():
    assert R.trice_plt(74) == 83
    assert R.trice_plt(55) == 62
    assert R.trice_plt(62) == 62 + 7 + 1
    assert R.trice_plt(61) == 61 + 8


def test_kleinman():
    k, w = R.kleinman(100, 100)
    assert k == pytest.approx(4 / (2 * np.sqrt(196)))
    assert 0.5 < w < 0.6
    assert R.kleinman(60, 90)[1] > 0.95


def test_epc_exact_in_database_and_estimated_outside():
    db = B.load_databases()
    s = side({1: 2, 3: 3, 6: 4})
    epc, exact = R.effective_pip_count(s)
    assert exact and epc == pytest.approx(db.os_mean[B.bearoff_index(np.array(s))] * 49 / 6)
    assert epc > 2 + 9 + 24  # never below the pip count
    epc2, exact2 = R.effective_pip_count(side({1: 2, 3: 3, 6: 3, 9: 1}))
    assert not exact2 and epc2 > epc


def test_cube_advice_orders_with_the_lead():
    opp = side({6: 6, 5: 5, 4: 4})  # 77 pips
    strong = Position.from_sides(side({6: 4, 5: 4, 4: 4, 3: 3}), opp)  # 69 pips, on roll
    weak = Position.from_sides(side({6: 5, 5: 5, 4: 3, 8: 2}), opp)  # 81 pips
    s, w = R.race_counts(strong), R.race_counts(weak)
    assert s.pips == (69, 77)
    assert s.keith_advice.double and not w.keith_advice.double
    assert s.thorp_advice.double and not w.thorp_advice.double
    assert s.trice_advice.double and not w.trice_advice.double
    assert s.kleinman_win > w.kleinman_win
    big = Position.from_sides(side({6: 5, 5: 5, 1: 5}), side({6: 10, 5: 5}))  # 60 vs 85
    assert R.race_counts(big).keith_advice.action == "double/pass"


def test_race_report_only_for_races():
    assert R.race_report(Position.initial()) == {}
    pos = Position.from_sides(side({6: 5, 5: 5, 3: 5}), side({6: 5, 5: 5, 4: 5}))
    rep = R.race_report(pos)
    assert rep["race"].startswith("pips 70-75")
    assert rep["race_counts"]["trice_plt"] == R.trice_plt(70)


def test_show_prints_race_counts():
    from bgtools.cli.app import app

    pos = Position.from_sides(side({6: 5, 5: 5, 3: 5}), side({6: 5, 5: 5, 4: 5}))
    res = CliRunner().invoke(app, ["show", pos.position_id(), "--json"])
    assert res.exit_code == 0, res.output
    info = json.loads(res.stdout)
    assert info["race_counts"]["pips"] == [70, 75]
    res = CliRunner().invoke(app, ["show", pos.position_id()])
    assert "Race: pips 70-75" in res.output
