"""protobuf-net's bcl.proto in schemas: export, the shipped file, descriptor sets, gen,
and Google's runtime (upb) reading protoattr's bytes and JSON."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from pathlib import Path
from uuid import UUID

from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory

import protoattr as pa
from protoattr._schema.bcl import BCL_PROTO, INCLUDE, bcl_file
from protoattr._schema.gen import descriptor_set, generate


@pa.proto_contract(package="bcltest")
@dataclass
class Order:
    placed: pa.bcl.DateTime = pa.field(1)
    wait: pa.bcl.TimeSpan = pa.field(2, default=timedelta(0))
    total: pa.bcl.Decimal = pa.field(3, default=Decimal(0))
    ref: pa.bcl.Guid = pa.field(4, default=UUID(int=0))
    history: list[pa.bcl.DateTime] = pa.field(5, default_factory=list)


ORDER = Order(
    datetime(2019, 9, 27, 10, 25, 32, 123000),
    timedelta(days=32, hours=10, minutes=25, seconds=32, milliseconds=123),
    Decimal("-12.345"),
    UUID("12345678-2345-3456-4567-56789a6789ab"),
    [datetime.min, datetime.max, datetime(2010, 2, 1)],
)


def upb_class() -> type:
    pool = descriptor_pool.DescriptorPool()
    fds = descriptor_pb2.FileDescriptorSet.FromString(
        pa.default_model.descriptor_set(Order, package="bcltest")
    )
    for f in fds.file:
        pool.Add(f)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("bcltest.Order"))


def test_the_schema_imports_bcl_proto_as_get_proto_does() -> None:
    text = pa.default_model.schema(Order)
    assert 'import "protobuf-net/bcl.proto";' in text
    assert ".bcl.DateTime placed = 1;" in text
    assert "repeated .bcl.DateTime history = 5;" in text


def test_the_shipped_file_is_what_descriptor_set_includes() -> None:
    protoc = descriptor_pb2.FileDescriptorSet.FromString(
        descriptor_set([INCLUDE / BCL_PROTO], include=[str(INCLUDE)])
    )
    (theirs,) = [f for f in protoc.file if f.name == BCL_PROTO]
    theirs.ClearField("source_code_info")
    ours = descriptor_pb2.FileDescriptorProto.FromString(pa.default_model.serialize(bcl_file()))
    assert ours == theirs


def test_upb_reads_protoattr_bytes_to_the_same_values() -> None:
    data = pa.serialize(ORDER)
    msg = upb_class().FromString(data)
    assert (msg.placed.value, msg.placed.scale) == (1569579932123, 4)
    assert (msg.wait.value, msg.wait.scale) == (2802332123, 4)
    assert (msg.total.lo, msg.total.hi, msg.total.signScale) == (12345, 0, 7)
    assert (msg.ref.lo, msg.ref.hi) == (0x3456234512345678, 0xAB89679A78566745)
    assert [(h.value, h.scale) for h in msg.history] == [(-1, 15), (1, 15), (14641, 0)]
    assert msg.SerializeToString() == data
    # JSON: json_format's objects are protoattr's, and read back exactly
    printed = json_format.MessageToDict(msg)
    assert printed == pa.to_dict(ORDER)
    assert pa.from_dict(Order, printed) == ORDER


def test_gen_maps_the_bcl_types_back(tmp_path: Path) -> None:
    proto = tmp_path / "order_gen.proto"
    text = pa.default_model.schema(Order).replace("package bcltest;", "package bcltest.gen;")
    proto.write_text(text, encoding="utf-8")
    source = generate([proto])
    assert "pa.bcl.DateTime" in source and "pa.bcl.Guid" in source
    path = tmp_path / "order_gen.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("bcl_order_gen", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bcl_order_gen"] = module
    spec.loader.exec_module(module)
    data = pa.serialize(ORDER)
    twin = pa.deserialize(module.Order, data)
    assert pa.serialize(twin) == data
    assert twin.placed == ORDER.placed and twin.ref == ORDER.ref


def test_gen_out_dir_maps_the_bcl_types_back(tmp_path: Path) -> None:
    from protoattr._schema.gen import generate_files

    proto = tmp_path / "order_tree.proto"
    text = pa.default_model.schema(Order).replace("package bcltest;", "package bcltest.tree;")
    proto.write_text(text, encoding="utf-8")
    files = generate_files([proto])
    assert list(files) == ["order_tree_pa.py"]  # bcl.proto is protoattr's: no module of its own
    assert "pa.bcl.DateTime" in files["order_tree_pa.py"]


def test_exported_text_through_protoc_reads_the_same_in_upb(tmp_path: Path) -> None:
    proto = tmp_path / "order_protoc.proto"
    text = pa.default_model.schema(Order).replace("package bcltest;", "package bcltest.pc;")
    proto.write_text(text, encoding="utf-8")
    fds = descriptor_pb2.FileDescriptorSet.FromString(descriptor_set([proto]))  # protoc
    pool = descriptor_pool.DescriptorPool()
    for f in fds.file:
        pool.Add(f)
    cls = message_factory.GetMessageClass(pool.FindMessageTypeByName("bcltest.pc.Order"))
    data = pa.serialize(ORDER)
    msg = cls.FromString(data)
    assert msg.SerializeToString() == data
    assert json_format.MessageToDict(msg) == pa.to_dict(ORDER)
    assert (msg.ref.lo, msg.total.signScale, msg.history[2].value) == (0x3456234512345678, 7, 14641)


def test_json_options_print_as_json_format_does() -> None:
    cls = upb_class()
    for obj in [Order(datetime.min), Order(datetime(1970, 1, 1)), ORDER]:
        msg = cls.FromString(pa.serialize(obj))
        for options in [
            {},
            {"always_print_fields_with_no_presence": True},
            {"use_integers_for_enums": True},
            {"preserving_proto_field_name": True},
        ]:
            assert pa.to_dict(obj, **options) == json_format.MessageToDict(msg, **options)


GET_PROTO_STYLE = """syntax = "proto3";
package bcltest.getproto;
import "protobuf-net/bcl.proto";

message Foo {
  bcl.TimeSpan span = 1;
  bcl.DateTime when = 2;
  bcl.DateTime.DateTimeKind zone = 3;
  bcl.Guid id = 4;
  bcl.Decimal amount = 5;
  repeated bcl.DateTime history = 6;
}
"""


def test_gen_reads_a_schema_that_names_bcl_enums_too(tmp_path: Path) -> None:
    # the shape of protobuf-net's own using_bcl.proto test schema
    proto = tmp_path / "foo_getproto.proto"
    proto.write_text(GET_PROTO_STYLE, encoding="utf-8")
    source = generate([proto])
    assert "zone: pa.bcl.DateTimeKind = pa.field(3, default=pa.bcl.DateTimeKind.UNSPECIFIED)" in (
        source
    )
    path = tmp_path / "foo_getproto.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("bcl_foo_getproto", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bcl_foo_getproto"] = module
    spec.loader.exec_module(module)
    foo = module.Foo(when=ORDER.placed, zone=pa.bcl.DateTimeKind.UTC, history=[datetime.min])
    data = pa.serialize(foo)
    assert data == bytes.fromhex("12 09 08 b6 e7 88 a4 ae 5b 10 04 18 01 32 04 08 01 10 0f")
    assert pa.deserialize(module.Foo, data) == foo
