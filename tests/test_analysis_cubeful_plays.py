"""``AnalysisSettings.cubeful_plays``: at 2 ply the close checker plays are valued by the cubeful lookahead (every
node of the search takes its own cube decision), the others as before (issue 35: gnubg's and XG's plays are valued
cubefully; docs/analysis.md, "gnubg on the same plays")."""

import numpy as np
import pytest

from bgtools.analysis import AnalysisSettings
from bgtools.analysis.analyse import CUBEFUL_KEEP, CUBEFUL_WINDOW, _Analyser
from bgtools.core.matchstate import parse_any_id
from bgtools.core.movegen import legal_plays
from bgtools.engine.cubeful.cube import CubeInfo
from bgtools.engine.cubeful.cubesearch import CubeSearch
from bgtools.engine.cubeful.met import CubeStake, load_met
from bgtools.engine.evaluation import default_evaluator, evaluate_boards

# 7-point match, 4-away 6-away, the player on roll owns the cube at 2 (README's eval example): a live cube
MATCH = "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:1:0:7:10"


def _candidates(gid: str, dice: tuple[int, int], cubeful: bool):
    pos, st = parse_any_id(gid)
    plays = legal_plays(pos, dice)
    an = _Analyser(None, AnalysisSettings(ply=2, cubeful_plays=cubeful), None)
    c = CubeInfo.from_state(st)
    cands, _, _ = an.checker(pos, dice, plays[-1], c)
    return pos, c, {x.move: x for x in cands}


@pytest.mark.parametrize("dice", [(2, 1), (4, 3)])
def test_the_close_plays_take_the_cubeful_lookahead_and_the_rest_keep_their_values(dice):
    pos, c, plain = _candidates(MATCH, dice, False)
    _, _, cubeful = _candidates(MATCH, dice, True)
    assert set(plain) <= set(cubeful)
    deep = sorted((x for x in plain.values() if x.ply == 2), key=lambda x: -x.equity)
    close = [x for x in deep if x.equity >= deep[0].equity - CUBEFUL_WINDOW][:CUBEFUL_KEEP]
    assert len(close) >= 2  # the test needs a choice
    met = load_met()
    search = CubeSearch(default_evaluator(), met)
    stake = CubeStake.at(met, c.away[0], c.away[1], c.cube)
    plays = {p.notation(): p for p in legal_plays(pos, dice)}
    for x in close:
        board = np.asarray(plays[x.move].after.to_array(), np.int8)[None]
        # the analysis hands the cubeful search the trees its 2-ply cubeless values grew (the same replies;
        # their leaves valued from their siblings' first layer, equal to float32 rounding; the analysis values
        # its close plays in one batch, whose sums may round apart from one board's)
        search.clear()
        alone = 1.0 - float(search.node(board, c.flipped(), 2)[0])
        search.clear()
        evaluate_boards(board, 2, default_evaluator(), on_replies=search.remember)
        mwc = 1.0 - float(search.node(board, c.flipped(), 2)[0])
        assert mwc == pytest.approx(alone, abs=1e-5)
        assert cubeful[x.move].mwc == pytest.approx(mwc, abs=1e-8)
        assert cubeful[x.move].equity == pytest.approx(float(stake.normalise(np.array([mwc]))[0]), abs=1e-7)
        assert cubeful[x.move].probs == plain[x.move].probs  # the cubeless view is the 2-ply search's still
    names = {x.move for x in close}
    for m, x in plain.items():
        if m not in names:
            assert (cubeful[m].equity, cubeful[m].mwc) == (x.equity, x.mwc)
    # the first play is the best of the re-valued ones
    first = next(iter(cubeful.values()))
    assert first.equity == max(cubeful[m].equity for m in names)


def test_on_by_default_and_off_gives_the_cube_formula_values():
    assert AnalysisSettings().cubeful_plays is True
    _, _, a = _candidates(MATCH, (3, 1), True)
    _, _, off = _candidates(MATCH, (3, 1), False)
    pos, st = parse_any_id(MATCH)
    plays = legal_plays(pos, (3, 1))
    b, _, _ = _Analyser(None, AnalysisSettings(ply=2), None).checker(pos, (3, 1), plays[-1], CubeInfo.from_state(st))
    assert [(x.move, x.equity) for x in a.values()] == [(x.move, x.equity) for x in b]
    assert [(x.move, x.equity) for x in off.values()] != [(x.move, x.equity) for x in b]


def test_at_3_ply_the_close_plays_take_the_3_ply_cubeful_lookahead():
    pos, st = parse_any_id(MATCH)
    dice = (2, 1)
    plays = legal_plays(pos, dice)
    c = CubeInfo.from_state(st)
    cands, _, _ = _Analyser(None, AnalysisSettings(ply=3), None).checker(pos, dice, plays[-1], c)
    best = cands[0]
    assert best.ply == 3
    board = np.asarray({p.notation(): p for p in plays}[best.move].after.to_array(), np.int8)[None]
    mwc = 1.0 - float(CubeSearch(default_evaluator(), load_met()).node(board, c.flipped(), 3)[0])
    assert best.mwc == pytest.approx(mwc, abs=1e-5)
    plain, _, _ = _Analyser(None, AnalysisSettings(ply=3, cubeful_plays=False), None).checker(pos, dice, plays[-1], c)
    assert {x.move: x.mwc for x in plain}[best.move] != pytest.approx(mwc, abs=1e-6)  # not the cube formula's value


def test_the_cache_keeps_the_cubeful_values_under_the_cube_state(tmp_path, monkeypatch):
    from bgtools.analysis.evalcache import EvalStore

    pos, st = parse_any_id(MATCH)
    dice = (2, 1)
    plays = legal_plays(pos, dice)
    c = CubeInfo.from_state(st)
    store = EvalStore(tmp_path / "e.sqlite")
    first, _, _ = _Analyser(None, AnalysisSettings(ply=2), store).checker(pos, dice, plays[-1], c)

    def no_search(*args, **kwargs):
        raise AssertionError("the cubeful lookahead ran again")

    monkeypatch.setattr(CubeSearch, "node", no_search)
    again, _, _ = _Analyser(None, AnalysisSettings(ply=2), store).checker(pos, dice, plays[-1], c)
    assert [(x.move, x.equity, x.mwc) for x in again] == [(x.move, x.equity, x.mwc) for x in first]
    # another cube state is another entry: it searches
    an = _Analyser(None, AnalysisSettings(ply=2), store)
    other = CubeInfo(c.cube * 2, c.owner, c.away, c.crawford)
    assert an.cubeful_setting(other, 2) != an.cubeful_setting(c, 2)
    assert an.cubeful_setting(CubeInfo(1), 2) != an.cubeful_setting(CubeInfo(1, jacoby=True), 2)
    with pytest.raises(AssertionError, match="ran again"):
        an.checker(pos, dice, plays[-1], other)
