"""The text of a Timestamp (RFC 3339) and a Duration (``"1.5s"``), and their ranges.

One source for every place that writes these forms: the JSON forms of
``datetime``/``timedelta`` (:mod:`protoattr._json.times`) and of
``pa.Timestamp``/``pa.Duration`` (:mod:`protoattr._json.wkt`), and the range
checks of the binary codec (:mod:`protoattr._python.runtime`).  The functions take
``(seconds, nanos)`` already checked by their caller, since each caller words
its own error (an ``EncodeError`` naming a field, a ``ValueError`` naming a
message...).  Parsing is JSON's alone, in :mod:`protoattr._json.times`, for both.
"""

from __future__ import annotations

__all__ = ["DURATION_MAX", "TS_MAX", "TS_MIN", "duration_text", "fraction", "timestamp_text"]

#: 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, in seconds since the epoch
TS_MIN, TS_MAX = -62135596800, 253402300799
#: the largest number of seconds a Duration holds, either sign (10,000 years)
DURATION_MAX = 315576000000


def fraction(nanos: int) -> str:
    """``""``, ``".123"``, ``".123456"`` or ``".123456789"``: as few digits as exact."""
    if nanos == 0:
        return ""
    if nanos % 1_000_000 == 0:
        return f".{nanos // 1_000_000:03d}"
    if nanos % 1000 == 0:
        return f".{nanos // 1000:06d}"
    return f".{nanos:09d}"


def timestamp_text(seconds: int, nanos: int) -> str:
    """The RFC 3339 form, in UTC with ``Z``, of seconds since the epoch and nanos.

    ``seconds`` within ``TS_MIN..TS_MAX`` and ``0 <= nanos < 10**9`` (the caller checks).
    """
    import datetime  # (here: ``import protoattr`` does not import it; the caller has)

    days, rest = divmod(seconds, 86400)
    when = datetime.datetime(1970, 1, 1) + datetime.timedelta(days, rest)
    return when.isoformat() + fraction(nanos) + "Z"


def duration_text(seconds: int, nanos: int) -> str:
    """The JSON form of a Duration given as seconds and nanos of one sign."""
    sign = "-" if seconds < 0 or nanos < 0 else ""
    return f"{sign}{abs(seconds)}{fraction(abs(nanos))}s"
