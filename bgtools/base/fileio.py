"""Every output bgtools writes goes through here: never half-written, never written where it
should not be, and safe against ``kill -9``.

Where the output goes depends on what the name is (:func:`output_kind`):

* ``-`` is standard output, everywhere;
* a path that is not a regular file (a device such as ``/dev/null``, a FIFO, a process
  substitution ``>(cat)``, ``/dev/stdout``) is opened and written directly, never replaced,
  never synced (pipes and devices refuse ``fsync``);
* a symbolic link is written through: its target is written (atomically when the target is
  a regular file or does not exist yet), the link itself stays;
* only a regular file, or a new one, gets the temporary file beside it and the rename over it
  in one step (``os.replace``).  A replaced file keeps its permission bits; a new one gets the
  usual ``0666`` less the umask.

How a command writes its output (pick one; each takes ``-`` for standard output):

* :func:`atomic_write` -- the whole output as one ``str`` or ``bytes``;
* :func:`open_output` -- a file object to write as the work goes (``with open_output(out) as
  f: f.write(...)``); the output appears under its name only when the block ends without an
  exception;
* :func:`atomic_path` -- a path to hand to a library that insists on writing a file itself
  (``numpy.savez``, ``pyarrow``), with the same guarantees;
* :class:`AppendOutput` -- records that must survive the writer being killed (``rollout``'s
  ``--output``, which ``--resume`` continues): each record is synced as it is written, a new
  file (or one replaced with ``--force``) appears under its name with its first complete
  record, an existing one (``--resume``) is appended to after dropping a torn last line.

:func:`check_output` says before any work starts whether a name can be written (a folder, a
missing folder, a folder without write permission are refused).  Every failure is an
:class:`OutputError` (a :class:`~bgtools.base.errors.BgtoolsError` and an ``OSError``) whose
message starts with the output's name, e.g. ``out.csv: cannot write: No space left on device``.

Temporary files are named ``.<name>.bgtools-<pid>-<random>.tmp`` (or another suffix) in the
target's folder; a run that is killed leaves one behind, and the next output written to the
same folder removes those whose writer is no longer running (:func:`clean_stale`); files of
any other naming, or of another user, are never touched.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write(d / "a.txt", "hello")
>>> (d / "a.txt").read_text()
'hello'
>>> with open_output(d / "b.txt") as f:
...     _ = f.write("line 1\\n")
>>> (d / "b.txt").read_text()
'line 1\\n'
>>> output_kind(d / "a.txt")[0], output_kind("-")[0], output_kind("/dev/null")[0]
('atomic', 'stdout', 'direct')
"""

from __future__ import annotations

import errno
import io
import os
import re
import shutil
import stat
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator, Optional, Union, cast

from bgtools.base.errors import BgtoolsError

__all__ = ["AppendOutput", "OutputError", "STDOUT", "atomic_path", "atomic_write", "check_output", "clean_stale",
           "open_output", "output_kind", "write_error"]

PathLike = Union[str, os.PathLike]

STDOUT = "-"
_TAG = "bgtools"
_MAX_LINKS = 40
_ACTIVE: set[str] = set()  # temporaries this process is writing now
#: ``.<name>.bgtools-<pid>-<mkstemp's 8 characters><suffix>``: the only files :func:`clean_stale` removes
_TEMP = re.compile(r"\..+\." + _TAG + r"-(\d{1,10})-[a-z0-9_]{8}\.[A-Za-z0-9]{1,8}$")
#: fsync errors that mean "this file cannot be synced", not "the data is lost"
_NO_SYNC = (errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EROFS)


class OutputError(BgtoolsError, OSError):
    """An output that cannot be written; the message starts with the output's name."""


def write_error(path: PathLike, e: OSError) -> OutputError:
    """``<path>: cannot write: <the OS's reason>`` (an :class:`OutputError` passes unchanged)."""
    if isinstance(e, OutputError):
        return e
    err = OutputError(f"{os.fspath(path)}: cannot write: {e.strerror or e}")
    err.errno = e.errno
    return err


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


def check_output(path: PathLike) -> tuple[str, str]:
    """:func:`output_kind` of ``path``, refusing before any work is done a name that cannot
    be written: a folder, a file in a missing folder, a folder without write permission."""
    kind, target = output_kind(path)
    if kind != "atomic":
        return kind, target
    text = os.fspath(path)
    folder = os.path.dirname(target) or "."
    if not os.path.isdir(folder):
        raise OutputError(f"{text}: the folder does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{text}: cannot write: permission denied")
    return kind, target


# -- temporaries left by killed runs ---------------------------------------------------------------
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


def _started_at(pid: int) -> Optional[float]:
    """When process ``pid`` started (seconds since the epoch; Linux ``/proc``), else None."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/stat", encoding="ascii") as f:
            boot = next(int(line.split()[1]) for line in f if line.startswith("btime "))
        return boot + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return None


def _writer_gone(pid: int, written: float) -> bool:
    """True when process ``pid`` cannot be writing a file last written at ``written``: it is
    dead, or it started after that (the number was given to a later process)."""
    if pid == os.getpid():
        return False  # ours: :data:`_ACTIVE` says which of them are still being written
    if not _pid_alive(pid):
        return True
    start = _started_at(pid)
    return start is not None and start > written + 1.0  # btime has whole seconds


def clean_stale(path: PathLike) -> list[Path]:
    """Remove, in the folder of the output ``path``, the temporary files that killed runs of
    bgtools left behind: only files of our exact naming (see the module docstring), owned by
    this user, whose writer process is no longer running.  A temporary this process is
    writing, or another running process is, is kept; so is every file of any other name.
    Returns the files removed."""
    folder = Path(path).parent
    removed: list[Path] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    me = os.geteuid() if hasattr(os, "geteuid") else None
    for n in names:
        m = _TEMP.match(n)
        if m is None:
            continue
        f = folder / n
        if str(f) in _ACTIVE:
            continue
        try:
            st = os.lstat(f)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode) or (me is not None and st.st_uid != me):
            continue
        if _writer_gone(int(m.group(1)), st.st_mtime):
            try:
                os.unlink(f)
                removed.append(f)
            except OSError:
                pass
    return removed


def _new_temp(target: str, suffix: str) -> str:
    """A new temporary file beside ``target`` (after removing stale ones), with the mode the
    target has or a new file would get; registered in :data:`_ACTIVE`."""
    folder, name = os.path.dirname(target), os.path.basename(target)
    try:
        mode: Optional[int] = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None
    clean_stale(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.{_TAG}-{os.getpid()}-", suffix=suffix, dir=folder)
    os.close(fd)
    _ACTIVE.add(tmp)
    try:
        os.chmod(tmp, mode if mode is not None else 0o666 & ~_umask())
    except OSError:
        _drop(tmp)
        raise
    return tmp


def _drop(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass
    _ACTIVE.discard(tmp)


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


# -- whole outputs -------------------------------------------------------------------------------------
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
    tmp = _new_temp(target, suffix)
    try:
        yield Path(tmp)
        os.replace(tmp, target)
    except BaseException:
        _drop(tmp)
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


def _stdout(binary: bool) -> IO:
    """Standard output as a file object that ``close`` only flushes."""
    sys.stdout.flush()
    raw = getattr(sys.stdout, "buffer", None) if binary else None
    target = raw if raw is not None else sys.stdout

    class _Kept(io.IOBase):
        def write(self, data):  # type: ignore[override]
            if binary and raw is None:
                data = data.decode("utf-8", "replace")
            return target.write(data)

        def writable(self) -> bool:
            return True

        def flush(self) -> None:
            target.flush()

        def close(self) -> None:
            if not self.closed:
                target.flush()
            super().close()

    return cast(IO, _Kept())


@contextmanager
def open_output(path: PathLike, mode: str = "w", *, encoding: str = "utf-8", newline: Optional[str] = "\n"
                ) -> Iterator[IO]:
    """A file object to write the output ``path`` with (``mode`` ``"w"`` for text, ``"wb"``
    for bytes): standard output for ``-`` (written as the block goes), the file itself for
    a device, FIFO or ``/dev/stdout`` (appended to, never truncated or replaced), else a
    temporary file beside the target that replaces it when the block ends without an
    exception.  An ``OSError`` while writing becomes an :class:`OutputError` naming ``path``."""
    if mode not in ("w", "wb"):
        raise ValueError(f"open_output: mode {mode!r}: use 'w' or 'wb'")
    binary = mode == "wb"
    kind, target = output_kind(path)
    opts: dict = {} if binary else {"encoding": encoding, "newline": newline}
    try:
        if kind == "stdout":
            with _stdout(binary) as g:
                yield g
            return
        if kind == "direct":
            with open(target, "ab" if binary else "a", **opts) as g:
                yield g
            return
        with atomic_path(target) as tmp, open(tmp, mode, **opts) as g:
            yield g
    except OutputError:
        raise
    except OSError as e:
        raise write_error(path, e) from e


# -- record by record ------------------------------------------------------------------------------------
def _fsync(fd: int) -> None:
    try:
        os.fsync(fd)
    except OSError as e:
        if e.errno not in _NO_SYNC:
            raise


def _sync_folder(folder: str) -> None:
    try:
        fd = os.open(folder or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        _fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class AppendOutput:
    """An output written one complete record at a time, each kept even if the writer is then
    killed (``rollout --output``; :meth:`write` takes whole lines).

    ``resume`` keeps what a regular file holds (its complete lines, in :attr:`existing`; a
    torn last line is dropped) and appends; otherwise the output starts afresh with
    ``header``, in a temporary file that replaces the target when the first record is
    complete (or at :meth:`close` if none comes), so a file that was there survives a run
    that fails or is killed before that.  A regular file is synced after each record; ``-``,
    devices and FIFOs are written and flushed (and cannot be resumed).  On an error (a full
    disk) the output is cut back to its last complete record and an :class:`OutputError`
    naming it is raised.  Use it as a context manager: leaving with an exception calls
    :meth:`abort` (a file not yet in place is removed), else :meth:`close`."""

    def __init__(self, path: PathLike, *, resume: bool = False, header: str = "") -> None:
        self.name = os.fspath(path)
        self.kind, self.target = check_output(path)
        self.existing = ""
        self._tmp: Optional[str] = None
        self._good = 0  # bytes of complete records (where an error cuts the file back to)
        self._f: Optional[IO[bytes]] = None
        if resume and self.kind != "atomic":
            raise OutputError(f"{self.name}: not a regular file: there is nothing to resume")
        try:
            if self.kind == "stdout":
                self._f = _stdout(binary=True)  # type: ignore[assignment]
            elif self.kind == "direct":
                self._f = open(self.target, "ab", buffering=0)
            elif resume and os.path.exists(self.target) and os.path.getsize(self.target) > 0:
                self._open_existing()
            else:
                self._tmp = _new_temp(self.target, ".tmp")
                self._f = open(self._tmp, "r+b", buffering=0)
            if not self.existing and header:
                self._put(header.encode("utf-8"), sync=False)
        except OSError as e:
            self.abort()
            raise write_error(self.name, e) from e

    def _open_existing(self) -> None:
        f = open(self.target, "r+b", buffering=0)
        self._f = f
        data = f.read()
        keep = data.rfind(b"\n") + 1
        if keep < len(data):
            f.truncate(keep)  # a record cut short by a crash
            f.flush()
        f.seek(keep)
        self._good = keep
        try:
            self.existing = data[:keep].decode("utf-8")
        except UnicodeDecodeError as e:
            raise OutputError(f"{self.name}: not text (UTF-8): byte {e.start} cannot be read") from None

    def _put(self, data: bytes, sync: bool) -> None:
        f = self._f
        assert f is not None, "the output is closed"
        try:
            view = memoryview(data)
            while view:  # unbuffered: nothing is left in a buffer when a write fails
                n = f.write(view)
                view = view[n or 0:]
            f.flush()
            if sync and self.kind == "atomic":
                _fsync(f.fileno())
        except OSError:
            self._cut_back()
            raise
        self._good += len(data)

    def _cut_back(self) -> None:
        """Drop the part of a record a failed write left."""
        if self.kind != "atomic" or self._f is None:
            return
        try:
            self._f.truncate(self._good)
            self._f.seek(self._good)
        except (OSError, ValueError):
            pass

    def write(self, text: str) -> None:
        """Add one or more complete records (lines ending in ``\\n``)."""
        try:
            self._put(text.encode("utf-8"), sync=True)
            if self._tmp is not None:
                self._place()
        except OSError as e:
            raise write_error(self.name, e) from e

    def _place(self) -> None:
        """Move the temporary file (synced) over the target; the file stays open for more."""
        assert self._tmp is not None and self._f is not None
        _fsync(self._f.fileno())
        os.replace(self._tmp, self.target)
        _ACTIVE.discard(self._tmp)
        self._tmp = None
        _sync_folder(os.path.dirname(self.target))

    def close(self) -> None:
        """Finish: the output is complete (a new file appears now if no record did so)."""
        if self._f is None:
            return
        try:
            if self._tmp is not None:
                self._f.flush()
                self._place()
            self._f.close()
        except OSError as e:
            self.abort()
            raise write_error(self.name, e) from e
        self._f = None

    def abort(self) -> None:
        """Stop after an error: a file not yet in place is removed, one in place keeps its
        complete records."""
        f, self._f = self._f, None
        if f is not None:
            try:
                f.close()
            except OSError:
                pass
        if self._tmp is not None:
            _drop(self._tmp)
            self._tmp = None

    def __enter__(self) -> "AppendOutput":
        return self

    def __exit__(self, kind, value, tb) -> None:
        if kind is None:
            self.close()
        else:
            self.abort()
