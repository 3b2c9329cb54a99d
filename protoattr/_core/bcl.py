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

import datetime
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any

from .convert import ConversionError
from .errors import DecodeError
from .wire import encode_varint, read_tag, read_varint

if TYPE_CHECKING:  # imported where used: ``import protoattr`` needs neither module
    import decimal
    import uuid

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


#: ``datetime`` as protobuf-net's ``bcl.DateTime`` (the kind is read, not written).
DateTime = Annotated[datetime.datetime, Form.DATETIME]
#: ``bcl.DateTime`` with its ``kind`` written (protobuf-net's ``IncludeDateTimeKind``).
DateTimeWithKind = Annotated[datetime.datetime, Form.DATETIME_WITH_KIND]
#: ``timedelta`` as protobuf-net's ``bcl.TimeSpan``.
TimeSpan = Annotated[datetime.timedelta, Form.TIMESPAN]
#: ``datetime`` as protobuf-net's ``DataFormat.FixedSize`` DateTime: fixed64 ticks from 1970.
DateTimeTicks = Annotated[datetime.datetime, Form.DATETIME_TICKS]
#: ``timedelta`` as protobuf-net's ``DataFormat.FixedSize`` TimeSpan: fixed64 ticks.
TimeSpanTicks = Annotated[datetime.timedelta, Form.TIMESPAN_TICKS]

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

_EPOCH = datetime.datetime(1970, 1, 1)
_UTC = datetime.timezone.utc
_MIN, _MAX = datetime.datetime.min, datetime.datetime.max
_MIN_UTC, _MAX_UTC = _MIN.replace(tzinfo=_UTC), _MAX.replace(tzinfo=_UTC)
_timedelta = datetime.timedelta
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


def _micros(delta: datetime.timedelta) -> int:
    return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds


def _datetime(value: Any, with_kind: bool) -> bytes:
    if not isinstance(value, datetime.datetime):
        raise TypeError(f"expected datetime, got {type(value).__name__}")
    kind = UNSPECIFIED
    if value.tzinfo is not None and value.utcoffset() is not None:
        if value == _MIN_UTC:
            return _MIN_BODY
        if value == _MAX_UTC:
            return _MAX_BODY
        try:
            value = value.astimezone(_UTC).replace(tzinfo=None)
        except OverflowError:
            raise ValueError(f"{value!r} is outside years 1..9999 in UTC") from None
        kind = UTC if with_kind else UNSPECIFIED
    elif value.tzinfo is not None:  # a tzinfo without an offset: naive
        value = value.replace(tzinfo=None)
    if value == _MIN:
        return _MIN_BODY
    if value == _MAX:
        return _MAX_BODY
    return scaled_body(_micros(value - _EPOCH) * 10, kind)


def encode_datetime(value: datetime.datetime) -> bytes:
    """The body of a ``bcl.DateTime`` of ``value``, without its kind."""
    return _datetime(value, False)


def encode_datetime_kind(value: datetime.datetime) -> bytes:
    """The body of a ``bcl.DateTime`` of ``value`` with its kind (UTC for an aware value)."""
    return _datetime(value, True)


def encode_timespan(value: datetime.timedelta) -> bytes:
    """The body of a ``bcl.TimeSpan`` of ``value``."""
    if not isinstance(value, datetime.timedelta):
        raise TypeError(f"expected timedelta, got {type(value).__name__}")
    if value == _timedelta.max:
        return _MAX_BODY
    if value == _timedelta.min:
        return _MIN_BODY
    ticks = _micros(value) * 10
    if not INT64_MIN <= ticks <= INT64_MAX:
        raise ValueError(f"{value!r} is outside .NET TimeSpan's range (±2**63 ticks)")
    return scaled_body(ticks)


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


def decode_datetime(
    buf: bytes,
    pos: int,
    end: int,
    depth: int = 0,
    max_depth: int = 100,
    where: str = "bcl.DateTime",
) -> datetime.datetime:
    """A ``bcl.DateTime`` body as a ``datetime``: naive for kinds unspecified and local,
    in ``timezone.utc`` for kind UTC; ``MinValue``/``MaxValue`` as ``datetime.min``/``max``."""
    if depth > max_depth:
        raise DecodeError(f"{where}: nested deeper than {max_depth} messages", pos)
    value, scale, kind = read_scaled(buf, pos, end, where, depth, max_depth)
    if scale == MINMAX:
        return _MAX if value == 1 else _MIN
    ticks = _ticks(value, scale, where, pos) + EPOCH_TICKS
    if not 0 <= ticks <= MAX_DATETIME_TICKS:
        raise DecodeError(f"{where}: {ticks} ticks are outside DateTime's years 1..9999", pos)
    out = _MIN + _timedelta(microseconds=ticks // 10)
    return out.replace(tzinfo=_UTC) if kind == UTC else out


def decode_timespan(
    buf: bytes,
    pos: int,
    end: int,
    depth: int = 0,
    max_depth: int = 100,
    where: str = "bcl.TimeSpan",
) -> datetime.timedelta:
    """A ``bcl.TimeSpan`` body as a ``timedelta`` (``MinValue``/``MaxValue`` as its min/max)."""
    if depth > max_depth:
        raise DecodeError(f"{where}: nested deeper than {max_depth} messages", pos)
    value, scale, _ = read_scaled(buf, pos, end, where, depth, max_depth)
    if scale == MINMAX:
        return _timedelta.max if value == 1 else _timedelta.min
    return _timedelta(microseconds=_ticks(value, scale, where, pos) // 10)


# -- DataFormat.FixedSize: a bare fixed64 tick count -------------------------------------


def _utc_naive(value: Any) -> datetime.datetime:
    if not isinstance(value, datetime.datetime):
        raise TypeError(f"expected datetime, got {type(value).__name__}")
    if value.tzinfo is not None and value.utcoffset() is not None:
        try:
            return value.astimezone(_UTC).replace(tzinfo=None)
        except OverflowError:
            raise ValueError(f"{value!r} is outside years 1..9999 in UTC") from None
    return value.replace(tzinfo=None)


def datetime_to_ticks(value: datetime.datetime) -> int:
    """Ticks from 1970-01-01 (an aware value converted to UTC), as protobuf-net writes a
    ``DataFormat.FixedSize`` DateTime (MinValue/MaxValue as their real offsets)."""
    return _micros(_utc_naive(value) - _EPOCH) * 10


def ticks_to_datetime(ticks: int) -> datetime.datetime:
    """A naive ``datetime``; ``long.MinValue``/``MaxValue`` are ``datetime.min``/``max``."""
    if ticks == INT64_MIN:
        return _MIN
    if ticks == INT64_MAX:
        return _MAX
    if ticks % 10:
        raise ConversionError(f"{ticks} ticks are not whole microseconds: {_HINT}")
    if not 0 <= ticks + EPOCH_TICKS <= MAX_DATETIME_TICKS:
        raise ConversionError(f"{ticks} ticks from 1970 are outside DateTime's years 1..9999")
    return _EPOCH + _timedelta(microseconds=ticks // 10)


def timedelta_to_ticks(value: datetime.timedelta) -> int:
    """A ``timedelta``'s ticks (``timedelta.min``/``max``: ``TimeSpan.MinValue``/``MaxValue``)."""
    if not isinstance(value, datetime.timedelta):
        raise TypeError(f"expected timedelta, got {type(value).__name__}")
    if value == _timedelta.max:
        return INT64_MAX
    if value == _timedelta.min:
        return INT64_MIN
    ticks = _micros(value) * 10
    if not INT64_MIN <= ticks <= INT64_MAX:
        raise ValueError(f"{value!r} is outside .NET TimeSpan's range (±2**63 ticks)")
    return ticks


def ticks_to_timedelta(ticks: int) -> datetime.timedelta:
    """A ``timedelta`` of ``ticks`` (``long.MinValue``/``MaxValue``: ``timedelta.min``/``max``)."""
    if ticks == INT64_MIN:
        return _timedelta.min
    if ticks == INT64_MAX:
        return _timedelta.max
    if ticks % 10:
        raise ConversionError(f"{ticks} ticks are not whole microseconds: {_HINT}")
    return _timedelta(microseconds=ticks // 10)


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
