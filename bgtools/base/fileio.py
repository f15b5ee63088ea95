"""Output files that are never half-written, and never written where they should not be.

Where the output goes depends on what the name is:

* ``-`` is standard output, everywhere;
* a path that is not a regular file (a device such as ``/dev/null``, a FIFO, a process
  substitution ``>(cat)``, ``/dev/stdout``) is opened and written directly;
* a symbolic link is written through: its target is written (atomically when the target is
  a regular file or does not exist yet), the link itself stays;
* only a regular file, or a new one, gets the temporary file beside it and the rename over it
  in one step (``os.replace``).  A replaced file keeps its permission bits; a new one gets the
  usual ``0666`` less the umask.

Temporary files are named ``.<name>.bgtools-<pid>-<random>.tmp``; a run that is killed leaves
one behind, and the next write of the same target removes those whose writer is dead or that
are older than :data:`STALE_SECONDS` (see :func:`clean_stale`).

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write(d / "a.txt", "hello")
>>> (d / "a.txt").read_text()
'hello'
>>> output_kind(d / "a.txt")[0], output_kind("-")[0], output_kind("/dev/null")[0]
('atomic', 'stdout', 'direct')
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional, Union

from bgtools.base.errors import BgtoolsError

__all__ = ["atomic_path", "atomic_write", "clean_stale", "output_kind", "OutputError", "STALE_SECONDS",
           "STDOUT"]

PathLike = Union[str, os.PathLike]

STDOUT = "-"
#: a temporary file older than this (seconds) is left-over whoever wrote it
STALE_SECONDS = 60.0
_TAG = "bgtools"
_MAX_LINKS = 40
_ACTIVE: set[str] = set()  # temporaries this process is writing now


class OutputError(BgtoolsError, OSError):
    """An output name that cannot be written (a folder, a loop of symbolic links)."""


def _umask() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _in_proc(folder: str) -> bool:
    return folder == "/proc" or folder.startswith("/proc/")


def output_kind(path: PathLike) -> tuple[str, str]:
    """How ``path`` is written: ``("stdout", "-")``, ``("direct", path)`` for anything that
    is not a regular file, or ``("atomic", target)`` with the regular (or new) file that a
    chain of symbolic links ends at.  Raises :class:`OutputError` for a folder or a link loop."""
    text = os.fspath(path)
    if text == STDOUT:
        return "stdout", text
    p = os.path.abspath(text)
    for _ in range(_MAX_LINKS):
        try:
            st = os.lstat(p)
        except FileNotFoundError:
            return "atomic", p  # a new file (or the missing target of a link)
        if stat.S_ISLNK(st.st_mode):
            folder = os.path.realpath(os.path.dirname(p))
            if _in_proc(folder):  # /dev/stdout, /dev/fd/N, /proc/self/fd/N: an open file of a process
                return "direct", text
            p = os.path.join(folder, os.readlink(p))
            continue
        if stat.S_ISREG(st.st_mode):
            return "atomic", p
        if stat.S_ISDIR(st.st_mode):
            raise OutputError(f"{text}: is a folder, not a file")
        return "direct", text
    raise OutputError(f"{text}: too many levels of symbolic links")


def _temp_pattern(name: str, suffix: str) -> re.Pattern:
    return re.compile(r"\." + re.escape(name) + r"\." + _TAG + r"-(\d+)-[A-Za-z0-9_]+" + re.escape(suffix) + "$")


def _legacy_pattern(name: str, suffix: str) -> re.Pattern:
    # what earlier versions left (``mkstemp`` with prefix ``.<name>.``): no pid, judged by age only
    return re.compile(r"\." + re.escape(name) + r"\.[a-z0-9_]{8}" + re.escape(suffix) + "$")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except (OverflowError, OSError):
        return False
    return True


def clean_stale(path: PathLike, suffix: str = ".tmp", *, max_age: float = STALE_SECONDS) -> list[Path]:
    """Remove left-over temporary files of the target ``path`` (as :func:`atomic_path` names
    them): those whose writer process is dead, and any older than ``max_age`` seconds.
    Temporaries this process is writing are kept.  Returns the files removed."""
    target = Path(path)
    folder = target.parent
    mine, legacy = _temp_pattern(target.name, suffix), _legacy_pattern(target.name, suffix)
    removed: list[Path] = []
    now = time.time()
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for n in names:
        m = mine.match(n)
        if m is None and not legacy.match(n):
            continue
        f = folder / n
        if str(f) in _ACTIVE:
            continue
        try:
            st = os.lstat(f)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode):
            continue
        old = now - st.st_mtime > max_age
        dead = m is not None and not _pid_alive(int(m.group(1)))
        if old or dead:
            try:
                os.unlink(f)
                removed.append(f)
            except OSError:
                pass
    return removed


def _copy_to_stdout(tmp: str) -> None:
    sys.stdout.flush()
    out = getattr(sys.stdout, "buffer", None)
    with open(tmp, "rb") as f:
        if out is not None:
            shutil.copyfileobj(f, out)
            out.flush()
        else:
            sys.stdout.write(f.read().decode("utf-8", "replace"))
            sys.stdout.flush()


@contextmanager
def atomic_path(path: PathLike, suffix: str = ".tmp") -> Iterator[Path]:
    """Yield the path to write the output of ``path`` to (see the module docstring).

    For a regular or new file that is a temporary file beside the target, which replaces the
    target when the block ends without an exception (else it is removed and the target is left
    as it was).  For a device, FIFO or other special file it is the path itself.  For ``-`` it
    is a private temporary file whose bytes go to standard output at the end.
    """
    kind, target = output_kind(path)
    if kind == "direct":
        yield Path(target)
        return
    if kind == "stdout":
        fd, tmp = tempfile.mkstemp(prefix=f"{_TAG}-stdout-", suffix=suffix)
        os.close(fd)
        try:
            yield Path(tmp)
            _copy_to_stdout(tmp)
        finally:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        return
    folder, name = os.path.dirname(target), os.path.basename(target)
    try:
        mode: Optional[int] = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None
    clean_stale(target, suffix)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.{_TAG}-{os.getpid()}-", suffix=suffix, dir=folder)
    os.close(fd)
    _ACTIVE.add(tmp)
    try:
        os.chmod(tmp, mode if mode is not None else 0o666 & ~_umask())
        yield Path(tmp)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    finally:
        _ACTIVE.discard(tmp)


def atomic_write(path: PathLike, data: Union[str, bytes]) -> None:
    """Write text (UTF-8, ``\\n`` line ends) or bytes to ``path`` as :func:`atomic_path`
    says (``-`` = standard output)."""
    if output_kind(path)[0] == "stdout":
        if isinstance(data, bytes):
            sys.stdout.flush()
            out = getattr(sys.stdout, "buffer", None)
            if out is not None:
                out.write(data)
                out.flush()
                return
            data = data.decode("utf-8", "replace")
        sys.stdout.write(data)
        sys.stdout.flush()
        return
    with atomic_path(path) as tmp:
        if isinstance(data, bytes):
            with open(tmp, "wb") as f:
                f.write(data)
        else:
            with open(tmp, "w", encoding="utf-8", newline="\n") as f:
                f.write(data)
