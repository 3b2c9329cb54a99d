"""The nine wrapper types of ``google/protobuf/wrappers.proto``, as annotations.

``x: pa.wrappers.Int32Value = pa.field(1, default=None)`` holds an
``Optional[int]`` that travels as a ``google.protobuf.Int32Value`` message:
``None`` is absent, any other value (zero included) is written, byte-identical
with Google's runtime.  Type checkers see ``Optional[int]``.
"""

from __future__ import annotations

from typing import Annotated

from ._core.wkt import WRAPPER_MARKERS as _M

__all__ = [
    "BoolValue",
    "BytesValue",
    "DoubleValue",
    "FloatValue",
    "Int32Value",
    "Int64Value",
    "StringValue",
    "UInt32Value",
    "UInt64Value",
]

DoubleValue = Annotated[float | None, _M["DoubleValue"]]
FloatValue = Annotated[float | None, _M["FloatValue"]]
Int64Value = Annotated[int | None, _M["Int64Value"]]
UInt64Value = Annotated[int | None, _M["UInt64Value"]]
Int32Value = Annotated[int | None, _M["Int32Value"]]
UInt32Value = Annotated[int | None, _M["UInt32Value"]]
BoolValue = Annotated[bool | None, _M["BoolValue"]]
StringValue = Annotated[str | None, _M["StringValue"]]
BytesValue = Annotated[bytes | None, _M["BytesValue"]]
