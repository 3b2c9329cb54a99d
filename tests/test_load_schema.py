"""``pa.load_schema``: gen's contracts made in memory, from descriptor sets and .proto files.

Every ``.proto`` grpcio-tools bundles is loaded from the ``FileDescriptorSet`` protoc
writes for it; random messages of each of its types, serialized by upb (classes
made by upb's own ``message_factory`` from the same set), decode here and re-encode
to the same bytes.  Then a schema with extensions, services and nested types from a
``.proto`` path.
"""

from __future__ import annotations

import linecache
import random
import sys
import traceback
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

import protoattr as pa
from protoattr._schema.gen import descriptor_set, well_known_include
from tests.upb_random import fill

WKT = well_known_include()
assert WKT is not None
BUNDLED = sorted(p.relative_to(WKT).as_posix() for p in WKT.rglob("*.proto"))


def _upb_classes(data: bytes) -> dict[str, Any]:
    """upb's message classes for every message of a descriptor set, by full name."""
    fds = descriptor_pb2.FileDescriptorSet.FromString(data)
    pool = descriptor_pool.DescriptorPool()
    for fd in fds.file:
        pool.Add(fd)
    found: dict[str, Any] = {}

    def walk(desc: Any) -> None:
        if not desc.GetOptions().map_entry:
            found[desc.full_name] = message_factory.GetMessageClass(desc)
        for nested in desc.nested_types:
            walk(nested)

    for fd in fds.file:
        for m in pool.FindFileByName(fd.name).message_types_by_name.values():
            walk(m)
    return found


def _own_packages(data: bytes) -> bytes:
    """``data`` with packages other than Google's prefixed ``loadtest_``: a packaged full
    name is claimed once per process, and tests/test_gen.py imports gen's module of the
    same files (``pb.CppFeatures``)."""
    fds = descriptor_pb2.FileDescriptorSet.FromString(data)
    renamed = {f".{fd.package}.": f".loadtest_{fd.package}." for fd in fds.file
               if fd.package and not fd.package.startswith("google.protobuf")}  # fmt: skip

    def fix(name: str) -> str:
        return next((new + name[len(old) :] for old, new in renamed.items()
                     if name.startswith(old)), name)  # fmt: skip

    def refs(f: Any) -> None:
        if f.type_name != fix(f.type_name):
            f.type_name = fix(f.type_name)
        if f.extendee != fix(f.extendee):
            f.extendee = fix(f.extendee)

    def fields(m: Any) -> None:
        for f in [*m.field, *m.extension]:
            refs(f)
        for nested in m.nested_type:
            fields(nested)

    for fd in fds.file:
        if f".{fd.package}." in renamed:
            fd.package = "loadtest_" + fd.package
        for f in fd.extension:
            refs(f)
        for m in fd.message_type:
            fields(m)
    return fds.SerializeToString()


@pytest.mark.parametrize("proto", BUNDLED)
def test_bundled_protos_round_trip_upb_bytes(proto: str) -> None:
    data = _own_packages(descriptor_set([WKT / proto], [str(WKT)]))
    types = pa.load_schema(data)
    upb = _upb_classes(data)
    assert set(upb) <= set(types)
    rng = random.Random(proto)
    for full_name, upb_cls in upb.items():
        ours = types[full_name]
        for _ in range(6):
            wire = fill(rng, upb_cls()).SerializeToString()
            got = pa.deserialize(ours, wire)
            assert pa.serialize(got) == wire, (full_name, wire.hex())


SHOP = """
syntax = "proto2";
package loadtest.shop;

// An order.
message Order {
  optional string id = 1;
  message Line { optional string sku = 1; optional int32 qty = 2 [default = 1]; }
  repeated Line lines = 2;
  enum State { NEW = 0; PAID = 1; }
  optional State state = 3;
  map<string, int32> counts = 4;
  extensions 100 to 199;
}

extend Order {
  optional string note = 100;
  repeated int32 marks = 101 [packed = true];
}

service Orders {
  rpc Get (Order) returns (Order);
}
"""


def test_from_a_proto_path(tmp_path: Path) -> None:
    path = tmp_path / "shop.proto"
    path.write_text(SHOP)
    types = pa.load_schema(str(path), include=[str(tmp_path)])
    assert set(types) == {
        "loadtest.shop.Order", "loadtest.shop.Order.Line", "loadtest.shop.Order.State",
        "loadtest.shop.Orders",
    }  # fmt: skip
    Order, Line = types["loadtest.shop.Order"], types["loadtest.shop.Order.Line"]
    assert Order.Line is Line and pa.default_model.find("loadtest.shop.Order.Line") is Line
    from protoattr._service import service_info

    assert service_info(types["loadtest.shop.Orders"]).full_name == "loadtest.shop.Orders"
    order = Order(id="o1", lines=[Line(sku="a", qty=2)], state=Order.State.PAID, counts={"x": 1})
    note = pa.default_model.find_extension("loadtest.shop.note")
    marks = pa.default_model.find_extension("loadtest.shop.marks")
    assert note is not None and marks is not None
    note.set(order, "fragile")
    marks.set(order, [1, 2])
    data = pa.serialize(order)
    upb = _upb_classes(descriptor_set([path], [str(tmp_path)]))["loadtest.shop.Order"]
    theirs = upb.FromString(data)
    assert theirs.id == "o1" and theirs.lines[0].qty == 2 and dict(theirs.counts) == {"x": 1}
    assert theirs.SerializeToString() == data  # extensions included: upb keeps them unknown
    back = pa.deserialize(Order, data)
    assert (note.get(back), marks.get(back)) == ("fragile", [1, 2])
    assert pa.to_dict(back)["[loadtest.shop.note]"] == "fragile"
    # the same schema again: the same classes
    assert pa.load_schema(str(path), include=[str(tmp_path)])["loadtest.shop.Order"] is Order


def test_tracebacks_show_the_generated_source(tmp_path: Path) -> None:
    path = tmp_path / "shop.proto"
    path.write_text(SHOP)
    Order = pa.load_schema(str(path), include=[str(tmp_path)])["loadtest.shop.Order"]
    module = sys.modules[Order.__module__]
    assert module.__name__.startswith("protoattr.schemas.")
    lines = linecache.getlines(module.__file__ or "")
    assert any("class Order" in line for line in lines)
    assert "An order." in (Order.__doc__ or "")
    assert traceback.extract_stack()  # the module is importable by name for pdb and inspect
