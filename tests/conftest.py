"""Shared fixtures.

CI compiles every Numba kernel from an empty cache (``bgtools warmup``, then the tests), and compiling is most of
its time.  A kernel that takes a chooser compiles the whole 0-ply search into itself (``choose0`` and what it calls
are inlined), once for each type of chooser it is given: so a test calls the library's compiled entry points
(``choose0``, ``choose1``, the duel, the stages' race rollouts) with the nets other tests use (the shipped analysis
net for duels and the stages, the rollout net for choosers) instead of wrapping them in a kernel of its own, which
costs a minute or more of compiling on a fresh install.
"""

import contextlib
import gzip
import os
import json
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


def read_jsonl_gz(name: str):
    with gzip.open(DATA / name, "rt", encoding="utf-8") as fh:
        for line in fh:
            yield json.loads(line)


@pytest.fixture(scope="session")
def oracle_positions():
    return list(read_jsonl_gz("oracle_positions.jsonl.gz"))


@pytest.fixture(scope="session")
def oracle_ids():
    return list(read_jsonl_gz("oracle_ids.jsonl.gz"))


sys.path.insert(0, str(Path(__file__).parent))


@contextlib.contextmanager
def isolated_cache(folder):
    """Point bgtools' cache (bear-off databases, evaluation cache) at ``folder`` for a while."""
    from bgtools.engine import bearoff

    old = os.environ.get("BGTOOLS_CACHE_DIR")
    os.environ["BGTOOLS_CACHE_DIR"] = str(folder)
    bearoff._DB = None
    try:
        yield
    finally:
        bearoff._DB = None
        if old is None:
            os.environ.pop("BGTOOLS_CACHE_DIR", None)
        else:
            os.environ["BGTOOLS_CACHE_DIR"] = old


def compiled_choose(ch):
    """``bgtools.engine.chooser.choose``'s rule (``choose0`` at 0 ply, else ``choose1``) by the kernels the warmup and
    the other tests compile: ``choose`` itself, called from a test, would compile the whole 0-ply search again."""
    from bgtools.engine.chooser import choose0, choose1

    return choose0 if ch.ply == 0 else choose1
