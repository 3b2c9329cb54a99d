"""Scalar kinds and the ``Annotated`` aliases users write in annotations.

``pa.int32`` is ``Annotated[int, Kind.INT32]``: type checkers see a plain
``int``, while the model reads the :class:`Kind` marker from the metadata.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated

__all__ = [
    "Kind",
    "fixed32",
    "fixed64",
    "float32",
    "int32",
    "int64",
    "sfixed32",
    "sfixed64",
    "sint32",
    "sint64",
    "uint32",
    "uint64",
]


class Kind(Enum):
    """Every kind of value protoattr can put on the wire."""

    INT32 = "int32"
    INT64 = "int64"
    UINT32 = "uint32"
    UINT64 = "uint64"
    SINT32 = "sint32"
    SINT64 = "sint64"
    FIXED32 = "fixed32"
    FIXED64 = "fixed64"
    SFIXED32 = "sfixed32"
    SFIXED64 = "sfixed64"
    BOOL = "bool"
    ENUM = "enum"
    FLOAT = "float"
    DOUBLE = "double"
    STRING = "string"
    BYTES = "bytes"
    MESSAGE = "message"
    TIMESTAMP = "google.protobuf.Timestamp"
    DURATION = "google.protobuf.Duration"
    # protobuf-net's bcl.proto forms (see protoattr._core.bcl)
    BCL_DATETIME = "bcl.DateTime"
    BCL_TIMESPAN = "bcl.TimeSpan"
    BCL_DECIMAL = "bcl.Decimal"
    BCL_GUID = "bcl.Guid"

    def __repr__(self) -> str:
        return f"Kind.{self.name}"

    #: members are singletons compared by identity, so the identity hash is Enum's own
    #: contract; Enum's ``__hash__`` is a Python call (hash of the name), and planning a
    #: contract looks kinds up in sets and dicts ~100 times (a tenth of compile())
    __hash__ = object.__hash__


#: Kinds whose repeated form may be packed (every numeric scalar and enums).
PACKABLE = frozenset(
    {
        Kind.INT32, Kind.INT64, Kind.UINT32, Kind.UINT64, Kind.SINT32, Kind.SINT64,
        Kind.FIXED32, Kind.FIXED64, Kind.SFIXED32, Kind.SFIXED64,
        Kind.BOOL, Kind.ENUM, Kind.FLOAT, Kind.DOUBLE,
    }
)  # fmt: skip

#: The bcl.proto kinds: each a small message, read and written whole (no merging).
BCL_KINDS = frozenset({Kind.BCL_DATETIME, Kind.BCL_TIMESPAN, Kind.BCL_DECIMAL, Kind.BCL_GUID})

#: Integer kinds and their inclusive value ranges.
INT_RANGES: dict[Kind, tuple[int, int]] = {
    Kind.INT32: (-(1 << 31), (1 << 31) - 1),
    Kind.INT64: (-(1 << 63), (1 << 63) - 1),
    Kind.UINT32: (0, (1 << 32) - 1),
    Kind.UINT64: (0, (1 << 64) - 1),
    Kind.SINT32: (-(1 << 31), (1 << 31) - 1),
    Kind.SINT64: (-(1 << 63), (1 << 63) - 1),
    Kind.FIXED32: (0, (1 << 32) - 1),
    Kind.FIXED64: (0, (1 << 64) - 1),
    Kind.SFIXED32: (-(1 << 31), (1 << 31) - 1),
    Kind.SFIXED64: (-(1 << 63), (1 << 63) - 1),
    Kind.ENUM: (-(1 << 31), (1 << 31) - 1),
}

#: Kinds that may be map keys.
MAP_KEY_KINDS = frozenset(
    {
        Kind.INT32, Kind.INT64, Kind.UINT32, Kind.UINT64, Kind.SINT32, Kind.SINT64,
        Kind.FIXED32, Kind.FIXED64, Kind.SFIXED32, Kind.SFIXED64, Kind.BOOL, Kind.STRING,
    }
)  # fmt: skip

int32 = Annotated[int, Kind.INT32]
int64 = Annotated[int, Kind.INT64]
uint32 = Annotated[int, Kind.UINT32]
uint64 = Annotated[int, Kind.UINT64]
sint32 = Annotated[int, Kind.SINT32]
sint64 = Annotated[int, Kind.SINT64]
fixed32 = Annotated[int, Kind.FIXED32]
fixed64 = Annotated[int, Kind.FIXED64]
sfixed32 = Annotated[int, Kind.SFIXED32]
sfixed64 = Annotated[int, Kind.SFIXED64]
float32 = Annotated[float, Kind.FLOAT]
