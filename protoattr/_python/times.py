"""The well-known time types' helpers the generated codecs call: the bodies of
``google.protobuf.Timestamp``/``Duration`` as ``datetime``/``timedelta``.

Apart from :mod:`.runtime` (which finds them here through its ``__getattr__``) so that
``import protoattr`` does not import ``datetime``: a program whose contracts hold
datetimes has imported it already.
"""

from __future__ import annotations

import datetime
from typing import Any

from .._core.errors import DecodeError
from .._core.time_text import DURATION_MAX, TS_MAX, TS_MIN
from .._core.wire import encode_varint, read_tag, read_varint
from .runtime import skip_field, too_deep

__all__ = ["decode_duration", "decode_timestamp", "encode_duration", "encode_timestamp"]

EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
_timedelta = datetime.timedelta
_EPOCH_NAIVE = datetime.datetime(1970, 1, 1)
_MIN_TS, _MAX_TS = TS_MIN, TS_MAX  # 0001-01-01 .. 9999-12-31T23:59:59
_MAX_DURATION = DURATION_MAX


def encode_timestamp(value: datetime.datetime) -> bytes:
    """The body of a ``google.protobuf.Timestamp``; naive datetimes are taken as UTC."""
    delta = value - (_EPOCH_NAIVE if value.tzinfo is None else EPOCH)
    seconds = delta.days * 86400 + delta.seconds
    if not _MIN_TS <= seconds <= _MAX_TS:
        raise ValueError(f"{value!r} is outside google.protobuf.Timestamp's years 1..9999 (UTC)")
    nanos = delta.microseconds * 1000
    return _seconds_nanos(seconds, nanos)


def encode_duration(value: datetime.timedelta) -> bytes:
    """The body of a ``google.protobuf.Duration`` (seconds and nanos share one sign)."""
    micros = (value.days * 86400 + value.seconds) * 1_000_000 + value.microseconds
    seconds, rest = divmod(abs(micros), 1_000_000)
    if seconds > _MAX_DURATION:
        raise ValueError(f"{value!r} is outside google.protobuf.Duration's ±10,000 years")
    if micros < 0:
        seconds, rest = -seconds, -rest
    return _seconds_nanos(seconds, rest * 1000)


def _seconds_nanos(seconds: int, nanos: int) -> bytes:
    out = b""
    if seconds:
        out = b"\x08" + encode_varint(seconds)
    if nanos:
        out += b"\x10" + encode_varint(nanos)
    return out


def _read_seconds_nanos(
    buf: bytes,
    pos: int,
    end: int,
    what: str,
    seconds: int = 0,
    nanos: int = 0,
    depth: int = 0,
    max_depth: int = 100,
) -> tuple[int, int]:
    while pos < end:
        tag = buf[pos]  # tags 8 and 16 are one byte
        pos += 1
        if tag >= 0x80:
            tag, pos = read_tag(buf, pos - 1)
        if tag == 8:
            seconds, pos = read_varint(buf, pos)
            if seconds >= 1 << 63:
                seconds -= 1 << 64
        elif tag == 16:
            nanos, pos = read_varint(buf, pos)
            nanos &= 0xFFFFFFFF
            if nanos >= 1 << 31:
                nanos -= 1 << 32
        else:
            pos = skip_field(buf, pos, end, tag, depth, max_depth)
    if pos != end:
        raise DecodeError(f"truncated {what}", end)
    return seconds, nanos


def _seconds_nanos_after(
    buf: bytes,
    pos: int,
    end: int,
    previous: Any,
    encode: Any,
    what: str,
    depth: int,
    max_depth: int,
) -> tuple[int, int]:
    """Seconds and nanos of a Timestamp/Duration body, merged into ``previous``'s (if any):
    a well-known message seen twice merges field by field, as any message does."""
    if depth > max_depth:
        raise too_deep(what, max_depth, pos)
    s0 = n0 = 0
    if previous is not None:
        body = encode(previous)
        s0, n0 = _read_seconds_nanos(body, 0, len(body), what)
    return _read_seconds_nanos(buf, pos, end, what, s0, n0, depth, max_depth)


def decode_timestamp(
    buf: bytes,
    pos: int,
    end: int,
    previous: datetime.datetime | None = None,
    depth: int = 0,
    max_depth: int = 100,
    where: str = "Timestamp",
) -> datetime.datetime:
    """A ``google.protobuf.Timestamp`` body as an aware UTC datetime (microsecond precision,
    like ``google.protobuf``'s ``ToDatetime``); one a datetime cannot hold is a
    :class:`DecodeError` naming the field ``where`` and the type that holds it.

    ``depth`` is the Timestamp's own nesting level: unknown groups inside it count on."""
    seconds, nanos = _seconds_nanos_after(
        buf, pos, end, previous, encode_timestamp, "Timestamp", depth, max_depth
    )
    if not _MIN_TS <= seconds <= _MAX_TS or not 0 <= nanos <= 999_999_999:
        raise DecodeError(
            f"{where}: Timestamp(seconds={seconds}, nanos={nanos}) does not fit a datetime "
            "(years 1..9999, nanos 0..999999999): declare the field pa.Timestamp to keep "
            "every value",
            pos,
        )
    return EPOCH + _timedelta(0, seconds, nanos // 1000)


def decode_duration(
    buf: bytes,
    pos: int,
    end: int,
    previous: datetime.timedelta | None = None,
    depth: int = 0,
    max_depth: int = 100,
    where: str = "Duration",
) -> datetime.timedelta:
    """A ``google.protobuf.Duration`` body as a timedelta (microsecond precision); one a
    timedelta cannot hold is a :class:`DecodeError` naming ``where`` and ``pa.Duration``."""
    seconds, nanos = _seconds_nanos_after(
        buf, pos, end, previous, encode_duration, "Duration", depth, max_depth
    )
    hint = "declare the field pa.Duration to keep every value"
    if abs(seconds) > _MAX_DURATION or abs(nanos) > 999_999_999:
        raise DecodeError(
            f"{where}: Duration(seconds={seconds}, nanos={nanos}) is out of range for a "
            f"timedelta: {hint}",
            pos,
        )
    try:
        return datetime.timedelta(seconds=seconds, microseconds=int(nanos / 1000))
    except OverflowError:
        raise DecodeError(
            f"{where}: Duration of {seconds}s does not fit a timedelta: {hint}", pos
        ) from None
