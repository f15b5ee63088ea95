"""When Numba compiles: :func:`watch_compiles` tells a caller when a kernel that is not in the
on-disk cache starts compiling and when it is done, so that a command can say what it is
doing on its first run after installing (a kernel loaded from the cache compiles nothing).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator

__all__ = ["watch_compiles"]


@contextmanager
def watch_compiles(started: Callable[[], None], finished: Callable[[], None]) -> Iterator[None]:
    """Within the block, call ``started()`` when Numba begins to compile a kernel and
    ``finished()`` when it is done (kernels compiled for the one being compiled count as
    part of it).  A kernel loaded from the cache compiles nothing: neither is called."""
    from numba.core import event

    depth = [0]

    class Listener(event.Listener):
        def on_start(self, ev) -> None:
            depth[0] += 1
            if depth[0] == 1:
                started()

        def on_end(self, ev) -> None:
            depth[0] -= 1
            if depth[0] == 0:
                finished()

    listener = Listener()
    event.register("numba:compile", listener)
    try:
        yield
    finally:
        event.unregister("numba:compile", listener)
        if depth[0] > 0:  # left by an exception in the middle of a compile
            depth[0] = 0
            finished()
