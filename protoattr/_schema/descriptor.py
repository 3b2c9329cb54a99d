"""``google/protobuf/descriptor.proto``, the part ``protoattr gen`` reads, as contracts.

protoc compiles ``.proto`` files into a ``FileDescriptorSet``; these contracts
decode it.  They are protoattr contracts like any other (the generator eats
its own cooking): field numbers and types follow descriptor.proto, every
``optional`` field is ``Optional`` so presence survives, enums are closed as
proto2's are, and everything this module does not declare (services,
extensions, most options) is kept as unknown fields.  Services and their
methods are declared so that ``protoattr gen`` can turn them into service
declarations and protoattr can describe its own services (reflection).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .._core import types as pa
from .._core.contract import closed_enum, proto_contract

# ``DescriptorProto`` has a field named ``field``, which would shadow the function
# inside its class body: the function goes by another name here.
from .._core.fields import field as tag

__all__ = [
    "DescriptorProto",
    "Edition",
    "EnumDescriptorProto",
    "EnumOptions",
    "EnumReservedRange",
    "EnumValueDescriptorProto",
    "ExtensionRange",
    "FeatureSet",
    "FieldDescriptorProto",
    "FieldLabel",
    "FieldOptions",
    "FieldType",
    "FileDescriptorProto",
    "FileDescriptorSet",
    "FileOptions",
    "Location",
    "MessageOptions",
    "MethodDescriptorProto",
    "OneofDescriptorProto",
    "OneofOptions",
    "ReservedRange",
    "ServiceDescriptorProto",
    "SourceCodeInfo",
]


@closed_enum
class Edition(enum.IntEnum):
    EDITION_UNKNOWN = 0
    EDITION_LEGACY = 900
    EDITION_PROTO2 = 998
    EDITION_PROTO3 = 999
    EDITION_2023 = 1000
    EDITION_2024 = 1001
    EDITION_2026 = 1002
    EDITION_MAX = 0x7FFFFFFF


@closed_enum
class FieldType(enum.IntEnum):
    """``FieldDescriptorProto.Type``."""

    TYPE_DOUBLE = 1
    TYPE_FLOAT = 2
    TYPE_INT64 = 3
    TYPE_UINT64 = 4
    TYPE_INT32 = 5
    TYPE_FIXED64 = 6
    TYPE_FIXED32 = 7
    TYPE_BOOL = 8
    TYPE_STRING = 9
    TYPE_GROUP = 10
    TYPE_MESSAGE = 11
    TYPE_BYTES = 12
    TYPE_UINT32 = 13
    TYPE_ENUM = 14
    TYPE_SFIXED32 = 15
    TYPE_SFIXED64 = 16
    TYPE_SINT32 = 17
    TYPE_SINT64 = 18


@closed_enum
class FieldLabel(enum.IntEnum):
    """``FieldDescriptorProto.Label``."""

    LABEL_OPTIONAL = 1
    LABEL_REQUIRED = 2
    LABEL_REPEATED = 3


@proto_contract
@dataclass
class FeatureSet:
    """Edition features; enum-valued, kept as plain ints (0 is "unknown")."""

    field_presence: pa.int32 | None = tag(1, default=None)  # 1 EXPLICIT 2 IMPLICIT 3 REQ
    enum_type: pa.int32 | None = tag(2, default=None)  # 1 OPEN 2 CLOSED
    repeated_field_encoding: pa.int32 | None = tag(3, default=None)  # 1 PACKED 2 EXPANDED
    utf8_validation: pa.int32 | None = tag(4, default=None)  # 2 VERIFY 3 NONE
    message_encoding: pa.int32 | None = tag(5, default=None)  # 1 LENGTH_PREFIXED 2 DELIMITED


@proto_contract
@dataclass
class FileOptions:
    features: FeatureSet | None = tag(50, default=None)


@proto_contract
@dataclass
class MessageOptions:
    message_set_wire_format: bool | None = tag(1, default=None)
    map_entry: bool | None = tag(7, default=None)
    features: FeatureSet | None = tag(12, default=None)


@proto_contract
@dataclass
class FieldOptions:
    packed: bool | None = tag(2, default=None)
    features: FeatureSet | None = tag(21, default=None)


@proto_contract
@dataclass
class OneofOptions:
    features: FeatureSet | None = tag(1, default=None)


@proto_contract
@dataclass
class EnumOptions:
    allow_alias: bool | None = tag(2, default=None)
    features: FeatureSet | None = tag(7, default=None)


@proto_contract
@dataclass
class FieldDescriptorProto:
    name: str | None = tag(1, default=None)
    extendee: str | None = tag(2, default=None)
    number: pa.int32 | None = tag(3, default=None)
    label: FieldLabel | None = tag(4, default=None)
    type: FieldType | None = tag(5, default=None)
    type_name: str | None = tag(6, default=None)
    default_value: str | None = tag(7, default=None)
    options: FieldOptions | None = tag(8, default=None)
    oneof_index: pa.int32 | None = tag(9, default=None)
    json_name: str | None = tag(10, default=None)
    proto3_optional: bool | None = tag(17, default=None)


@proto_contract
@dataclass
class OneofDescriptorProto:
    name: str | None = tag(1, default=None)
    options: OneofOptions | None = tag(2, default=None)


@proto_contract
@dataclass
class EnumValueDescriptorProto:
    name: str | None = tag(1, default=None)
    number: pa.int32 | None = tag(2, default=None)


@proto_contract
@dataclass
class EnumReservedRange:
    """``EnumDescriptorProto.EnumReservedRange``: both ends inclusive."""

    start: pa.int32 | None = tag(1, default=None)
    end: pa.int32 | None = tag(2, default=None)


@proto_contract
@dataclass
class EnumDescriptorProto:
    name: str | None = tag(1, default=None)
    value: list[EnumValueDescriptorProto] = tag(2, default_factory=list)
    options: EnumOptions | None = tag(3, default=None)
    reserved_range: list[EnumReservedRange] = tag(4, default_factory=list)
    reserved_name: list[str] = tag(5, default_factory=list)


@proto_contract
@dataclass
class ReservedRange:
    """``DescriptorProto.ReservedRange``: ``start`` inclusive, ``end`` exclusive."""

    start: pa.int32 | None = tag(1, default=None)
    end: pa.int32 | None = tag(2, default=None)


@proto_contract
@dataclass
class ExtensionRange:
    """``DescriptorProto.ExtensionRange``: ``start`` inclusive, ``end`` exclusive."""

    start: pa.int32 | None = tag(1, default=None)
    end: pa.int32 | None = tag(2, default=None)


@proto_contract
@dataclass
class DescriptorProto:
    name: str | None = tag(1, default=None)
    field: list[FieldDescriptorProto] = tag(2, default_factory=list)
    nested_type: list[DescriptorProto] = tag(3, default_factory=list)
    enum_type: list[EnumDescriptorProto] = tag(4, default_factory=list)
    extension_range: list[ExtensionRange] = tag(5, default_factory=list)
    extension: list[FieldDescriptorProto] = tag(6, default_factory=list)
    options: MessageOptions | None = tag(7, default=None)
    oneof_decl: list[OneofDescriptorProto] = tag(8, default_factory=list)
    reserved_range: list[ReservedRange] = tag(9, default_factory=list)
    reserved_name: list[str] = tag(10, default_factory=list)


@proto_contract
@dataclass
class MethodDescriptorProto:
    name: str | None = tag(1, default=None)
    input_type: str | None = tag(2, default=None)  # ".package.Message"
    output_type: str | None = tag(3, default=None)
    client_streaming: bool | None = tag(5, default=None)
    server_streaming: bool | None = tag(6, default=None)


@proto_contract
@dataclass
class ServiceDescriptorProto:
    name: str | None = tag(1, default=None)
    method: list[MethodDescriptorProto] = tag(2, default_factory=list)


@proto_contract
@dataclass
class Location:
    """``SourceCodeInfo.Location``: where a declaration is, and its comments."""

    path: list[pa.int32] = tag(1, default_factory=list)
    span: list[pa.int32] = tag(2, default_factory=list)
    leading_comments: str | None = tag(3, default=None)
    trailing_comments: str | None = tag(4, default=None)
    leading_detached_comments: list[str] = tag(6, default_factory=list)


@proto_contract
@dataclass
class SourceCodeInfo:
    location: list[Location] = tag(1, default_factory=list)


@proto_contract
@dataclass
class FileDescriptorProto:
    name: str | None = tag(1, default=None)
    package: str | None = tag(2, default=None)
    dependency: list[str] = tag(3, default_factory=list)
    message_type: list[DescriptorProto] = tag(4, default_factory=list)
    enum_type: list[EnumDescriptorProto] = tag(5, default_factory=list)
    service: list[ServiceDescriptorProto] = tag(6, default_factory=list)
    extension: list[FieldDescriptorProto] = tag(7, default_factory=list)
    options: FileOptions | None = tag(8, default=None)
    source_code_info: SourceCodeInfo | None = tag(9, default=None)
    syntax: str | None = tag(12, default=None)
    edition: Edition | None = tag(14, default=None)


@proto_contract
@dataclass
class FileDescriptorSet:
    file: list[FileDescriptorProto] = tag(1, default_factory=list)
