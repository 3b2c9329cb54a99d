"""Wire-format primitives: varints, zigzag, fixed-width numbers and tags.

Pure functions over ``bytes`` and ``int`` with no knowledge of contracts.  The
generated codecs inline the common one-byte cases and call these for the rest,
so they are written for speed as much as for clarity.

Reading functions take ``(buf, pos)`` and return ``(value, new_pos)``.  The
``read_*`` variants let ``IndexError`` escape on truncated input (the codec
boundary turns it into a :class:`DecodeError` with the offset); the
``decode_*`` variants raise :class:`DecodeError` themselves.
"""

from __future__ import annotations

import struct
from enum import IntEnum

from .errors import DecodeError

__all__ = [
    "MAX_FIELD_NUMBER",
    "WireType",
    "decode_tag",
    "decode_varint",
    "encode_varint",
    "float32_nan",
    "make_tag",
    "pack_float32_nan",
    "prefix_table",
    "read_tag",
    "read_varint",
    "signed32",
    "signed64",
    "tag_bytes",
    "zigzag_decode",
    "zigzag_encode32",
    "zigzag_encode64",
]

MAX_FIELD_NUMBER = (1 << 29) - 1
_MASK64 = (1 << 64) - 1


class WireType(IntEnum):
    """The three low bits of a tag."""

    VARINT = 0
    I64 = 1
    LEN = 2
    SGROUP = 3
    EGROUP = 4
    I32 = 5


def make_tag(field_number: int, wire_type: int) -> int:
    """The integer value of a field's tag."""
    return (field_number << 3) | wire_type


def encode_varint(value: int) -> bytes:
    """Base-128 varint of ``value``; negative numbers take ten bytes (two's complement)."""
    if 0 <= value < 0x80:
        return _SMALL[value]
    if 0 < value < 0x4000:  # two bytes: lengths and numbers up to 16383, the next commonest
        return bytes((value & 0x7F | 0x80, value >> 7))
    if 0 < value < 0x800000000:  # three to five bytes without a loop (seconds since 1970 take five)
        if value < 0x200000:
            return bytes((value & 0x7F | 0x80, value >> 7 & 0x7F | 0x80, value >> 14))
        if value < 0x10000000:
            return bytes(
                (
                    value & 0x7F | 0x80,
                    value >> 7 & 0x7F | 0x80,
                    value >> 14 & 0x7F | 0x80,
                    value >> 21,
                )
            )
        return bytes(
            (
                value & 0x7F | 0x80,
                value >> 7 & 0x7F | 0x80,
                value >> 14 & 0x7F | 0x80,
                value >> 21 & 0x7F | 0x80,
                value >> 28,
            )
        )
    if value < 0:
        value &= _MASK64
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


_SMALL = [bytes((i,)) for i in range(0x80)]

#: ``prefix_table(p)[i] == p + bytes([i])`` for i < 128, one shared tuple per prefix:
#: a tag and a one-byte varint (a small number or a short length) in one lookup.
PREFIX_TABLES: dict[bytes, tuple[bytes, ...]] = {}


def prefix_table(prefix: bytes) -> tuple[bytes, ...]:
    table = PREFIX_TABLES.get(prefix)
    if table is None:
        table = PREFIX_TABLES.setdefault(prefix, tuple(prefix + bytes((i,)) for i in range(0x80)))
    return table


def tag_bytes(field_number: int, wire_type: int) -> bytes:
    """The encoded tag, ready to be written before a field's value."""
    return encode_varint(make_tag(field_number, wire_type))


def read_varint(buf: bytes, pos: int) -> tuple[int, int]:
    """Read an unsigned varint of at most ten bytes; ``IndexError`` if truncated."""
    b = buf[pos]
    if b < 0x80:
        return b, pos + 1
    result = b & 0x7F
    shift = 7
    pos += 1
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result & _MASK64, pos
        shift += 7
        if shift >= 70:
            raise DecodeError("varint longer than 10 bytes", pos - 10)


def read_tag(buf: bytes, pos: int) -> tuple[int, int]:
    """Read a tag: a varint of at most five bytes whose value fits 32 bits (upb refuses
    longer ones, even when the extra bytes are zero); ``IndexError`` if truncated."""
    value, new_pos = read_varint(buf, pos)
    if new_pos - pos > 5 or value > 0xFFFFFFFF:
        raise DecodeError("tag longer than 5 bytes or over 32 bits", pos)
    return value, new_pos


def decode_varint(buf: bytes, pos: int = 0) -> tuple[int, int]:
    """Like :func:`read_varint`, but truncation is a :class:`DecodeError`."""
    try:
        return read_varint(buf, pos)
    except IndexError:
        raise DecodeError("truncated varint", pos) from None


def decode_tag(buf: bytes, pos: int = 0) -> tuple[int, int, int]:
    """Read a tag and return ``(field_number, wire_type, new_pos)``, validating both."""
    value, new_pos = decode_varint(buf, pos)
    field_number, wire_type = value >> 3, value & 7
    if field_number == 0 or field_number > MAX_FIELD_NUMBER:
        raise DecodeError(f"invalid field number {field_number}", pos)
    if wire_type > 5:
        raise DecodeError(f"invalid wire type {wire_type}", pos)
    return field_number, wire_type, new_pos


def signed64(value: int) -> int:
    """Reinterpret an unsigned 64-bit varint value as int64."""
    return value - (1 << 64) if value >= (1 << 63) else value


def signed32(value: int) -> int:
    """Truncate a varint value to 32 bits and reinterpret it as int32 (as Google's runtimes do)."""
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= (1 << 31) else value


def zigzag_encode32(value: int) -> int:
    """sint32 zigzag: 0, -1, 1, -2 … map to 0, 1, 2, 3 …"""
    return ((value << 1) ^ (value >> 31)) & 0xFFFFFFFF


def zigzag_encode64(value: int) -> int:
    """sint64 zigzag."""
    return ((value << 1) ^ (value >> 63)) & _MASK64


def zigzag_decode(value: int) -> int:
    """Inverse of zigzag for both widths."""
    return (value >> 1) ^ -(value & 1)


# Fixed-width packers, bound once: the codecs take them as locals.
pack_fixed32 = struct.Struct("<I").pack
pack_fixed64 = struct.Struct("<Q").pack
pack_sfixed32 = struct.Struct("<i").pack
pack_sfixed64 = struct.Struct("<q").pack
pack_float = struct.Struct("<f").pack
pack_double = struct.Struct("<d").pack
unpack_fixed32 = struct.Struct("<I").unpack_from
unpack_fixed64 = struct.Struct("<Q").unpack_from
unpack_sfixed32 = struct.Struct("<i").unpack_from
unpack_sfixed64 = struct.Struct("<q").unpack_from
unpack_float = struct.Struct("<f").unpack_from
unpack_double = struct.Struct("<d").unpack_from


# float32 NaNs keep their bits: C's float<->double conversions (which struct uses)
# quiet a signalling NaN, so NaNs take this slower, exact path both ways.


def float32_nan(buf: bytes, pos: int) -> float:
    """The float32 NaN at ``pos`` as a double NaN carrying the same sign and payload."""
    bits = unpack_fixed32(buf, pos)[0]
    payload = bits & 0x7FFFFF
    if bits & 0x7F800000 != 0x7F800000 or not payload:  # not a NaN after all
        return unpack_float(buf, pos)[0]  # type: ignore[no-any-return]
    double = (bits >> 31) << 63 | 0x7FF << 52 | payload << 29
    return unpack_double(pack_fixed64(double))[0]  # type: ignore[no-any-return]


def pack_float32_nan(value: float) -> bytes:
    """The four bytes of the float32 NaN that :func:`float32_nan` turned into ``value``."""
    double = unpack_fixed64(pack_double(value))[0]
    payload = (double >> 29) & 0x7FFFFF or 0x400000  # a payload only in low bits: quiet NaN
    return pack_fixed32((double >> 63) << 31 | 0x7F800000 | payload)


def float32_nans(values: list[float], buf: bytes, pos: int) -> list[float]:
    """``values``, just unpacked from ``buf[pos:]`` as float32s, with exact NaNs."""
    return [x if x == x else float32_nan(buf, pos + 4 * i) for i, x in enumerate(values)]


def pack_float32s(values: list[float]) -> bytes:
    """Packed float32s (a NaN among them keeps its bits)."""
    return b"".join(pack_float(x) if x == x else pack_float32_nan(x) for x in values)
