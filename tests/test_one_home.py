"""One home per fact: the rolls, the error classes, the phases and the match-file suffixes are
defined once and every user takes them from there."""

from __future__ import annotations

import json

import numpy as np

from bgtools.core import dice


def test_the_rolls_are_gnubgs_21_with_their_chances():
    assert dice.ROLLS.shape == (21, 2) and dice.ROLLS.dtype == np.int64
    assert dice.ROLL_PAIRS[0] == (6, 6) and dice.ROLL_PAIRS[-1] == (1, 1)
    assert all(a >= b for a, b in dice.ROLL_PAIRS) and len(set(dice.ROLL_PAIRS)) == 21
    assert dice.ROLL_WEIGHTS.tolist() == [1.0 / 36 if a == b else 2.0 / 36 for a, b in dice.ROLL_PAIRS]
    assert dice.ROLL_WAYS.sum() == 36
    for i, (a, b) in enumerate(dice.ROLL_PAIRS):
        assert dice.ROLL_INDEX[a, b] == i
    asc = [tuple(r) for r in dice.ASCENDING_ROLLS.tolist()]
    assert asc == sorted((b, a) for a, b in dice.ROLL_PAIRS) and asc[0] == (1, 1) and asc[-1] == (6, 6)
    assert dice.ASCENDING_ROLL_WEIGHTS.sum() == 1.0


def test_every_module_takes_the_rolls_from_the_core():
    from bgtools.core import movegen
    from bgtools.engine import chooser, children
    from bgtools.rollouts import dice as rdice

    assert movegen.ROLLS is dice.ROLL_PAIRS
    assert children.ROLLS is dice.ROLLS and chooser.GNUBG_ROLLS is dice.ROLLS
    assert chooser.GNUBG_ROLL_WEIGHTS is dice.ROLL_WEIGHTS
    assert rdice.ROLLS is dice.ROLLS and rdice.ROLL_WEIGHTS is dice.ROLL_WEIGHTS and rdice.ROLL_INDEX is dice.ROLL_INDEX


def test_error_classes_are_one_str_enum():
    from bgtools.analysis import records
    from bgtools.model import fileanalysis as fa

    assert records.ErrorClass is fa.ErrorClass and records.ERROR_THRESHOLDS is fa.ERROR_THRESHOLDS
    bad = records.error_class(0.07)
    assert bad is fa.ErrorClass.BAD and bad == "bad" and f"{bad}" == "bad" and str(bad) == repr("bad")[1:-1]
    assert repr(bad) == "'bad'" and json.dumps({bad: [bad]}) == '{"bad": ["bad"]}'
    assert {"bad": 1}[bad] == 1
    assert fa.error_class(None) == "" and fa.error_class(0.5) is fa.ErrorClass.VERY_BAD
    assert [str(c) for c in fa.ERRORS] == ["doubtful", "bad", "very bad"]


def test_the_report_states_the_thresholds_it_classes_by():
    from bgtools.analysis import report

    assert report._ERROR_LIMITS == "doubtful &gt; 0.03, bad &gt; 0.06, very bad &gt; 0.12"


def test_phases_are_the_position_classes():
    from bgtools.analysis.records import PHASES
    from bgtools.core.position import Position, PositionClass

    assert PHASES == ("over", "bearoff", "race", "crashed", "contact")
    assert PHASES[int(Position.initial().classify())] == PositionClass.CONTACT.label == "contact"


def test_annotate_names_outputs_by_the_match_suffixes(tmp_path):
    from bgtools.analysis.annotate import output_paths
    from bgtools.formats.read import MATCH_SUFFIXES

    for suffix in MATCH_SUFFIXES:
        assert output_paths(f"in/a{suffix}", "out", ["sgf"]) == {"sgf": "out/a.analysed.sgf"}, suffix
    assert output_paths("in/a.SGF.gz", "out", ["html"]) == {"html": "out/a.report.html"}
    assert output_paths("in/.mat", "out", ["json"]) == {"json": "out/.mat.analysis.json"}  # no name left: kept


def test_mwc_to_equity_is_one_formula():
    from bgtools.engine.cubeful.met import CubeStake, load_met

    met = load_met()
    for am, ao, cube in ((3, 5, 1), (2, 4, 2), (7, 7, 1), (1, 3, 1)):
        stake = CubeStake.at(met, am, ao, cube)
        lose, win = met.after(am, ao, -cube), met.after(am, ao, cube)
        assert (stake.win, stake.lose) == (win, lose)
        assert met.emg(lose, am, ao, cube) == stake.normalise(lose) and abs(stake.normalise(lose) + 1.0) < 1e-12
        assert abs(met.emg(win, am, ao, cube) - 1.0) < 1e-12
        mid = 0.5 * (win + lose)
        assert met.emg(mid, am, ao, cube) == stake.normalise(mid) == 0.0
