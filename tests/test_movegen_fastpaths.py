"""The generator's shortcuts (plays not searched, hash probes skipped, count-only kernel)
against a plain model of the search they stand for: every play in search order, the
first of equal positions kept.  Order and steps must be exactly the model's."""

import random

import numpy as np
import pytest

from bgtools.core.movegen import (ROLLS, count_plays, count_plays_batch, generate, new_move_buffers,
                                  write_plays_batch)
from handboards import race_board
from reference_movegen import move_checker, reference_plays


def _sources(me, opp, d, smax):
    """Slots that can move ``d``, highest first, none above ``smax`` (the kernel's rules)."""
    if me[24]:
        return [24] if smax >= 24 and opp[23 - (24 - d)] < 2 else []
    home = not any(me[6:25])
    hi = max((s for s in range(25) if me[s]), default=-1)
    out = []
    for s in range(min(smax, 23), -1, -1):
        if not me[s]:
            continue
        if s >= d:
            if opp[23 - (s - d)] < 2:
                out.append(s)
        elif home and (s == d - 1 or (s == hi and hi < d - 1)):
            out.append(s)
    return out


def _move(me, opp, s, d):
    t = s - d if s >= d else -1
    return (*move_checker(me, opp, s, t), t)


def model_plays(board, d1, d2):
    """[(board after, steps)] in the order of a full search that keeps first occurrences."""
    doubles = d1 == d2
    leaves = []

    def search(me, opp, dice, steps, smax):
        moved = False
        for s in _sources(me, opp, dice[0], smax):
            moved = True
            m2, o2, t = _move(me, opp, s, dice[0])
            if len(dice) == 1:
                leaves.append((len(steps) + 1, (o2, m2), steps + [(s, t)]))
            else:
                search(m2, o2, dice[1:], steps + [(s, t)], s if doubles else 24)
        if not moved and steps:
            leaves.append((len(steps), (opp, me), steps))

    me, opp = [int(v) for v in board[1]], [int(v) for v in board[0]]
    for dice in ([d1] * 4,) if doubles else ([d1, d2], [d2, d1]):
        search(me, opp, dice, [], 24)
    best = max((lv for lv, _, _ in leaves), default=0)
    if best == 1 and not doubles:
        leaves = []
        for d in (max(d1, d2), min(d1, d2)):
            for s in _sources(me, opp, d, 24):
                m2, o2, t = _move(me, opp, s, d)
                leaves.append((1, (o2, m2), [(s, t)]))
            if leaves:
                break
    seen = set()
    out = []
    for lv, (o, m), steps in leaves:
        key = (tuple(o), tuple(m))
        if lv == best and key not in seen:
            seen.add(key)
            out.append(([list(o), list(m)], steps))
    return out


def kernel_plays(board, d1, d2, buf):
    n = generate(board, d1, d2, buf)
    return [(buf.boards[i].tolist(), [tuple(x) for x in buf.steps[i, :buf.nsteps[i]].tolist()]) for i in range(n)]


def random_board(rng):
    """Boards of every kind: full and partial sides, checkers on the bar, bearing off."""
    me, opp = [0] * 25, [0] * 25
    style = rng.random()
    for side, other in ((me, opp), (opp, me)):
        n = rng.randint(1, 15) if style > 0.3 else 15
        home = rng.random() < 0.35
        bar = rng.choice((0.0, 0.05, 0.2))
        for _ in range(n):
            for _attempt in range(50):
                slot = rng.randrange(rng.choice((6, 7, 9))) if home else (24 if rng.random() < bar else rng.randrange(24))
                if slot == 24 or other[23 - slot] == 0:
                    side[slot] += 1
                    break
    return np.array([opp, me], np.int8)


RNG = random.Random(20261201)
BOARDS = [random_board(RNG) for _ in range(220)]


@pytest.mark.parametrize("chunk", range(4))
def test_every_play_in_the_models_order(chunk, oracle_positions):
    buf = new_move_buffers()
    boards = BOARDS[chunk::4] + [np.array(r["board"], np.int8) for r in oracle_positions[chunk::60]]
    for b in boards:
        for d1, d2 in ROLLS:
            expected = model_plays(b, d1, d2)
            assert kernel_plays(b, d1, d2, buf) == [(bb, [tuple(s) for s in st]) for bb, st in expected], \
                (b.tolist(), d1, d2)
            assert count_plays(b, d1, d2, new_move_buffers()) == len(expected)


# boards built for each shortcut: (mover, opponent, roll)
CASES = [
    # 31: 10/7/6 equals 9/6 10/9; the second is not searched ...
    ({10: 1, 9: 1, 0: 13}, {0: 15}, (3, 1)),
    # ... but is a play of its own when 10/7 would hit on the way
    ({10: 1, 9: 1, 0: 13}, {16: 1, 0: 14}, (3, 1)),
    # ... or when 7 is closed
    ({10: 1, 9: 1, 0: 13}, {16: 2, 0: 13}, (3, 1)),
    # second order: 13/12*/9 hits at 12, 13/10/9 does not: two positions
    ({12: 1, 0: 14}, {11: 1, 0: 14}, (3, 1)),
    # second order: a checker of ours on the point passed, no hit
    ({12: 1, 11: 1, 0: 13}, {16: 2, 0: 13}, (3, 1)),
    # bearing off with both dice, plays that repeat each other
    ({5: 2, 3: 1, 1: 2}, {23: 15}, (6, 4)),
    ({4: 1, 2: 1, 0: 1}, {23: 15}, (5, 3)),
    ({2: 2, 1: 1}, {23: 15}, (2, 1)),
    # from the bar: one and two checkers to enter
    ({24: 1, 10: 2, 0: 12}, {0: 2, 1: 2, 15: 1}, (5, 2)),
    ({24: 2, 10: 2, 0: 11}, {0: 2, 1: 2, 22: 1}, (4, 3)),
    # a double: four moves, one of them from the bar
    ({24: 1, 12: 3, 7: 2, 5: 9}, {0: 2, 16: 1, 18: 12}, (3, 3)),
]


@pytest.mark.parametrize("me,opp,roll", CASES)
def test_built_cases(me, opp, roll):
    b = race_board(me, opp)
    expected = model_plays(b, *roll)
    got = kernel_plays(b, *roll, new_move_buffers())
    assert got == [(bb, [tuple(s) for s in st]) for bb, st in expected]
    # distinct positions, the same set as the plain reference generator's
    keys = {(tuple(bb[0]), tuple(bb[1])) for bb, _ in got}
    assert len(keys) == len(got) == len(reference_plays(b.tolist(), *roll)) > 0
    assert keys == set(reference_plays(b.tolist(), *roll))


def test_count_only_and_writing_kernels_agree():
    rng = random.Random(7)
    boards = np.array([random_board(rng) for _ in range(3000)])
    rolls = np.array(ROLLS, np.int64)
    buf = new_move_buffers()
    total = sum(generate(b, d1, d2, buf) for b in boards[:300] for d1, d2 in ROLLS)
    assert count_plays_batch(boards[:300], rolls) == write_plays_batch(boards[:300], rolls) == total
    assert count_plays_batch(boards, rolls) == write_plays_batch(boards, rolls) > 40 * len(boards)


def test_a_count_between_generates_leaves_the_buffer_usable():
    rng = random.Random(11)
    shared, fresh = new_move_buffers(), new_move_buffers()
    for _ in range(200):
        b = random_board(rng)
        d1, d2 = sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True)
        count_plays(random_board(rng), d1, d2, shared)
        assert kernel_plays(b, d1, d2, shared) == kernel_plays(b, d1, d2, fresh)
