"""Plays worth exactly the same (a game already decided) rank the one that bears off most first, in every ranking."""

from bgtools.analysis import AnalysisSettings
from bgtools.analysis.analyse import _Analyser
from bgtools.core.matchstate import parse_any_id
from bgtools.core.movegen import legal_plays
from bgtools.engine.cubeful.cube import CubeInfo
from bgtools.engine.cubeful.scoreplay import rank_plays_at_score
from bgtools.engine.evaluation import rank_plays

# a real match's bear-off (1-Intermediate-Round1-Unger-Kozoman-11pt.xg), lost whatever the play: XG ranks
# 6/off 3/off(2) first, the generator's order would put 6/3(4) first
LOST = "TwAAQO16AAAAAA:AYFtAQAAAAAE"


def test_borne_off_counts_the_checkers_a_play_takes_off():
    pos, _ = parse_any_id(LOST)
    by = {p.notation(): p.borne_off for p in legal_plays(pos, (3, 3))}
    assert by["6/3(4)"] == 0 and by["6/off 3/off(2)"] == 3 and by["6/off(2)"] == 2


def test_equal_plays_rank_the_one_that_bears_off_most_first():
    pos, state = parse_any_id(LOST)
    ranked = rank_plays(pos, (3, 3), 0)
    assert len({r.equity for r in ranked}) == 1  # every play loses the game
    assert ranked[0].play.notation() == "6/off 3/off(2)"
    assert [r.play.borne_off for r in ranked] == sorted((r.play.borne_off for r in ranked), reverse=True)
    assert rank_plays_at_score(pos, (3, 3), state, 0)[0].play.notation() == "6/off 3/off(2)"
    plays = legal_plays(pos, (3, 3))
    an = _Analyser(None, AnalysisSettings(ply=0), None)
    cands, _, _ = an.checker(pos, (3, 3), plays[0], CubeInfo.from_state(state))
    assert cands[0].move == "6/off 3/off(2)"


def test_plays_of_different_worth_keep_their_order():
    pos, _ = parse_any_id("4HPwATDgc/ABMA")
    assert rank_plays(pos, (3, 1), 0)[0].play.notation() == "8/5 6/5"
