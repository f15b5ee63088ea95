"""Numba's on-disk cache is keyed by the kernel sources: an edit is always picked up.

Numba checks a cached kernel against its own file only; a kernel that calls a kernel of
another module would keep the old machine code after that module changed.  bgtools puts the
cache in a folder named by a hash of the kernel sources (bgtools/base/numbacache.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from bgtools.base import numbacache

PKG = Path(__file__).resolve().parents[1] / "bgtools"


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root


def test_key_follows_kernel_sources_only(tmp_path):
    pkg = _tree(tmp_path / "pkg", {
        "core/a.py": "x = 1\n",
        "engine/b.py": "import numba\n",
        "cli/c.py": "print('hello')\n",
        "rollouts/d.py": "import numba as nb\n",
    })
    assert [p.name for p in numbacache.kernel_sources(pkg)] == ["a.py", "b.py", "d.py"]
    k0 = numbacache.source_key(pkg)
    (pkg / "cli/c.py").write_text("print('changed')\n")
    assert numbacache.source_key(pkg) == k0  # no kernel depends on the CLI
    (pkg / "rollouts/d.py").write_text("import numba as nb\nY = 2\n")
    k1 = numbacache.source_key(pkg)
    assert k1 != k0
    (pkg / "core/a.py").write_text("x = 2\n")
    assert numbacache.source_key(pkg) not in (k0, k1)


def test_configure_points_numba_at_the_keyed_folder(tmp_path):
    env = dict(os.environ, BGTOOLS_NUMBA_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", "import os, bgtools, numba; "
                          "print(os.environ['NUMBA_CACHE_DIR']); print(numba.config.CACHE_DIR)"],
                         capture_output=True, text=True, env=env, check=True).stdout.split()
    assert out[0] == out[1] == str(tmp_path / numbacache.source_key())


_CALLEE = "import numba\n\n\n@numba.njit(cache=True)\ndef f():\n    return {value}\n"
_CALLER = ("import numba\n\nfrom bgtools.core.probe_callee import f\n\n\n"
           "@numba.njit(cache=True)\ndef g():\n    return f() + 0\n")


def test_an_edited_callee_is_picked_up_by_a_cached_caller(tmp_path):
    """The trap itself: g (cached) calls f in another module; f changes; g must see it."""
    copy = tmp_path / "src"
    shutil.copytree(PKG, copy / "bgtools", ignore=shutil.ignore_patterns("__pycache__", "*.npz", "data"))
    (copy / "bgtools" / "data").mkdir()
    (copy / "bgtools" / "data" / "__init__.py").write_text("")
    core = copy / "bgtools" / "core"
    (core / "probe_caller.py").write_text(_CALLER)
    env = dict(os.environ, PYTHONPATH=str(copy), BGTOOLS_NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    code = "import bgtools\nfrom bgtools.core.probe_caller import g\nprint(g())\n"

    def run() -> str:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                              cwd=tmp_path, check=True).stdout.strip()

    (core / "probe_callee.py").write_text(_CALLEE.format(value=1))
    assert run() == "1"
    assert run() == "1"  # second run loads the cache
    assert any((tmp_path / "cache").rglob("*.nbi"))
    (core / "probe_callee.py").write_text(_CALLEE.format(value=2))
    assert run() == "2"
