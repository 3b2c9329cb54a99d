"""protobuf-net's ``bcl.proto`` for schemas: the file protoattr ships (``include/
protobuf-net/bcl.proto``, for protoc and ``gen``) and its descriptor (for
``descriptor_set``, which needs no protoc)."""

from __future__ import annotations

from pathlib import Path

from .._json.plan import json_name
from . import descriptor as d

__all__ = ["BCL_PROTO", "INCLUDE", "bcl_file"]

#: the include directory holding ``protobuf-net/bcl.proto``
INCLUDE = Path(__file__).resolve().parent / "include"
BCL_PROTO = "protobuf-net/bcl.proto"

_OPT = d.FieldLabel.LABEL_OPTIONAL
_T = d.FieldType
_SCALES = [("DAYS", 0), ("HOURS", 1), ("MINUTES", 2), ("SECONDS", 3), ("MILLISECONDS", 4),
           ("TICKS", 5), ("MINMAX", 15)]  # fmt: skip


def _field(
    name: str, number: int, kind: d.FieldType, type_name: str | None = None
) -> d.FieldDescriptorProto:
    return d.FieldDescriptorProto(
        name=name, number=number, label=_OPT, type=kind, type_name=type_name,
        json_name=json_name(name),
    )  # fmt: skip


def _enum(name: str, values: list[tuple[str, int]]) -> d.EnumDescriptorProto:
    return d.EnumDescriptorProto(
        name=name, value=[d.EnumValueDescriptorProto(name=n, number=v) for n, v in values]
    )


def bcl_file() -> d.FileDescriptorProto:
    """The descriptor of ``protobuf-net/bcl.proto``, as protoc makes it of the shipped file."""
    return d.FileDescriptorProto(
        name=BCL_PROTO,
        package="bcl",
        message_type=[
            d.DescriptorProto(
                name="TimeSpan",
                field=[
                    _field("value", 1, _T.TYPE_SINT64),
                    _field("scale", 2, _T.TYPE_ENUM, ".bcl.TimeSpan.TimeSpanScale"),
                ],
                enum_type=[_enum("TimeSpanScale", _SCALES)],
            ),
            d.DescriptorProto(
                name="DateTime",
                field=[
                    _field("value", 1, _T.TYPE_SINT64),
                    _field("scale", 2, _T.TYPE_ENUM, ".bcl.DateTime.TimeSpanScale"),
                    _field("kind", 3, _T.TYPE_ENUM, ".bcl.DateTime.DateTimeKind"),
                ],
                enum_type=[
                    _enum("TimeSpanScale", _SCALES),
                    _enum("DateTimeKind", [("UNSPECIFIED", 0), ("UTC", 1), ("LOCAL", 2)]),
                ],
            ),
            d.DescriptorProto(
                name="NetObjectProxy",
                field=[
                    _field("existingObjectKey", 1, _T.TYPE_INT32),
                    _field("newObjectKey", 2, _T.TYPE_INT32),
                    _field("existingTypeKey", 3, _T.TYPE_INT32),
                    _field("newTypeKey", 4, _T.TYPE_INT32),
                    _field("typeName", 8, _T.TYPE_STRING),
                    _field("payload", 10, _T.TYPE_BYTES),
                ],
            ),
            d.DescriptorProto(
                name="Guid",
                field=[_field("lo", 1, _T.TYPE_FIXED64), _field("hi", 2, _T.TYPE_FIXED64)],
            ),
            d.DescriptorProto(
                name="Decimal",
                field=[
                    _field("lo", 1, _T.TYPE_UINT64),
                    _field("hi", 2, _T.TYPE_UINT32),
                    _field("signScale", 3, _T.TYPE_UINT32),
                ],
            ),
        ],
        syntax="proto3",
    )
