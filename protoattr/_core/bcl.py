"""protobuf-net's own wire forms (its ``bcl.proto``): the value rules, in one place.

protobuf-net, at its default compatibility level (200), writes .NET ``DateTime``,
``TimeSpan``, ``decimal`` and ``Guid`` as small messages of package ``bcl``:

- ``TimeSpan``/``DateTime``: ``sint64 value = 1`` in units of ``scale = 2`` (days,
  hours, minutes, seconds, milliseconds, ticks of 100 ns; ``MINMAX = 15`` with value
  ±1 for ``MinValue``/``MaxValue``), and for ``DateTime`` an offset from 1970-01-01
  plus ``kind = 3`` (unspecified, UTC, local).  The writer picks the coarsest scale
  that is exact and leaves out every field that is zero.
- ``Decimal``: ``uint64 lo = 1`` and ``uint32 hi = 2`` (the 96-bit coefficient) and
  ``uint32 signScale = 3`` (bit 0 the sign, bits 1-8 the scale 0..28).
- ``Guid``: ``fixed64 lo = 1``, ``fixed64 hi = 2``: the two little-endian halves of
  ``Guid.ToByteArray()`` (Python's ``UUID.bytes_le``); ``Guid.Empty`` is an empty body.

These functions are the reference both backends follow: the generated Python codecs
call them, and the C engine (``_native/src/bcl.c``) runs the same rules itself and
calls them for anything unusual (so that errors are these functions' own).

Python's side of each rule:

- ``DateTime`` reads to a naive ``datetime`` (kind unspecified or local: the ticks are
  the sender's wall clock) or an aware one in ``timezone.utc`` (kind UTC).  Writing, a
  naive ``datetime`` is taken as it is; an aware one is converted to UTC first (its
  kind is UTC where the kind is written).  ``datetime.min``/``datetime.max`` are
  ``DateTime.MinValue``/``MaxValue`` (scale ``MINMAX``), naive or in UTC.
- ``TimeSpan`` reads to a ``timedelta``; ``MinValue``/``MaxValue`` are
  ``timedelta.min``/``timedelta.max``.  A ``timedelta`` beyond ``TimeSpan``'s ±29,227
  years is an error on write.
- A ``datetime``/``timedelta`` holds microseconds, a tick is 100 ns: a value whose
  ticks are not whole microseconds is a ``DecodeError`` (never rounded).  A relay that
  must pass every value on declares the field :class:`ScaledTicks`, the message itself.
- ``Decimal`` holds .NET's 96-bit coefficient and scale 0..28 exactly; a ``Decimal``
  that does not fit (too many digits, NaN, infinity) is an error on write, never
  rounded.  The sign of zero is kept.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, Any

from .errors import DecodeError
from .lazy import forwarder
from .types import Kind
from .wire import encode_varint, read_tag, read_varint

if TYPE_CHECKING:  # imported where used: ``import protoattr`` needs neither module
    import decimal
    import uuid

    from .bcl_time import (
        DateTime,
        DateTimeTicks,
        DateTimeWithKind,
        TimeSpan,
        TimeSpanTicks,
        datetime_to_ticks,
        decode_datetime,
        decode_timespan,
        encode_datetime,
        encode_datetime_kind,
        encode_timespan,
        ticks_to_datetime,
        ticks_to_timedelta,
        timedelta_to_ticks,
    )

__all__ = [
    "DateTime",
    "DateTimeTicks",
    "DateTimeWithKind",
    "Form",
    "TimeSpan",
    "TimeSpanTicks",
    "datetime_to_ticks",
    "decode_datetime",
    "decode_decimal",
    "decode_guid",
    "decode_timespan",
    "encode_datetime",
    "encode_datetime_kind",
    "encode_decimal",
    "encode_guid",
    "encode_timespan",
    "ticks_to_datetime",
    "ticks_to_timedelta",
    "timedelta_to_ticks",
]


#: protobuf-net's CompatibilityLevel values
LEVELS = (200, 240, 300)


class Form(Enum):
    """The ``Annotated`` markers of ``pa.bcl``: which bcl message a value travels as."""

    DATETIME = "bcl.DateTime"
    DATETIME_WITH_KIND = "bcl.DateTime+kind"  # protobuf-net's IncludeDateTimeKind
    TIMESPAN = "bcl.TimeSpan"
    DECIMAL = "bcl.Decimal"
    GUID = "bcl.Guid"
    DATETIME_TICKS = "DateTime, DataFormat.FixedSize"  # a bare fixed64 tick count
    TIMESPAN_TICKS = "TimeSpan, DataFormat.FixedSize"

    def __repr__(self) -> str:
        return f"bcl.Form.{self.name}"


# -- time ------------------------------------------------------------------------

DAYS, HOURS, MINUTES, SECONDS, MILLISECONDS, TICKS, MINMAX = 0, 1, 2, 3, 4, 5, 15
#: ticks (100 ns) per unit of each scale, coarsest first
TICKS_PER = {
    DAYS: 864_000_000_000,
    HOURS: 36_000_000_000,
    MINUTES: 600_000_000,
    SECONDS: 10_000_000,
    MILLISECONDS: 10_000,
    TICKS: 1,
}
UNSPECIFIED, UTC, LOCAL = 0, 1, 2
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
#: DateTime ticks of 1970-01-01 (the origin of bcl.DateTime's value)
EPOCH_TICKS = 621_355_968_000_000_000
#: DateTime.MaxValue.Ticks (9999-12-31 23:59:59.9999999)
MAX_DATETIME_TICKS = 3_155_378_975_999_999_999

_HINT = "declare the field pa.bcl.ScaledTicks to keep every value"


def scaled_body(ticks: int, kind: int = UNSPECIFIED) -> bytes:
    """The body of a bcl.TimeSpan/DateTime of ``ticks``: the coarsest exact scale, and
    every field that is zero left out (as protobuf-net writes it)."""
    scale = TICKS
    for s in (DAYS, HOURS, MINUTES, SECONDS, MILLISECONDS):
        unit = TICKS_PER[s]
        if ticks % unit == 0:
            ticks //= unit
            scale = s
            break
    return _triple(ticks, scale, kind)


def _triple(value: int, scale: int, kind: int) -> bytes:
    out = b""
    if value:
        out = b"\x08" + encode_varint((value << 1) ^ (value >> 63))
    if scale:
        out += b"\x10" + bytes((scale,))
    if kind:
        out += b"\x18" + bytes((kind,))
    return out


_MIN_BODY = _triple(-1, MINMAX, UNSPECIFIED)
_MAX_BODY = _triple(1, MINMAX, UNSPECIFIED)


def read_scaled(
    buf: bytes, pos: int, end: int, what: str, depth: int = 0, max_depth: int = 100
) -> tuple[int, int, int]:
    """``(value, scale, kind)`` of a bcl.TimeSpan/DateTime body; other fields skipped."""
    value = scale = kind = 0
    start = pos
    while pos < end:
        at = pos
        tag, pos = read_tag(buf, pos)
        if tag == 8:
            z, pos = read_varint(buf, pos)
            z &= (1 << 64) - 1
            value = (z >> 1) ^ -(z & 1)
        elif tag == 16:
            scale, pos = read_varint(buf, pos)
        elif tag == 24:
            kind, pos = read_varint(buf, pos)
            if kind not in (UNSPECIFIED, UTC, LOCAL):
                raise DecodeError(f"{what}: invalid DateTimeKind {kind}", at)
        elif tag >> 3 in (1, 2, 3):
            raise DecodeError(f"{what}: field {tag >> 3} has wire type {tag & 7}", at)
        else:
            pos = _skip(buf, pos, end, tag, depth, max_depth, what)
    if pos != end:
        raise DecodeError(f"truncated {what}", end)
    if scale not in TICKS_PER and scale != MINMAX:
        raise DecodeError(f"{what}: unknown scale {scale}", start)
    if scale == MINMAX and value not in (-1, 1):
        raise DecodeError(f"{what}: unknown min/max value {value}", start)
    return value, scale, kind


def _skip(buf: bytes, pos: int, end: int, tag: int, depth: int, max_depth: int, what: str) -> int:
    """The position after an unknown field's value (a group counts as a level)."""
    wire_type, at = tag & 7, pos
    if tag >> 3 == 0:
        raise DecodeError(f"{what}: invalid field number 0", pos)
    if wire_type == 0:
        pos = read_varint(buf, pos)[1]
    elif wire_type == 1:
        pos += 8
    elif wire_type == 5:
        pos += 4
    elif wire_type == 2:
        n, pos = read_varint(buf, pos)
        pos += n
    elif wire_type == 3:
        if depth + 1 > max_depth:
            raise DecodeError(f"{what}: nested deeper than {max_depth} messages", pos)
        while True:
            if pos >= end:
                raise DecodeError(f"{what}: unterminated group", at)
            inner, pos = read_tag(buf, pos)
            if inner == (tag & ~7) | 4:
                break
            pos = _skip(buf, pos, end, inner, depth + 1, max_depth, what)
    else:
        raise DecodeError(f"{what}: unexpected wire type {wire_type}", at)
    if pos > end:
        raise DecodeError(f"truncated {what}", end)
    return pos


def _ticks(value: int, scale: int, what: str, pos: int) -> int:
    ticks = value * TICKS_PER[scale]
    if not INT64_MIN <= ticks <= INT64_MAX:
        raise DecodeError(f"{what}: {value} x scale {scale} overflows a TimeSpan", pos)
    if ticks % 10:
        raise DecodeError(
            f"{what}: {ticks} ticks are not whole microseconds, which a Python value "
            f"holds: {_HINT}",
            pos,
        )
    return ticks


# -- decimal -----------------------------------------------------------------------

_MAX_COEFFICIENT = (1 << 96) - 1
MAX_SCALE = 28


def decimal_parts(value: decimal.Decimal) -> tuple[int, int, bool]:
    """``(coefficient, scale, negative)`` of ``value`` as a .NET decimal, exactly."""
    import decimal

    if not isinstance(value, decimal.Decimal):
        raise TypeError(f"expected Decimal, got {type(value).__name__}")
    if not value.is_finite():
        raise ValueError(f"{value} has no .NET decimal form")
    sign, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)
    coefficient = int("".join(map(str, digits)) or "0")
    if exponent > 0:
        coefficient *= 10**exponent
        exponent = 0
    scale = -exponent
    # trailing zeros go only where the value would not fit otherwise (1.000 stays 1.000)
    while (scale > MAX_SCALE or coefficient > _MAX_COEFFICIENT) and scale and not coefficient % 10:
        coefficient //= 10
        scale -= 1
    if coefficient == 0 and scale > MAX_SCALE:
        scale = MAX_SCALE
    if coefficient > _MAX_COEFFICIENT or scale > MAX_SCALE:
        raise ValueError(
            f"{value} does not fit a .NET decimal (96-bit coefficient, at most 28 decimals)"
        )
    return coefficient, scale, bool(sign)


def encode_decimal(value: decimal.Decimal) -> bytes:
    """The body of a ``bcl.Decimal`` of ``value``."""

    coefficient, scale, negative = decimal_parts(value)
    lo, hi = coefficient & 0xFFFF_FFFF_FFFF_FFFF, coefficient >> 64
    sign_scale = scale << 1 | negative
    out = b""
    if lo:
        out = b"\x08" + encode_varint(lo)
    if hi:
        out += b"\x10" + encode_varint(hi)
    if sign_scale:
        out += b"\x18" + encode_varint(sign_scale)
    return out


def decode_decimal(
    buf: bytes,
    pos: int,
    end: int,
    depth: int = 0,
    max_depth: int = 100,
    where: str = "bcl.Decimal",
) -> decimal.Decimal:
    """A ``bcl.Decimal`` body as a ``Decimal`` (exact: no context rounding)."""
    import decimal

    if depth > max_depth:
        raise DecodeError(f"{where}: nested deeper than {max_depth} messages", pos)
    start = pos
    lo = hi = sign_scale = 0
    while pos < end:
        at = pos
        tag, pos = read_tag(buf, pos)
        if tag == 8:
            lo, pos = read_varint(buf, pos)
        elif tag == 16:
            hi, pos = read_varint(buf, pos)
        elif tag == 24:
            sign_scale, pos = read_varint(buf, pos)
        elif tag >> 3 in (1, 2, 3):
            raise DecodeError(f"{where}: field {tag >> 3} has wire type {tag & 7}", at)
        else:
            pos = _skip(buf, pos, end, tag, depth, max_depth, where)
        if hi > 0xFFFF_FFFF or sign_scale > 0xFFFF_FFFF:
            raise DecodeError(f"{where}: field {tag >> 3} does not fit uint32", at)
    if pos != end:
        raise DecodeError(f"truncated {where}", end)
    scale = (sign_scale & 0x1FE) >> 1
    if scale > MAX_SCALE:
        raise DecodeError(f"{where}: scale {scale} is beyond .NET decimal's 28", start)
    coefficient = (hi << 64) | (lo & 0xFFFF_FFFF_FFFF_FFFF)
    return decimal.Decimal(f"{'-' if sign_scale & 1 else ''}{coefficient}E-{scale}")


# -- guid --------------------------------------------------------------------------


def encode_guid(value: uuid.UUID) -> bytes:
    """The body of a ``bcl.Guid`` of ``value`` (empty for the nil UUID, ``Guid.Empty``)."""
    import uuid

    if not isinstance(value, uuid.UUID):
        raise TypeError(f"expected UUID, got {type(value).__name__}")
    if not value.int:
        return b""
    le = value.bytes_le
    return b"\x09" + le[:8] + b"\x11" + le[8:]


def decode_guid(
    buf: bytes,
    pos: int,
    end: int,
    depth: int = 0,
    max_depth: int = 100,
    where: str = "bcl.Guid",
) -> uuid.UUID:
    """A ``bcl.Guid`` body as a ``UUID``."""
    import uuid

    if depth > max_depth:
        raise DecodeError(f"{where}: nested deeper than {max_depth} messages", pos)
    lo = hi = b"\x00" * 8
    while pos < end:
        at = pos
        tag, pos = read_tag(buf, pos)
        if tag == 9 or tag == 17:
            if pos + 8 > end:
                raise DecodeError(f"truncated {where}", end)
            if tag == 9:
                lo = buf[pos : pos + 8]
            else:
                hi = buf[pos : pos + 8]
            pos += 8
        elif tag >> 3 in (1, 2):
            raise DecodeError(f"{where}: field {tag >> 3} has wire type {tag & 7}", at)
        else:
            pos = _skip(buf, pos, end, tag, depth, max_depth, where)
    if pos != end:
        raise DecodeError(f"truncated {where}", end)
    return uuid.UUID(bytes_le=bytes(lo + hi))


#: each bcl.proto kind's Python codec, by name (see :func:`codec`)
_CODECS = {
    Kind.BCL_DATETIME: ("encode_datetime", "decode_datetime"),
    Kind.BCL_TIMESPAN: ("encode_timespan", "decode_timespan"),
    Kind.BCL_DECIMAL: ("encode_decimal", "decode_decimal"),
    Kind.BCL_GUID: ("encode_guid", "decode_guid"),
}


def codec(kind: Kind, with_kind: bool = False) -> tuple[Callable[[Any], bytes], Callable[..., Any]]:
    """A bcl.proto kind's Python codec: ``value -> body`` and ``(buf, pos, end, depth,
    max_depth, where) -> value``, which the generated codecs call and the engine hands
    anything unusual to; ``with_kind``: a DateTime written with its kind.  The DateTime
    and TimeSpan ones load :mod:`.bcl_time` (and ``datetime``) when first asked for."""
    encode, decode = _CODECS[kind]
    module = sys.modules[__name__]  # (through __getattr__ for the datetime side)
    if with_kind:
        encode = "encode_datetime_kind"
    return getattr(module, encode), getattr(module, decode)


#: bcl.DateTime's and bcl.TimeSpan's datetime side (:mod:`.bcl_time`), loaded when first
#: asked for: ``import protoattr`` does not import ``datetime`` (a program whose contracts
#: hold datetimes has imported it already)
__getattr__ = forwarder(
    globals(),
    (
        "DateTime", "DateTimeTicks", "DateTimeWithKind", "TimeSpan", "TimeSpanTicks",
        "datetime_to_ticks", "decode_datetime", "decode_timespan", "encode_datetime",
        "encode_datetime_kind", "encode_timespan", "ticks_to_datetime", "ticks_to_timedelta",
        "timedelta_to_ticks",
    ),
    "protoattr._core.bcl_time",
)  # fmt: skip
