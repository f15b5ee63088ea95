"""Borrowed views (bgtools.base.borrow): the same data as the value they were taken from."""

from typing import NamedTuple

import numba as nb
import numpy as np

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


def test_scratch_kept_alive_to_the_end():
    # the arrays are allocated in the kernel and used only through borrowed views
    assert _scratch_sum(1000) == sum(range(1000)) + 1000
