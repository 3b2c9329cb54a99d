"""Twins of Google's ``TestAllTypesProto3`` and ``TestAllTypesProto2`` (the schemas of
protobuf's conformance and fuzz tests), as protoattr contracts and as ``.proto`` text.

Field numbers and kinds are Google's; what protoattr has no type for (wrappers,
``Any``, ``Struct``, ``FieldMask``, string pieces) is left out, so those numbers
decode as unknown fields on both sides.  Proto2's enums are closed and its
scalars ``Optional`` (explicit presence), as in Google's runtime.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Optional

import protoattr as pa
from protoattr import field, proto_contract

# ruff: noqa: UP045  (Optional[...] reads like the .proto's "optional")


class proto3NestedEnum(enum.IntEnum):
    FOO = 0
    BAR = 1
    BAZ = 2
    NEG = -1


class proto3ForeignEnum(enum.IntEnum):
    FOREIGN_FOO = 0
    FOREIGN_BAR = 1
    FOREIGN_BAZ = 2


@proto_contract(name="ForeignMessage")
@dataclass
class proto3ForeignMessage:
    c: pa.int32 = field(1, default=0)


@proto_contract(name="NestedMessage")
@dataclass
class proto3NestedMessage:
    a: pa.int32 = field(1, default=0)
    corecursive: Optional[TestAllTypesProto3] = field(2, default=None)


@proto_contract
@dataclass
class TestAllTypesProto3:
    optional_int32: pa.int32 = field(1, default=0)
    optional_int64: int = field(2, default=0)
    optional_uint32: pa.uint32 = field(3, default=0)
    optional_uint64: pa.uint64 = field(4, default=0)
    optional_sint32: pa.sint32 = field(5, default=0)
    optional_sint64: pa.sint64 = field(6, default=0)
    optional_fixed32: pa.fixed32 = field(7, default=0)
    optional_fixed64: pa.fixed64 = field(8, default=0)
    optional_sfixed32: pa.sfixed32 = field(9, default=0)
    optional_sfixed64: pa.sfixed64 = field(10, default=0)
    optional_float: pa.float32 = field(11, default=0.0)
    optional_double: float = field(12, default=0.0)
    optional_bool: bool = field(13, default=False)
    optional_string: str = field(14, default="")
    optional_bytes: bytes = field(15, default=b"")
    optional_nested_message: Optional[proto3NestedMessage] = field(18, default=None)
    optional_foreign_message: Optional[proto3ForeignMessage] = field(19, default=None)
    optional_nested_enum: proto3NestedEnum = field(21, default=proto3NestedEnum.FOO)
    optional_foreign_enum: proto3ForeignEnum = field(22, default=proto3ForeignEnum.FOREIGN_FOO)
    recursive_message: Optional[TestAllTypesProto3] = field(27, default=None)
    repeated_int32: list[pa.int32] = field(31, default_factory=list)
    repeated_int64: list[int] = field(32, default_factory=list)
    repeated_uint32: list[pa.uint32] = field(33, default_factory=list)
    repeated_uint64: list[pa.uint64] = field(34, default_factory=list)
    repeated_sint32: list[pa.sint32] = field(35, default_factory=list)
    repeated_sint64: list[pa.sint64] = field(36, default_factory=list)
    repeated_fixed32: list[pa.fixed32] = field(37, default_factory=list)
    repeated_fixed64: list[pa.fixed64] = field(38, default_factory=list)
    repeated_sfixed32: list[pa.sfixed32] = field(39, default_factory=list)
    repeated_sfixed64: list[pa.sfixed64] = field(40, default_factory=list)
    repeated_float: list[pa.float32] = field(41, default_factory=list)
    repeated_double: list[float] = field(42, default_factory=list)
    repeated_bool: list[bool] = field(43, default_factory=list)
    repeated_string: list[str] = field(44, default_factory=list)
    repeated_bytes: list[bytes] = field(45, default_factory=list)
    repeated_nested_message: list[proto3NestedMessage] = field(48, default_factory=list)
    repeated_foreign_message: list[proto3ForeignMessage] = field(49, default_factory=list)
    repeated_nested_enum: list[proto3NestedEnum] = field(51, default_factory=list)
    repeated_foreign_enum: list[proto3ForeignEnum] = field(52, default_factory=list)
    packed_int32: list[pa.int32] = field(75, default_factory=list, packed=True)
    packed_int64: list[int] = field(76, default_factory=list, packed=True)
    packed_uint32: list[pa.uint32] = field(77, default_factory=list, packed=True)
    packed_uint64: list[pa.uint64] = field(78, default_factory=list, packed=True)
    packed_sint32: list[pa.sint32] = field(79, default_factory=list, packed=True)
    packed_sint64: list[pa.sint64] = field(80, default_factory=list, packed=True)
    packed_fixed32: list[pa.fixed32] = field(81, default_factory=list, packed=True)
    packed_fixed64: list[pa.fixed64] = field(82, default_factory=list, packed=True)
    packed_sfixed32: list[pa.sfixed32] = field(83, default_factory=list, packed=True)
    packed_sfixed64: list[pa.sfixed64] = field(84, default_factory=list, packed=True)
    packed_float: list[pa.float32] = field(85, default_factory=list, packed=True)
    packed_double: list[float] = field(86, default_factory=list, packed=True)
    packed_bool: list[bool] = field(87, default_factory=list, packed=True)
    packed_nested_enum: list[proto3NestedEnum] = field(88, default_factory=list, packed=True)
    unpacked_int32: list[pa.int32] = field(89, default_factory=list, packed=False)
    unpacked_int64: list[int] = field(90, default_factory=list, packed=False)
    unpacked_uint32: list[pa.uint32] = field(91, default_factory=list, packed=False)
    unpacked_uint64: list[pa.uint64] = field(92, default_factory=list, packed=False)
    unpacked_sint32: list[pa.sint32] = field(93, default_factory=list, packed=False)
    unpacked_sint64: list[pa.sint64] = field(94, default_factory=list, packed=False)
    unpacked_fixed32: list[pa.fixed32] = field(95, default_factory=list, packed=False)
    unpacked_fixed64: list[pa.fixed64] = field(96, default_factory=list, packed=False)
    unpacked_sfixed32: list[pa.sfixed32] = field(97, default_factory=list, packed=False)
    unpacked_sfixed64: list[pa.sfixed64] = field(98, default_factory=list, packed=False)
    unpacked_float: list[pa.float32] = field(99, default_factory=list, packed=False)
    unpacked_double: list[float] = field(100, default_factory=list, packed=False)
    unpacked_bool: list[bool] = field(101, default_factory=list, packed=False)
    unpacked_nested_enum: list[proto3NestedEnum] = field(102, default_factory=list, packed=False)
    map_int32_int32: dict[pa.int32, pa.int32] = field(56, default_factory=dict)
    map_int64_int64: dict[int, int] = field(57, default_factory=dict)
    map_uint32_uint32: dict[pa.uint32, pa.uint32] = field(58, default_factory=dict)
    map_uint64_uint64: dict[pa.uint64, pa.uint64] = field(59, default_factory=dict)
    map_sint32_sint32: dict[pa.sint32, pa.sint32] = field(60, default_factory=dict)
    map_sint64_sint64: dict[pa.sint64, pa.sint64] = field(61, default_factory=dict)
    map_fixed32_fixed32: dict[pa.fixed32, pa.fixed32] = field(62, default_factory=dict)
    map_fixed64_fixed64: dict[pa.fixed64, pa.fixed64] = field(63, default_factory=dict)
    map_sfixed32_sfixed32: dict[pa.sfixed32, pa.sfixed32] = field(64, default_factory=dict)
    map_sfixed64_sfixed64: dict[pa.sfixed64, pa.sfixed64] = field(65, default_factory=dict)
    map_int32_float: dict[pa.int32, pa.float32] = field(66, default_factory=dict)
    map_int32_double: dict[pa.int32, float] = field(67, default_factory=dict)
    map_bool_bool: dict[bool, bool] = field(68, default_factory=dict)
    map_string_string: dict[str, str] = field(69, default_factory=dict)
    map_string_bytes: dict[str, bytes] = field(70, default_factory=dict)
    map_string_nested_message: dict[str, proto3NestedMessage] = field(71, default_factory=dict)
    map_string_foreign_message: dict[str, proto3ForeignMessage] = field(72, default_factory=dict)
    map_string_nested_enum: dict[str, proto3NestedEnum] = field(73, default_factory=dict)
    map_string_foreign_enum: dict[str, proto3ForeignEnum] = field(74, default_factory=dict)
    oneof_uint32: Optional[pa.uint32] = field(111, default=None, oneof="oneof_field")
    oneof_nested_message: Optional[proto3NestedMessage] = field(
        112, default=None, oneof="oneof_field"
    )
    oneof_string: Optional[str] = field(113, default=None, oneof="oneof_field")
    oneof_bytes: Optional[bytes] = field(114, default=None, oneof="oneof_field")
    oneof_bool: Optional[bool] = field(115, default=None, oneof="oneof_field")
    oneof_uint64: Optional[pa.uint64] = field(116, default=None, oneof="oneof_field")
    oneof_float: Optional[pa.float32] = field(117, default=None, oneof="oneof_field")
    oneof_double: Optional[float] = field(118, default=None, oneof="oneof_field")
    oneof_enum: Optional[proto3NestedEnum] = field(119, default=None, oneof="oneof_field")
    optional_duration: Optional[timedelta] = field(301, default=None)
    optional_timestamp: Optional[datetime] = field(302, default=None)
    repeated_duration: list[timedelta] = field(311, default_factory=list)
    repeated_timestamp: list[datetime] = field(312, default_factory=list)


PROTO3 = """
syntax = "proto3";

import "google/protobuf/duration.proto";
import "google/protobuf/timestamp.proto";

message TestAllTypesProto3 {
  message NestedMessage {
    int32 a = 1;
    TestAllTypesProto3 corecursive = 2;
  }
  enum NestedEnum {
    FOO = 0;
    BAR = 1;
    BAZ = 2;
    NEG = -1;
  }
  int32 optional_int32 = 1;
  int64 optional_int64 = 2;
  uint32 optional_uint32 = 3;
  uint64 optional_uint64 = 4;
  sint32 optional_sint32 = 5;
  sint64 optional_sint64 = 6;
  fixed32 optional_fixed32 = 7;
  fixed64 optional_fixed64 = 8;
  sfixed32 optional_sfixed32 = 9;
  sfixed64 optional_sfixed64 = 10;
  float optional_float = 11;
  double optional_double = 12;
  bool optional_bool = 13;
  string optional_string = 14;
  bytes optional_bytes = 15;
  NestedMessage optional_nested_message = 18;
  ForeignMessage optional_foreign_message = 19;
  NestedEnum optional_nested_enum = 21;
  ForeignEnum optional_foreign_enum = 22;
  TestAllTypesProto3 recursive_message = 27;
  repeated int32 repeated_int32 = 31;
  repeated int64 repeated_int64 = 32;
  repeated uint32 repeated_uint32 = 33;
  repeated uint64 repeated_uint64 = 34;
  repeated sint32 repeated_sint32 = 35;
  repeated sint64 repeated_sint64 = 36;
  repeated fixed32 repeated_fixed32 = 37;
  repeated fixed64 repeated_fixed64 = 38;
  repeated sfixed32 repeated_sfixed32 = 39;
  repeated sfixed64 repeated_sfixed64 = 40;
  repeated float repeated_float = 41;
  repeated double repeated_double = 42;
  repeated bool repeated_bool = 43;
  repeated string repeated_string = 44;
  repeated bytes repeated_bytes = 45;
  repeated NestedMessage repeated_nested_message = 48;
  repeated ForeignMessage repeated_foreign_message = 49;
  repeated NestedEnum repeated_nested_enum = 51;
  repeated ForeignEnum repeated_foreign_enum = 52;
  repeated int32 packed_int32 = 75 [packed = true];
  repeated int64 packed_int64 = 76 [packed = true];
  repeated uint32 packed_uint32 = 77 [packed = true];
  repeated uint64 packed_uint64 = 78 [packed = true];
  repeated sint32 packed_sint32 = 79 [packed = true];
  repeated sint64 packed_sint64 = 80 [packed = true];
  repeated fixed32 packed_fixed32 = 81 [packed = true];
  repeated fixed64 packed_fixed64 = 82 [packed = true];
  repeated sfixed32 packed_sfixed32 = 83 [packed = true];
  repeated sfixed64 packed_sfixed64 = 84 [packed = true];
  repeated float packed_float = 85 [packed = true];
  repeated double packed_double = 86 [packed = true];
  repeated bool packed_bool = 87 [packed = true];
  repeated NestedEnum packed_nested_enum = 88 [packed = true];
  repeated int32 unpacked_int32 = 89 [packed = false];
  repeated int64 unpacked_int64 = 90 [packed = false];
  repeated uint32 unpacked_uint32 = 91 [packed = false];
  repeated uint64 unpacked_uint64 = 92 [packed = false];
  repeated sint32 unpacked_sint32 = 93 [packed = false];
  repeated sint64 unpacked_sint64 = 94 [packed = false];
  repeated fixed32 unpacked_fixed32 = 95 [packed = false];
  repeated fixed64 unpacked_fixed64 = 96 [packed = false];
  repeated sfixed32 unpacked_sfixed32 = 97 [packed = false];
  repeated sfixed64 unpacked_sfixed64 = 98 [packed = false];
  repeated float unpacked_float = 99 [packed = false];
  repeated double unpacked_double = 100 [packed = false];
  repeated bool unpacked_bool = 101 [packed = false];
  repeated NestedEnum unpacked_nested_enum = 102 [packed = false];
  map<int32, int32> map_int32_int32 = 56;
  map<int64, int64> map_int64_int64 = 57;
  map<uint32, uint32> map_uint32_uint32 = 58;
  map<uint64, uint64> map_uint64_uint64 = 59;
  map<sint32, sint32> map_sint32_sint32 = 60;
  map<sint64, sint64> map_sint64_sint64 = 61;
  map<fixed32, fixed32> map_fixed32_fixed32 = 62;
  map<fixed64, fixed64> map_fixed64_fixed64 = 63;
  map<sfixed32, sfixed32> map_sfixed32_sfixed32 = 64;
  map<sfixed64, sfixed64> map_sfixed64_sfixed64 = 65;
  map<int32, float> map_int32_float = 66;
  map<int32, double> map_int32_double = 67;
  map<bool, bool> map_bool_bool = 68;
  map<string, string> map_string_string = 69;
  map<string, bytes> map_string_bytes = 70;
  map<string, NestedMessage> map_string_nested_message = 71;
  map<string, ForeignMessage> map_string_foreign_message = 72;
  map<string, NestedEnum> map_string_nested_enum = 73;
  map<string, ForeignEnum> map_string_foreign_enum = 74;
  oneof oneof_field {
    uint32 oneof_uint32 = 111;
    NestedMessage oneof_nested_message = 112;
    string oneof_string = 113;
    bytes oneof_bytes = 114;
    bool oneof_bool = 115;
    uint64 oneof_uint64 = 116;
    float oneof_float = 117;
    double oneof_double = 118;
    NestedEnum oneof_enum = 119;
  }
  google.protobuf.Duration optional_duration = 301;
  google.protobuf.Timestamp optional_timestamp = 302;
  repeated google.protobuf.Duration repeated_duration = 311;
  repeated google.protobuf.Timestamp repeated_timestamp = 312;
}

message ForeignMessage {
  int32 c = 1;
}

enum ForeignEnum {
  FOREIGN_FOO = 0;
  FOREIGN_BAR = 1;
  FOREIGN_BAZ = 2;
}
"""


@pa.closed_enum
class proto2NestedEnum(enum.IntEnum):
    FOO = 0
    BAR = 1
    BAZ = 2
    NEG = -1


@pa.closed_enum
class proto2ForeignEnum(enum.IntEnum):
    FOREIGN_FOO = 0
    FOREIGN_BAR = 1
    FOREIGN_BAZ = 2


@proto_contract(name="ForeignMessage")
@dataclass
class proto2ForeignMessage:
    c: Optional[pa.int32] = field(1, default=None)


@proto_contract(name="NestedMessage")
@dataclass
class proto2NestedMessage:
    a: Optional[pa.int32] = field(1, default=None)
    corecursive: Optional[TestAllTypesProto2] = field(2, default=None)


@proto_contract(name="Data")
@dataclass
class proto2Data:
    group_int32: Optional[pa.int32] = field(202, default=None)
    group_uint32: Optional[pa.uint32] = field(203, default=None)


@proto_contract
@dataclass
class TestAllTypesProto2:
    optional_int32: Optional[pa.int32] = field(1, default=None)
    optional_int64: Optional[int] = field(2, default=None)
    optional_uint32: Optional[pa.uint32] = field(3, default=None)
    optional_uint64: Optional[pa.uint64] = field(4, default=None)
    optional_sint32: Optional[pa.sint32] = field(5, default=None)
    optional_sint64: Optional[pa.sint64] = field(6, default=None)
    optional_fixed32: Optional[pa.fixed32] = field(7, default=None)
    optional_fixed64: Optional[pa.fixed64] = field(8, default=None)
    optional_sfixed32: Optional[pa.sfixed32] = field(9, default=None)
    optional_sfixed64: Optional[pa.sfixed64] = field(10, default=None)
    optional_float: Optional[pa.float32] = field(11, default=None)
    optional_double: Optional[float] = field(12, default=None)
    optional_bool: Optional[bool] = field(13, default=None)
    optional_string: Optional[str] = field(14, default=None)
    optional_bytes: Optional[bytes] = field(15, default=None)
    optional_nested_message: Optional[proto2NestedMessage] = field(18, default=None)
    optional_foreign_message: Optional[proto2ForeignMessage] = field(19, default=None)
    optional_nested_enum: Optional[proto2NestedEnum] = field(21, default=None)
    optional_foreign_enum: Optional[proto2ForeignEnum] = field(22, default=None)
    recursive_message: Optional[TestAllTypesProto2] = field(27, default=None)
    repeated_int32: list[pa.int32] = field(31, default_factory=list, packed=False)
    repeated_int64: list[int] = field(32, default_factory=list, packed=False)
    repeated_uint32: list[pa.uint32] = field(33, default_factory=list, packed=False)
    repeated_uint64: list[pa.uint64] = field(34, default_factory=list, packed=False)
    repeated_sint32: list[pa.sint32] = field(35, default_factory=list, packed=False)
    repeated_sint64: list[pa.sint64] = field(36, default_factory=list, packed=False)
    repeated_fixed32: list[pa.fixed32] = field(37, default_factory=list, packed=False)
    repeated_fixed64: list[pa.fixed64] = field(38, default_factory=list, packed=False)
    repeated_sfixed32: list[pa.sfixed32] = field(39, default_factory=list, packed=False)
    repeated_sfixed64: list[pa.sfixed64] = field(40, default_factory=list, packed=False)
    repeated_float: list[pa.float32] = field(41, default_factory=list, packed=False)
    repeated_double: list[float] = field(42, default_factory=list, packed=False)
    repeated_bool: list[bool] = field(43, default_factory=list, packed=False)
    repeated_string: list[str] = field(44, default_factory=list)
    repeated_bytes: list[bytes] = field(45, default_factory=list)
    repeated_nested_message: list[proto2NestedMessage] = field(48, default_factory=list)
    repeated_foreign_message: list[proto2ForeignMessage] = field(49, default_factory=list)
    repeated_nested_enum: list[proto2NestedEnum] = field(51, default_factory=list, packed=False)
    repeated_foreign_enum: list[proto2ForeignEnum] = field(52, default_factory=list, packed=False)
    packed_int32: list[pa.int32] = field(75, default_factory=list, packed=True)
    packed_int64: list[int] = field(76, default_factory=list, packed=True)
    packed_uint32: list[pa.uint32] = field(77, default_factory=list, packed=True)
    packed_uint64: list[pa.uint64] = field(78, default_factory=list, packed=True)
    packed_sint32: list[pa.sint32] = field(79, default_factory=list, packed=True)
    packed_sint64: list[pa.sint64] = field(80, default_factory=list, packed=True)
    packed_fixed32: list[pa.fixed32] = field(81, default_factory=list, packed=True)
    packed_fixed64: list[pa.fixed64] = field(82, default_factory=list, packed=True)
    packed_sfixed32: list[pa.sfixed32] = field(83, default_factory=list, packed=True)
    packed_sfixed64: list[pa.sfixed64] = field(84, default_factory=list, packed=True)
    packed_float: list[pa.float32] = field(85, default_factory=list, packed=True)
    packed_double: list[float] = field(86, default_factory=list, packed=True)
    packed_bool: list[bool] = field(87, default_factory=list, packed=True)
    packed_nested_enum: list[proto2NestedEnum] = field(88, default_factory=list, packed=True)
    unpacked_int32: list[pa.int32] = field(89, default_factory=list, packed=False)
    unpacked_int64: list[int] = field(90, default_factory=list, packed=False)
    unpacked_uint32: list[pa.uint32] = field(91, default_factory=list, packed=False)
    unpacked_uint64: list[pa.uint64] = field(92, default_factory=list, packed=False)
    unpacked_sint32: list[pa.sint32] = field(93, default_factory=list, packed=False)
    unpacked_sint64: list[pa.sint64] = field(94, default_factory=list, packed=False)
    unpacked_fixed32: list[pa.fixed32] = field(95, default_factory=list, packed=False)
    unpacked_fixed64: list[pa.fixed64] = field(96, default_factory=list, packed=False)
    unpacked_sfixed32: list[pa.sfixed32] = field(97, default_factory=list, packed=False)
    unpacked_sfixed64: list[pa.sfixed64] = field(98, default_factory=list, packed=False)
    unpacked_float: list[pa.float32] = field(99, default_factory=list, packed=False)
    unpacked_double: list[float] = field(100, default_factory=list, packed=False)
    unpacked_bool: list[bool] = field(101, default_factory=list, packed=False)
    unpacked_nested_enum: list[proto2NestedEnum] = field(102, default_factory=list, packed=False)
    map_int32_int32: dict[pa.int32, pa.int32] = field(56, default_factory=dict)
    map_int64_int64: dict[int, int] = field(57, default_factory=dict)
    map_uint32_uint32: dict[pa.uint32, pa.uint32] = field(58, default_factory=dict)
    map_uint64_uint64: dict[pa.uint64, pa.uint64] = field(59, default_factory=dict)
    map_sint32_sint32: dict[pa.sint32, pa.sint32] = field(60, default_factory=dict)
    map_sint64_sint64: dict[pa.sint64, pa.sint64] = field(61, default_factory=dict)
    map_fixed32_fixed32: dict[pa.fixed32, pa.fixed32] = field(62, default_factory=dict)
    map_fixed64_fixed64: dict[pa.fixed64, pa.fixed64] = field(63, default_factory=dict)
    map_sfixed32_sfixed32: dict[pa.sfixed32, pa.sfixed32] = field(64, default_factory=dict)
    map_sfixed64_sfixed64: dict[pa.sfixed64, pa.sfixed64] = field(65, default_factory=dict)
    map_int32_float: dict[pa.int32, pa.float32] = field(66, default_factory=dict)
    map_int32_double: dict[pa.int32, float] = field(67, default_factory=dict)
    map_bool_bool: dict[bool, bool] = field(68, default_factory=dict)
    map_string_string: dict[str, str] = field(69, default_factory=dict)
    map_string_bytes: dict[str, bytes] = field(70, default_factory=dict)
    map_string_nested_message: dict[str, proto2NestedMessage] = field(71, default_factory=dict)
    map_string_foreign_message: dict[str, proto2ForeignMessage] = field(72, default_factory=dict)
    map_string_nested_enum: dict[str, proto2NestedEnum] = field(73, default_factory=dict)
    map_string_foreign_enum: dict[str, proto2ForeignEnum] = field(74, default_factory=dict)
    oneof_uint32: Optional[pa.uint32] = field(111, default=None, oneof="oneof_field")
    oneof_nested_message: Optional[proto2NestedMessage] = field(
        112, default=None, oneof="oneof_field"
    )
    oneof_string: Optional[str] = field(113, default=None, oneof="oneof_field")
    oneof_bytes: Optional[bytes] = field(114, default=None, oneof="oneof_field")
    oneof_bool: Optional[bool] = field(115, default=None, oneof="oneof_field")
    oneof_uint64: Optional[pa.uint64] = field(116, default=None, oneof="oneof_field")
    oneof_float: Optional[pa.float32] = field(117, default=None, oneof="oneof_field")
    oneof_double: Optional[float] = field(118, default=None, oneof="oneof_field")
    oneof_enum: Optional[proto2NestedEnum] = field(119, default=None, oneof="oneof_field")
    data: Optional[proto2Data] = field(201, default=None, group=True)
    optional_duration: Optional[timedelta] = field(301, default=None)
    optional_timestamp: Optional[datetime] = field(302, default=None)
    repeated_duration: list[timedelta] = field(311, default_factory=list)
    repeated_timestamp: list[datetime] = field(312, default_factory=list)


PROTO2 = """
syntax = "proto2";

import "google/protobuf/duration.proto";
import "google/protobuf/timestamp.proto";

message TestAllTypesProto2 {
  message NestedMessage {
    optional int32 a = 1;
    optional TestAllTypesProto2 corecursive = 2;
  }
  enum NestedEnum {
    FOO = 0;
    BAR = 1;
    BAZ = 2;
    NEG = -1;
  }
  optional int32 optional_int32 = 1;
  optional int64 optional_int64 = 2;
  optional uint32 optional_uint32 = 3;
  optional uint64 optional_uint64 = 4;
  optional sint32 optional_sint32 = 5;
  optional sint64 optional_sint64 = 6;
  optional fixed32 optional_fixed32 = 7;
  optional fixed64 optional_fixed64 = 8;
  optional sfixed32 optional_sfixed32 = 9;
  optional sfixed64 optional_sfixed64 = 10;
  optional float optional_float = 11;
  optional double optional_double = 12;
  optional bool optional_bool = 13;
  optional string optional_string = 14;
  optional bytes optional_bytes = 15;
  optional NestedMessage optional_nested_message = 18;
  optional ForeignMessage optional_foreign_message = 19;
  optional NestedEnum optional_nested_enum = 21;
  optional ForeignEnum optional_foreign_enum = 22;
  optional TestAllTypesProto2 recursive_message = 27;
  repeated int32 repeated_int32 = 31 [packed = false];
  repeated int64 repeated_int64 = 32 [packed = false];
  repeated uint32 repeated_uint32 = 33 [packed = false];
  repeated uint64 repeated_uint64 = 34 [packed = false];
  repeated sint32 repeated_sint32 = 35 [packed = false];
  repeated sint64 repeated_sint64 = 36 [packed = false];
  repeated fixed32 repeated_fixed32 = 37 [packed = false];
  repeated fixed64 repeated_fixed64 = 38 [packed = false];
  repeated sfixed32 repeated_sfixed32 = 39 [packed = false];
  repeated sfixed64 repeated_sfixed64 = 40 [packed = false];
  repeated float repeated_float = 41 [packed = false];
  repeated double repeated_double = 42 [packed = false];
  repeated bool repeated_bool = 43 [packed = false];
  repeated string repeated_string = 44;
  repeated bytes repeated_bytes = 45;
  repeated NestedMessage repeated_nested_message = 48;
  repeated ForeignMessage repeated_foreign_message = 49;
  repeated NestedEnum repeated_nested_enum = 51 [packed = false];
  repeated ForeignEnum repeated_foreign_enum = 52 [packed = false];
  repeated int32 packed_int32 = 75 [packed = true];
  repeated int64 packed_int64 = 76 [packed = true];
  repeated uint32 packed_uint32 = 77 [packed = true];
  repeated uint64 packed_uint64 = 78 [packed = true];
  repeated sint32 packed_sint32 = 79 [packed = true];
  repeated sint64 packed_sint64 = 80 [packed = true];
  repeated fixed32 packed_fixed32 = 81 [packed = true];
  repeated fixed64 packed_fixed64 = 82 [packed = true];
  repeated sfixed32 packed_sfixed32 = 83 [packed = true];
  repeated sfixed64 packed_sfixed64 = 84 [packed = true];
  repeated float packed_float = 85 [packed = true];
  repeated double packed_double = 86 [packed = true];
  repeated bool packed_bool = 87 [packed = true];
  repeated NestedEnum packed_nested_enum = 88 [packed = true];
  repeated int32 unpacked_int32 = 89 [packed = false];
  repeated int64 unpacked_int64 = 90 [packed = false];
  repeated uint32 unpacked_uint32 = 91 [packed = false];
  repeated uint64 unpacked_uint64 = 92 [packed = false];
  repeated sint32 unpacked_sint32 = 93 [packed = false];
  repeated sint64 unpacked_sint64 = 94 [packed = false];
  repeated fixed32 unpacked_fixed32 = 95 [packed = false];
  repeated fixed64 unpacked_fixed64 = 96 [packed = false];
  repeated sfixed32 unpacked_sfixed32 = 97 [packed = false];
  repeated sfixed64 unpacked_sfixed64 = 98 [packed = false];
  repeated float unpacked_float = 99 [packed = false];
  repeated double unpacked_double = 100 [packed = false];
  repeated bool unpacked_bool = 101 [packed = false];
  repeated NestedEnum unpacked_nested_enum = 102 [packed = false];
  map<int32, int32> map_int32_int32 = 56;
  map<int64, int64> map_int64_int64 = 57;
  map<uint32, uint32> map_uint32_uint32 = 58;
  map<uint64, uint64> map_uint64_uint64 = 59;
  map<sint32, sint32> map_sint32_sint32 = 60;
  map<sint64, sint64> map_sint64_sint64 = 61;
  map<fixed32, fixed32> map_fixed32_fixed32 = 62;
  map<fixed64, fixed64> map_fixed64_fixed64 = 63;
  map<sfixed32, sfixed32> map_sfixed32_sfixed32 = 64;
  map<sfixed64, sfixed64> map_sfixed64_sfixed64 = 65;
  map<int32, float> map_int32_float = 66;
  map<int32, double> map_int32_double = 67;
  map<bool, bool> map_bool_bool = 68;
  map<string, string> map_string_string = 69;
  map<string, bytes> map_string_bytes = 70;
  map<string, NestedMessage> map_string_nested_message = 71;
  map<string, ForeignMessage> map_string_foreign_message = 72;
  map<string, NestedEnum> map_string_nested_enum = 73;
  map<string, ForeignEnum> map_string_foreign_enum = 74;
  oneof oneof_field {
    uint32 oneof_uint32 = 111;
    NestedMessage oneof_nested_message = 112;
    string oneof_string = 113;
    bytes oneof_bytes = 114;
    bool oneof_bool = 115;
    uint64 oneof_uint64 = 116;
    float oneof_float = 117;
    double oneof_double = 118;
    NestedEnum oneof_enum = 119;
  }
  optional group Data = 201 {
    optional int32 group_int32 = 202;
    optional uint32 group_uint32 = 203;
  }
  optional google.protobuf.Duration optional_duration = 301;
  optional google.protobuf.Timestamp optional_timestamp = 302;
  repeated google.protobuf.Duration repeated_duration = 311;
  repeated google.protobuf.Timestamp repeated_timestamp = 312;
}

message ForeignMessage {
  optional int32 c = 1;
}

enum ForeignEnum {
  FOREIGN_FOO = 0;
  FOREIGN_BAR = 1;
  FOREIGN_BAZ = 2;
}
"""
