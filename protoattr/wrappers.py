"""The nine wrapper types of ``google/protobuf/wrappers.proto``, as annotations.

``x: pa.wrappers.Int32Value = pa.field(1, default=None)`` holds an
``Optional[int]`` that travels as a ``google.protobuf.Int32Value`` message:
``None`` is absent, any other value (zero included) is written, byte-identical
with Google's runtime.  Type checkers see ``Optional[int]``.
"""

from __future__ import annotations

from typing import Annotated, Optional

from ._wkt import WRAPPER_MARKERS as _M

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

DoubleValue = Annotated[Optional[float], _M["DoubleValue"]]
FloatValue = Annotated[Optional[float], _M["FloatValue"]]
Int64Value = Annotated[Optional[int], _M["Int64Value"]]
UInt64Value = Annotated[Optional[int], _M["UInt64Value"]]
Int32Value = Annotated[Optional[int], _M["Int32Value"]]
UInt32Value = Annotated[Optional[int], _M["UInt32Value"]]
BoolValue = Annotated[Optional[bool], _M["BoolValue"]]
StringValue = Annotated[Optional[str], _M["StringValue"]]
BytesValue = Annotated[Optional[bytes], _M["BytesValue"]]
