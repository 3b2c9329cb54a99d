"""The protoc helper the interop tests rely on: compile, import, isolate, cache."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from types import ModuleType

import pytest

from tests.protoc import ProtocError, ProtocWarning, compile_proto, proto_package

Protoc = Callable[..., ModuleType]

TASK_PROTO3 = """\
syntax = "proto3";

import "google/protobuf/timestamp.proto";

message Task {
  int32 id = 1;
  google.protobuf.Timestamp created_at = 2;
  string created_by = 3;
  repeated string tags = 6;
}
"""


def test_proto3_with_timestamp_round_trips(protoc: Protoc) -> None:
    pb = protoc(TASK_PROTO3, "task")
    task = pb.Task(id=150, created_by="me", tags=["a", "b"])
    task.created_at.FromDatetime(datetime(2024, 1, 2, 3, 4, 5, 600_000, tzinfo=timezone.utc))

    data = task.SerializeToString()
    assert data == (
        b"\x08\x96\x01"  # id = 150
        b"\x12\x0c\x08\xa5\xfa\xcd\xac\x06\x10\x80\x8c\x8d\x9e\x02"  # created_at
        b"\x1a\x02me"  # created_by
        b"\x32\x01a\x32\x01b"  # tags
    )
    back = pb.Task.FromString(data)
    assert back == task
    assert back.created_at.seconds == 1704164645
    assert back.created_at.nanos == 600_000_000


def test_fixture_is_compile_proto(protoc: Protoc) -> None:
    assert protoc is compile_proto


def test_same_source_compiles_once() -> None:
    assert compile_proto(TASK_PROTO3, "task") is compile_proto(TASK_PROTO3, "task.proto")


def test_same_name_different_source_do_not_clash() -> None:
    one = compile_proto('syntax = "proto3";\nmessage Task { int32 id = 1; }\n', "clash")
    two = compile_proto('syntax = "proto3";\nmessage Task { string id = 1; }\n', "clash")
    assert one is not two
    assert one.__name__ != two.__name__
    assert one.Task(id=1).SerializeToString() == b"\x08\x01"
    assert two.Task(id="x").SerializeToString() == b"\x0a\x01x"


def test_declared_package_is_prefixed_and_references_follow() -> None:
    source = """\
syntax = "proto3";
package shop.v1;
message Item { int32 n = 1; }
message Order { repeated .shop.v1.Item items = 1; shop.v1.Item first = 2; }
"""
    pb = compile_proto(source, "order")
    assert proto_package(pb).endswith(".shop.v1")
    assert pb.Order.DESCRIPTOR.full_name == f"{proto_package(pb)}.Order"
    order = pb.Order(items=[pb.Item(n=1)], first=pb.Item(n=2))
    assert order.SerializeToString() == b"\x0a\x02\x08\x01\x12\x02\x08\x02"
    # The same schema again under another file name: no duplicate symbols.
    assert compile_proto(source, "order_again").Order.FromString(b"\x12\x02\x08\x07").first.n == 7


def test_unique_package_false_keeps_names_verbatim() -> None:
    pb = compile_proto(
        'syntax = "proto3";\npackage protoattr.helper.verbatim;\nmessage Only { bool b = 1; }\n',
        "verbatim",
        unique_package=False,
    )
    assert pb.Only.DESCRIPTOR.full_name == "protoattr.helper.verbatim.Only"


def test_proto2_defaults_required_and_groups() -> None:
    pb = compile_proto(
        """\
syntax = "proto2";
message Legacy {
  required int32 id = 1;
  optional string name = 2 [default = "anon"];
  repeated int32 packed_ints = 3 [packed = true];
  optional group Extra = 4 { optional sint32 z = 5; }
}
""",
        "legacy",
    )
    msg = pb.Legacy(id=1, packed_ints=[1, 2])
    assert msg.name == "anon"
    assert not msg.HasField("name")
    msg.extra.z = -1
    assert msg.SerializeToString() == b"\x08\x01\x1a\x02\x01\x02\x23\x28\x01\x24"
    assert not pb.Legacy().IsInitialized()


def test_edition_2023() -> None:
    pb = compile_proto(
        """\
edition = "2023";
message Ed {
  int32 x = 1;                  // explicit presence by default
  repeated int32 r = 2;         // packed by default
  repeated int32 u = 3 [features.repeated_field_encoding = EXPANDED];
}
""",
        "ed",
    )
    msg = pb.Ed(x=0, r=[1, 2], u=[3, 4])
    assert msg.HasField("x")
    assert msg.SerializeToString() == b"\x08\x00\x12\x02\x01\x02\x18\x03\x18\x04"


def test_enum_values_are_module_attributes() -> None:
    pb = compile_proto(
        'syntax = "proto3";\nenum Priority { LOW = 0; MEDIUM = 1; HIGH = 2; }\n'
        "message M { Priority p = 1; }\n",
        "enums",
    )
    assert pb.HIGH == 2
    assert pb.Priority.Name(1) == "MEDIUM"
    assert pb.M(p=pb.HIGH).SerializeToString() == b"\x08\x02"


def test_protoc_error_names_the_line() -> None:
    with pytest.raises(ProtocError, match=r"(?s)broken\.proto:3:.*   3 \| .*nope"):
        compile_proto('syntax = "proto3";\nmessage M {\n  nope x = 1;\n}\n', "broken")


def test_protoc_warning_is_a_python_warning() -> None:
    source = 'syntax = "proto3";\nimport "google/protobuf/duration.proto";\nmessage M {}\n'
    with pytest.warns(ProtocWarning, match="unused"):
        compile_proto(source, "unused_import")


@pytest.mark.parametrize("bad", ["", "a-b", "dir/x", "1x", "x.proto.proto"])
def test_name_must_be_an_identifier(bad: str) -> None:
    with pytest.raises(ValueError, match="identifier"):
        compile_proto('syntax = "proto3";\n', bad)
