"""The rollout game kernel: trials played out under exact rules, with variance reduction.

Each trial plays the game from the position to the end (or to a truncation depth, or
until both sides fit the two-sided bear-off database) with checker play by
:mod:`bgtools.engine.chooser` (the net at 0 or 1 ply, the bear-off databases valuing the
positions they cover, exactly in the two-sided case); the dice come from
:mod:`bgtools.rollouts.dice`.

Variance reduction (gnubg's, after Jellyfish): before each roll the mover's best play for
all 21 rolls is found and valued (statically); the luck of the actual roll (its value
minus the mean over the 36 rolls) is accumulated from the root player's side and
subtracted from the trial's result.  The cubeful output gets the same treatment with
cubeful values.  With an exact evaluator this gives the exact value in every trial.

Cubeful rollouts (money or match), as gnubg's: before each roll the player on roll may
double, the opponent take or pass, as :mod:`bgtools.engine.cubeful.cube` decides from the 0-ply
cubeless evaluation; the root player's first turn too unless ``Stakes.first_cube`` is off
(the no-double branch of a cube decision by rollout).  "Too good" and optional doubles
play on; a beaver is taken as a take (gnubg does the same in rollouts).  Under the money
Jacoby rule a game won with the cube centred counts single.  When a double is passed the
cubeless outputs of the trial are the static evaluation of that position.  Checker play
maximises cubeless money equity in cubeless rollouts and, at 0 ply, the mover's cubeful
value at the score (money points or match winning chance, the opponent on roll with his
cube options) in cubeful ones, so gammonish plays are valued as the score makes them;
1-ply checker play stays cubeless.
"""

from __future__ import annotations

from typing import NamedTuple

import numba as nb
import numpy as np

from bgtools.base.borrow import borrow, keep_alive
from bgtools.engine import bearoff as _bo
from bgtools.core.matchstate import MAX_CUBE
from bgtools.engine.chooser import best_play0, cached_probs, choose1, chooser_buffers_with, swap_into
from bgtools.engine.cubeful.cube import (CENTRED, DOUBLE, CubeArgs, cube_values, cube_x, cubeful_value,
                                         flip_owner, may_double)
from bgtools.engine.evalcache import choice_find, choice_put
from bgtools.engine.cubeful.met import mwc_after
from bgtools.engine.nets.nn import game_over_probs
from bgtools.engine.outputs import add_change, turn_into
from bgtools.rollouts.dice import ROLL_INDEX, ROLL_WEIGHTS, ROLLS, new_roll_memo, roll_memo
from bgtools.rollouts.settings import N_OUTPUTS

__all__ = ["TrialSettings", "Stakes", "rollout_kernel", "MAX_TURNS", "CACHE_BITS", "CHOICE_BITS"]

MAX_TURNS = 5000
#: the size of a rollout worker's evaluation cache (:mod:`bgtools.engine.evalcache`): 1 << 16 boards, 4.5 MB
CACHE_BITS = 16
#: the size of its cache of cubeless choices (board and roll -> play): 1 << 16, 8 MB
CHOICE_BITS = 16
#: how far from doubling (money: equity per unit of the cube; match: match winning chance) a
#: cube decision judged on the chooser's outputs of the position must be for the kernel to skip
#: the full evaluation of it (see :func:`_needs_cube_eval`)
CUBE_MARGIN = 0.01


class TrialSettings(NamedTuple):
    """How each trial is played (from :class:`~bgtools.rollouts.settings.RolloutSettings`)."""

    seed: int
    truncate: int  #: stop after that many half-moves (0: play to the end)
    bearoff_truncation: bool  #: stop once both sides fit the two-sided database
    variance_reduction: bool
    cubeful: bool


class Stakes(NamedTuple):
    """The root's cube and score, and the match equity table (money: ``away_*`` ignored)."""

    money: bool
    away_me: int  #: points the root player needs
    away_opp: int  #: points his opponent needs
    cube: int  #: the starting cube
    owner: int  #: as :class:`~bgtools.engine.cubeful.cube.CubeInfo`'s, seen from the root: 0 centred, 1 the root player, 2 his opponent
    crawford: bool
    pre: np.ndarray  #: pre-Crawford match equity table
    post: np.ndarray  #: post-Crawford match equity table
    jacoby: bool = False  #: money: a game won with the cube centred counts single
    first_cube: bool = True  #: the root player may double on his first turn


@nb.njit(cache=True)
def _outcome_mwc(p, stakes) -> float:
    """Match winning chance of the outcome distribution ``p`` with the cube dead at its start."""
    am = stakes.away_me
    ao = stakes.away_opp
    cube = stakes.cube
    pre = stakes.pre
    post = stakes.post
    pl = 1.0 - p[0]
    return ((p[0] - p[1]) * mwc_after(pre, post, am, ao, cube) + (p[1] - p[2]) * mwc_after(pre, post, am, ao, 2 * cube)
            + p[2] * mwc_after(pre, post, am, ao, 3 * cube) + (pl - p[3]) * mwc_after(pre, post, am, ao, -cube)
            + (p[3] - p[4]) * mwc_after(pre, post, am, ao, -2 * cube) + p[4] * mwc_after(pre, post, am, ao, -3 * cube))


@nb.njit(cache=True, inline="always")
def _rel_owner(owner, side) -> int:
    """Owner code seen from the root -> seen from ``side`` on roll."""
    return owner if side == 0 else flip_owner(owner)


@nb.njit(cache=True, inline="always")
def _seen_by(stakes, side, aw, cube, owner):
    """The game's cube (``owner`` seen from the root) as the cube kernels take it, ``side`` on roll."""
    return CubeArgs(stakes.money, aw[side], aw[1 - side], cube, _rel_owner(owner, side), stakes.crawford, stakes.jacoby,
                    stakes.pre, stakes.post)


@nb.njit(cache=True, inline="always")
def _cf_after(pa, board_after, side, stakes, aw, cube, owner) -> float:
    """Root player's cubeful value of ``board_after`` (opponent of ``side`` on roll, outputs ``pa``)."""
    s2 = 1 - side
    money = stakes.money
    v = cubeful_value(pa, _seen_by(stakes, s2, aw, cube, owner), cube_x(board_after))
    if money:
        v = v / stakes.cube
        return v if s2 == 0 else -v
    return v if s2 == 0 else 1.0 - v


@nb.njit(cache=True, inline="always")
def _root_view(pc, side, out) -> None:
    """``out`` = the outputs ``pc`` of ``side`` on roll, seen from the root player (side 0)."""
    if side == 0:
        for k in range(5):
            out[k] = pc[k]
    else:
        turn_into(pc, out)


@nb.njit(cache=True, inline="always")
def _needs_cube_eval(prev, b, side, stakes, aw, cube, owner, cv) -> bool:
    """Whether the cube decision of ``side`` on roll in ``b`` (the cube his to turn: the kernel
    asks :func:`~bgtools.engine.cubeful.cube.may_double` first) needs the position's own
    outputs.  It does not where ``prev`` (the chooser's outputs of this position after the last play:
    the same net, its first layer summed incrementally, so equal up to float32 rounding, about
    1e-6) puts him further than :data:`CUBE_MARGIN` from doubling: the kernel acts on a double
    only, and the exact outputs cannot close that gap.  The decision, and so every result, is
    the same as from the full evaluation; only the evaluation is saved (a fifth of a cubeful
    contact rollout's time)."""
    money = stakes.money
    code = cube_values(prev, _seen_by(stakes, side, aw, cube, owner), cube_x(b), cv)
    if code == DOUBLE:
        return True
    margin = CUBE_MARGIN * cube if money else CUBE_MARGIN
    return min(cv[1], cv[2]) - cv[0] > -margin


# best_play0 is inlined (once: the kernel has one call site of it): a call that passes the Chooser and
# its buffers costs about 0.8 us (see the note in bgtools.engine.chooser).  Inlined, they
# still count a reference to every array of ``ch`` and ``buf`` (some sixty) where they are
# entered and left, unless those are borrowed views (bgtools.base.borrow), as they are in
# the kernel; the kernel looks the cache of choices up itself and enters them only on a
# miss.  In a short race, where nearly every choice is a hit, that counting was three
# quarters of the time, and two fifths in a contact position.
@nb.njit(cache=True, inline="always")
def _choice_tag(d1, d2, side, cube, owner, cf) -> int:
    """The key of a choice beside its board in the cache of choices: the roll and, in a
    cubeful choice (``cf``), the side on roll, the cube's owner and its value."""
    tag = ROLL_INDEX[d1, d2] + 1
    if cf:
        tag += 32 * (side + 2 * owner) + 256 * cube
    return tag


@nb.njit(cache=True, inline="always")
def _remember(choices, code, i, boards, b, bp) -> None:
    """Store the play ``i`` of ``b`` (-1: none; ``bp`` its outputs) in the cache of choices
    after the miss ``code`` of :func:`~bgtools.engine.evalcache.choice_find`.  A choice
    depends on the board and the roll only (and in a cubeful one on the cube, the side on
    roll and the job's stakes), so ``choices`` is a
    :class:`~bgtools.engine.evalcache.ChoiceCache` of one chooser (and, when cubeful, of one
    job's stakes): on a hit the board after the play is ``boards[0]``."""
    if i >= 0:
        choice_put(choices, code, boards[i], True, bp)
    else:
        choice_put(choices, code, b, False, bp)


@nb.njit(cache=True)
def rollout_kernel(board0, firsts, counts, spec, stakes, ch, one_ply, sums, sumsq, plies, cache, choices) -> None:
    """Play the chunks of trials ``firsts[c] .. firsts[c] + counts[c] - 1`` of ``board0``
    (``[1]`` on roll, the root player) under ``spec`` (:class:`TrialSettings`) and ``stakes``
    (:class:`Stakes`), the plays chosen by ``ch`` (a :class:`~bgtools.engine.chooser.Chooser`
    with the bear-off databases; ``one_ply`` None when ``ch.ply`` is 0, else 1: a kernel
    compiled for one of them holds only its own search, so a 0-ply rollout, the usual kind,
    never compiles the 1-ply one); add each trial's :data:`OUTPUTS` to ``sums[c]`` and their
    squares to ``sumsq[c]`` (float64[chunks, N_OUTPUTS]), the half-moves played to ``plies[c]``.
    A chunk's figures are those of the chunk played alone: several chunks a call only spread
    the call's cost (about 40 us, mostly allocating the chooser's buffers), a tenth of a
    chunk of a short race.
    ``cache``: an :class:`~bgtools.engine.evalcache.EvalCache` for ``ch``'s net and databases,
    ``choices`` a :class:`~bgtools.engine.evalcache.ChoiceCache` for ``ch``, both read and
    filled (what they hold does not depend on what filled them, so neither do the results).
    """
    seed = spec.seed
    truncate = spec.truncate
    bo_trunc = spec.bearoff_truncation
    vr = spec.variance_reduction
    cubeful = spec.cubeful
    money = stakes.money
    am = stakes.away_me
    ao = stakes.away_opp
    cube0 = stakes.cube
    pre = stakes.pre
    post = stakes.post
    # every bundle and scratch array is used through borrowed views (bgtools.base.borrow): a
    # helper entered with ``ch`` and ``buf`` would otherwise count a reference to each array
    owned = chooser_buffers_with(ch.net, cache, choices)
    buf = borrow(owned)
    ch = borrow(ch)
    cache = borrow(cache)
    choices = borrow(choices)
    stakes = borrow(stakes)
    ts = ch.tables.ts
    mb = buf.mine.boards
    mb0 = mb[0]
    cf = cubeful and ch.ply == 0
    net, bearoff, tables, ev = ch.net, ch.bearoff, ch.tables, buf.ev
    scratch = (np.zeros(5, np.float64), np.zeros(5, np.float64), np.zeros(4, np.float64), np.zeros((2, 25), np.int8),
               np.zeros((2, 25), np.int8), new_roll_memo(), np.zeros((21, 2, 25), np.int8), np.zeros((21, 5), np.float64),
               np.zeros(21, np.float64), np.zeros(21, np.bool_), np.zeros(6, np.float64), np.zeros(N_OUTPUTS, np.float64),
               np.zeros(5, np.float64), np.zeros(4, np.int64), np.zeros(5, np.float64), np.zeros(5, np.float64))
    bp, pc, cv, sw, b, memo, vr_b, vr_p, vr_cf, vr_has, luck, res, out, aw, prev, dl = borrow(scratch)
    aw[0] = am
    aw[1] = ao
    for c in range(firsts.shape[0]):
        for trial in range(firsts[c], firsts[c] + counts[c]):
            for s in range(2):
                for i in range(25):
                    b[s, i] = board0[s, i]
            side = 0  # player on roll: 0 = root, 1 = the other
            cube = cube0
            owner = stakes.owner
            for k in range(6):
                luck[k] = 0.0
            cf_final = 0.0
            have_prev = False  # ``prev`` holds the chooser's outputs of ``b`` (see _needs_cube_eval)
            done = False
            t = 0
            while not done:
                # ---- end of the trial?
                if game_over_probs(b, out):
                    pts = 1 + (1 if out[1] > 0.5 or out[3] > 0.5 else 0) + (1 if out[2] > 0.5 or out[4] > 0.5 else 0)
                    won = out[0] > 0.5
                    if money and stakes.jacoby and owner == CENTRED:
                        pts = 1
                    if won == (side == 0):
                        root_pts = pts * cube
                    else:
                        root_pts = -pts * cube
                    if side == 1:
                        turn_into(out, out)
                    cf_final = root_pts / cube0 if money else mwc_after(pre, post, am, ao, root_pts)
                    break
                stop = (truncate > 0 and t >= truncate) or t >= MAX_TURNS or (bo_trunc and _bo.in_two_sided(b))
                # the cube action of the player on roll (the root's first turn as ``first_cube`` says)?
                cube_turn = cubeful and (t > 0 or stakes.first_cube) and cube < MAX_CUBE  # gnubg's largest cube
                # (not his to turn: no action whatever the outputs, so none are needed)
                cube_turn = cube_turn and may_double(_seen_by(stakes, side, aw, cube, owner))
                if cube_turn and not stop and have_prev:
                    cube_turn = _needs_cube_eval(prev, b, side, stakes, aw, cube, owner, cv)
                if stop or cube_turn:  # (one call site: it inlines the whole static evaluation)
                    cached_probs(b, net, bearoff, tables, cache, ev, pc)
                if stop:
                    if cubeful:
                        rel = _rel_owner(owner, side)
                        if money and _bo.in_two_sided(b):
                            v = _bo.ts_lookup(ts, b)
                            vm = cube * (v[1] if rel == 1 else (v[2] if rel == 0 else v[3]))
                        else:
                            vm = cubeful_value(pc, _seen_by(stakes, side, aw, cube, owner), cube_x(b))
                        if money:
                            cf_final = (vm if side == 0 else -vm) / cube0
                        else:
                            cf_final = vm if side == 0 else 1.0 - vm
                    _root_view(pc, side, out)
                    break
                # ---- cube action
                if cube_turn:
                    code = cube_values(pc, _seen_by(stakes, side, aw, cube, owner), cube_x(b), cv)
                    if code == 1:  # double
                        if cv[3] < 0.5:  # pass: the doubler wins the cube; the cubeless
                            # outputs are those of the position (as when truncating)
                            root_pts = cube if side == 0 else -cube
                            _root_view(pc, side, out)
                            cf_final = root_pts / cube0 if money else mwc_after(pre, post, am, ao, root_pts)
                            break
                        cube *= 2
                        owner = 2 - side  # the other side's (seen from the root: 2 his opponent, 1 he)
                # ---- roll and play
                # nothing done for this board yet (``done`` of best_play0); without variance
                # reduction the outputs of a forced play are not wanted (bit 4): a cubeless
                # rollout never reads them, a cubeful one values the position at its next cube
                # turn only if the cube is then the mover's to turn
                aw[2] = 0 if vr else 4
                d1, d2 = roll_memo(seed, trial, t, memo)
                # the roll's play, or with variance reduction the plays of all 21 rolls (one
                # call site of best_play0: each one inlines the whole 0-ply search)
                i = -1
                for r in range(21 if vr else 1):
                    if vr:
                        d1r, d2r = ROLLS[r, 0], ROLLS[r, 1]
                    else:
                        d1r, d2r = d1, d2
                    code = choice_find(choices, b, _choice_tag(d1r, d2r, side, cube, owner, cf), mb0, bp)
                    if code >= 0:
                        i = 0 if code == 1 else -1
                    else:
                        if one_ply is None:  # (the other branch, and choose1, are not compiled)
                            # the mover's value of a play: cubeful (cf), that of the opponent
                            # on roll after it turned round, counted in the root's stake
                            i = best_play0(b, d1r, d2r, ch, buf, bp, aw[2:], _seen_by(stakes, 1 - side, aw, cube, owner),
                                           cube0, cf)
                        else:  # 1 ply: cubeless (the branch above is not compiled)
                            i = choose1(b, d1r, d2r, ch, buf, bp)
                        if (aw[2] & 8) == 0:  # (else no outputs to remember)
                            _remember(choices, code, i, mb, b, bp)
                    if not vr:
                        break
                    vr_has[r] = i >= 0
                    if i >= 0:
                        for s in range(2):
                            for q in range(25):
                                vr_b[r, s, q] = mb[i, s, q]
                    for k in range(5):
                        vr_p[r, k] = bp[k]
                    if cubeful:
                        if i >= 0:
                            swap_into(mb[i], sw)
                        else:
                            swap_into(b, sw)
                        vr_cf[r] = _cf_after(bp, sw, side, stakes, aw, cube, owner)
                if vr:
                    ra = ROLL_INDEX[d1, d2]
                    # luck of the mover in his own terms: outputs after the roll, opponent's view
                    for k in range(5):
                        m = 0.0
                        for r in range(21):
                            m += ROLL_WEIGHTS[r] * vr_p[r, k]
                        dl[k] = vr_p[ra, k] - m  # from the opponent's view (he is on roll next)
                    add_change(dl, side == 0, luck)  # the root's view: turned unless the root is on roll next
                    if cubeful:
                        m = 0.0
                        for r in range(21):
                            m += ROLL_WEIGHTS[r] * vr_cf[r]
                        luck[5] += vr_cf[ra] - m
                    if vr_has[ra]:
                        swap_into(vr_b[ra], b)
                    else:
                        swap_into(b.copy(), b)
                    for k in range(5):
                        prev[k] = vr_p[ra, k]
                    have_prev = True
                else:
                    if i >= 0:
                        swap_into(mb[i], b)
                    else:
                        swap_into(b.copy(), b)
                    for k in range(5):
                        prev[k] = bp[k]
                    have_prev = (aw[2] & 8) == 0
                side = 1 - side
                t += 1
                plies[c] += 1
            # ---- record the trial (root player's view)
            for k in range(5):
                res[k] = out[k] - luck[k]
            res[5] = 2.0 * res[0] - 1.0 + res[1] - res[3] + res[2] - res[4]
            res[6] = 0.0 if money else _outcome_mwc(res, stakes)
            res[7] = (cf_final - luck[5]) if cubeful else 0.0
            for k in range(N_OUTPUTS):
                sums[c, k] += res[k]
                sumsq[c, k] += res[k] * res[k]
    keep_alive(owned)
    keep_alive(scratch)
