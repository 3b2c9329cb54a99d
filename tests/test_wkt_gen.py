"""``protoattr gen`` maps the well-known types to protoattr's own and never redeclares them."""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

import pytest
from google.protobuf import any_pb2, field_mask_pb2, struct_pb2, wrappers_pb2

import protoattr as pa
from protoattr._schema.gen import generate
from tests.protoc import compile_proto

PROTO = """
syntax = "proto3";
package wktgen.v1;

import "google/protobuf/any.proto";
import "google/protobuf/empty.proto";
import "google/protobuf/field_mask.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";

message Any {  // a user's own Any: it must not shadow typing.Any
  string note = 1;
}

message Update {
  google.protobuf.Any payload = 1;
  google.protobuf.Struct labels = 2;
  google.protobuf.Value extra = 3;
  google.protobuf.ListValue items = 4;
  google.protobuf.NullValue nothing = 5;
  google.protobuf.FieldMask mask = 6;
  google.protobuf.Empty empty = 7;
  google.protobuf.Int32Value count = 8;
  google.protobuf.StringValue name = 9;
  map<string, google.protobuf.Value> values = 10;
  google.protobuf.Timestamp at = 11;
  Any own = 12;
  oneof choice {
    google.protobuf.BoolValue flag = 13;
    string text = 14;
  }
}
"""


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Any]:
    folder = tmp_path_factory.mktemp("wktgen")
    proto = folder / "update.proto"
    proto.write_text(PROTO, encoding="utf-8")
    source = generate([proto])
    path = folder / "update_contracts.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("wktgen_update_contracts", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return source, module


def test_fields_use_protoattrs_types(generated: tuple[str, Any]) -> None:
    source, _ = generated
    for line in [
        "    payload: pa.Any | None = pa.field(1, default=None)",
        "    labels: pa.Struct | None = pa.field(2, default=None)",
        "    extra: pa.JsonValue = pa.field(3, default=None)",
        "    items: pa.ListValue | None = pa.field(4, default=None)",
        "    nothing: pa.NullValue = pa.field(5, default=pa.NullValue.NULL_VALUE)",
        "    mask: pa.FieldMask | None = pa.field(6, default=None)",
        "    empty: pa.Empty | None = pa.field(7, default=None)",
        "    count: pa.wrappers.Int32Value = pa.field(8, default=None)",
        "    name: pa.wrappers.StringValue = pa.field(9, default=None)",
        "    values: dict[str, pa.JsonValue] = pa.field(10, default_factory=dict)",
        '    flag: pa.wrappers.BoolValue = pa.field(13, default=None, oneof="choice")',
    ]:
        assert line in source, line
    for redeclared in ("class Struct", "class Value", "class Int32Value", "class FieldMask"):
        assert redeclared not in source
    assert "class Any:" not in source and "class Any_:" in source
    assert '@pa.proto_contract(name="Any")' in source


def test_generated_contracts_read_and_write_googles_bytes(generated: tuple[str, Any]) -> None:
    _, module = generated
    pb = compile_proto(PROTO, "wktgen_update")
    upb = pb.Update(
        count=wrappers_pb2.Int32Value(value=0), flag=wrappers_pb2.BoolValue(value=False)
    )
    upb.labels.update({"env": "prod"})
    upb.extra.string_value = "x"
    upb.mask.CopyFrom(field_mask_pb2.FieldMask(paths=["a.b"]))
    upb.values["k"].CopyFrom(struct_pb2.Value(number_value=2.0))
    upb.own.note = "mine"
    packed = any_pb2.Any()
    packed.Pack(wrappers_pb2.StringValue(value="hi"))
    upb.payload.CopyFrom(packed)
    data = upb.SerializeToString(deterministic=True)
    ours = pa.deserialize(module.Update, data)
    assert ours.count == 0 and ours.flag is False and ours.name is None
    assert ours.labels == {"env": "prod"} and ours.extra == "x" and ours.values == {"k": 2.0}
    assert ours.mask == pa.FieldMask(("a.b",)) and ours.own == module.Any_("mine")
    assert ours.payload.unpack() == "hi"
    assert pa.serialize(ours, deterministic=True) == data
