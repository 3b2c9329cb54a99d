"""Contracts shared by the foundation tests, with their ``.proto`` twins.

They live at module level so that forward references (``list["Node"]``, the
mutually recursive ``Forest``/``Tree``) resolve the way they do in user code.
Each ``*_PROTO`` string is the schema Google's runtime uses for the same
messages; tests compile it with :func:`tests.protoc.compile_proto` (the
helpers at the bottom do that once per schema).
"""

# protoattr.field() returns a dataclasses.Field, like dataclasses.field(), but
# ruff cannot know that.

from __future__ import annotations

import dataclasses
import enum
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from types import ModuleType
from typing import Any

import attrs
from google.protobuf.message import Message

import protoattr as pa
from protoattr import field, proto_contract
from tests.protoc import compile_proto

UTC = timezone.utc

# --------------------------------------------------------------- seed 000: Task


class TaskPriority(enum.IntEnum):
    LOW = 0
    MEDIUM = 1
    HIGH = 2


@proto_contract
@dataclass
class Task:
    id: pa.int32 = field(1)
    created_at: datetime = field(2)
    created_by: str = field(3)
    priority: TaskPriority = field(4)
    content: str = field(5, default="")
    tags: list[str] = field(6, default_factory=list)


TASK_PROTO = """
syntax = "proto3";
package seed000;
import "google/protobuf/timestamp.proto";

enum TaskPriority {
  LOW = 0;
  MEDIUM = 1;
  HIGH = 2;
}

message Task {
  int32 id = 1;
  google.protobuf.Timestamp created_at = 2;
  string created_by = 3;
  TaskPriority priority = 4;
  string content = 5;
  repeated string tags = 6;
}

message TaskList {
  repeated Task tasks = 1;
}
"""

# --------------------------------------------------------------- seed 002: Book


@proto_contract
@dataclass
class Book:
    isbn: str = field(1, default="")
    title: str = field(2, default="")
    author: str = field(3, default="")
    pagecount: pa.int32 = field(4, default=0)


# The seed's own schema, verbatim: edition 2023 (explicit presence by default).
BOOK_PROTO = """
edition = "2023";

message Book {
  string isbn = 1;
  string title = 2;
  string author = 3;
  int32 pagecount = 4;
}
"""

BOOK_PROTO3 = """
syntax = "proto3";

message Book {
  string isbn = 1;
  string title = 2;
  string author = 3;
  int32 pagecount = 4;
}
"""

# ------------------------------------------------------ every kind of field


class Color(enum.IntEnum):
    COLOR_ZERO = 0
    RED = 1
    GREEN = 2
    NEGATIVE = -7


@proto_contract
@dataclass
class Inner:
    a: pa.int32 = field(1, default=0)
    s: str = field(2, default="")


@proto_contract
@dataclass
class Scalars:
    """One singular field of every kind (proto3 implicit presence for scalars)."""

    i32: pa.int32 = field(1, default=0)
    i64: pa.int64 = field(2, default=0)
    u32: pa.uint32 = field(3, default=0)
    u64: pa.uint64 = field(4, default=0)
    s32: pa.sint32 = field(5, default=0)
    s64: pa.sint64 = field(6, default=0)
    f32: pa.fixed32 = field(7, default=0)
    f64: pa.fixed64 = field(8, default=0)
    sf32: pa.sfixed32 = field(9, default=0)
    sf64: pa.sfixed64 = field(10, default=0)
    fl: pa.float32 = field(11, default=0.0)
    db: float = field(12, default=0.0)
    flag: bool = field(13, default=False)
    text: str = field(14, default="")
    data: bytes = field(15, default=b"")
    color: Color = field(16, default=Color.COLOR_ZERO)
    inner: Inner | None = field(17, default=None)
    ts: datetime | None = field(18, default=None)
    dur: timedelta | None = field(19, default=None)
    plain: int = field(20, default=0)


@proto_contract
@dataclass
class Repeats:
    """Every kind repeated; numeric kinds and enums packed by default."""

    i32: list[pa.int32] = field(1, default_factory=list)
    i64: list[pa.int64] = field(2, default_factory=list)
    u32: list[pa.uint32] = field(3, default_factory=list)
    u64: list[pa.uint64] = field(4, default_factory=list)
    s32: list[pa.sint32] = field(5, default_factory=list)
    s64: list[pa.sint64] = field(6, default_factory=list)
    f32: list[pa.fixed32] = field(7, default_factory=list)
    f64: list[pa.fixed64] = field(8, default_factory=list)
    sf32: list[pa.sfixed32] = field(9, default_factory=list)
    sf64: list[pa.sfixed64] = field(10, default_factory=list)
    fl: list[pa.float32] = field(11, default_factory=list)
    db: list[float] = field(12, default_factory=list)
    flag: list[bool] = field(13, default_factory=list)
    text: list[str] = field(14, default_factory=list)
    data: list[bytes] = field(15, default_factory=list)
    color: list[Color] = field(16, default_factory=list)
    inner: list[Inner] = field(17, default_factory=list)
    ts: list[datetime] = field(18, default_factory=list)
    dur: list[timedelta] = field(19, default_factory=list)
    plain: list[int] = field(20, default_factory=list)


@proto_contract
@dataclass
class Unpacked:
    """Repeated numeric kinds with ``packed=False``; also the tuple and Sequence forms."""

    i32: list[pa.int32] = field(1, default_factory=list, packed=False)
    i64: tuple[pa.int64, ...] = field(2, default=(), packed=False)
    u32: Sequence[pa.uint32] = field(3, default_factory=list, packed=False)
    u64: list[pa.uint64] = field(4, default_factory=list, packed=False)
    s32: list[pa.sint32] = field(5, default_factory=list, packed=False)
    s64: list[pa.sint64] = field(6, default_factory=list, packed=False)
    f32: list[pa.fixed32] = field(7, default_factory=list, packed=False)
    f64: list[pa.fixed64] = field(8, default_factory=list, packed=False)
    sf32: list[pa.sfixed32] = field(9, default_factory=list, packed=False)
    sf64: list[pa.sfixed64] = field(10, default_factory=list, packed=False)
    fl: list[pa.float32] = field(11, default_factory=list, packed=False)
    db: list[float] = field(12, default_factory=list, packed=False)
    flag: list[bool] = field(13, default_factory=list, packed=False)
    color: list[Color] = field(16, default_factory=list, packed=False)
    plain: list[int] = field(20, default_factory=list, packed=False)


@proto_contract
@dataclass
class Maps:
    """``dict[K, V]`` for every key kind, and message/enum/bytes/double values."""

    i32: dict[pa.int32, str] = field(1, default_factory=dict)
    i64: dict[pa.int64, pa.int64] = field(2, default_factory=dict)
    u32: dict[pa.uint32, pa.uint32] = field(3, default_factory=dict)
    u64: dict[pa.uint64, pa.sint64] = field(4, default_factory=dict)
    s32: dict[pa.sint32, pa.sint32] = field(5, default_factory=dict)
    s64: dict[pa.sint64, pa.fixed64] = field(6, default_factory=dict)
    f32: dict[pa.fixed32, pa.sfixed32] = field(7, default_factory=dict)
    f64: dict[pa.fixed64, float] = field(8, default_factory=dict)
    sf32: dict[pa.sfixed32, pa.float32] = field(9, default_factory=dict)
    sf64: dict[pa.sfixed64, bool] = field(10, default_factory=dict)
    flag: dict[bool, bytes] = field(11, default_factory=dict)
    text: dict[str, Inner] = field(12, default_factory=dict)
    color: dict[str, Color] = field(13, default_factory=dict)
    plain: dict[int, int] = field(14, default_factory=dict)
    ts: dict[str, datetime] = field(15, default_factory=dict)


@proto_contract
@dataclass
class Optionals:
    """Explicit presence (proto3 ``optional``): None is absent, zero is written."""

    i32: pa.int32 | None = field(1, default=None)
    i64: pa.int64 | None = field(2, default=None)
    u32: pa.uint32 | None = field(3, default=None)
    u64: pa.uint64 | None = field(4, default=None)
    s32: pa.sint32 | None = field(5, default=None)
    s64: pa.sint64 | None = field(6, default=None)
    f32: pa.fixed32 | None = field(7, default=None)
    f64: pa.fixed64 | None = field(8, default=None)
    sf32: pa.sfixed32 | None = field(9, default=None)
    sf64: pa.sfixed64 | None = field(10, default=None)
    fl: pa.float32 | None = field(11, default=None)
    db: float | None = field(12, default=None)
    flag: bool | None = field(13, default=None)
    text: str | None = field(14, default=None)
    data: bytes | None = field(15, default=None)
    color: Color | None = field(16, default=None)


SCALAR_KINDS = [
    ("i32", "int32"),
    ("i64", "int64"),
    ("u32", "uint32"),
    ("u64", "uint64"),
    ("s32", "sint32"),
    ("s64", "sint64"),
    ("f32", "fixed32"),
    ("f64", "fixed64"),
    ("sf32", "sfixed32"),
    ("sf64", "sfixed64"),
    ("fl", "float"),
    ("db", "double"),
    ("flag", "bool"),
    ("text", "string"),
    ("data", "bytes"),
    ("color", "Color"),
]


def _lines(template: str, kinds: list[tuple[str, str]], numbers: list[int]) -> str:
    return "\n".join(
        "  " + template.format(name=name, type=type_, n=n)
        for (name, type_), n in zip(kinds, numbers, strict=True)
    )


_NUMS = list(range(1, 17))

ALL_KINDS_PROTO = f"""
syntax = "proto3";
package kinds;
import "google/protobuf/timestamp.proto";
import "google/protobuf/duration.proto";

enum Color {{
  COLOR_ZERO = 0;
  RED = 1;
  GREEN = 2;
  NEGATIVE = -7;
}}

message Inner {{
  int32 a = 1;
  string s = 2;
}}

message Scalars {{
{_lines("{type} {name} = {n};", SCALAR_KINDS, _NUMS)}
  Inner inner = 17;
  google.protobuf.Timestamp ts = 18;
  google.protobuf.Duration dur = 19;
  int64 plain = 20;
}}

message Repeats {{
{_lines("repeated {type} {name} = {n};", SCALAR_KINDS, _NUMS)}
  repeated Inner inner = 17;
  repeated google.protobuf.Timestamp ts = 18;
  repeated google.protobuf.Duration dur = 19;
  repeated int64 plain = 20;
}}

message Unpacked {{
{_lines("repeated {type} {name} = {n} [packed = false];", SCALAR_KINDS[:13], _NUMS[:13])}
  repeated Color color = 16 [packed = false];
  repeated int64 plain = 20 [packed = false];
}}

message Maps {{
  map<int32, string> i32 = 1;
  map<int64, int64> i64 = 2;
  map<uint32, uint32> u32 = 3;
  map<uint64, sint64> u64 = 4;
  map<sint32, sint32> s32 = 5;
  map<sint64, fixed64> s64 = 6;
  map<fixed32, sfixed32> f32 = 7;
  map<fixed64, double> f64 = 8;
  map<sfixed32, float> sf32 = 9;
  map<sfixed64, bool> sf64 = 10;
  map<bool, bytes> flag = 11;
  map<string, Inner> text = 12;
  map<string, Color> color = 13;
  map<int64, int64> plain = 14;
  map<string, google.protobuf.Timestamp> ts = 15;
}}

message Optionals {{
{_lines("optional {type} {name} = {n};", SCALAR_KINDS, _NUMS)}
}}
"""

# ------------------------------------------------------ proto2: seed 004


@proto_contract
@dataclass
class DnsRecord:
    key: str = field(1, required=True)
    value: str = field(2, required=True)
    first: str = field(3, required=True)
    last: str = field(4, required=True)
    type: str = field(5, default="A", wire_default="A")
    ttl: pa.int32 = field(6, default=86400, wire_default=86400)


@proto_contract
@dataclass
class DnsResponse:
    records: list[DnsRecord] = field(1, default_factory=list)


@proto_contract(wire_defaults=True)
@dataclass
class Defaults:
    """``default=`` on every kind that has a proto2 ``[default = ...]``, made the wire's
    default by ``wire_defaults=True``."""

    i32: pa.int32 = field(1, default=-5)
    u64: pa.uint64 = field(2, default=2**64 - 1)
    s32: pa.sint32 = field(3, default=-1)
    sf64: pa.sfixed64 = field(4, default=-(2**63))
    fl: pa.float32 = field(5, default=1.5)
    db: float = field(6, default=-2.25)
    flag: bool = field(7, default=True)
    text: str = field(8, default="héllo")
    data: bytes = field(9, default=b"\x00\xff")
    color: Color = field(10, default=Color.GREEN)


DNS_PROTO = """
syntax = "proto2";
package passive_dns;

enum Color {
  COLOR_ZERO = 0;
  RED = 1;
  GREEN = 2;
  NEGATIVE = -7;
}

message DnsRecord {
  required string key = 1;
  required string value = 2;
  required string first = 3;
  required string last = 4;
  optional string type = 5 [default = "A"];
  optional int32 ttl = 6 [default = 86400];
}

message DnsResponse {
  repeated DnsRecord records = 1;
}

message Defaults {
  optional int32 i32 = 1 [default = -5];
  optional uint64 u64 = 2 [default = 18446744073709551615];
  optional sint32 s32 = 3 [default = -1];
  optional sfixed64 sf64 = 4 [default = -9223372036854775808];
  optional float fl = 5 [default = 1.5];
  optional double db = 6 [default = -2.25];
  optional bool flag = 7 [default = true];
  optional string text = 8 [default = "h\\303\\251llo"];
  optional bytes data = 9 [default = "\\000\\377"];
  optional Color color = 10 [default = GREEN];
}
"""

# ------------------------------------------------ recursion and nesting


@proto_contract
@dataclass
class Node:
    """Self-referential through a repeated field."""

    value: pa.int32 = field(1, default=0)
    children: list[Node] = field(2, default_factory=list)


@proto_contract
@dataclass
class Chain:
    """Self-referential through an optional field: the depth tests' message."""

    child: Chain | None = field(1, default=None)
    value: pa.int32 = field(2, default=0)


@proto_contract
@dataclass
class Forest:
    """Mutually recursive with :class:`Tree`, which is declared after it."""

    name: str = field(1, default="")
    trees: list[Tree] = field(2, default_factory=list)


@proto_contract
@dataclass
class Tree:
    label: str = field(1, default="")
    subforest: Forest | None = field(2, default=None)
    sizes: dict[str, Tree] = field(3, default_factory=dict)


RECURSIVE_PROTO = """
syntax = "proto3";
package recursive;

message Node {
  int32 value = 1;
  repeated Node children = 2;
}

message Chain {
  Chain child = 1;
  int32 value = 2;
}

message Forest {
  string name = 1;
  repeated Tree trees = 2;
}

message Tree {
  string label = 1;
  Forest subforest = 2;
  map<string, Tree> sizes = 3;
}
"""

# --------------------------------------------------------------- oneof


@proto_contract
@dataclass
class Shape:
    name: str = field(1, default="")
    radius: float | None = field(2, default=None, oneof="kind")
    side: pa.int32 | None = field(3, default=None, oneof="kind")
    label: str | None = field(4, default=None, oneof="kind")


SHAPE_PROTO = """
syntax = "proto3";
package shapes;

message Shape {
  string name = 1;
  oneof kind {
    double radius = 2;
    int32 side = 3;
    string label = 4;
  }
}
"""

# ------------------------------------------------------ schema helpers


def task_pb() -> ModuleType:
    return compile_proto(TASK_PROTO, "task")


def book_pb() -> ModuleType:
    return compile_proto(BOOK_PROTO, "book")


def book3_pb() -> ModuleType:
    return compile_proto(BOOK_PROTO3, "book3")


def kinds_pb() -> ModuleType:
    return compile_proto(ALL_KINDS_PROTO, "kinds")


def dns_pb() -> ModuleType:
    return compile_proto(DNS_PROTO, "dns")


def recursive_pb() -> ModuleType:
    return compile_proto(RECURSIVE_PROTO, "recursive")


def shape_pb() -> ModuleType:
    return compile_proto(SHAPE_PROTO, "shape")


def chain(levels: int) -> Chain:
    """A :class:`Chain` with ``levels`` messages nested inside the top-level one."""
    top = Chain(value=0)
    node = top
    for i in range(levels):
        node.child = Chain(value=i + 1)
        node = node.child
    return top


def chain_bytes(levels: int) -> bytes:
    """``message Chain { Chain child = 1; }`` nested ``levels`` deep, encoded by hand."""
    data = b""
    for _ in range(levels):
        data = b"\x0a" + _varint(len(data)) + data
    return data


def _varint(n: int) -> bytes:
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


# ------------------------------------------------ comparing with Google


def to_pb(obj: Any, message_cls: type[Message]) -> Message:
    """The Google message holding ``obj``'s values, field by field (names match).

    ``None`` leaves a field unset; anything else sets it, so a proto3
    ``optional`` or proto2 field given a zero has presence, and a message
    field given an empty object is present and empty.
    """
    msg = message_cls()
    _fill(msg, obj)
    return msg


def _fill(msg: Any, obj: Any) -> None:
    for fd in msg.DESCRIPTOR.fields:
        value = getattr(obj, fd.name)
        if value is None:
            continue
        target = getattr(msg, fd.name)
        if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
            value_fd = fd.message_type.fields_by_name["value"]
            for k, v in value.items():
                if value_fd.message_type is not None:
                    _set_message(target[k], v)
                else:
                    target[k] = _scalar(value_fd, v)
        elif fd.is_repeated:
            for v in value:
                if fd.message_type is not None:
                    _set_message(target.add(), v)
                else:
                    target.append(_scalar(fd, v))
        elif fd.message_type is not None:
            _set_message(target, value)
            target.SetInParent()
        else:
            setattr(msg, fd.name, _scalar(fd, value))


def _set_message(target: Any, value: Any) -> None:
    name = target.DESCRIPTOR.full_name
    if name == "google.protobuf.Timestamp":
        target.FromDatetime(value)
    elif name == "google.protobuf.Duration":
        target.FromTimedelta(value)
    else:
        _fill(target, value)
        target.SetInParent()


def _scalar(fd: Any, value: Any) -> Any:
    return int(value) if fd.enum_type is not None else value


def canonical(msg: Message) -> bytes:
    """A Google message's deterministic encoding: equal for equal contents (NaN included)."""
    return msg.SerializeToString(deterministic=True)


def f32(x: float) -> float:
    """``x`` as a 32-bit float holds it (what a float field round-trips to)."""
    return float(struct.unpack("<f", struct.pack("<f", x))[0])


def assert_same(actual: Any, expected: Any, path: str = "obj") -> None:
    """Deep equality that also checks types, compares floats bitwise (NaN, -0.0)
    and requires decoded datetimes to be aware and in UTC."""
    if isinstance(expected, float):
        assert isinstance(actual, float), f"{path}: {actual!r} is not a float"
        assert struct.pack("<d", actual) == struct.pack("<d", expected), (
            f"{path}: {actual!r} != {expected!r} (bitwise)"
        )
    elif isinstance(expected, datetime):
        assert isinstance(actual, datetime), path
        assert actual.tzinfo is not None and actual.utcoffset() == timedelta(0), (
            f"{path}: {actual!r} is not a UTC datetime"
        )
        want = expected if expected.tzinfo else expected.replace(tzinfo=UTC)
        assert actual == want, f"{path}: {actual!r} != {want!r}"
    elif isinstance(expected, (list, tuple)):
        assert type(actual) is type(expected), f"{path}: {type(actual)} is not {type(expected)}"
        assert len(actual) == len(expected), f"{path}: {actual!r} != {expected!r}"
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            assert_same(a, e, f"{path}[{i}]")
    elif isinstance(expected, dict):
        assert isinstance(actual, dict), path
        assert set(actual) == set(expected), f"{path}: keys {set(actual)} != {set(expected)}"
        for k, e in expected.items():
            assert_same(actual[k], e, f"{path}[{k!r}]")
    elif dataclasses.is_dataclass(expected) or attrs.has(type(expected)):
        assert type(actual) is type(expected), f"{path}: {actual!r} is not a {type(expected)}"
        names = (
            [f.name for f in dataclasses.fields(expected)]
            if dataclasses.is_dataclass(expected)
            else [a.name for a in attrs.fields(type(expected))]
        )
        for name in names:
            assert_same(getattr(actual, name), getattr(expected, name), f"{path}.{name}")
    elif hasattr(type(expected), "model_fields"):  # a pydantic model
        assert type(actual) is type(expected), f"{path}: {actual!r} is not a {type(expected)}"
        for name in type(expected).model_fields:
            assert_same(getattr(actual, name), getattr(expected, name), f"{path}.{name}")
    else:
        assert type(actual) is type(expected), (
            f"{path}: {actual!r} ({type(actual).__name__}) is not a {type(expected).__name__}"
        )
        assert actual == expected, f"{path}: {actual!r} != {expected!r}"


__all__ = [
    "UTC",
    "Book",
    "Chain",
    "Color",
    "Defaults",
    "DnsRecord",
    "DnsResponse",
    "Forest",
    "Inner",
    "Maps",
    "Node",
    "Optionals",
    "Repeats",
    "Scalars",
    "Shape",
    "Task",
    "TaskPriority",
    "Tree",
    "Unpacked",
    "assert_same",
    "canonical",
    "f32",
    "to_pb",
]
