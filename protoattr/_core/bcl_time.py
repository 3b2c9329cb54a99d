"""bcl.DateTime and bcl.TimeSpan (protobuf-net's bcl.proto), the ``datetime`` side.

:mod:`protoattr._core.bcl` holds the forms, the wire bodies and the decimal and guid
codecs; this module holds what reads and builds ``datetime``/``timedelta`` values and
the annotations naming them, imported through ``bcl``'s ``__getattr__`` when first
asked for, so that ``import protoattr`` does not import ``datetime``.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Any

from .bcl import (
    _HINT,
    _MAX_BODY,
    _MIN_BODY,
    EPOCH_TICKS,
    INT64_MAX,
    INT64_MIN,
    MAX_DATETIME_TICKS,
    MINMAX,
    UNSPECIFIED,
    UTC,
    Form,
    _ticks,
    read_scaled,
    scaled_body,
)
from .convert import ConversionError
from .errors import DecodeError

__all__ = [
    "DateTime",
    "DateTimeTicks",
    "DateTimeWithKind",
    "TimeSpan",
    "TimeSpanTicks",
    "datetime_to_ticks",
    "decode_datetime",
    "decode_timespan",
    "encode_datetime",
    "encode_datetime_kind",
    "encode_timespan",
    "ticks_to_datetime",
    "ticks_to_timedelta",
    "timedelta_to_ticks",
]

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

_EPOCH = datetime.datetime(1970, 1, 1)
_UTC = datetime.timezone.utc
_MIN, _MAX = datetime.datetime.min, datetime.datetime.max
_MIN_UTC, _MAX_UTC = _MIN.replace(tzinfo=_UTC), _MAX.replace(tzinfo=_UTC)
_timedelta = datetime.timedelta


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
