"""Position tags (bgtools.core.tags): every game plan and every turn tag on hand-built
positions, each expected value reasoned from the rules in the module docstring.

Positions are written as {point: checkers} per side, each side in its own numbering (25 = bar),
and checked against their Position ID so a reader can paste them into gnubg."""

from __future__ import annotations

import warnings
from pathlib import Path
from types import SimpleNamespace

from bgtools.core.movegen import legal_plays
from bgtools.core.position import Position
from bgtools.core.tags import PLANS, TURN_TAGS, position_tags, side_plans, tags_for_step, turn_tags
from bgtools.formats import read_match

REAL = Path(__file__).parent / "data" / "matches" / "realmatches"


def side(points: dict[int, int]) -> list[int]:
    s = [0] * 25
    for p, n in points.items():
        s[p - 1] = n
    assert sum(s) <= 15
    return s


def pos(on_roll: dict[int, int], opponent: dict[int, int], pid: str) -> Position:
    p = Position.from_sides(side(on_roll), side(opponent))
    assert p.position_id() == pid and Position.from_id(pid) == p
    return p


def play(p: Position, dice: tuple[int, int], text: str):
    found = [x for x in legal_plays(p, dice) if x.notation() == text]
    assert found, [x.notation() for x in legal_plays(p, dice)]
    return found[0]


# ----------------------------------------------------------------------------- game plans
def test_opening_position_has_no_plan():
    # contact; each side's only held point in the other's board is its 24-point (not 18-21),
    # no run of 4, two home points only (6 and nothing else held in 1-6 but the 6): no plan
    assert position_tags(Position.initial()) == ()


def test_race_and_bearoff():
    # no contact: on roll has checkers on 7-11 (not all home): race; the other all home: bearoff
    p = pos({7: 3, 8: 3, 9: 3, 10: 3, 11: 3}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 5}, "27YPAADA3d0BAA")
    assert position_tags(p) == ("on_roll:race", "opponent:bearoff")


def test_bearoff_with_contact():
    # all 15 of the side on roll are home, but the opponent still has an anchor on its 1-point
    # (= this side's 24): contact; the side bearing off is "bearoff" all the same
    p = pos({6: 5, 5: 5, 4: 5}, {1: 2, 6: 5, 8: 3, 13: 5}, "g8/BBwD4vg8AAA")
    assert position_tags(p)[0] == "on_roll:bearoff"


def test_backgame():
    # on roll holds its 22 and 20 (two anchors) and trails 175 - 91 = 84 pips (>= 50)
    me = {22: 2, 20: 2, 13: 3, 8: 3, 6: 3, 5: 2}
    opp = {6: 4, 4: 3, 8: 3, 9: 3, 2: 2}
    p = pos(me, opp, "5jx3AACwc3DADA")
    assert p.pips == (175, 91)  # (on roll, opponent)
    assert position_tags(p) == ("on_roll:backgame",)
    # the same anchors only 30 pips behind (the opponent's two 2-point checkers back on its
    # 24-point, on roll's 1-point: +44 pips for it): no back game; the 20-point anchor with the
    # race lost makes it a holding game
    assert side_plans(side(me), side({6: 4, 4: 3, 8: 3, 9: 3, 24: 2}), True) == ("holding",)


def test_holding():
    # on roll holds its 20-point (the opponent's 5-point), one anchor only, 42 pips behind
    me = {20: 2, 13: 4, 8: 3, 6: 4, 5: 2}
    opp = {6: 4, 4: 2, 3: 2, 8: 3, 13: 2, 10: 2}
    p = pos(me, opp, "bJ4zBgCw5+ABAw")
    assert p.pips == (150, 108) and position_tags(p) == ("on_roll:holding",)
    # the same anchor while ahead in the race is no holding game
    ahead = {24: 4, 13: 5, 8: 2, 6: 4}  # 201 pips against on roll's 150
    assert Position.from_sides(side(me), side(ahead)).pips == (150, 201)
    assert "holding" not in side_plans(side(me), side(ahead), True)


def test_priming():
    # on roll holds 4-5-6-7-8 (a 5-prime); the opponent's two back checkers on its 24-point
    # (this side's 1-point) have the prime still to pass
    me = {8: 2, 7: 2, 6: 3, 5: 2, 4: 2, 13: 4}
    opp = {24: 2, 6: 4, 13: 4, 8: 3, 11: 2}
    p = pos(me, opp, "4DnmATDYboMHAA")
    assert position_tags(p) == ("on_roll:priming",)
    # the same prime with the opponent's back checkers escaped past it (on this side's 14): none
    assert "priming" not in side_plans(side(me), side({11: 4, 6: 4, 13: 4, 8: 3}), True)


def test_blitz():
    # the opponent has a checker on the bar, on roll holds 4-5-6, the opponent no anchor in
    # on roll's board
    me = {6: 3, 5: 2, 4: 2, 8: 2, 13: 4, 3: 1, 2: 1}
    opp = {25: 1, 6: 4, 8: 4, 13: 4, 11: 2}
    p = pos(me, opp, "4HnMA0BqO4MHAA")
    assert position_tags(p) == ("on_roll:blitz",)
    # give the opponent an anchor on its 24-point (on roll's 1-point): the blitz is over
    anchored = {25: 1, 24: 2, 6: 4, 8: 4, 13: 2, 11: 2}
    assert "blitz" not in side_plans(side(me), side(anchored), True)


def test_containment_and_opponent_priming():
    # the opponent has one checker back (on the bar); on roll holds 3, 5, 7, 9 and 11 (five of its
    # 2-11 points, no run of four): containment.  The opponent holds its 3-4-5-6 and on roll's
    # two checkers on its 24-point are behind them: opponent priming.
    me = {3: 2, 5: 2, 7: 2, 9: 2, 11: 2, 13: 3, 24: 2}
    opp = {25: 1, 6: 5, 5: 4, 4: 3, 3: 2}
    p = pos(me, opp, "7N4HAEDMzMwBMA")
    assert position_tags(p) == ("on_roll:containment", "opponent:priming")


# ----------------------------------------------------------------------------- turns
def test_hit_and_point_made():
    # 31: 8/5 6/5 makes the 5-point on the opponent's blot there (its 20-point)
    p = pos({6: 5, 8: 3, 13: 5, 24: 2}, {20: 1, 6: 5, 8: 3, 13: 4, 24: 2}, "4HPwgDDgc/ABMA")
    pl = play(p, (3, 1), "8/5* 6/5")
    assert turn_tags(p, pl.after) == ("hit", "point-made")


def test_double_hit():
    # 42: 6/2* 6/4*: two blots hit, nothing made (one checker each on 2 and 4)
    p = pos({6: 5, 8: 3, 13: 5, 24: 2}, {23: 1, 21: 1, 6: 4, 8: 3, 13: 4, 24: 2}, "4Dl4gDTgc/ABMA")
    assert turn_tags(p, play(p, (4, 2), "6/4* 6/2*").after) == ("double-hit",)


def test_closeout_and_prime_made():
    # on roll holds 1-2-3-4-6 and 7-8; the opponent is on the bar with a blot on on roll's 5.
    # 21: 7/5* 6/5 closes the board (six home points with a checker on the bar), makes the
    # 5-point and a full prime 1-6 (before: 1-4 and 6-8 at most)
    p = pos({1: 2, 2: 2, 3: 2, 4: 2, 6: 3, 7: 2, 8: 2}, {25: 1, 20: 1, 6: 6, 5: 4, 4: 3}, "uPcDAEHb5jYAAA")
    assert turn_tags(p, play(p, (2, 1), "7/5* 6/5").after) == ("hit", "closeout", "point-made", "prime-made")


def test_anchor_made_and_broken():
    # 21: 24/22 6/5 - the checker from 24 joins the one on 22: anchor made (no point made: 5 is a blot)
    opening_opp = {24: 2, 13: 5, 8: 3, 6: 5}
    p = pos({24: 1, 22: 1, 13: 5, 8: 3, 6: 5}, opening_opp, "4HPwATDgc/ABJA")
    assert turn_tags(p, play(p, (2, 1), "24/22 6/5").after) == ("anchor-made",)
    # the opening 64 run 24/14 breaks the 24-point anchor
    o = Position.initial()
    assert turn_tags(o, play(o, (6, 4), "24/14").after) == ("anchor-broken",)
    # moving the anchor up (24/20(2) with 44) is made and broken at once
    assert turn_tags(o, play(o, (4, 4), "24/20(2) 13/9(2)").after) == ("anchor-made", "anchor-broken")


def test_entered_and_dance():
    # one on the bar; the opponent holds its 1- to 5-points (on roll's 24..20): a 6 enters
    # on 19, a 31 dances
    me = {25: 1, 13: 5, 8: 3, 6: 6}
    opp = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5}
    p = pos(me, opp, "2zbABwDg5+ADQA")
    assert "entered" in turn_tags(p, play(p, (6, 1), "bar/19 6/5").after)
    assert legal_plays(p, (3, 1)) == [] or all(x.steps == () for x in legal_plays(p, (3, 1)))
    assert turn_tags(p, p.swap()) == ("dance",)
    step = SimpleNamespace(position=p, play=None, action=SimpleNamespace(status="dance"))
    assert tags_for_step(step).split(",")[-1] == "dance"


def test_contact_broken():
    # on roll's last checker on 14 passes the opponent's last one on its 12 (on roll's 13)
    p = pos({14: 1, 6: 7, 5: 7}, {12: 1, 6: 7, 5: 7}, "8PcHAgDw9wcIAA")
    assert p.is_contact()
    assert turn_tags(p, play(p, (2, 1), "14/11").after) == ("contact-broken",)


# ----------------------------------------------------------------------------- on a real match
def test_tags_for_step_on_a_real_match():
    """Every step of a real match: a roll whose play hit carries "hit" or "double-hit" exactly
    when the play hit; a dance carries "dance"; every tag is a known one."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = read_match(REAL / "kevung-gbf" / "test.mat")
    known = {f"{w}:{p}" for w in ("on_roll", "opponent") for p in PLANS} | set(TURN_TAGS)
    hits = dances = 0
    for st in m.replay():
        tags = tags_for_step(st).split(",") if tags_for_step(st) else []
        assert set(tags) <= known
        if st.play is not None:
            hit = bool(st.play.hits)
            hits += hit
            assert hit == ("hit" in tags or "double-hit" in tags)
            assert ("double-hit" in tags) == (len(st.play.hits) >= 2 or _bar_gain(st) >= 2)
        elif getattr(st.action, "status", None) == "dance":
            dances += 1
            assert "dance" in tags
    assert hits > 20 and dances > 5


def _bar_gain(st) -> int:
    return st.play.after.on_roll[24] - st.position.opponent[24]


def test_export_tags_column():
    """The moves table's ``tags`` column is tags_for_step of each row's step: a row whose play
    hit has "hit" (the ``hit`` column says so) and a non-roll row has no turn tags."""
    from bgtools.export import to_dataframe

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = to_dataframe(str(REAL / "gnu-gibbon" / "7point.mat"))
    tags = df.tags.fillna("")
    hit_rows = df.hit.fillna(False).astype(bool)
    assert hit_rows.sum() > 5
    assert (tags[hit_rows].str.contains(r"(?:^|,)(?:double-)?hit(?:,|$)")).all()
    assert not tags[~hit_rows].str.contains(r"(?:^|,)(?:double-)?hit(?:,|$)").any()
    cube = df.action != "roll"
    assert set(",".join(tags[cube]).split(",")) - {""} <= {f"{w}:{p}" for w in ("on_roll", "opponent")
                                                         for p in PLANS}
