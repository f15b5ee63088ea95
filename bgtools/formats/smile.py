"""A small decoder of Smile, the binary encoding of JSON (used by BGBlitz ``.bgf`` bodies).

Written from the Smile format specification (FasterXML, "Smile Format Specification",
version 1.0): a 4-byte header ``:)\\n`` + flags, then tokens.  Decoding only; every
problem (truncation, an unknown token, a back reference that was never defined, nesting
or sizes past the limits) raises :class:`SmileError` with the byte offset.

>>> loads(b':)\\n\\x00\\xfa\\x80a\\xc2\\xfb')
{'a': 1}
"""

from __future__ import annotations

import struct
from typing import Any

from bgtools.base.errors import BgtoolsError

__all__ = ["SmileError", "loads", "MAX_DEPTH", "MAX_ITEMS"]

MAX_DEPTH = 200  #: deepest nesting of arrays/objects accepted
MAX_ITEMS = 5_000_000  #: most values in one document
_SHARED_MAX = 1024  # back-reference tables are cleared when they reach this size


class SmileError(BgtoolsError, ValueError):
    """Bytes that are not a well-formed Smile document (message names the offset)."""


class _Reader:
    __slots__ = ("d", "i", "keys", "vals", "share_keys", "share_vals", "items")

    def __init__(self, data: bytes, share_keys: bool, share_vals: bool):
        self.d = data
        self.i = 4
        self.keys: list[str] = []
        self.vals: list[str] = []
        self.share_keys = share_keys
        self.share_vals = share_vals
        self.items = 0

    def fail(self, msg: str, at: int | None = None) -> SmileError:
        return SmileError(f"Smile: {msg} at byte {self.i if at is None else at}")

    def byte(self) -> int:
        if self.i >= len(self.d):
            raise self.fail("unexpected end of data")
        b = self.d[self.i]
        self.i += 1
        return b

    def take(self, n: int) -> bytes:
        if n < 0 or self.i + n > len(self.d):
            raise self.fail(f"unexpected end of data (wanted {n} bytes)")
        s = self.d[self.i:self.i + n]
        self.i += n
        return s

    def vint(self) -> int:
        """Unsigned variable-length int: 7-bit groups, the last with its high bit set (6 bits)."""
        v = 0
        for _ in range(11):
            b = self.byte()
            if b & 0x80:
                return (v << 6) | (b & 0x3F)
            v = (v << 7) | b
        raise self.fail("variable-length integer too long")

    @staticmethod
    def zigzag(v: int) -> int:
        return (v >> 1) ^ -(v & 1)

    def seven_bit(self, nbits: int) -> int:
        """``nbits`` of payload in 7-bit bytes, most significant first."""
        nbytes = (nbits + 6) // 7
        v = 0
        for b in self.take(nbytes):
            if b & 0x80:
                raise self.fail("high bit set inside a 7-bit encoded number", self.i - 1)
            v = (v << 7) | b
        return v & ((1 << nbits) - 1)

    def text(self, n: int, unicode: bool) -> str:
        raw = self.take(n)
        try:
            return raw.decode("utf-8" if unicode else "ascii")
        except UnicodeDecodeError:
            raise self.fail("bad text bytes", self.i - n) from None

    def until_end_marker(self) -> bytes:
        j = self.d.find(b"\xfc", self.i)
        if j < 0:
            raise self.fail("unterminated long string")
        s = self.d[self.i:j]
        self.i = j + 1
        return s

    def remember(self, table: list[str], s: str) -> None:
        if len(s.encode("utf-8")) <= 64:
            if len(table) >= _SHARED_MAX:
                table.clear()
            table.append(s)

    def shared(self, table: list[str], idx: int, what: str) -> str:
        if idx >= len(table):
            raise self.fail(f"reference to undefined shared {what} #{idx}")
        return table[idx]

    # ------------------------------------------------------------------ values
    def value(self, depth: int) -> Any:
        self.items += 1
        if self.items > MAX_ITEMS:
            raise self.fail("too many values")
        at = self.i
        if at >= len(self.d):
            raise self.fail("unexpected end of data")
        b = self.d[at]
        self.i = at + 1
        if b < 0x20:
            if b == 0:
                raise self.fail("reserved token 0x00", at)
            return self.shared(self.vals, b - 1, "string")
        if b < 0x40:
            if b == 0x20:
                return ""
            if b == 0x21:
                return None
            if b == 0x22:
                return False
            if b == 0x23:
                return True
            if b in (0x24, 0x25):
                return self.zigzag(self.vint())
            if b == 0x26:  # BigInteger: length, then 7-bit binary
                return int.from_bytes(self.binary7(), "big", signed=True)
            if b == 0x28:
                return struct.unpack(">f", self.seven_bit(32).to_bytes(4, "big"))[0]
            if b == 0x29:
                return struct.unpack(">d", self.seven_bit(64).to_bytes(8, "big"))[0]
            if b == 0x2A:  # BigDecimal: scale, length, 7-bit binary
                scale = self.zigzag(self.vint())
                unscaled = int.from_bytes(self.binary7(), "big", signed=True)
                return unscaled * 10.0 ** (-scale)
            raise self.fail(f"reserved token 0x{b:02x}", at)
        if b < 0xC0:
            uni = b >= 0x80
            base = b & 0x1F
            n = base + (1 if b < 0x60 else 33 if b < 0x80 else 2 if b < 0xA0 else 34)
            s = self.text(n, uni)
            if self.share_vals:
                self.remember(self.vals, s)
            return s
        if b < 0xE0:
            return self.zigzag(b & 0x1F)
        if b in (0xE0, 0xE4):
            raw = self.until_end_marker()
            try:
                return raw.decode("utf-8")
            except UnicodeDecodeError:
                raise self.fail("bad text bytes", at) from None
        if b == 0xE8:
            return self.binary7()
        if 0xEC <= b <= 0xEF:
            return self.shared(self.vals, ((b & 3) << 8) | self.byte(), "string")
        if b == 0xF8:
            return self.array(depth + 1)
        if b == 0xFA:
            return self.object(depth + 1)
        if b == 0xFD:
            return self.take(self.vint())
        raise self.fail(f"unexpected token 0x{b:02x}", at)

    def binary7(self) -> bytes:
        n = self.vint()
        if n > len(self.d):
            raise self.fail("binary length past the end of data")
        v = self.seven_bit(n * 8)
        return v.to_bytes(n, "big")

    def array(self, depth: int) -> list:
        if depth > MAX_DEPTH:
            raise self.fail("nesting too deep")
        out: list = []
        while True:
            if self.i >= len(self.d):
                raise self.fail("unterminated array")
            if self.d[self.i] == 0xF9:
                self.i += 1
                return out
            out.append(self.value(depth))

    def key(self) -> str:
        at = self.i
        if at >= len(self.d):
            raise self.fail("unexpected end of data")
        b = self.d[at]
        self.i = at + 1
        if 0x40 <= b <= 0x7F:
            return self.shared(self.keys, b & 0x3F, "name")
        if b == 0x20:
            return ""
        if 0x30 <= b <= 0x33:
            return self.shared(self.keys, ((b & 3) << 8) | self.byte(), "name")
        if b == 0x34:
            raw = self.until_end_marker()
            try:
                return raw.decode("utf-8")
            except UnicodeDecodeError:
                raise self.fail("bad name bytes", at) from None
        if 0x80 <= b <= 0xBF:
            s = self.text((b & 0x3F) + 1, False)
        elif 0xC0 <= b <= 0xF7:
            s = self.text((b & 0x3F) + 2, True)
        else:
            raise self.fail(f"unexpected name token 0x{b:02x}", at)
        if self.share_keys:
            self.remember(self.keys, s)
        return s

    def object(self, depth: int) -> dict:
        if depth > MAX_DEPTH:
            raise self.fail("nesting too deep")
        out: dict = {}
        while True:
            if self.i >= len(self.d):
                raise self.fail("unterminated object")
            if self.d[self.i] == 0xFB:
                self.i += 1
                return out
            k = self.key()
            out[k] = self.value(depth)


def loads(data: bytes) -> Any:
    """Decode one Smile document (header required) to Python values."""
    if len(data) < 4 or data[:3] != b":)\n":
        raise SmileError("Smile: missing ':)\\n' header at byte 0")
    flags = data[3]
    if flags >> 4 != 0:
        raise SmileError(f"Smile: unsupported version {flags >> 4} at byte 3")
    r = _Reader(data, bool(flags & 1), bool(flags & 2))
    v = r.value(0)
    if r.i < len(data) and data[r.i] != 0xFF:
        raise r.fail("trailing bytes after the document")
    return v
