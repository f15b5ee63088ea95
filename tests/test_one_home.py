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


def test_the_cube_is_one_value_with_one_flip():
    from dataclasses import replace

    from bgtools.core.matchstate import MatchState
    from bgtools.core.position import Position
    from bgtools.engine.cubeful.cube import CENTRED, OPP_OWNS, OWNED, CubeArgs, CubeInfo, flip_owner
    from bgtools.engine.cubeful.met import load_met
    from bgtools.rollouts.candidates import _opponent_job
    from bgtools.rollouts.settings import Job

    info = CubeInfo(2, OWNED, (3, 5), False)
    other = info.flipped()
    assert (other.cube, other.owner, other.away) == (2, OPP_OWNS, (5, 3)) and other.flipped() == info
    assert [int(flip_owner(o)) for o in (CENTRED, OWNED, OPP_OWNS)] == [CENTRED, OPP_OWNS, OWNED]
    assert info.doubled() == replace(info, cube=4, owner=OPP_OWNS) and not info.doubled().can_double
    assert not CubeInfo(1, CENTRED, (3, 1), crawford=True).can_double and CubeInfo(1, CENTRED, (3, 1)).can_double
    # a rollout job holds the same value as the cube code reads from the match state
    state = MatchState(match_length=7, score=(2, 4), cube=2, cube_owner=1, player_on_roll=1)
    job = Job.make(Position.initial(), state)
    assert job.info == CubeInfo.from_state(state) == CubeInfo(2, OWNED, (3, 5))
    assert _opponent_job(job, Position.initial().to_array()).info == job.info.flipped()
    # the kernels take it bundled, the match equity table's arrays beside it
    met = load_met()
    args = info.args(met)
    assert isinstance(args, CubeArgs) and args[:7] == (False, 3, 5, 2, OWNED, False, False)
    assert args.pre is met.pre and args.post is met.post


def test_the_cube_kernels_take_the_bundle_and_turn_it_round_once():
    """The cube formula of the opponent's cube (the one flip) values the position after a play as
    the analysis does, and the bundle gives what cube_decision gives."""
    from bgtools.engine.cubeful.cube import ACTIONS, CubeInfo, Doubling, cube_decision, cube_values, cubeful_value
    from bgtools.engine.cubeful.met import load_met

    met = load_met()
    p = np.array([0.62, 0.20, 0.01, 0.08, 0.002])
    for info in (CubeInfo(), CubeInfo(2, 1, (0, 0)), CubeInfo(1, 0, (3, 5)), CubeInfo(2, 2, (4, 2)),
                 CubeInfo(1, 0, (1, 4), crawford=True)):
        out = np.zeros(4)
        code = cube_values(p, info.args(met), 0.68, out)
        d = cube_decision(p, info, met=met)
        assert (d.nd, d.dt, d.dp) == tuple(out[:3]) and d.action == ("no double", "double", "too good",
                                                                     "unavailable")[code]
        assert cubeful_value(p, info.args(met), 0.68) == d.nd
        assert d.action is ACTIONS[code] and (code == 3 or Doubling.of(d.nd, d.dt, d.dp) is d.action)
        # doubled: the no double value of the doubled cube is the double/take value
        assert cubeful_value(p, info.doubled().args(met), 0.68) == d.dt


def test_cube_actions_are_one_str_enum():
    import pathlib

    import bgtools
    from bgtools.engine.cubeful.cubeaction import NOT_AVAILABLE, CubeAction, cube_advice, proper_action

    assert NOT_AVAILABLE is CubeAction.NOT_AVAILABLE and str(NOT_AVAILABLE) == "no cube action available"
    assert len(CubeAction) == 21 and json.dumps(CubeAction.DOUBLE_TAKE) == '"Double, take"'
    for a in CubeAction:
        if a is CubeAction.NOT_AVAILABLE:
            continue
        words = str(a)
        assert a.response == words.rsplit(", ", 1)[1]
        assert a.doubles == (words.startswith(("Double", "Redouble", "Optional")))
        assert CubeAction.of(a.kind, "redouble" not in words.lower(), a.response) is a
        assert a.short == {"no": "ND", "too good": "TG"}.get(a.kind, "D") + "/" + a.response[0].upper()
    got = {proper_action(nd, dt, 1.0, win_gammon=wg, match=m, centred=c, jacoby=j, beavers=b)
           for nd in (-0.5, 0.0, 0.5, 1.1) for dt in (-1.0, -0.2, 0.5, 0.8, 1.2, 1.5) for wg in (False, True)
           for m in (False, True) for c in (False, True) for j in (False, True) for b in (False, True)}
    assert all(isinstance(a, CubeAction) for a in got) and len(got) >= 16
    assert isinstance(cube_advice([0.7, 0.0, 0.0, 0.0, 0.0]).action, CubeAction)
    # nobody reads the action back from its words
    root = pathlib.Path(bgtools.__file__).parent
    for f in root.rglob("*.py"):
        text = f.read_text()
        for probe in ('action.startswith(', 'action.endswith(', '"pass" in c.action', '"pass" in self.action'):
            assert probe not in text or f.name == "xgpr.py", (f, probe)


def test_a_file_of_ids_is_read_one_way(tmp_path):
    import bgtools.rollouts as ro
    from bgtools.rollouts import batch

    assert not hasattr(batch, "read_id_file") and "read_id_file" not in ro.__all__ and ro.read_ids is batch.read_ids
    f = tmp_path / "ids.txt"
    f.write_text("# two\n4HPwATDgc/ABMA\n\nXGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:5:10\n")
    got = batch.read_ids(str(f))
    assert got == [(2, "4HPwATDgc/ABMA"), (4, "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:5:10")]
    assert got[0].line == 2 and got[0].id == "4HPwATDgc/ABMA"


def test_one_duel_kernel_and_one_result_type():
    import numba

    from bgtools.engine import play
    from bgtools.training import duel

    assert not any(isinstance(v, numba.core.registry.CPUDispatcher) for v in vars(duel).values()
                   if getattr(v, "__module__", "") == duel.__name__)
    assert not hasattr(duel, "HeadToHead") and not hasattr(play, "_duel_kernel")
    res = np.array([1.0, -2.0, 3.0, -1.0, 1.0, 1.0])
    a, b = play.DuelResult.of(res), play.DuelResult.of(res, "A ")
    assert a == b and (a.games, a.ppg, a.win_rate) == (6, 0.5, 4 / 6) and abs(a.gammon_rate - 2 / 6) < 1e-15
    assert "over 6 games, wins 66.7%" in str(a) and "over 6 games, A wins 66.7%" in str(b)
    assert b.to_dict() == {"games": 6, "ppg": 0.5, "ci95": a.ci95, "win_rate": a.win_rate, "gammon_rate": a.gammon_rate}


def test_worker_tasks_are_named_tuples():
    from bgtools.core.position import Position
    from bgtools.rollouts.batch import BatchItem
    from bgtools.rollouts.executors import ChunkResult, ChunkTask, make_executor, weights_or_default
    from bgtools.rollouts.settings import Job, RolloutSettings

    assert ChunkTask._fields == ("job", "settings", "chunks") and ChunkResult._fields == ("parts", "seconds")
    assert BatchItem._fields == ("label", "result", "record")
    ex, _ = make_executor(weights_or_default(None), 1)
    s = RolloutSettings(trials=2, truncate=2)
    got = ex.result(ex.submit(Job.make(Position.initial()), s, [(0, 1), (1, 1)]))
    assert isinstance(got, ChunkResult) and [p.n for p in got.parts] == [1, 1] and got.seconds >= 0.0


def test_one_zero_ply_search_for_the_chooser_and_the_rollout_kernel():
    import inspect
    import re

    from bgtools.engine import chooser
    from bgtools.rollouts import kernel

    # the kernel defines no 0-ply search of its own: it generates no plays, values none, and
    # calls the chooser's one search from one call site (each call site inlines all of it)
    assert not hasattr(kernel, "_choose0") and kernel.best_play0 is chooser.best_play0
    src = inspect.getsource(kernel)
    assert "generate_boards" not in src and "sibling_probs" not in src and "equity_from_probs" not in src
    assert len(re.findall(r"\bbest_play0\(", src)) == 1
    # choose0 is that search, cubeless (no cube arguments) for a new board (nothing done)
    body = inspect.getsource(chooser.choose0.py_func)
    assert re.search(r"return best_play0\(board, d1, d2, ch, buf, best_p, np\.zeros\(2, np\.int64\), None,", body)
    assert len(re.findall(r"\bgenerate_boards\(", inspect.getsource(chooser.best_play0.py_func))) == 1
