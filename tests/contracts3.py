"""Contracts shared by the issue #3 tests (inheritance, unknown fields, merge...),
with the ``.proto`` twins Google's runtime uses for the same messages.

Module level, like user code, so that forward references resolve.  The
``*_pb()`` helpers compile each schema once per process.
"""

# protoattr.field() returns a dataclasses.Field, like dataclasses.field().

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

from google.protobuf.message import Message

import protoattr as pa
from protoattr import field, proto_contract
from tests.protoc import compile_proto

# ------------------------------------------------ inheritance: protobuf-net's layout
#
# Subtype tags above the base's own field numbers, as in API.md: protoattr
# writes the subtype's message first, Google in field-number order, so only
# the parsed values agree, not the bytes.


@proto_contract
@dataclass
class Shape:
    name: str = field(1, default="")
    id: pa.int32 = field(2, default=0)


@proto_contract(subtype_tag=10)
@dataclass
class Circle(Shape):
    radius: float = field(1, default=0.0)


@proto_contract(subtype_tag=11)
@dataclass
class Square(Shape):
    side: pa.int32 = field(1, default=0)


@proto_contract(subtype_tag=5)
@dataclass
class Cube(Square):
    depth: pa.int32 = field(2, default=0)
    labels: list[str] = field(3, default_factory=list)


@proto_contract
@dataclass
class Drawing:
    shapes: list[Shape] = field(1, default_factory=list)
    main: Shape | None = field(2, default=None)
    by_name: dict[str, Shape] = field(3, default_factory=dict)


SHAPES_PROTO = """
syntax = "proto3";
package shapes3;

message Shape {
  oneof subtype {
    Circle circle = 10;
    Square square = 11;
  }
  string name = 1;
  int32 id = 2;
}
message Circle { double radius = 1; }
message Square {
  oneof subtype { Cube cube = 5; }
  int32 side = 1;
}
message Cube {
  int32 depth = 2;
  repeated string labels = 3;
}
message Drawing {
  repeated Shape shapes = 1;
  Shape main = 2;
  map<string, Shape> by_name = 3;
}
"""

# ------------------------------------- inheritance where the field orders coincide
#
# Subtype tags below the base's own fields: Google writes the subtype message
# first too, so the bytes are identical both ways.


@proto_contract
@dataclass
class Animal:
    name: str = field(5, default="")
    legs: pa.int32 = field(6, default=0)


@proto_contract(subtype_tag=1)
@dataclass
class Dog(Animal):
    breed: str = field(1, default="")


@proto_contract(subtype_tag=2)
@dataclass
class Bird(Animal):
    wingspan: float = field(3, default=0.0)


@proto_contract(subtype_tag=1)
@dataclass
class Parrot(Bird):
    words: list[str] = field(4, default_factory=list)


@proto_contract
@dataclass
class Zoo:
    animals: list[Animal] = field(1, default_factory=list)


ANIMALS_PROTO = """
syntax = "proto3";
package animals3;

message Animal {
  oneof subtype {
    Dog dog = 1;
    Bird bird = 2;
  }
  string name = 5;
  int32 legs = 6;
}
message Dog { string breed = 1; }
message Bird {
  oneof subtype { Parrot parrot = 1; }
  double wingspan = 3;
}
message Parrot { repeated string words = 4; }
message Zoo { repeated Animal animals = 1; }
"""

# The same hierarchy one version later: every level has grown a field that the
# protoattr classes above do not know.
ANIMALS_V2_PROTO = """
syntax = "proto3";
package animals3v2;

message Animal {
  oneof subtype {
    Dog dog = 1;
    Bird bird = 2;
  }
  string name = 5;
  int32 legs = 6;
  string habitat = 7;
}
message Dog {
  string breed = 1;
  bool good = 2;
}
message Bird {
  oneof subtype { Parrot parrot = 1; }
  double wingspan = 3;
  repeated int32 eggs = 9;
}
message Parrot {
  repeated string words = 4;
  sint64 age = 5;
}
message Zoo { repeated Animal animals = 1; }
"""

# --------------------------------------------- versioning: v1 and v2 of one message


@proto_contract
@dataclass
class Inner3:
    a: pa.int32 = field(1, default=0)
    s: str = field(2, default="")


@proto_contract
@dataclass
class RecordV2:
    """Version 2: v1's fields plus one of every wire type, and a message."""

    id: pa.int32 = field(1, default=0)
    text: str = field(2, default="")
    count: pa.uint64 = field(3, default=0)  # varint
    ratio: float = field(4, default=0.0)  # I64
    small: pa.fixed32 = field(5, default=0)  # I32
    blob: bytes = field(6, default=b"")  # LEN
    nums: list[pa.sint32] = field(7, default_factory=list)  # packed LEN
    inner: Inner3 | None = field(8, default=None)
    extra: dict[str, pa.int32] = field(9, default_factory=dict)
    late: str = field(1000, default="")  # a two-byte tag


@proto_contract
@dataclass
class RecordV1:
    """Version 1: knows only ``id`` and ``text``."""

    id: pa.int32 = field(1, default=0)
    text: str = field(2, default="")


RECORD_PROTO = """
syntax = "proto3";
package records3;

message Inner3 {
  int32 a = 1;
  string s = 2;
}
message RecordV2 {
  int32 id = 1;
  string text = 2;
  uint64 count = 3;
  double ratio = 4;
  fixed32 small = 5;
  bytes blob = 6;
  repeated sint32 nums = 7;
  Inner3 inner = 8;
  map<string, int32> extra = 9;
  string late = 1000;
}
message RecordV1 {
  int32 id = 1;
  string text = 2;
}
"""

SAMPLE_V2 = RecordV2(
    id=7,
    text="seven",
    count=2**63 + 5,
    ratio=-0.5,
    small=123456,
    blob=b"\x00\xff",
    nums=[-1, 0, 300],
    inner=Inner3(a=-3, s="in"),
    extra={"k": 1},
    late="tail",
)

# ------------------------------------------------------------- schema helpers


def shapes_pb() -> ModuleType:
    return compile_proto(SHAPES_PROTO, "shapes3")


def animals_pb() -> ModuleType:
    return compile_proto(ANIMALS_PROTO, "animals3")


def animals_v2_pb() -> ModuleType:
    return compile_proto(ANIMALS_V2_PROTO, "animals3v2")


def records_pb() -> ModuleType:
    return compile_proto(RECORD_PROTO, "records3")


def parse(message_cls: type[Message], data: bytes) -> Any:
    """Google's reading of ``data`` as ``message_cls`` (raises on malformed input)."""
    msg = message_cls()
    msg.ParseFromString(data)
    return msg


def canonical(msg: Message) -> bytes:
    """A Google message's deterministic encoding: equal for equal contents."""
    return msg.SerializeToString(deterministic=True)


__all__ = [
    "ANIMALS_PROTO",
    "ANIMALS_V2_PROTO",
    "RECORD_PROTO",
    "SAMPLE_V2",
    "SHAPES_PROTO",
    "Animal",
    "Bird",
    "Circle",
    "Cube",
    "Dog",
    "Drawing",
    "Inner3",
    "Parrot",
    "RecordV1",
    "RecordV2",
    "Shape",
    "Square",
    "Zoo",
    "animals_pb",
    "animals_v2_pb",
    "canonical",
    "parse",
    "records_pb",
    "shapes_pb",
]
