"""JSON and CSV output that other programs can read: no ``NaN`` or ``Infinity``.

``json.dumps`` writes ``NaN``/``Infinity`` for non-finite floats, which is not JSON (RFC 8259)
and which ``jq``, JavaScript's ``JSON.parse`` and many others refuse.  :func:`dumps` writes
them as ``null`` (an estimate that does not exist, e.g. the standard error of one trial).

:func:`csv_cell` is the one formatter for a CSV field: an empty cell for a missing or NaN
value (what pandas, R and spreadsheets read as missing), ``inf``/``-inf`` for infinities,
the shortest round-tripping text for other floats, ``true``/``false`` for booleans.

>>> dumps({"se": float("nan"), "n": [1.5, float("inf")]})
'{"se": null, "n": [1.5, null]}'
>>> [csv_cell(x) for x in (float("nan"), None, 0.1, 2, True, float("-inf"), "a")]
['', '', '0.1', '2', 'true', '-inf', 'a']
"""

from __future__ import annotations

import json
import math
import numbers
from typing import Any

__all__ = ["dumps", "finite_or_none", "csv_cell"]


def finite_or_none(obj: Any) -> Any:
    """``obj`` with every non-finite float (also NumPy floats, inside dicts, lists and
    tuples) replaced by None, and NumPy scalars and arrays turned into Python values."""
    if obj is None or isinstance(obj, (str, bool)):
        return obj
    if isinstance(obj, numbers.Integral):
        return int(obj)
    if isinstance(obj, numbers.Real):
        x = float(obj)
        return x if math.isfinite(x) else None
    if isinstance(obj, dict):
        return {k: finite_or_none(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [finite_or_none(v) for v in obj]
    tolist = getattr(obj, "tolist", None)  # NumPy arrays and scalars
    if callable(tolist):
        return finite_or_none(tolist())
    return obj


def dumps(obj: Any, **kwargs: Any) -> str:
    """``json.dumps`` with non-finite floats as ``null``; never writes ``NaN``/``Infinity``
    (``allow_nan`` is always False, so anything else non-finite raises ValueError)."""
    kwargs.pop("allow_nan", None)
    return json.dumps(finite_or_none(obj), allow_nan=False, **kwargs)


def csv_cell(value: Any) -> str:
    """One CSV field as text (see the module docstring); lists and dicts as JSON."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        x = float(value)
        if math.isnan(x):
            return ""
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return repr(x)
    if hasattr(value, "item") and getattr(value, "ndim", 1) == 0:
        return csv_cell(value.item())
    return dumps(value)
