"""The canonical JSON forms of ``datetime`` (Timestamp) and ``timedelta`` (Duration).

A ``google.protobuf.Timestamp`` is an RFC 3339 string in UTC with a ``Z`` and
0, 3, 6 or 9 fractional digits (``"1972-01-01T10:00:20.021Z"``), between
0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999999Z; parsing also accepts
a ``+hh:mm``/``-hh:mm`` offset.  A ``Duration`` is seconds with an ``s``
suffix and 0, 3, 6 or 9 fractional digits (``"1.000340012s"``, ``"-3.100s"``),
within ±315,576,000,000 s.  The forms are registered in
:mod:`protoattr._json.forms` for ``datetime``/``timedelta`` fields, so the
codec treats them like any other special form.

``datetime`` and ``timedelta`` hold microseconds: digits past the sixth are
dropped when reading, as binary decoding drops sub-microsecond nanos.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

from .._core.errors import DecodeError, EncodeError
from .._core.time_text import DURATION_MAX as _MAX_DURATION
from .._core.time_text import TS_MAX as _MAX_SECONDS
from .._core.time_text import TS_MIN as _MIN_SECONDS
from .._core.time_text import duration_text, fraction
from . import forms as _jsonforms

__all__ = ["duration_from_json", "duration_to_json", "timestamp_from_json", "timestamp_to_json"]

_UTC = datetime.timezone.utc
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=_UTC)

_TIMESTAMP = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})"
    r"(?:\.([0-9]{1,9}))?(?:(Z)|([+-])([0-9]{2}):([0-9]{2}))"
)
_DURATION = re.compile(r"(-?)([0-9]+)(?:\.([0-9]{1,9}))?s")


def timestamp_to_json(value: Any, ctx: Any = None) -> str:
    if value.__class__ is not datetime.datetime and not isinstance(value, datetime.datetime):
        raise EncodeError(f"expected datetime, got {type(value).__name__}")
    tz = value.tzinfo
    if tz is not None and tz is not _UTC and value.utcoffset():
        try:
            value = value.astimezone(_UTC)
        except OverflowError:
            raise EncodeError(f"{value.isoformat()} is outside 0001..9999 in UTC") from None
    text: str = value.isoformat(timespec="seconds")[:19]  # without any offset
    return text + fraction(value.microsecond * 1000) + "Z"


def parse_timestamp(text: Any, path: str) -> tuple[int, int]:
    """``(seconds, nanos)`` of an RFC 3339 timestamp; :class:`DecodeError` naming ``path``."""
    m = _TIMESTAMP.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        raise DecodeError(
            f'{path}: expected an RFC 3339 timestamp like "1972-01-01T10:00:20.021Z", '
            f"got {_show(text)}"
        )
    year, month, day, hour, minute, second = (int(g) for g in m.group(1, 2, 3, 4, 5, 6))
    try:
        when = datetime.datetime(year, month, day, hour, minute, second, tzinfo=_UTC)
    except ValueError as exc:
        raise DecodeError(f"{path}: {_show(text)} is not a valid timestamp ({exc})") from None
    seconds = (when - _EPOCH) // datetime.timedelta(seconds=1)
    frac = m.group(7) or ""
    nanos = int(frac.ljust(9, "0")) if frac else 0
    if m.group(8) is None:
        sign = 1 if m.group(9) == "+" else -1
        hours, minutes = int(m.group(10)), int(m.group(11))
        if hours > 23 or minutes > 59:
            raise DecodeError(f"{path}: {_show(text)} has an invalid offset")
        seconds -= sign * (hours * 3600 + minutes * 60)
    if not _MIN_SECONDS <= seconds <= _MAX_SECONDS:
        raise DecodeError(f"{path}: {_show(text)} is outside 0001-01-01..9999-12-31 in UTC")
    return seconds, nanos


def timestamp_from_json(value: Any, path: str, ctx: Any = None) -> datetime.datetime:
    m = _TIMESTAMP.fullmatch(value) if isinstance(value, str) else None
    if m is None or m.group(8) is None:  # not one, or with an offset: the general path
        seconds, nanos = parse_timestamp(value, path)
        return _EPOCH + datetime.timedelta(0, seconds, nanos // 1000)
    frac = m.group(7)
    try:
        return datetime.datetime(
            int(m.group(1)), int(m.group(2)), int(m.group(3)),
            int(m.group(4)), int(m.group(5)), int(m.group(6)),
            int(frac[:6].ljust(6, "0")) if frac else 0, _UTC,
        )  # fmt: skip
    except ValueError as exc:
        raise DecodeError(f"{path}: {_show(value)} is not a valid timestamp ({exc})") from None


def duration_to_json(value: Any, ctx: Any = None) -> str:
    if not isinstance(value, datetime.timedelta):
        raise EncodeError(f"expected timedelta, got {type(value).__name__}")
    micros = (value.days * 86400 + value.seconds) * 1_000_000 + value.microseconds
    sign = -1 if micros < 0 else 1
    seconds, rest = divmod(abs(micros), 1_000_000)
    if seconds > _MAX_DURATION:
        raise EncodeError(f"{value} is outside ±{_MAX_DURATION} s, the range of a Duration")
    return duration_text(sign * seconds, sign * rest * 1000)


def parse_duration(text: Any, path: str) -> tuple[int, int]:
    """``(seconds, nanos)`` (one sign) of a JSON Duration; :class:`DecodeError` naming ``path``."""
    m = _DURATION.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        raise DecodeError(f'{path}: expected a duration like "1.5s", got {_show(text)}')
    seconds = int(m.group(2))
    frac = m.group(3) or ""
    nanos = int(frac.ljust(9, "0")) if frac else 0
    if seconds > _MAX_DURATION:
        raise DecodeError(f"{path}: {_show(text)} is outside ±{_MAX_DURATION}s")
    if m.group(1):
        return -seconds, -nanos
    return seconds, nanos


def duration_from_json(value: Any, path: str, ctx: Any = None) -> datetime.timedelta:
    seconds, nanos = parse_duration(value, path)
    return datetime.timedelta(seconds=seconds, microseconds=int(nanos / 1000))


def _show(value: Any) -> str:
    """A short rendering of a JSON value for error messages."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


_jsonforms.register(datetime.datetime, timestamp_to_json, timestamp_from_json)
_jsonforms.register(datetime.timedelta, duration_to_json, duration_from_json)
