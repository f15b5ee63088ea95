"""The move filter: which of a roll's plays a deeper search values (gnubg's rule: at most ``keep`` plays within
``threshold`` of the best at 0 ply).  Every screen before a deeper search keeps plays by :meth:`MoveFilter.select`:
the analysis, ``evaluate_candidates``, ``train decisions``, the self-judge and the judge benchmark."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True, slots=True)
class MoveFilter:
    """Before a deeper search keep at most ``keep`` plays within ``threshold`` of the best 0-ply play."""

    keep: int = 8
    threshold: float = 0.16

    def select(self, equities: npt.ArrayLike) -> np.ndarray:
        """The indices of the plays kept, best first (of equals, the first): at most ``keep`` of the plays whose
        ``equities`` (the mover's, one roll's plays) are within ``threshold`` of the best.

        >>> MoveFilter(keep=3, threshold=0.1).select([0.0, 0.25, 0.2, 0.3, 0.25])
        array([3, 1, 4])
        """
        e = np.asarray(equities, np.float64)
        order = np.argsort(-e, kind="stable")[:self.keep]
        if order.size == 0:
            return order.astype(np.int64)
        return order[e[order] >= e[order[0]] - self.threshold].astype(np.int64)
