"""Twins of Google's ``TestAllTypesProto2`` and the messages it reaches
(``src/google/protobuf/test_messages_proto2.proto`` of protobuf v21.12), as protoattr contracts.

Written by ``protoattr gen test_messages_proto2.proto`` and then reviewed: the comments of the
``.proto`` are left out, and the two fields whose names Python would mangle inside
a class body (``__field_name13``, ``__Field_name14``) keep their protobuf names
with ``name=``.  Durations and timestamps are ``pa.Duration``/``pa.Timestamp``
(``gen`` writes ``timedelta``/``datetime``), which keep every value the suite sends.
The ``default_*`` fields are ``Optional`` without their ``[default = ...]``: a protoattr
field with a default does not write that value, and upb keeps the presence of one set to it.
``extension_int32`` and the extension range are declared once ``pa.extension``
exists; the message-set extensions are not.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

import protoattr as pa

__protobuf_package__ = "protobuf_test_messages.proto2"


@pa.closed_enum
class TestAllTypesProto2_NestedEnum(enum.IntEnum):
    FOO = 0
    BAR = 1
    BAZ = 2
    NEG = -1


@pa.closed_enum
class EnumOnlyProto2_Bool(enum.IntEnum):
    kFalse = 0
    kTrue = 1


@pa.closed_enum
class ForeignEnumProto2(enum.IntEnum):
    FOREIGN_FOO = 0
    FOREIGN_BAR = 1
    FOREIGN_BAZ = 2


# EXTENSIONS HOOK: where pa.extension exists (API.md section 11), TestAllTypesProto2
# declares its extension range and extension_int32 (below), as the .proto does.
_EXTENDABLE: dict[str, Any] = {"extensions": [(120, 200)]} if hasattr(pa, "extension") else {}


@pa.proto_contract(reserved=(range(1000, 10000),), **_EXTENDABLE)
@dataclass
class TestAllTypesProto2:
    optional_int32: pa.int32 | None = pa.field(1, default=None)
    optional_int64: int | None = pa.field(2, default=None)
    optional_uint32: pa.uint32 | None = pa.field(3, default=None)
    optional_uint64: pa.uint64 | None = pa.field(4, default=None)
    optional_sint32: pa.sint32 | None = pa.field(5, default=None)
    optional_sint64: pa.sint64 | None = pa.field(6, default=None)
    optional_fixed32: pa.fixed32 | None = pa.field(7, default=None)
    optional_fixed64: pa.fixed64 | None = pa.field(8, default=None)
    optional_sfixed32: pa.sfixed32 | None = pa.field(9, default=None)
    optional_sfixed64: pa.sfixed64 | None = pa.field(10, default=None)
    optional_float: pa.float32 | None = pa.field(11, default=None)
    optional_double: float | None = pa.field(12, default=None)
    optional_bool: bool | None = pa.field(13, default=None)
    optional_string: str | None = pa.field(14, default=None)
    optional_bytes: bytes | None = pa.field(15, default=None)
    optional_nested_message: TestAllTypesProto2_NestedMessage | None = pa.field(18, default=None)
    optional_foreign_message: ForeignMessageProto2 | None = pa.field(19, default=None)
    optional_nested_enum: TestAllTypesProto2_NestedEnum | None = pa.field(21, default=None)
    optional_foreign_enum: ForeignEnumProto2 | None = pa.field(22, default=None)
    optional_string_piece: str | None = pa.field(24, default=None)
    optional_cord: str | None = pa.field(25, default=None)
    recursive_message: TestAllTypesProto2 | None = pa.field(27, default=None)
    repeated_int32: list[pa.int32] = pa.field(31, default_factory=list, packed=False)
    repeated_int64: list[int] = pa.field(32, default_factory=list, packed=False)
    repeated_uint32: list[pa.uint32] = pa.field(33, default_factory=list, packed=False)
    repeated_uint64: list[pa.uint64] = pa.field(34, default_factory=list, packed=False)
    repeated_sint32: list[pa.sint32] = pa.field(35, default_factory=list, packed=False)
    repeated_sint64: list[pa.sint64] = pa.field(36, default_factory=list, packed=False)
    repeated_fixed32: list[pa.fixed32] = pa.field(37, default_factory=list, packed=False)
    repeated_fixed64: list[pa.fixed64] = pa.field(38, default_factory=list, packed=False)
    repeated_sfixed32: list[pa.sfixed32] = pa.field(39, default_factory=list, packed=False)
    repeated_sfixed64: list[pa.sfixed64] = pa.field(40, default_factory=list, packed=False)
    repeated_float: list[pa.float32] = pa.field(41, default_factory=list, packed=False)
    repeated_double: list[float] = pa.field(42, default_factory=list, packed=False)
    repeated_bool: list[bool] = pa.field(43, default_factory=list, packed=False)
    repeated_string: list[str] = pa.field(44, default_factory=list)
    repeated_bytes: list[bytes] = pa.field(45, default_factory=list)
    repeated_nested_message: list[TestAllTypesProto2_NestedMessage] = pa.field(
        48, default_factory=list
    )
    repeated_foreign_message: list[ForeignMessageProto2] = pa.field(49, default_factory=list)
    repeated_nested_enum: list[TestAllTypesProto2_NestedEnum] = pa.field(
        51, default_factory=list, packed=False
    )
    repeated_foreign_enum: list[ForeignEnumProto2] = pa.field(
        52, default_factory=list, packed=False
    )
    repeated_string_piece: list[str] = pa.field(54, default_factory=list)
    repeated_cord: list[str] = pa.field(55, default_factory=list)
    packed_int32: list[pa.int32] = pa.field(75, default_factory=list)
    packed_int64: list[int] = pa.field(76, default_factory=list)
    packed_uint32: list[pa.uint32] = pa.field(77, default_factory=list)
    packed_uint64: list[pa.uint64] = pa.field(78, default_factory=list)
    packed_sint32: list[pa.sint32] = pa.field(79, default_factory=list)
    packed_sint64: list[pa.sint64] = pa.field(80, default_factory=list)
    packed_fixed32: list[pa.fixed32] = pa.field(81, default_factory=list)
    packed_fixed64: list[pa.fixed64] = pa.field(82, default_factory=list)
    packed_sfixed32: list[pa.sfixed32] = pa.field(83, default_factory=list)
    packed_sfixed64: list[pa.sfixed64] = pa.field(84, default_factory=list)
    packed_float: list[pa.float32] = pa.field(85, default_factory=list)
    packed_double: list[float] = pa.field(86, default_factory=list)
    packed_bool: list[bool] = pa.field(87, default_factory=list)
    packed_nested_enum: list[TestAllTypesProto2_NestedEnum] = pa.field(88, default_factory=list)
    unpacked_int32: list[pa.int32] = pa.field(89, default_factory=list, packed=False)
    unpacked_int64: list[int] = pa.field(90, default_factory=list, packed=False)
    unpacked_uint32: list[pa.uint32] = pa.field(91, default_factory=list, packed=False)
    unpacked_uint64: list[pa.uint64] = pa.field(92, default_factory=list, packed=False)
    unpacked_sint32: list[pa.sint32] = pa.field(93, default_factory=list, packed=False)
    unpacked_sint64: list[pa.sint64] = pa.field(94, default_factory=list, packed=False)
    unpacked_fixed32: list[pa.fixed32] = pa.field(95, default_factory=list, packed=False)
    unpacked_fixed64: list[pa.fixed64] = pa.field(96, default_factory=list, packed=False)
    unpacked_sfixed32: list[pa.sfixed32] = pa.field(97, default_factory=list, packed=False)
    unpacked_sfixed64: list[pa.sfixed64] = pa.field(98, default_factory=list, packed=False)
    unpacked_float: list[pa.float32] = pa.field(99, default_factory=list, packed=False)
    unpacked_double: list[float] = pa.field(100, default_factory=list, packed=False)
    unpacked_bool: list[bool] = pa.field(101, default_factory=list, packed=False)
    unpacked_nested_enum: list[TestAllTypesProto2_NestedEnum] = pa.field(
        102, default_factory=list, packed=False
    )
    map_int32_int32: dict[pa.int32, pa.int32] = pa.field(56, default_factory=dict)
    map_int64_int64: dict[int, int] = pa.field(57, default_factory=dict)
    map_uint32_uint32: dict[pa.uint32, pa.uint32] = pa.field(58, default_factory=dict)
    map_uint64_uint64: dict[pa.uint64, pa.uint64] = pa.field(59, default_factory=dict)
    map_sint32_sint32: dict[pa.sint32, pa.sint32] = pa.field(60, default_factory=dict)
    map_sint64_sint64: dict[pa.sint64, pa.sint64] = pa.field(61, default_factory=dict)
    map_fixed32_fixed32: dict[pa.fixed32, pa.fixed32] = pa.field(62, default_factory=dict)
    map_fixed64_fixed64: dict[pa.fixed64, pa.fixed64] = pa.field(63, default_factory=dict)
    map_sfixed32_sfixed32: dict[pa.sfixed32, pa.sfixed32] = pa.field(64, default_factory=dict)
    map_sfixed64_sfixed64: dict[pa.sfixed64, pa.sfixed64] = pa.field(65, default_factory=dict)
    map_int32_float: dict[pa.int32, pa.float32] = pa.field(66, default_factory=dict)
    map_int32_double: dict[pa.int32, float] = pa.field(67, default_factory=dict)
    map_bool_bool: dict[bool, bool] = pa.field(68, default_factory=dict)
    map_string_string: dict[str, str] = pa.field(69, default_factory=dict)
    map_string_bytes: dict[str, bytes] = pa.field(70, default_factory=dict)
    map_string_nested_message: dict[str, TestAllTypesProto2_NestedMessage] = pa.field(
        71, default_factory=dict
    )
    map_string_foreign_message: dict[str, ForeignMessageProto2] = pa.field(72, default_factory=dict)
    map_string_nested_enum: dict[str, TestAllTypesProto2_NestedEnum] = pa.field(
        73, default_factory=dict
    )
    map_string_foreign_enum: dict[str, ForeignEnumProto2] = pa.field(74, default_factory=dict)
    oneof_uint32: pa.uint32 | None = pa.field(111, default=None, oneof="oneof_field")
    oneof_nested_message: TestAllTypesProto2_NestedMessage | None = pa.field(
        112, default=None, oneof="oneof_field"
    )
    oneof_string: str | None = pa.field(113, default=None, oneof="oneof_field")
    oneof_bytes: bytes | None = pa.field(114, default=None, oneof="oneof_field")
    oneof_bool: bool | None = pa.field(115, default=None, oneof="oneof_field")
    oneof_uint64: pa.uint64 | None = pa.field(116, default=None, oneof="oneof_field")
    oneof_float: pa.float32 | None = pa.field(117, default=None, oneof="oneof_field")
    oneof_double: float | None = pa.field(118, default=None, oneof="oneof_field")
    oneof_enum: TestAllTypesProto2_NestedEnum | None = pa.field(
        119, default=None, oneof="oneof_field"
    )
    data: TestAllTypesProto2_Data | None = pa.field(201, default=None, group=True)
    default_int32: pa.int32 | None = pa.field(241, default=None)
    default_int64: int | None = pa.field(242, default=None)
    default_uint32: pa.uint32 | None = pa.field(243, default=None)
    default_uint64: pa.uint64 | None = pa.field(244, default=None)
    default_sint32: pa.sint32 | None = pa.field(245, default=None)
    default_sint64: pa.sint64 | None = pa.field(246, default=None)
    default_fixed32: pa.fixed32 | None = pa.field(247, default=None)
    default_fixed64: pa.fixed64 | None = pa.field(248, default=None)
    default_sfixed32: pa.sfixed32 | None = pa.field(249, default=None)
    default_sfixed64: pa.sfixed64 | None = pa.field(250, default=None)
    default_float: pa.float32 | None = pa.field(251, default=None)
    default_double: float | None = pa.field(252, default=None)
    default_bool: bool | None = pa.field(253, default=None)
    default_string: str | None = pa.field(254, default=None)
    default_bytes: bytes | None = pa.field(255, default=None)
    fieldname1: pa.int32 | None = pa.field(401, default=None)
    field_name2: pa.int32 | None = pa.field(402, default=None)
    _field_name3: pa.int32 | None = pa.field(403, default=None)
    field__name4_: pa.int32 | None = pa.field(404, default=None)
    field0name5: pa.int32 | None = pa.field(405, default=None)
    field_0_name6: pa.int32 | None = pa.field(406, default=None)
    fieldName7: pa.int32 | None = pa.field(407, default=None)
    FieldName8: pa.int32 | None = pa.field(408, default=None)
    field_Name9: pa.int32 | None = pa.field(409, default=None)
    Field_Name10: pa.int32 | None = pa.field(410, default=None)
    FIELD_NAME11: pa.int32 | None = pa.field(411, default=None)
    FIELD_name12: pa.int32 | None = pa.field(412, default=None)
    __field_name13: pa.int32 | None = pa.field(413, default=None, name="__field_name13")
    __Field_name14: pa.int32 | None = pa.field(414, default=None, name="__Field_name14")
    field__name15: pa.int32 | None = pa.field(415, default=None)
    field__Name16: pa.int32 | None = pa.field(416, default=None)
    field_name17__: pa.int32 | None = pa.field(417, default=None)
    Field_name18__: pa.int32 | None = pa.field(418, default=None)


@pa.proto_contract
@dataclass
class TestAllTypesProto2_NestedMessage:
    a: pa.int32 | None = pa.field(1, default=None)
    corecursive: TestAllTypesProto2 | None = pa.field(2, default=None)


@pa.proto_contract
@dataclass
class TestAllTypesProto2_Data:
    group_int32: pa.int32 | None = pa.field(202, default=None)
    group_uint32: pa.uint32 | None = pa.field(203, default=None)


@pa.proto_contract
@dataclass
class TestAllTypesProto2_MessageSetCorrect:
    pass


@pa.proto_contract
@dataclass
class TestAllTypesProto2_MessageSetCorrectExtension1:
    str: str | None = pa.field(25, default=None)


@pa.proto_contract
@dataclass
class TestAllTypesProto2_MessageSetCorrectExtension2:
    i: pa.int32 | None = pa.field(9, default=None)


@pa.proto_contract
@dataclass
class ForeignMessageProto2:
    c: pa.int32 | None = pa.field(1, default=None)


@pa.proto_contract
@dataclass
class UnknownToTestAllTypes:
    optional_int32: pa.int32 | None = pa.field(1001, default=None)
    optional_string: str | None = pa.field(1002, default=None)
    nested_message: ForeignMessageProto2 | None = pa.field(1003, default=None)
    optionalgroup: UnknownToTestAllTypes_OptionalGroup | None = pa.field(
        1004, default=None, group=True
    )
    optional_bool: bool | None = pa.field(1006, default=None)
    repeated_int32: list[pa.int32] = pa.field(1011, default_factory=list, packed=False)


@pa.proto_contract
@dataclass
class UnknownToTestAllTypes_OptionalGroup:
    a: pa.int32 | None = pa.field(1, default=None)


@pa.proto_contract
@dataclass
class NullHypothesisProto2:
    pass


@pa.proto_contract
@dataclass
class EnumOnlyProto2:
    pass


@pa.proto_contract
@dataclass
class OneStringProto2:
    data: str | None = pa.field(1, default=None)


if hasattr(pa, "extension"):  # EXTENSIONS HOOK (see above)
    extension_int32 = pa.extension(
        TestAllTypesProto2, 120, pa.int32, name="protobuf_test_messages.proto2.extension_int32"
    )
