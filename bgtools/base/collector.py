"""Python's cyclic garbage collector paused around work that makes many objects and no cycles."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

__all__ = ["gc_paused"]


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused inside (as it was again after).  Reading and
    replaying a match makes many small objects and hardly any cycles, and the collector's
    passes over them (and over all else the process holds) cost up to a tenth of the reading
    time in one process and about a third in a pool worker forked from a large one.  What
    garbage there is waits for the collector's next pass."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
