"""protobuf-net's own wire forms (its ``bcl.proto``), as annotations.

``placed: pa.bcl.DateTime = pa.field(1)`` holds a ``datetime`` that travels as
protobuf-net's ``bcl.DateTime`` message, byte for byte what protobuf-net writes at
its default compatibility level (200); likewise ``TimeSpan`` (``timedelta``),
``Decimal`` (``decimal.Decimal``) and ``Guid`` (``uuid.UUID``).  Type checkers see
the plain types.  ``DateTimeWithKind`` also writes the ``kind`` field, as protobuf-net
does with ``IncludeDateTimeKind``.  :class:`ScaledTicks` is the message itself, for a
relay that must pass on every value (ticks a ``datetime`` cannot hold, any scale).
``DateTimeTicks``/``TimeSpanTicks`` are protobuf-net's ``DataFormat.FixedSize`` forms:
a bare fixed64 tick count (from 1970-01-01 for a DateTime).

The rules (time zones, ``MinValue``/``MaxValue``, sub-microsecond ticks, decimals
that do not fit) are in ``docs/dotnet.md``.
"""

from __future__ import annotations

import dataclasses
import decimal
import enum
import uuid
from typing import Annotated

from ._core.bcl import DateTime, DateTimeTicks, DateTimeWithKind, Form, TimeSpan, TimeSpanTicks
from ._core.contract import proto_contract
from ._core.fields import field
from ._core.types import sint64, uint32

__all__ = [
    "DateTime",
    "DateTimeKind",
    "DateTimeTicks",
    "DateTimeWithKind",
    "Decimal",
    "Guid",
    "ScaledTicks",
    "TimeSpan",
    "TimeSpanScale",
    "TimeSpanTicks",
]


#: ``decimal.Decimal`` as protobuf-net's ``bcl.Decimal``.
Decimal = Annotated[decimal.Decimal, Form.DECIMAL]
#: ``uuid.UUID`` as protobuf-net's ``bcl.Guid``.
Guid = Annotated[uuid.UUID, Form.GUID]


class DateTimeKind(enum.IntEnum):
    """bcl.DateTime's ``kind`` (.NET's ``DateTimeKind``), for fields a schema types so."""

    UNSPECIFIED = 0
    UTC = 1
    LOCAL = 2


class TimeSpanScale(enum.IntEnum):
    """bcl.TimeSpan's and bcl.DateTime's ``scale``: the unit of ``value``."""

    DAYS = 0
    HOURS = 1
    MINUTES = 2
    SECONDS = 3
    MILLISECONDS = 4
    TICKS = 5  # 100 ns
    MINMAX = 15  # value -1: MinValue, 1: MaxValue


@proto_contract(name="ScaledTicks", package="protoattr.bcl")
@dataclasses.dataclass
class ScaledTicks:
    """A ``bcl.TimeSpan``/``bcl.DateTime`` as it is on the wire: ``value`` in units of
    ``scale`` (0 days, 1 hours, 2 minutes, 3 seconds, 4 milliseconds, 5 ticks of 100 ns,
    15 min/max), ``kind`` (0 unspecified, 1 UTC, 2 local; DateTime only).  A DateTime's
    value counts from 1970-01-01."""

    value: sint64 = field(1, default=0)
    scale: uint32 = field(2, default=0)
    kind: uint32 = field(3, default=0)
