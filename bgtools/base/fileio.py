"""Output files that are never half-written: write to a temporary file beside the target,
then rename it over the target in one step (``os.replace``).

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write(d / "a.txt", "hello")
>>> (d / "a.txt").read_text()
'hello'
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Union

__all__ = ["atomic_path", "atomic_write"]

PathLike = Union[str, os.PathLike]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def atomic_path(path: PathLike, suffix: str = ".tmp") -> Iterator[Path]:
    """Yield a temporary path in the target's folder; on success it replaces ``path``.

    On any exception the temporary file is removed and ``path`` is left as it was.  The
    file gets the usual permissions (0666 less the umask), not ``mkstemp``'s private 0600.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=folder)
    os.close(fd)
    try:
        os.chmod(tmp, 0o666 & ~_umask())
        yield Path(tmp)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def atomic_write(path: PathLike, data: Union[str, bytes]) -> None:
    """Write text (UTF-8, ``\\n`` line ends) or bytes to ``path`` atomically."""
    with atomic_path(path) as tmp:
        if isinstance(data, bytes):
            tmp.write_bytes(data)
        else:
            with open(tmp, "w", encoding="utf-8", newline="\n") as f:
                f.write(data)
