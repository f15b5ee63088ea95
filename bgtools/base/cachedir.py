"""Where bgtools keeps what it computes once: bear-off databases, evaluations, compiled kernels.

``BGTOOLS_CACHE_DIR`` overrides the data cache folder (default: the platform's user cache
folder, e.g. ``~/.cache/bgtools``).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_dir"]


def cache_dir() -> Path:
    """bgtools' cache folder (``BGTOOLS_CACHE_DIR`` or the platform's user cache dir)."""
    env = os.environ.get("BGTOOLS_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("bgtools"))
