"""Borrowed views (bgtools.base.borrow): the same data as the value they were taken from."""

import json
import os
import subprocess
import sys
from typing import NamedTuple

import numba as nb
import numpy as np
import pytest

from bgtools.base.borrow import borrow, keep_alive


class Inner(NamedTuple):
    a: np.ndarray
    k: int


class Outer(NamedTuple):
    inner: Inner
    pair: tuple
    b: np.ndarray
    flag: bool


@nb.njit
def _write_through(o):
    v = borrow(o)
    v.inner.a[1] = 5.0
    v.pair[1][0, 2] = 7
    v.b[:] += 1
    s = v.inner.a.sum() + v.pair[0].sum() + v.b.sum() + v.inner.k + (1 if v.flag else 0)
    shape = v.pair[1].shape
    keep_alive(o)
    return s, shape[0], shape[1]


@nb.njit
def _scratch_sum(n):
    owned = (np.arange(n) * 1.0, np.ones((2, 3), np.int8))
    x, y = borrow(owned)
    s = 0.0
    for i in range(n):
        x[i] += y[i % 2, i % 3]
        s += x[i]
    keep_alive(owned)
    return s


def test_views_read_and_write_the_same_data_at_any_depth():
    o = Outer(Inner(np.zeros(3), 4), (np.arange(3.0), np.zeros((2, 3), np.int64)), np.ones(2), True)
    s, r, c = _write_through(o)
    assert o.inner.a[1] == 5.0 and o.pair[1][0, 2] == 7 and list(o.b) == [2.0, 2.0]
    assert s == 5.0 + 3.0 + 4.0 + 4 + 1 and (r, c) == (2, 3)


def test_scratch_used_through_views_is_right():
    # the arrays are allocated in the kernel and used only through borrowed views
    assert _scratch_sum(1000) == sum(range(1000)) + 1000


_FREES = """
import json
import numba as nb, numpy as np
from numba.core.runtime import rtsys
from bgtools.base.borrow import borrow, keep_alive

def make(keep):
    @nb.njit
    def f(n):
        owned = (np.arange(n) * 1.0, np.ones((2, 3), np.int8))
        with nb.objmode(before='int64'):
            before = rtsys.get_allocation_stats().free
        x, y = borrow(owned)
        s = 0.0
        for i in range(n):
            x[i] += y[i % 2, i % 3]
            s += x[i]
        with nb.objmode(after='int64'):
            after = rtsys.get_allocation_stats().free
        if keep:
            keep_alive(owned)
        return s, after - before
    return f

print(json.dumps([make(True)(1000), make(False)(1000)]))
"""


def test_keep_alive_holds_the_owner_until_the_views_are_done():
    # Numba's allocation counts (NUMBA_NRT_STATS=1, read at start-up: a process of its own)
    # between the borrow and the views' last use: nothing freed with keep_alive; without it
    # Numba frees the owner's two arrays right after the borrow (so the check can fail)
    env = dict(os.environ, NUMBA_NRT_STATS="1")
    out = subprocess.run([sys.executable, "-c", _FREES], env=env, capture_output=True, text=True, check=True)
    (s_kept, freed_kept), (s_not, freed_not) = json.loads(out.stdout)
    assert s_kept == s_not == sum(range(1000)) + 1000
    assert freed_kept == 0
    assert freed_not == 2


@nb.njit
def _borrow_with_a_list(t):
    v = borrow(t)
    n = len(v[1])
    keep_alive(t)
    return n


def test_only_arrays_and_plain_values_can_be_borrowed():
    from numba.typed import List

    lst = List()
    lst.append(1.0)
    with pytest.raises(nb.core.errors.TypingError, match="borrow"):
        _borrow_with_a_list((np.ones(2), lst))
    with pytest.raises(nb.core.errors.TypingError, match="borrow"):
        _borrow_with_a_list((np.ones(2), "text"))
