"""The net's move chooser for Numba code: self-play training, duels and rollouts.

A :class:`Chooser` says how a player picks its play: the :class:`~bgtools.engine.nets.nn.Net`,
optionally the bear-off databases (finished games are always scored exactly; with
``bearoff`` set, positions in the two-sided database take its exact value, positions
with both sides home the one-sided combination, and the plays of a roll that all leave the mover
home against a side still outside the far-race values of :mod:`bgtools.engine.farrace`, every
play of such a roll, unpruned; a reply so picked at 1 ply is then valued on its own), and the search:

* 0 ply: the play after which the opponent's position (he is on roll) is worst for him;
  with a pruning net (``pkeep`` > 0, :mod:`bgtools.engine.nets.prune`) only the ``pkeep`` plays it
  ranks first are valued by the net (the same in the replies at 1 ply);
* 1 ply: the ``prune`` best plays by 0 ply are valued by the opponent's 21 rolls, each
  answered by his best 0-ply play, averaged in the order of ``rolls``; the best average
  wins (ties to the better 0-ply play).

Two details keep every caller's results as they were: ``stable`` orders the 1-ply
candidates with a stable sort (rollouts) or Numba's quicksort (duels), and ``rolls`` is
the order the 21 replies are summed in.  :class:`ChooserBuffers` holds the scratch of
one search (two sets of move buffers: our plays and the replies; their boards are written,
not their steps).
"""

from __future__ import annotations

from typing import NamedTuple, Optional

import numba as nb
import numpy as np

from bgtools.core.dice import ROLL_WEIGHTS as GNUBG_ROLL_WEIGHTS, ROLLS as GNUBG_ROLLS  # re-exported
from bgtools.core.movegen import MAX_PLAYS, MoveBuffers, generate_boards, is_contact, new_move_buffers
from bgtools.engine import bearoff as _bo
from bgtools.engine.cubeful.cube import cube_x, cubeful_value
from bgtools.engine.farrace import FAR_ROLLS, far_probs_with, far_race_roll, far_side_into
from bgtools.engine.evalcache import ChoiceCache, EvalCache, cache_find, cache_put, new_choice_cache, new_eval_cache
from bgtools.engine.nets.incremental import IncBase, net_probs_inc, new_inc_base, set_base
from bgtools.engine.nets.nn import (EvalBuffers, Net, WideNet, as_net, equity_from_probs, game_over_probs, net_probs,
                                    new_eval_buffers)
from bgtools.engine.nets.prune import PRUNE_MAX_HIDDEN, PruneNet, Pruning, no_pruning, prune_base, prune_keep, prune_play_values

__all__ = ["Chooser", "ChooserBuffers", "make_chooser", "new_chooser_buffers", "swap_into", "static_value",
           "choose", "far_probs", "far_side", "best_play0", "choose0", "choose1", "reply_value", "sibling_value", "sibling_probs", "set_siblings", "keep_plays", "wants_base", "exact_value",
           "cached_static", "cached_probs", "exact_probs", "static_probs", "chooser_buffers_with", "GNUBG_ROLLS",
           "GNUBG_ROLL_WEIGHTS"]


class Chooser(NamedTuple):
    """How the net picks its plays (see the module notes); build one with :func:`make_chooser`."""

    net: Net | WideNet
    tables: _bo.BearoffTables  #: the bear-off databases (empty when ``bearoff`` is False)
    bearoff: bool  #: value the positions the databases cover from them
    ply: int  #: 0 or 1
    prune: int  #: candidates valued at 1 ply
    stable: bool  #: stable sort of the 1-ply candidates (else Numba's quicksort)
    rolls: np.ndarray  #: int64[21, 2] the opponent's rolls at 1 ply, in the order they are summed
    weights: np.ndarray  #: float64[21] their chances
    pnet: PruneNet  #: the pruning net (a stand-in when ``pkeep`` is 0)
    pkeep: int  #: plays per roll the net values after pruning; 0: no pruning, the net values all


class ChooserBuffers(NamedTuple):
    """Scratch of one search; ``mine.boards[i]`` is our play ``i`` after a choice."""

    mine: MoveBuffers  #: our plays
    replies: MoveBuffers  #: the opponent's replies (1 ply)
    ev: EvalBuffers
    sw: np.ndarray  #: int8[2, 25]
    opp: np.ndarray  #: int8[2, 25]
    p: np.ndarray  #: float64[5]
    e0: np.ndarray  #: float64[MAX_PLAYS] 0-ply equities of our plays (1 ply)
    base: IncBase  #: the base of the siblings being valued (incremental evaluation)
    pv: np.ndarray  #: float64[MAX_PLAYS] the pruning net's values of the plays of a roll
    top: np.ndarray  #: int64[MAX_PLAYS] the plays kept after pruning (all, without)
    ph: np.ndarray  #: float32[PRUNE_MAX_HIDDEN] the pruning net's hidden layer
    pbase: np.ndarray  #: float32[PRUNE_MAX_HIDDEN] that of the siblings' base
    cache: EvalCache  #: outputs by board (:mod:`bgtools.engine.evalcache`; none unless asked for)
    choices: ChoiceCache  #: the caller's cache of choices (the rollout kernel's; none unless asked for)
    far: np.ndarray  #: float64[2, FAR_ROLLS] a far race's side on roll (:func:`~bgtools.engine.farrace.far_side_into`)
    far_key: np.ndarray  #: int8[26] the side ``far`` was made for, and 1 once it is made (see :func:`far_side`)


def make_chooser(net: Net | WideNet | tuple, ply: int = 0, prune: int = 4, tables: Optional[_bo.BearoffTables] = None,
                 stable: bool = True, rolls: Optional[np.ndarray] = None,
                 weights: Optional[np.ndarray] = None, pruning: Optional[Pruning] = None) -> Chooser:
    """A :class:`Chooser` for ``net``; ``tables`` None: no bear-off databases.
    ``rolls``/``weights`` default to gnubg's order of the 21 rolls; ``pruning`` (None: none)
    the pruning net and how many plays per roll it keeps for the net."""
    use = tables is not None
    pnet, pkeep = (no_pruning(), 0) if pruning is None else (pruning.net, int(pruning.keep))
    return Chooser(as_net(net), tables if tables is not None else _bo.empty_tables(), use, int(ply), int(prune), bool(stable),
                   GNUBG_ROLLS if rolls is None else rolls, GNUBG_ROLL_WEIGHTS if weights is None else weights,
                   pnet, pkeep)


@nb.njit(cache=True)
def new_chooser_buffers(net):
    """Fresh :class:`ChooserBuffers` for ``net`` (callable from Python and from Numba code),
    without an evaluation cache."""
    return chooser_buffers_with(net, new_eval_cache(0), new_choice_cache(0))


@nb.njit(cache=True)
def chooser_buffers_with(net, cache, choices):
    """Fresh :class:`ChooserBuffers` for ``net`` that carry ``choices`` (a
    :class:`~bgtools.engine.evalcache.ChoiceCache`, for the caller to use) and read and fill ``cache`` (an
    :class:`~bgtools.engine.evalcache.EvalCache` for this net and these bear-off databases
    only) for positions out of contact: those are then valued by the net's full pass, never
    incrementally, so that a value is the same whichever search reached it first and the
    cache may outlive a search (the rollout workers keep one each)."""
    return ChooserBuffers(new_move_buffers(), new_move_buffers(), new_eval_buffers(net), np.zeros((2, 25), np.int8),
                          np.zeros((2, 25), np.int8), np.zeros(5, np.float64), np.zeros(MAX_PLAYS, np.float64),
                          new_inc_base(net), np.zeros(MAX_PLAYS, np.float64), np.zeros(MAX_PLAYS, np.int64),
                          np.zeros(PRUNE_MAX_HIDDEN, np.float32), np.zeros(PRUNE_MAX_HIDDEN, np.float32),
                          cache, choices, np.zeros((2, FAR_ROLLS), np.float64), np.zeros(26, np.int8))


@nb.njit(cache=True, inline="always")
def swap_into(src, dst) -> None:
    """``dst`` = ``src`` seen from the other side (the two rows exchanged)."""
    for i in range(25):
        dst[0, i] = src[1, i]
        dst[1, i] = src[0, i]


# Numba reference-counts the arrays it copies out of a bundle (a NamedTuple of arrays or of
# bundles; ``ch.net`` alone holds twelve).  A call that passes ``ch`` and ``buf`` costs about
# 0.8 us, more than a warm race ply (hence the helpers here are inlined, and so are the
# rollout kernel's), and reading a sibling's pieces out of ``ch`` and ``buf`` per sibling
# cost a 0-ply contact choice about 15 % (14.8 -> 12.5 us measured): the loops over siblings
# take what they need out once and call :func:`sibling_probs`, which takes only those pieces.
@nb.njit(cache=True, inline="always")
def exact_probs(board, bearoff, tables, out) -> bool:
    """:func:`exact_value` with ``ch.bearoff`` and ``ch.tables`` taken out."""
    if game_over_probs(board, out):
        return True
    if bearoff:
        if _bo.in_two_sided(board):
            v = _bo.ts_lookup(tables.ts, board)
            out[0] = v[0]
            for k in range(1, 5):
                out[k] = 0.0
            return True
        if _bo.in_one_sided(board[0]) and _bo.in_one_sided(board[1]):
            _bo.one_sided_probs_into(tables.os_rolls, tables.os_gammon, board, out)
            return True
    return False


@nb.njit(cache=True, inline="always")
def exact_value(board, ch, out) -> bool:
    """The outputs for ``board[1]`` on roll into ``out`` where they are known without the net:
    a finished game, or (``ch.bearoff``) the bear-off databases; False elsewhere."""
    return exact_probs(board, ch.bearoff, ch.tables, out)


@nb.njit(cache=True, inline="always")
def static_probs(board, net, bearoff, tables, ev, out) -> None:
    """:func:`static_value` with ``ch.net``, ``ch.bearoff`` and ``ch.tables`` taken out."""
    if not exact_probs(board, bearoff, tables, out):
        net_probs(board, net, ev, out)


@nb.njit(cache=True, inline="always")
def static_value(board, ch, ev, out) -> None:
    """0-ply outputs for ``board[1]`` on roll into ``out``: exact when the game is over,
    from the bear-off databases where they apply (``ch.bearoff``), else the net."""
    static_probs(board, ch.net, ch.bearoff, ch.tables, ev, out)


@nb.njit(cache=True, inline="always")
def wants_base(board, buf, n) -> bool:
    """Whether :func:`set_siblings` makes ``board`` the base of its ``n`` siblings."""
    return n > 2 and (buf.cache.used.shape[0] == 0 or is_contact(board))


@nb.njit(cache=True, inline="always")
def set_siblings(board, ch, buf, n) -> None:
    """Before valuing ``n`` siblings (positions a roll leads to from ``board``, ``[1]`` to
    roll there; a game not over): make ``board`` their base when there are enough of them
    to pay for it and some may need it (with a cache, siblings out of contact are valued
    through it, by the full pass, and all the siblings of a board out of contact are)."""
    if wants_base(board, buf, n):
        set_base(board, ch.net, buf.base)
    else:
        buf.base.cls[0] = -1


@nb.njit(cache=True, inline="always")
def sibling_value(board, ch, buf, out) -> None:
    """:func:`static_value` of a sibling of the base set by :func:`set_siblings`: the net's
    first layer updated from the base's (:mod:`bgtools.engine.nets.incremental`); with a cache,
    a position out of contact from it, or from the full pass (see :func:`chooser_buffers_with`).
    In a loop over siblings, :func:`sibling_probs` is quicker."""
    sibling_probs(board, ch.net, ch.bearoff, ch.tables, buf.cache, buf.ev, buf.base, out)


@nb.njit(cache=True, inline="always")
def sibling_probs(board, net, bearoff, tables, cache, ev, base, out) -> None:
    """:func:`sibling_value` with ``ch``'s ``net``, ``bearoff`` and ``tables`` and ``buf``'s
    ``cache``, ``ev`` and ``base`` taken out by the caller (see the note above)."""
    if not is_contact(board):  # (or over)
        if cache.used.shape[0] > 0:
            # (a position in contact is in the cache only by cached_static)
            cached_probs(board, net, bearoff, tables, cache, ev, out)
            return
        if exact_probs(board, bearoff, tables, out):
            return
    # (in contact both sides have checkers and neither is in the bear-off databases)
    net_probs_inc(board, net, ev, base, out)


@nb.njit(cache=True, inline="always")
def far_side(tables, side, buf) -> None:
    """``buf.far`` for the far race's side on roll ``side`` (25 slots), made again only when the side is not the
    one it was last made for (variance reduction's 21 rolls of a board, the replies of a 1-ply search)."""
    key = buf.far_key
    same = key[25] == 1
    if same:
        for q in range(25):
            if key[q] != side[q]:
                same = False
                break
    if not same:
        far_side_into(tables, side, buf.far)
        for q in range(25):
            key[q] = side[q]
        key[25] = 1


@nb.njit(cache=True, inline="always")
def far_probs(board, tables, dist, out) -> None:
    """The value of a play of a roll whose plays all leave a far race (``[1]`` on roll; see
    :func:`bgtools.engine.farrace.far_race_roll`): exact when the game is over, else
    :func:`bgtools.engine.farrace.far_probs_with` (``dist``: the side on roll's, made once for the roll)."""
    if not game_over_probs(board, out):
        far_probs_with(tables, board, dist, out)


@nb.njit(cache=True, inline="always")
def cached_probs(board, net, bearoff, tables, cache, ev, out) -> None:
    """:func:`cached_static` with the pieces of ``ch`` and ``buf`` taken out.  Exact values
    (a finished game, the bear-off databases) are looked up directly, never through the
    cache: a table look-up costs less than packing and hashing the board, and the cache's
    slots are left to the net's values (the outputs are the same either way)."""
    if exact_probs(board, bearoff, tables, out):
        return
    slot = cache_find(cache, board, out)
    if slot == -1:
        return
    net_probs(board, net, ev, out)
    cache_put(cache, slot, out)


@nb.njit(cache=True, inline="always")
def cached_static(board, ch, buf, out) -> None:
    """:func:`static_value` through ``buf``'s cache (a full pass, never an incremental one)."""
    cached_probs(board, ch.net, ch.bearoff, ch.tables, buf.cache, buf.ev, out)


@nb.njit(cache=True, inline="always")
def keep_plays(base_board, boards, n, ch, buf, base_ready: bool) -> int:
    """The plays of a roll (``boards[:n]``, the mover as ``[1]``) the net is to value, into
    ``buf.top`` in increasing order; returns how many.  Without pruning all of them; with it
    (``ch.pkeep``) the ``pkeep`` whose position (turned round: the opponent on roll) the
    pruning net values lowest for him, each valued from ``base_board`` (laid out as those
    positions; its hidden layer is in ``buf.pbase`` already when ``base_ready``).  Where the
    bear-off databases value the plays (``ch.bearoff``; a board inside them has all its
    plays inside), all of them: exact values are cheap, and the best is then found for sure."""
    top = buf.top
    if ch.pkeep == 0 or n <= ch.pkeep or (ch.bearoff and (_bo.in_two_sided(base_board) or (
            _bo.in_one_sided(base_board[0]) and _bo.in_one_sided(base_board[1])))):
        for i in range(n):
            top[i] = i
        return n
    if not base_ready:
        prune_base(base_board, ch.pnet, buf.pbase)
    prune_play_values(base_board, boards, n, ch.pnet, buf.pbase, buf.ph, buf.sw, buf.p, buf.pv)
    return prune_keep(buf.pv, n, ch.pkeep, top)


@nb.njit(cache=True, inline="always")
def best_play0(board, d1, d2, ch, buf, best_p, done, args, scale, cubeful) -> int:
    """The one 0-ply search (:func:`choose0`'s and the rollout kernel's): the play after which
    the opponent's position (he on roll) is worst for him; its index in ``buf.mine.boards``,
    or -1 when no play is legal.  ``best_p``: the chosen position's outputs for the opponent,
    now on roll (with no legal play: the board passed to him).

    ``args`` None (:func:`choose0`; Numba then compiles no cube code): a play is valued by
    the cubeless money equity, ``cubeful`` is not read.  Else ``args``, a
    :class:`~bgtools.engine.cubeful.cube.CubeArgs` of the opponent on roll after the play,
    and with ``cubeful`` his cubeful value ``cv`` of it gives ours: ``-(cv / scale)`` for
    money (``scale``: the stake the value is counted in), ``1 - cv`` in a match; without
    ``cubeful``, the cubeless equity as above.  With ``args``, a position with no legal play
    is valued through ``buf.cache``, else directly (crashed positions, often without a legal
    play, are quicker so).

    ``done`` (int64[2]; zeros for a new ``board``): what is already done for ``board``, kept
    for the next call with the same ``board`` and other dice: bit 1 of ``done[0]``,
    ``buf.base`` is its base for the siblings (as :func:`set_siblings` makes it), of class
    ``done[1]``; bit 2, ``buf.pbase`` the pruning net's (variance reduction chooses for all 21
    rolls of one board, and the two bases are made once, not 21 times: the same numbers,
    from the same code).  Bit 4, set by the caller: ``best_p`` is wanted only from a choice,
    so with at most one legal play in a position in contact (where valuing it costs a pass of
    the net) nothing is valued and bit 8 is set in return (``best_p`` left as it was).  The
    rollout kernel sets it without variance reduction: a cubeless rollout never reads those
    outputs, a cubeful one only for its next cube turn; a quarter of a bear-in's plies have
    one play or none.  Out of contact the outputs are exact or cached, and the kernel keeps the
    choice in its cache of choices, which a forced play without them could not be."""
    mine = buf.mine
    n = generate_boards(board, d1, d2, mine)  # only the boards are read
    if n <= 1 and (done[0] & 4) != 0 and is_contact(board):
        done[0] |= 8
        return n - 1
    if n == 0:
        swap_into(board, buf.sw)
        if args is None:
            static_value(buf.sw, ch, buf.ev, best_p)
        else:
            cached_static(buf.sw, ch, buf, best_p)
        return -1
    boards = mine.boards
    top = buf.top
    sw = buf.sw
    opp = buf.opp
    p = buf.p
    best = 0
    best_e = -1e300
    swap_into(board, opp)
    net, bearoff, tables = ch.net, ch.bearoff, ch.tables
    far = bearoff and far_race_roll(board, boards, n)  # every play valued from the database
    if far:
        far_side(tables, board[0], buf)  # the opponent's, on roll after any of the plays
        for i in range(n):
            top[i] = i
        k = n
    else:
        k = keep_plays(opp, boards, n, ch, buf, (done[0] & 2) != 0)
        if ch.pkeep > 0 and n > ch.pkeep:  # pruned (pbase made), or never pruned for this board
            done[0] |= 2
    cache, ev, base = buf.cache, buf.ev, buf.base
    if far:
        base.cls[0] = -1
    elif wants_base(opp, buf, k):  # as set_siblings, the base made once per board
        if done[0] & 1:
            base.cls[0] = done[1]
        else:
            set_base(opp, net, base)
            done[0] |= 1
            done[1] = base.cls[0]
    else:
        base.cls[0] = -1
    for j in range(k):
        i = top[j]
        swap_into(boards[i], sw)
        if far:
            far_probs(sw, tables, buf.far, p)
        else:
            sibling_probs(sw, net, bearoff, tables, cache, ev, base, p)
        if args is None:
            e = -equity_from_probs(p)
        elif cubeful:
            cv = cubeful_value(p, args, cube_x(sw))
            e = -(cv / scale) if args.money else 1.0 - cv
        else:
            e = -equity_from_probs(p)
        if e > best_e:
            best_e = e
            best = i
            for o in range(5):
                best_p[o] = p[o]
    return best


@nb.njit(cache=True, inline="always")
def choose0(board, d1, d2, ch, buf, best_p) -> int:
    """0-ply play: its index in ``buf.mine.boards``, or -1 when no play is legal.
    ``best_p``: the chosen position's outputs for the opponent, now on roll (with no
    legal play: the board passed to him).  :func:`best_play0`, cubeless, for a new board."""
    return best_play0(board, d1, d2, ch, buf, best_p, np.zeros(2, np.int64), None, 1, False)


@nb.njit(cache=True)
def reply_value(after, ch, buf) -> float:
    """Mover's equity of ``after`` (mover as [1], opponent to roll) averaged over the
    opponent's 21 rolls, each answered by his best 0-ply play."""
    opp = buf.opp
    sw = buf.sw
    p = buf.p
    swap_into(after, opp)
    if game_over_probs(opp, p) or (ch.bearoff and _bo.in_two_sided(opp)):
        static_value(opp, ch, buf.ev, p)
        return -equity_from_probs(p)
    tot = 0.0
    set_siblings(after, ch, buf, 3)  # every reply is a sibling of ``after`` (we are [1] in both)
    if ch.pkeep > 0:
        prune_base(after, ch.pnet, buf.pbase)
    rolls = ch.rolls
    weights = ch.weights
    replies = buf.replies
    boards = replies.boards
    top = buf.top
    net, bearoff, tables = ch.net, ch.bearoff, ch.tables
    cache, ev, base = buf.cache, buf.ev, buf.base
    for r in range(21):
        n = generate_boards(opp, rolls[r, 0], rolls[r, 1], replies)
        if n == 0:
            # he cannot move: we are on roll in the same position
            swap_into(opp, sw)
            static_value(sw, ch, ev, p)
            tot += weights[r] * equity_from_probs(p)
            continue
        worst = 1e300
        far = bearoff and far_race_roll(opp, boards, n)
        if far:
            far_side(tables, opp[0], buf)  # ours: we are on roll after any of his replies
            for j in range(n):
                top[j] = j
            k = n
        else:
            k = keep_plays(after, boards, n, ch, buf, True)
        pick = 0
        for j in range(k):
            swap_into(boards[top[j]], sw)
            if far:
                far_probs(sw, tables, buf.far, p)
            else:
                sibling_probs(sw, net, bearoff, tables, cache, ev, base, p)
            e = equity_from_probs(p)  # our equity, we are on roll
            if e < worst:
                worst = e
                pick = top[j]
        if far:  # his far race picks the reply; we value the position it leaves us on its own (farrace's notes)
            swap_into(boards[pick], sw)
            static_value(sw, ch, ev, p)
            worst = equity_from_probs(p)
        tot += weights[r] * worst
    return tot


@nb.njit(cache=True)
def choose1(board, d1, d2, ch, buf, best_p) -> int:
    """1-ply play among the ``ch.prune`` best by 0 ply; as :func:`choose0` otherwise."""
    n = generate_boards(board, d1, d2, buf.mine)
    if n == 0:
        swap_into(board, buf.sw)
        static_value(buf.sw, ch, buf.ev, best_p)
        return -1
    e0 = buf.e0
    boards = buf.mine.boards
    sw = buf.sw
    p = buf.p
    swap_into(board, buf.opp)
    set_siblings(buf.opp, ch, buf, n)
    net, bearoff, tables = ch.net, ch.bearoff, ch.tables
    cache, ev, base = buf.cache, buf.ev, buf.base
    far = bearoff and far_race_roll(board, boards, n)
    if far:
        far_side(tables, board[0], buf)
    for i in range(n):
        swap_into(boards[i], sw)
        if far:
            far_probs(sw, tables, buf.far, p)
        else:
            sibling_probs(sw, net, bearoff, tables, cache, ev, base, p)
        e0[i] = -equity_from_probs(p)
    if ch.stable:
        order = np.argsort(-e0[:n], kind="mergesort")
    else:
        order = np.argsort(-e0[:n])
    best = order[0]
    if n > 1:
        best_e = -1e300
        for j in range(min(ch.prune, n)):
            i = order[j]
            e = reply_value(buf.mine.boards[i], ch, buf)
            if e > best_e:
                best_e = e
                best = i
    swap_into(buf.mine.boards[best], buf.sw)
    static_value(buf.sw, ch, buf.ev, best_p)
    return best


@nb.njit(cache=True, inline="always")
def choose(board, d1, d2, ch, buf, best_p) -> int:
    """The play ``ch`` picks for (d1, d2): :func:`choose0` or :func:`choose1` by ``ch.ply``."""
    if ch.ply == 0:
        return choose0(board, d1, d2, ch, buf, best_p)
    return choose1(board, d1, d2, ch, buf, best_p)
