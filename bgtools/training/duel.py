"""Head-to-head money matches of two nets: duplicate dice, 0 ply (or 1), cubeless.

Game pair ``k`` draws one dice sequence from seed ``seed + k`` and plays it twice, net A
moving first in one game and net B in the other, so the luck of the dice cancels within a
pair.  The ppg is A's mean points per game (1 single, 2 gammon, 3 backgammon); its 95 %
interval comes from the spread of the pair means, which duplicate dice makes independent.
Both nets move with :func:`bgtools.engine.chooser.choose` (no bear-off databases), in the
duel kernel of :mod:`bgtools.engine.play` (the one that duels pubeval too).
"""

from __future__ import annotations

from bgtools.engine.chooser import make_chooser
from bgtools.engine.nets.nn import Weights, add_contact_inputs
from bgtools.engine.nets.pubeval import pubeval_weights
from bgtools.engine.play import DuelResult, duel_kernel

__all__ = ["duel_weights"]


def duel_weights(a: Weights, b: Weights, games: int, seed: int = 1, ply: int = 0, candidates: int = 6,
                 points: bool = False):
    """Play ``games`` (rounded up to even) cubeless money games of net ``a`` against ``b``.

    Returns a :class:`~bgtools.engine.play.DuelResult` (points from A's side; and the float64
    points per game for ``a`` when ``points``).  A net that reads the contact inputs
    (:attr:`~bgtools.engine.nets.nn.Weights.wide`) may duel one that does not.
    """
    if games < 2:
        raise ValueError(f"games must be 2 or more, not {games}")
    n_pairs = (games + 1) // 2
    if a.wide != b.wide:  # the kernel plays both with one chooser type: the plain net reads the new
        a, b = add_contact_inputs(a), add_contact_inputs(b)  # inputs at zero weights (its values to the bit)
    ch_a = make_chooser(a.arrays(), ply, candidates, None, stable=True)
    ch_b = make_chooser(b.arrays(), ply, candidates, None, stable=True)
    res = duel_kernel(ch_a, ch_b, pubeval_weights(), False, n_pairs, int(seed))  # (pubeval unused)
    out = DuelResult.of(res, "A ")
    return (out, res) if points else out
