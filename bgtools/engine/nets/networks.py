"""Which network to use: a weights file given by the user, or the one shipped in ``bgtools/data``.

>>> load_weights("/no/such.npz")
Traceback (most recent call last):
...
bgtools.engine.nets.networks.WeightsFileError: /no/such.npz: no such weights file
"""

from __future__ import annotations

import os
import zipfile
from typing import Optional

from bgtools.base.errors import BgtoolsError
from bgtools.engine.nets.nn import NetUse, Weights, load_default_network, reads_contact_inputs

__all__ = ["WeightsFileError", "evaluator_name", "load_weights"]


class WeightsFileError(BgtoolsError, ValueError):
    """A weights file that is missing or is not a bgtools network (.npz with W1_0 .. b2_2)."""


def load_weights(path: Optional[str] = None, use: NetUse = "analysis") -> Weights:
    """The weights in ``path`` (a bgtools .npz), or the shipped network for ``use`` when ``path`` is None.

    Raises :class:`WeightsFileError` with a one-line message naming the file.
    """
    if path is None:
        net = load_default_network(use)
        if net is None:
            raise WeightsFileError("no shipped network: pass --weights FILE")
        return net.weights
    if not os.path.exists(path):
        raise WeightsFileError(f"{path}: no such weights file")
    if os.path.isdir(path):
        raise WeightsFileError(f"{path}: is a folder, not a weights file")
    try:
        w = Weights.load(path)
        reads_contact_inputs(w.W1)  # first layers of a size no net reads: ValueError
        return w
    except KeyError as e:
        raise WeightsFileError(f"{path}: not a bgtools weights file (no array {e.args[0]!r})") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
        raise WeightsFileError(f"{path}: not a bgtools weights file ({e})") from None


def evaluator_name(weights: Weights) -> str:
    """The evaluator label written into rollout records (the network's version)."""
    return str(weights.meta.get("version", "nn"))
