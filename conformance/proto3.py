"""Twins of Google's ``TestAllTypesProto3`` and the messages it reaches
(``src/google/protobuf/test_messages_proto3.proto`` of protobuf v21.12), as protoattr contracts.

Written by ``protoattr gen test_messages_proto3.proto`` and then reviewed: the comments of the
``.proto`` are left out, and the two fields whose names Python would mangle inside
a class body (``__field_name13``, ``__Field_name14``) keep their protobuf names
with ``name=``.  Durations and timestamps are ``pa.Duration``/``pa.Timestamp``
(``gen`` writes ``timedelta``/``datetime``), which keep every value the suite sends.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import protoattr as pa

__protobuf_package__ = "protobuf_test_messages.proto3"


class TestAllTypesProto3_NestedEnum(enum.IntEnum):
    FOO = 0
    BAR = 1
    BAZ = 2
    NEG = -1


class TestAllTypesProto3_AliasedEnum(enum.IntEnum):
    ALIAS_FOO = 0
    ALIAS_BAR = 1
    ALIAS_BAZ = 2
    MOO = 2
    moo = 2
    bAz = 2


class EnumOnlyProto3_Bool(enum.IntEnum):
    kFalse = 0
    kTrue = 1


class ForeignEnum(enum.IntEnum):
    FOREIGN_FOO = 0
    FOREIGN_BAR = 1
    FOREIGN_BAZ = 2


@pa.proto_contract(reserved=(range(501, 511),))
@dataclass
class TestAllTypesProto3:
    optional_int32: pa.int32 = pa.field(1, default=0)
    optional_int64: int = pa.field(2, default=0)
    optional_uint32: pa.uint32 = pa.field(3, default=0)
    optional_uint64: pa.uint64 = pa.field(4, default=0)
    optional_sint32: pa.sint32 = pa.field(5, default=0)
    optional_sint64: pa.sint64 = pa.field(6, default=0)
    optional_fixed32: pa.fixed32 = pa.field(7, default=0)
    optional_fixed64: pa.fixed64 = pa.field(8, default=0)
    optional_sfixed32: pa.sfixed32 = pa.field(9, default=0)
    optional_sfixed64: pa.sfixed64 = pa.field(10, default=0)
    optional_float: pa.float32 = pa.field(11, default=0.0)
    optional_double: float = pa.field(12, default=0.0)
    optional_bool: bool = pa.field(13, default=False)
    optional_string: str = pa.field(14, default="")
    optional_bytes: bytes = pa.field(15, default=b"")
    optional_nested_message: TestAllTypesProto3_NestedMessage | None = pa.field(18, default=None)
    optional_foreign_message: ForeignMessage | None = pa.field(19, default=None)
    optional_nested_enum: TestAllTypesProto3_NestedEnum = pa.field(
        21, default=TestAllTypesProto3_NestedEnum.FOO
    )
    optional_foreign_enum: ForeignEnum = pa.field(22, default=ForeignEnum.FOREIGN_FOO)
    optional_aliased_enum: TestAllTypesProto3_AliasedEnum = pa.field(
        23, default=TestAllTypesProto3_AliasedEnum.ALIAS_FOO
    )
    optional_string_piece: str = pa.field(24, default="")
    optional_cord: str = pa.field(25, default="")
    recursive_message: TestAllTypesProto3 | None = pa.field(27, default=None)
    repeated_int32: list[pa.int32] = pa.field(31, default_factory=list)
    repeated_int64: list[int] = pa.field(32, default_factory=list)
    repeated_uint32: list[pa.uint32] = pa.field(33, default_factory=list)
    repeated_uint64: list[pa.uint64] = pa.field(34, default_factory=list)
    repeated_sint32: list[pa.sint32] = pa.field(35, default_factory=list)
    repeated_sint64: list[pa.sint64] = pa.field(36, default_factory=list)
    repeated_fixed32: list[pa.fixed32] = pa.field(37, default_factory=list)
    repeated_fixed64: list[pa.fixed64] = pa.field(38, default_factory=list)
    repeated_sfixed32: list[pa.sfixed32] = pa.field(39, default_factory=list)
    repeated_sfixed64: list[pa.sfixed64] = pa.field(40, default_factory=list)
    repeated_float: list[pa.float32] = pa.field(41, default_factory=list)
    repeated_double: list[float] = pa.field(42, default_factory=list)
    repeated_bool: list[bool] = pa.field(43, default_factory=list)
    repeated_string: list[str] = pa.field(44, default_factory=list)
    repeated_bytes: list[bytes] = pa.field(45, default_factory=list)
    repeated_nested_message: list[TestAllTypesProto3_NestedMessage] = pa.field(
        48, default_factory=list
    )
    repeated_foreign_message: list[ForeignMessage] = pa.field(49, default_factory=list)
    repeated_nested_enum: list[TestAllTypesProto3_NestedEnum] = pa.field(51, default_factory=list)
    repeated_foreign_enum: list[ForeignEnum] = pa.field(52, default_factory=list)
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
    packed_nested_enum: list[TestAllTypesProto3_NestedEnum] = pa.field(88, default_factory=list)
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
    unpacked_nested_enum: list[TestAllTypesProto3_NestedEnum] = pa.field(
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
    map_string_nested_message: dict[str, TestAllTypesProto3_NestedMessage] = pa.field(
        71, default_factory=dict
    )
    map_string_foreign_message: dict[str, ForeignMessage] = pa.field(72, default_factory=dict)
    map_string_nested_enum: dict[str, TestAllTypesProto3_NestedEnum] = pa.field(
        73, default_factory=dict
    )
    map_string_foreign_enum: dict[str, ForeignEnum] = pa.field(74, default_factory=dict)
    oneof_uint32: pa.uint32 | None = pa.field(111, default=None, oneof="oneof_field")
    oneof_nested_message: TestAllTypesProto3_NestedMessage | None = pa.field(
        112, default=None, oneof="oneof_field"
    )
    oneof_string: str | None = pa.field(113, default=None, oneof="oneof_field")
    oneof_bytes: bytes | None = pa.field(114, default=None, oneof="oneof_field")
    oneof_bool: bool | None = pa.field(115, default=None, oneof="oneof_field")
    oneof_uint64: pa.uint64 | None = pa.field(116, default=None, oneof="oneof_field")
    oneof_float: pa.float32 | None = pa.field(117, default=None, oneof="oneof_field")
    oneof_double: float | None = pa.field(118, default=None, oneof="oneof_field")
    oneof_enum: TestAllTypesProto3_NestedEnum | None = pa.field(
        119, default=None, oneof="oneof_field"
    )
    oneof_null_value: pa.NullValue | None = pa.field(120, default=None, oneof="oneof_field")
    optional_bool_wrapper: pa.wrappers.BoolValue = pa.field(201, default=None)
    optional_int32_wrapper: pa.wrappers.Int32Value = pa.field(202, default=None)
    optional_int64_wrapper: pa.wrappers.Int64Value = pa.field(203, default=None)
    optional_uint32_wrapper: pa.wrappers.UInt32Value = pa.field(204, default=None)
    optional_uint64_wrapper: pa.wrappers.UInt64Value = pa.field(205, default=None)
    optional_float_wrapper: pa.wrappers.FloatValue = pa.field(206, default=None)
    optional_double_wrapper: pa.wrappers.DoubleValue = pa.field(207, default=None)
    optional_string_wrapper: pa.wrappers.StringValue = pa.field(208, default=None)
    optional_bytes_wrapper: pa.wrappers.BytesValue = pa.field(209, default=None)
    repeated_bool_wrapper: list[pa.wrappers.BoolValue] = pa.field(211, default_factory=list)
    repeated_int32_wrapper: list[pa.wrappers.Int32Value] = pa.field(212, default_factory=list)
    repeated_int64_wrapper: list[pa.wrappers.Int64Value] = pa.field(213, default_factory=list)
    repeated_uint32_wrapper: list[pa.wrappers.UInt32Value] = pa.field(214, default_factory=list)
    repeated_uint64_wrapper: list[pa.wrappers.UInt64Value] = pa.field(215, default_factory=list)
    repeated_float_wrapper: list[pa.wrappers.FloatValue] = pa.field(216, default_factory=list)
    repeated_double_wrapper: list[pa.wrappers.DoubleValue] = pa.field(217, default_factory=list)
    repeated_string_wrapper: list[pa.wrappers.StringValue] = pa.field(218, default_factory=list)
    repeated_bytes_wrapper: list[pa.wrappers.BytesValue] = pa.field(219, default_factory=list)
    optional_duration: pa.Duration | None = pa.field(301, default=None)
    optional_timestamp: pa.Timestamp | None = pa.field(302, default=None)
    optional_field_mask: pa.FieldMask | None = pa.field(303, default=None)
    optional_struct: pa.Struct | None = pa.field(304, default=None)
    optional_any: pa.Any | None = pa.field(305, default=None)
    optional_value: pa.JsonValue = pa.field(306, default=None)
    optional_null_value: pa.NullValue = pa.field(307, default=pa.NullValue.NULL_VALUE)
    repeated_duration: list[pa.Duration] = pa.field(311, default_factory=list)
    repeated_timestamp: list[pa.Timestamp] = pa.field(312, default_factory=list)
    repeated_fieldmask: list[pa.FieldMask] = pa.field(313, default_factory=list)
    repeated_struct: list[pa.Struct] = pa.field(324, default_factory=list)
    repeated_any: list[pa.Any] = pa.field(315, default_factory=list)
    repeated_value: list[pa.JsonValue] = pa.field(316, default_factory=list)
    repeated_list_value: list[pa.ListValue] = pa.field(317, default_factory=list)
    fieldname1: pa.int32 = pa.field(401, default=0)
    field_name2: pa.int32 = pa.field(402, default=0)
    _field_name3: pa.int32 = pa.field(403, default=0)
    field__name4_: pa.int32 = pa.field(404, default=0)
    field0name5: pa.int32 = pa.field(405, default=0)
    field_0_name6: pa.int32 = pa.field(406, default=0)
    fieldName7: pa.int32 = pa.field(407, default=0)
    FieldName8: pa.int32 = pa.field(408, default=0)
    field_Name9: pa.int32 = pa.field(409, default=0)
    Field_Name10: pa.int32 = pa.field(410, default=0)
    FIELD_NAME11: pa.int32 = pa.field(411, default=0)
    FIELD_name12: pa.int32 = pa.field(412, default=0)
    __field_name13: pa.int32 = pa.field(413, default=0, name="__field_name13")
    __Field_name14: pa.int32 = pa.field(414, default=0, name="__Field_name14")
    field__name15: pa.int32 = pa.field(415, default=0)
    field__Name16: pa.int32 = pa.field(416, default=0)
    field_name17__: pa.int32 = pa.field(417, default=0)
    Field_name18__: pa.int32 = pa.field(418, default=0)


@pa.proto_contract
@dataclass
class TestAllTypesProto3_NestedMessage:
    a: pa.int32 = pa.field(1, default=0)
    corecursive: TestAllTypesProto3 | None = pa.field(2, default=None)


@pa.proto_contract
@dataclass
class ForeignMessage:
    c: pa.int32 = pa.field(1, default=0)


@pa.proto_contract
@dataclass
class NullHypothesisProto3:
    pass


@pa.proto_contract
@dataclass
class EnumOnlyProto3:
    pass
