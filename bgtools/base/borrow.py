"""Borrowed views of arrays for Numba kernels: the same data, no reference counting.

Numba counts references to every array it copies or passes, with an atomic add, and a
bundle (a NamedTuple of arrays, or of bundles) counts each of its arrays: an inlined helper
that takes a chooser and its buffers counts some sixty references where it is entered and
sixty more where it is left.  In the rollout kernel that counting was three quarters of a
short race's time and two fifths of a contact position's.

:func:`borrow` returns the same value with every array in it (at any depth of tuples) made
a view that owns nothing: the same data, shape and strides, no memory record, so Numba's
counting skips it (a test and a jump, no atomic).  The view is valid only while the value
it was taken from is alive: borrow what the caller owns for the whole call (a kernel's
arguments), or what the kernel allocated and keeps alive to the end with
:func:`keep_alive` on every way out of the kernel; never return a borrowed array or store it
where it outlives them.

>>> import numba as nb, numpy as np
>>> @nb.njit
... def total(a):
...     v = borrow(a)
...     s = v[0].sum() + v[1][1]
...     keep_alive(a)
...     return s
>>> float(total((np.arange(4.0), np.ones(2))))
7.0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from llvmlite import ir
from numba.core import cgutils, types
from numba.core.errors import TypingError
from numba.extending import intrinsic

__all__ = ["borrow", "keep_alive"]

T = TypeVar("T")


def _borrowed(context, builder, typ, value):
    """``value`` of type ``typ`` with each array in it a view without a memory record."""
    if isinstance(typ, types.Array):
        src = context.make_array(typ)(context, builder, value=value)
        dst = context.make_array(typ)(context, builder)
        dst.data = src.data
        dst.shape = src.shape
        dst.strides = src.strides
        dst.itemsize = src.itemsize
        dst.nitems = src.nitems
        dst.meminfo = cgutils.get_null_value(src.meminfo.type)
        dst.parent = cgutils.get_null_value(src.parent.type)
        return dst._getvalue()
    if isinstance(typ, types.BaseTuple):
        out = value
        for i, t in enumerate(_parts(typ)):
            if _holds_arrays(t):
                part = _borrowed(context, builder, t, builder.extract_value(value, i))
                out = builder.insert_value(out, part, i)
        return out
    return value


def _holds_arrays(typ) -> bool:
    if isinstance(typ, types.Array):
        return True
    if isinstance(typ, types.BaseTuple):
        return any(_holds_arrays(t) for t in _parts(typ))
    return False


def _parts(typ: Any) -> tuple[Any, ...]:
    """The member types of a Numba tuple type."""
    return tuple(typ.types)


def _plain(typ) -> bool:
    """Whether ``typ`` holds nothing but arrays and values Numba does not count references
    to (numbers, booleans, None), at any depth of tuples: only such a value can be borrowed,
    as the view hands every other member on without the reference a new value must own."""
    if isinstance(typ, (types.Array, types.Number, types.Boolean, types.NoneType)):
        return True
    if isinstance(typ, types.BaseTuple):
        return all(_plain(t) for t in _parts(typ))
    return False


if TYPE_CHECKING:  # what the intrinsics are to a type checker

    def borrow(value: T) -> T: ...

    def keep_alive(value: object) -> None: ...

else:

    @intrinsic
    def borrow(typingctx, value):
        """``value`` (an array, or a tuple or NamedTuple holding arrays at any depth) with every
        array a borrowed view: see the module notes for when that is safe.  Anything else in
        it (a list, a string, an object) is refused at compile time."""
        if not _plain(value):
            raise TypingError(f"borrow() takes arrays, numbers and booleans in tuples, not {value}")
        sig = value(value)

        def codegen(context, builder, signature, args):
            return _borrowed(context, builder, signature.args[0], args[0])

        return sig, codegen

    @intrinsic
    def keep_alive(typingctx, value):
        """A use of ``value`` that does nothing: Numba frees a variable after its last use, so a
        kernel that borrowed views of it calls this after the views' last use."""
        sig = types.none(value)

        def codegen(context, builder, signature, args):
            # an opaque use, so that nothing is released before this point
            fnty = ir.FunctionType(ir.VoidType(), [])
            asm = ir.InlineAsm(fnty, "", "~{memory}", side_effect=True)
            builder.call(asm, [])
            return context.get_dummy_value()

        return sig, codegen
