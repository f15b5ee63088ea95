"""``AnalysisSettings.endgame_trials``: at 2 ply the close checker plays of race and crashed positions are settled by
rollouts to the end (issue 35: the net is weakest there, and such games are short; docs/analysis.md, "Late-game plays
settled by rollouts")."""

from dataclasses import replace

import pytest

from bgtools.analysis import AnalysisSettings
from bgtools.analysis.analyse import _Analyser
from bgtools.analysis.endgame import ENDGAME_CANDIDATES, ENDGAME_MARGIN, ENDGAME_SIGMA, ENDGAME_UNTIL_SE, is_endgame
from bgtools.analysis.evalcache import EvalStore
from bgtools.analysis.levels import _settled
from bgtools.analysis.records import Candidate, Decision
from bgtools.core.matchstate import parse_any_id
from bgtools.core.movegen import legal_plays
from bgtools.core.position import PositionClass
from bgtools.engine.cubeful.cube import CubeInfo

# a crashed position of a real match (ronde3-UngerHarmand-HuyckLarsen.xg, 7-point match, Crawford game, 1-away 6-away):
# with 61 the 2-ply search bears off leaving a blot on the 5-point to a checker on the bar; XG's analysis plays 5/4
# 5/off (the blot costs 0.062 by its equities), and so do our own rollouts (2,592 trials: 0.058 +- 0.005)
CRASHED = "RgAA6LYNAAAAAA:8AnnABAAMAAE"
# the opening position's 31 (contact: never rolled out at the screen)
OPENING = "4HPwATDgc/ABMA:cAkAAAAAAAAA"


def _check(gid: str, dice, trials: int, cache=None, played: str = ""):
    pos, st = parse_any_id(gid)
    plays = legal_plays(pos, dice)
    play = next(p for p in plays if p.notation() == played) if played else plays[0]
    an = _Analyser(None, AnalysisSettings(ply=2, endgame_trials=trials), cache)
    cands, played, _ = an.checker(pos, dice, play, CubeInfo.from_state(st))
    return pos, cands, played


def test_a_close_crashed_play_is_settled_by_rollout_and_takes_xgs_play():
    pos, screen, _ = _check(CRASHED, (6, 1), 0)
    assert pos.classify() == PositionClass.CRASHED
    # the 2-ply search's two best (it ranked 5/off 1/off first until its leaves valued far races from the
    # bear-off database; now XG's play, but by less than the late-game margin: still settled by rollouts)
    assert {screen[0].move, screen[1].move} == {"5/off 1/off", "5/4 5/off"}
    assert screen[0].equity - screen[1].equity < ENDGAME_MARGIN
    assert all(c.trials == 0 for c in screen)
    assert is_endgame(pos) and max(pos.pips) == 34
    _, cands, _ = _check(CRASHED, (6, 1), 648)
    assert cands[0].move == "5/4 5/off"
    rolled = [c for c in cands if c.trials]
    assert 2 <= len(rolled) <= ENDGAME_CANDIDATES + 1
    assert cands[:len(rolled)] == tuple(rolled)  # the rolled-out plays rank first, best first
    assert all(c.method == "rollout" and c.se is not None and c.diff_se is not None for c in rolled)
    assert rolled[0].diff_se == 0.0 and all(c.diff_se > 0.0 for c in rolled[1:])
    assert all(a.equity >= b.equity for a, b in zip(rolled, rolled[1:]))
    # the stopping rule held before the last trial: every difference is measured to ENDGAME_UNTIL_SE, or the best
    # leads each of the others by ENDGAME_SIGMA of its standard errors
    assert rolled[0].trials < 648
    assert (all(c.diff_se < ENDGAME_UNTIL_SE for c in rolled[1:])
            or all(rolled[0].equity - c.equity > ENDGAME_SIGMA * c.diff_se for c in rolled[1:]))
    # the ones rolled out are the screen's within the margin (and the play made)
    best = screen[0].equity
    assert {c.move for c in rolled} >= {c.move for c in screen[:ENDGAME_CANDIDATES] if c.equity >= best - ENDGAME_MARGIN}


def test_contact_plays_are_not_rolled_out_and_off_means_off():
    _, cands, _ = _check(OPENING, (3, 1), 648)
    assert all(c.trials == 0 for c in cands)
    _, off, _ = _check(CRASHED, (6, 1), 0)
    assert all(c.trials == 0 and c.se is None for c in off)


def test_the_rollouts_are_kept_in_the_cache_under_the_decision(tmp_path, monkeypatch):
    store = EvalStore(tmp_path / "e.sqlite")
    _, first, _ = _check(CRASHED, (6, 1), 648, store)
    n = len(store)
    assert n >= 2

    def no_rollouts(*a, **k):
        raise AssertionError("rolled out again")

    import bgtools.rollouts.candidates as rc

    monkeypatch.setattr(rc, "settle", no_rollouts)
    _, again, _ = _check(CRASHED, (6, 1), 648, store)
    assert again == first
    assert len(store) == n
    # another number of trials is another setting: rolled out again
    with pytest.raises(AssertionError, match="rolled out again"):
        _check(CRASHED, (6, 1), 1296, store)
    store.close()


def test_settings_reject_one_trial():
    with pytest.raises(ValueError, match="endgame trials"):
        AnalysisSettings(endgame_trials=1)
    assert AnalysisSettings(endgame_trials=0).to_dict()["endgame_trials"] == 0


def test_the_deeper_tiers_leave_settled_plays_alone():
    pos, st = parse_any_id(CRASHED)
    c = Candidate("5/4 5/off", (0.5, 0, 0, 0, 0), 0.1, 0.55, 2, trials=144, se=0.001, diff_se=0.0)
    d = Decision("f:1:0", 1, 0, 1, 0, "A", "checker", "61", "5/4 5/off", "5/4 5/off", 0.0, "none", "crashed", pos, st,
                 candidates=(c,), played_index=0)
    assert _settled(d)
    assert not _settled(replace(d, candidates=(replace(c, trials=0),)))
    assert not _settled(replace(d, kind="cube", candidates=()))


# a race of a real match (ronde3-UngerHarmand-HuyckLarsen.xg, 7-point match, Crawford game, 6-away 1-away), 11 to play:
# the 1-ply values swing with the search's parity here (14/11 2/1 wins 22 % at 1 ply, 15 % at 2 ply), and the 1-ply
# filter kept it alone of the good plays; XG plays 14/11 5/4, and 14/11 2/1 costs 0.043 by its equities
RACE = "awEAACOAAAAAAA:sIHkABAAMAAE"


def test_a_short_race_skips_the_1ply_filter_and_is_settled():
    pos, screen, _ = _check(RACE, (1, 1), 0, played="14/11 2/1")
    assert pos.classify() == PositionClass.RACE and is_endgame(pos)
    by = {c.move: c for c in screen}
    # without the late-game treatment: until the search valued far races from the bear-off database, the 1-ply
    # filter dropped XG's 14/11 5/4 here and picked 14/11 2/1; now it keeps XG's and picks the other good play
    assert screen[0].move in ("14/11 2/1", "14/12 5/4 2/1")
    _, cands, _ = _check(RACE, (1, 1), 648, played="14/11 2/1")
    by = {c.move: c for c in cands}
    assert by["14/11 5/4"].ply == 2 and by["14/11 5/4"].trials > 0
    assert cands[0].move in ("14/11 5/4", "14/12 5/4 2/1") and by["14/11 2/1"].equity < cands[0].equity - 0.02


def test_long_races_are_left_to_the_search():
    from bgtools.core.position import Position

    assert not is_endgame(Position.initial())  # contact
    # a race with 120 pips a side: no contact, too long to roll out at the screen
    side = [0] * 25
    for point, n in ((6, 5), (8, 3), (10, 3), (12, 4)):
        side[point - 1] = n
    long_race = Position(side, side)
    assert long_race.classify() == PositionClass.RACE and max(long_race.pips) > 100
    assert not is_endgame(long_race)


def test_annotate_refuses_one_trial(tmp_path):
    from typer.testing import CliRunner

    from bgtools.cli.app import app

    r = CliRunner().invoke(app, ["annotate", "samples/selfplay-7pt.mat", "--endgame-trials", "1"])
    assert r.exit_code == 2
    assert "--endgame-trials 1: use 0 (off) or 2 to 1000000" in r.output
