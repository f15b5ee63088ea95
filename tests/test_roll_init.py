"""Roll's hand-made __init__ (bgtools/model/game.py) takes the fields of the dataclass in their
order, with their defaults, and the Roll stays frozen and comparable."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from bgtools.model.game import Roll


def test_init_matches_the_fields():
    params = list(inspect.signature(Roll.__init__).parameters.values())[1:]
    fields = dataclasses.fields(Roll)
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields):
        want = inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
        assert p.default == want, f.name


def test_roll_behaves_as_a_frozen_dataclass():
    a = Roll(0, (3, 1), ((8, 5), (6, 5)), "play", "8/5 6/5", 3, 4, 1)
    assert (a.player, a.dice, a.steps, a.status, a.text, a.line, a.column, a.move_no, a.analysis) == \
        (0, (3, 1), ((8, 5), (6, 5)), "play", "8/5 6/5", 3, 4, 1, None)
    b = Roll(player=0, dice=(3, 1), steps=((8, 5), (6, 5)), text="other", line=9)
    assert a == b and hash(a) == hash(b)  # location fields are not compared
    assert dataclasses.replace(a, status="rolled").status == "rolled"
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.player = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        Roll(0)  # type: ignore[call-arg]
    assert Roll(1, (6, 6)).status == "play" and Roll(1, (6, 6)).steps is None
