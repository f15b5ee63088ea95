"""Numba's on-disk cache, keyed by the package's own source code.

Numba checks a cached kernel against its own source file only: when a kernel in another
module that it calls changes, the stale machine code would still be loaded.  So the cache
lives in a folder named by a hash of the package's kernel sources
(``<user cache>/numba/<hash>``): every module that uses Numba, and every module of the
layers kernels draw constants from (``base``, ``core``, ``engine``).  Any edit of those
gives a new folder and everything is compiled afresh; editing, say, the CLI does not.  :func:`configure` runs when ``bgtools`` is imported, before any kernel module.
``BGTOOLS_NUMBA_CACHE_DIR`` sets the parent folder; a few older folders are kept (other
installs may share the parent), the rest are removed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from pathlib import Path

__all__ = ["source_key", "kernel_sources", "configure", "KEEP", "HASHED_LAYERS"]

#: how many other keyed folders stay beside the current one
KEEP = 3

_PKG = Path(__file__).resolve().parents[1]


#: subpackages hashed whole (kernels take constants from their modules)
HASHED_LAYERS = ("base", "core", "engine")


def _kernel_files(package_dir: Path):
    """(path, bytes) of each file whose change must invalidate compiled kernels; each is read once."""
    for p in sorted(package_dir.rglob("*.py")):
        rel = p.relative_to(package_dir)
        if "__pycache__" in rel.parts:
            continue
        data = p.read_bytes()
        if rel.parts[0] in HASHED_LAYERS or b"numba" in data:
            yield p, data


def kernel_sources(package_dir: Path = _PKG) -> list[Path]:
    """The files whose change must invalidate compiled kernels."""
    return [p for p, _ in _kernel_files(package_dir)]


def source_key(package_dir: Path = _PKG) -> str:
    """A hash of the names and contents of :func:`kernel_sources`."""
    h = hashlib.sha256()
    for p, data in _kernel_files(package_dir):
        h.update(str(p.relative_to(package_dir)).encode())
        h.update(b"\0")
        h.update(data)
        h.update(b"\0")
    return h.hexdigest()[:16]


def _parent() -> Path:
    env = os.environ.get("BGTOOLS_NUMBA_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("bgtools")) / "numba"


def _prune(parent: Path, current: Path) -> None:
    try:
        others = [p for p in parent.iterdir() if p.is_dir() and p != current]
        others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        for old in others[KEEP:]:
            shutil.rmtree(old, ignore_errors=True)
    except OSError:
        pass


def configure() -> str:
    """Point Numba's cache at the folder of the current sources; returns that folder."""
    folder = _parent() / source_key()
    try:
        new = not folder.exists()
        folder.mkdir(parents=True, exist_ok=True)
        if new:
            _prune(folder.parent, folder)
    except OSError:
        return ""  # no writable cache: numba compiles in memory each run
    path = str(folder)
    os.environ["NUMBA_CACHE_DIR"] = path
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba already imported (by the caller): tell it directly
        setattr(config, "CACHE_DIR", path)
    return path

