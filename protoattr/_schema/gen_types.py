"""How ``gen`` declares protobuf types in Python: scalars, well-known types, defaults.

Pure data, shared by everything that turns descriptors into contracts.
"""

from __future__ import annotations

from . import descriptor as d

__all__ = [
    "BODY_NAMES",
    "MODULE_NAMES",
    "NULLABLE",
    "PACKABLE",
    "RPC_WELL_KNOWN",
    "SCALARS",
    "TIMES",
    "WELL_KNOWN",
    "WRAPPER_NAMES",
    "ZEROS",
    "T",
]

T = d.FieldType
SCALARS: dict[int, str] = {
    T.TYPE_DOUBLE: "float",
    T.TYPE_FLOAT: "pa.float32",
    T.TYPE_INT64: "int",
    T.TYPE_UINT64: "pa.uint64",
    T.TYPE_INT32: "pa.int32",
    T.TYPE_FIXED64: "pa.fixed64",
    T.TYPE_FIXED32: "pa.fixed32",
    T.TYPE_BOOL: "bool",
    T.TYPE_STRING: "str",
    T.TYPE_BYTES: "bytes",
    T.TYPE_UINT32: "pa.uint32",
    T.TYPE_SFIXED32: "pa.sfixed32",
    T.TYPE_SFIXED64: "pa.sfixed64",
    T.TYPE_SINT32: "pa.sint32",
    T.TYPE_SINT64: "pa.sint64",
}
PACKABLE = set(SCALARS) - {T.TYPE_STRING, T.TYPE_BYTES} | {T.TYPE_ENUM}
ZEROS: dict[int, str] = {t: "0" for t in SCALARS} | {
    T.TYPE_DOUBLE: "0.0",
    T.TYPE_FLOAT: "0.0",
    T.TYPE_BOOL: "False",
    T.TYPE_STRING: '""',
    T.TYPE_BYTES: 'b""',
}
WRAPPER_NAMES = (
    "DoubleValue", "FloatValue", "Int64Value", "UInt64Value", "Int32Value", "UInt32Value",
    "BoolValue", "StringValue", "BytesValue",
)  # fmt: skip
#: well-known types and what fields of them are declared as (never generated again).
#: Timestamp and Duration are exact by default (``TIMES``: how ``time=`` changes that).
WELL_KNOWN = {
    ".google.protobuf.Timestamp": "pa.Timestamp",
    ".google.protobuf.Duration": "pa.Duration",
    ".google.protobuf.Any": "pa.Any",
    ".google.protobuf.Struct": "pa.Struct",
    ".google.protobuf.Value": "pa.JsonValue",
    ".google.protobuf.ListValue": "pa.ListValue",
    ".google.protobuf.NullValue": "pa.NullValue",
    ".google.protobuf.FieldMask": "pa.FieldMask",
    ".google.protobuf.Empty": "pa.Empty",
    **{f".google.protobuf.{name}": f"pa.wrappers.{name}" for name in WRAPPER_NAMES},
    # protobuf-net's bcl.proto (protoattr ships it: protobuf-net/bcl.proto)
    **{f".bcl.{name}": f"pa.bcl.{name}" for name in ("DateTime", "TimeSpan", "Decimal", "Guid")},
    ".bcl.DateTime.DateTimeKind": "pa.bcl.DateTimeKind",
    ".bcl.DateTime.TimeSpanScale": "pa.bcl.TimeSpanScale",
    ".bcl.TimeSpan.TimeSpanScale": "pa.bcl.TimeSpanScale",
}
#: ``time=``: ``"exact"`` keeps every value a Timestamp or Duration can hold (a relay must
#: not corrupt nanoseconds by default); ``"datetime"`` gives ``datetime``/``timedelta``
TIMES = {
    "exact": {},
    "datetime": {
        ".google.protobuf.Timestamp": "datetime",
        ".google.protobuf.Duration": "timedelta",
    },
}
#: well-known types protoattr has a contract class for: what an RPC of them sends
RPC_WELL_KNOWN = {
    f".google.protobuf.{name}": f"pa.{name}"
    for name in ("Empty", "Any", "Timestamp", "Duration", "FieldMask")
}
#: annotations that already mean "None when absent"
NULLABLE = {f"pa.wrappers.{name}" for name in WRAPPER_NAMES} | {"pa.JsonValue"}
# Names the generated module defines or imports, which classes and fields must not take,
# and the names of ``typing`` a class must not shadow where users import both.
MODULE_NAMES = {"annotations", "dataclass", "datetime", "enum", "pa", "timedelta"} | {
    "Any", "Annotated", "Callable", "ClassVar", "Dict", "Final", "Generic", "List", "Literal",
    "Optional", "Protocol", "Sequence", "Set", "Tuple", "Type", "TypeVar", "Union",
}  # fmt: skip
BODY_NAMES = {"pa", "float"}  # names a class body uses at run time
