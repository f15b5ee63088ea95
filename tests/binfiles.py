"""Test helpers: build eXtreme Gammon archives and BGBlitz files (for damaged and crafted cases),
and a tiny Smile encoder (the inverse of bgtools.formats.smile for the tokens it writes)."""

from __future__ import annotations

import gzip
import struct
import zlib
from pathlib import Path

DATA = Path(__file__).parent / "data" / "matches" / "realmatches"
XG_DIR = DATA / "xg-kevung-gbf"
BGF_DIR = DATA / "bgf-gammonview"
HEADER = 8232
REC = 2560


def xg_parts(data: bytes) -> tuple[bytes, dict[str, bytes]]:
    """(file header + thumbnail, {member name: bytes}) of a well-formed XG file."""
    thumb = struct.unpack_from("<i", data, 20)[0]
    start = HEADER + thumb
    end = len(data) - 36
    _crc, count, _v, regsize, arcsize, creg = struct.unpack_from("<Iiiiii", data, end)
    index = data[end - regsize:end]
    index = zlib.decompress(index) if creg else index
    members = {}
    for k in range(count):
        e = index[k * 532:(k + 1) * 532]
        name = e[1:1 + e[0]].decode("latin-1")
        osize, csize, mstart, _ = struct.unpack_from("<iiiI", e, 512)
        members[name] = zlib.decompress(data[start + mstart:start + mstart + csize])
    return data[:start], members


def build_xg(head: bytes, members: dict[str, bytes], *, crcs: dict[str, int] | None = None,
             raw: dict[str, bytes] | None = None, archive_crc: int | None = None,
             osizes: dict[str, int] | None = None) -> bytes:
    """An XG file: ``head`` (header + thumbnail), then the members zlib-compressed, the index, the
    trailer.  ``crcs`` overrides member CRCs, ``raw`` gives a member's compressed bytes as is."""
    body = bytearray()
    index = bytearray()
    for name, data in members.items():
        comp = (raw or {}).get(name, zlib.compress(data))
        e = bytearray(532)
        nb = name.encode("latin-1")
        e[0] = len(nb)
        e[1:1 + len(nb)] = nb
        struct.pack_into("<iiiI", e, 512, (osizes or {}).get(name, len(data)), len(comp), len(body),
                         (crcs or {}).get(name, zlib.crc32(data)))
        e[528] = 0  # compressed
        e[529] = 2
        body += comp
        index += e
    cindex = zlib.compress(bytes(index))
    crc = zlib.crc32(bytes(body) + cindex) if archive_crc is None else archive_crc
    trailer = struct.pack("<Iiiiii", crc, len(members), 1, len(cindex), len(body), 1) + bytes(12)
    return head + bytes(body) + cindex + trailer


def first_game_records(recs: bytes) -> bytes:
    """The match header, the first game (to its footer) and the match footer of a temp.xg."""
    out = bytearray(recs[:REC])
    k = 1
    while True:
        rec = recs[k * REC:(k + 1) * REC]
        out += rec
        k += 1
        if rec[8] == 4:
            break
    last = recs[-REC:]
    assert last[8] == 5
    return bytes(out + last)


def small_xg() -> bytes:
    """test.xg cut to its first game (a valid file of about 10 kB of archive)."""
    head, members = xg_parts((XG_DIR / "test.xg").read_bytes())
    return build_xg(head, {"temp.xg": first_game_records(members["temp.xg"])})


def bgf_parts(data: bytes) -> tuple[bytes, bytes]:
    """(header line with its newline, decompressed Smile body)."""
    nl = data.index(b"\n") + 1
    return data[:nl], gzip.decompress(data[nl:])


def build_bgf(header: bytes, body: bytes) -> bytes:
    return header + gzip.compress(body)


# ----------------------------------------------------------------------------- Smile encoder
def _vint(v: int) -> bytes:
    groups = [v & 0x3F]
    v >>= 6
    while v:
        groups.append(v & 0x7F)
        v >>= 7
    groups.reverse()
    return bytes(groups[:-1]) + bytes([groups[-1] | 0x80])


def _zz(v: int) -> int:
    return (v << 1) ^ (v >> 63) if v < 0 else v << 1


def _seven(v: int, nbits: int) -> bytes:
    n = (nbits + 6) // 7
    return bytes((v >> (7 * (n - 1 - i))) & 0x7F for i in range(n))


def smile_value(v) -> bytes:
    """Encode one value without back references (names and strings written in full)."""
    if v is None:
        return b"\x21"
    if v is True:
        return b"\x23"
    if v is False:
        return b"\x22"
    if isinstance(v, int):
        if -16 <= v <= 15:
            return bytes([0xC0 | _zz(v)])
        return (b"\x24" if -2**31 <= v < 2**31 else b"\x25") + _vint(_zz(v))
    if isinstance(v, float):
        return b"\x29" + _seven(struct.unpack(">Q", struct.pack(">d", v))[0], 64)
    if isinstance(v, str):
        b = v.encode("utf-8")
        if not b:
            return b"\x20"
        ascii_ = len(b) == len(v)
        if len(b) <= 64:
            if ascii_:
                return bytes([(0x40 | (len(b) - 1)) if len(b) <= 32 else (0x60 | (len(b) - 33))]) + b
            if 2 <= len(b) <= 65:
                return bytes([(0x80 | (len(b) - 2)) if len(b) <= 33 else (0xA0 | (len(b) - 34))]) + b
        return (b"\xe0" if ascii_ else b"\xe4") + b + b"\xfc"
    if isinstance(v, list):
        return b"\xf8" + b"".join(smile_value(x) for x in v) + b"\xf9"
    if isinstance(v, dict):
        out = bytearray(b"\xfa")
        for k, x in v.items():
            kb = k.encode("utf-8")
            if not kb:
                out += b"\x20"
            elif len(kb) == len(k) and len(kb) <= 64:
                out += bytes([0x80 | (len(kb) - 1)]) + kb
            elif 2 <= len(kb) <= 57:
                out += bytes([0xC0 | (len(kb) - 2)]) + kb
            else:
                out += b"\x34" + kb + b"\xfc"
            out += smile_value(x)
        return bytes(out + b"\xfb")
    raise TypeError(type(v))


def smile_dumps(v, flags: int = 0) -> bytes:
    return b":)\n" + bytes([flags]) + smile_value(v)
