"""Nested messages and enums (API section 10): a contract or enum class declared in a
contract's body is nested in protobuf too, and named so everywhere.

Checked against upb: protoc's descriptors for the exported text, Google's ``Any``
and ``json_format`` over the descriptors protoattr exports.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import any_pb2, descriptor_pb2, descriptor_pool, json_format, message_factory

import protoattr as pa
from protoattr import field, proto_contract
from protoattr._schema.gen import descriptor_set as protoc_descriptor_set
from tests.protoc import assert_same_descriptor, protoc_file


@proto_contract(package="nest.shop.v1")
@dataclass
class Order:
    class Status(enum.IntEnum):
        NEW = 0
        PAID = 1

    @proto_contract
    @dataclass
    class Line:
        @proto_contract
        @dataclass
        class Detail:
            note: str = field(1, default="")

        sku: str = field(1, default="")
        detail: Order.Line.Detail | None = field(2, default=None)

    lines: list[Order.Line] = field(1, default_factory=list)
    status: Order.Status = field(2, default=Status.NEW)
    extra: pa.Any | None = field(3, default=None)


@proto_contract(package="nest.shop.v1")
@dataclass
class Line:  # a top-level message of the same short name: a different full name
    qty: pa.int32 = field(1, default=0)


@proto_contract(package="nest.shop.v1", name="Order.Gift")
@dataclass
class Gift:  # nested by its dotted name (code-first, declared outside Order)
    wrap: bool = field(1, default=False)


@proto_contract(package="nest.shop.v1")
@dataclass
class Basket:
    gift: Gift | None = field(1, default=None)
    line: Line | None = field(2, default=None)


def test_full_names_are_nested() -> None:
    m = pa.default_model
    assert m.full_name(Order) == "nest.shop.v1.Order"
    assert m.full_name(Order.Line) == "nest.shop.v1.Order.Line"
    assert m.full_name(Order.Line.Detail) == "nest.shop.v1.Order.Line.Detail"
    assert m.full_name(Line) == "nest.shop.v1.Line"
    assert m.full_name(Gift) == "nest.shop.v1.Order.Gift"
    assert m.info(Order.Line).full_name == "nest.shop.v1.Order.Line"
    assert m.info(Order.Line).package == "nest.shop.v1"


def test_enums_have_full_names() -> None:
    assert pa.default_model.full_name(Order.Status) == "nest.shop.v1.Order.Status"


def test_find_by_nested_name() -> None:
    m = pa.default_model
    assert m.find("nest.shop.v1.Order.Line") is Order.Line
    assert m.find("nest.shop.v1.Order.Line.Detail") is Order.Line.Detail
    assert m.find("nest.shop.v1.Line") is Line
    assert m.find("nest.shop.v1.Order.Gift") is Gift
    assert m.find("nest.shop.v1.Order_Line") is None


def _pool(*roots: type) -> descriptor_pool.DescriptorPool:
    pool = descriptor_pool.DescriptorPool()
    files = descriptor_pb2.FileDescriptorSet.FromString(
        pa.default_model.descriptor_set(list(roots))
    ).file
    names = {fd.name for fd in files}
    for fd in files:
        for dep in fd.dependency:
            if dep not in names:  # a well-known file: upb's own copy
                names.add(dep)
                copy = descriptor_pb2.FileDescriptorProto()
                descriptor_pool.Default().FindFileByName(dep).CopyToProto(copy)
                pool.Add(copy)
        pool.Add(fd)
    return pool


def test_any_names_the_nested_type_and_upb_resolves_it() -> None:
    line = Order.Line(sku="a", detail=Order.Line.Detail(note="n"))
    packed = pa.Any.pack(line)
    assert packed.type_url == "type.googleapis.com/nest.shop.v1.Order.Line"
    cls = message_factory.GetMessageClass(
        _pool(Order).FindMessageTypeByName("nest.shop.v1.Order.Line")
    )
    theirs = any_pb2.Any(type_url=packed.type_url, value=packed.value)
    out = cls()
    assert theirs.Unpack(out)
    assert out.sku == "a" and out.detail.note == "n"


def test_an_any_from_upb_naming_a_nested_type_resolves() -> None:
    cls = message_factory.GetMessageClass(
        _pool(Order).FindMessageTypeByName("nest.shop.v1.Order.Line")
    )
    theirs = any_pb2.Any()
    theirs.Pack(cls(sku="z"))
    assert theirs.type_url == "type.googleapis.com/nest.shop.v1.Order.Line"
    ours = pa.default_model.deserialize(pa.Any, theirs.SerializeToString())
    assert ours.unpack() == Order.Line(sku="z")


def test_json_type_is_the_nested_name() -> None:
    order = Order(extra=pa.Any.pack(Order.Line(sku="q")))
    data = pa.default_model.to_dict(order)
    assert data["extra"]["@type"] == "type.googleapis.com/nest.shop.v1.Order.Line"
    assert pa.default_model.from_dict(Order, data) == order
    pool = _pool(Order)
    cls = message_factory.GetMessageClass(pool.FindMessageTypeByName("nest.shop.v1.Order"))
    theirs = cls.FromString(pa.default_model.serialize(order))
    assert json_format.MessageToDict(theirs, descriptor_pool=pool) == data


@pytest.mark.parametrize("syntax", ["proto2", "proto3", "editions"])
@pytest.mark.parametrize("roots", [[Order], [Basket], [Order.Line.Detail]], ids=str)
def test_schema_nests_and_descriptors_equal_protocs(
    syntax: str, roots: list[type], tmp_path: Path
) -> None:
    text = pa.default_model.schema(roots, syntax=syntax)
    assert "message Order {" in text
    if Order.Line in roots or Order in roots:
        assert "  message Line {\n    message Detail {" in text
    theirs = protoc_file(text, tmp_path, "nested.proto")
    (ours,) = descriptor_pb2.FileDescriptorSet.FromString(
        pa.default_model.descriptor_set(
            roots, syntax=syntax, name="nested.proto", include_imports=False
        )
    ).file
    assert_same_descriptor(ours, theirs, syntax)


def test_a_dotted_name_without_its_outer_contract_is_refused() -> None:
    @proto_contract(package="nest.orphan.v1", name="Nowhere.Inner")
    @dataclass
    class Inner:
        x: pa.int32 = field(1, default=0)

    with pytest.raises(pa.ContractError, match=r"no contract is named 'nest\.orphan\.v1\.Nowhere'"):
        pa.default_model.schema(Inner)


def test_a_nested_name_does_not_clash_with_a_top_level_one() -> None:
    # Line (top level) and Order.Line share a short name in one package: both live
    assert pa.default_model.find("nest.shop.v1.Line") is Line
    assert "message Line {" in pa.default_model.schema([Order, Line])


def test_classes_nested_in_a_plain_class_are_not_nested() -> None:
    class Namespace:
        @proto_contract(package="nest.plain.v1")
        @dataclass
        class Thing:
            x: pa.int32 = field(1, default=0)

    assert pa.default_model.full_name(Namespace.Thing) == "nest.plain.v1.Thing"
    assert pa.default_model.find("nest.plain.v1.Thing") is Namespace.Thing


# -- gen: nested declarations become nested classes ---------------------------------------

NESTED_PROTO = """\
syntax = "proto2";
package nest.gen.v1;

message Order {
  enum Status { NEW = 0; PAID = 1; }
  message Line {
    enum Kind { GOODS = 1; SERVICE = 2; }
    message Detail {
      optional string note = 1;
      optional Order.Status s = 2 [default = PAID];
    }
    optional string sku = 1;
    optional Detail detail = 2;
    optional Kind kind = 3 [default = SERVICE];
  }
  repeated Line lines = 1;
  optional Status status = 2 [default = PAID];
  map<string, Line> by_sku = 4;
}
message Line { optional int32 qty = 1; optional Order.Line.Kind k = 2 [default = SERVICE]; }
"""


@pytest.fixture(scope="module")
def nested_gen(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    """The generated module, and upb's classes for the same file (a pool of their own)."""
    from tests.test_gen import gen_proto

    tmp = tmp_path_factory.mktemp("nested_gen")
    g = gen_proto(NESTED_PROTO, tmp, "nested_gen")
    (tmp / "nested_gen.proto").write_text(NESTED_PROTO, encoding="utf-8")
    pool = descriptor_pool.DescriptorPool()
    for fd in descriptor_pb2.FileDescriptorSet.FromString(
        protoc_descriptor_set([tmp / "nested_gen.proto"], [str(tmp)])
    ).file:
        pool.Add(fd)
    return g, pool


def test_gen_writes_nested_classes(nested_gen: tuple[Any, Any]) -> None:
    g, _ = nested_gen
    source = Path(g.__file__).read_text()
    assert "Order_" not in source
    assert "    class Line:\n" in source and "        class Detail:\n" in source
    assert pa.default_model.full_name(g.Order.Line.Detail) == "nest.gen.v1.Order.Line.Detail"
    assert pa.default_model.full_name(g.Order.Status) == "nest.gen.v1.Order.Status"
    assert pa.default_model.full_name(g.Line) == "nest.gen.v1.Line"
    # [default = PAID] keeps presence (issue 18.5): absent is None, peers read PAID
    assert g.Order().status is None and g.Order.Line.Detail().s is None and g.Line().k is None
    text = pa.default_model.schema(g.Order, syntax="proto2")
    assert "optional .nest.gen.v1.Order.Status status = 2 [default = PAID];" in text
    assert "optional .nest.gen.v1.Order.Status s = 2 [default = PAID];" in text  # lazy: by number
    assert "optional .nest.gen.v1.Order.Line.Kind kind = 3 [default = SERVICE];" in text
    paid = g.Order(status=g.Order.Status.PAID)
    assert pa.serialize(paid) == b"\x10\x01"  # set to its default: written


def test_gen_nested_reads_and_writes_upbs_bytes(nested_gen: tuple[Any, Any]) -> None:
    g, pool = nested_gen
    cls = message_factory.GetMessageClass(pool.FindMessageTypeByName("nest.gen.v1.Order"))
    theirs = cls()
    line = theirs.lines.add(sku="a", kind=1)
    line.detail.note = "n"
    line.detail.s = 0
    theirs.by_sku["b"].sku = "b"
    theirs.status = 0
    data = theirs.SerializeToString(deterministic=True)
    ours = pa.deserialize(g.Order, data)
    assert ours.lines[0].detail == g.Order.Line.Detail(note="n", s=g.Order.Status.NEW)
    assert pa.serialize(ours, deterministic=True) == data


def test_an_any_from_upb_resolves_to_the_generated_nested_class(
    nested_gen: tuple[Any, Any],
) -> None:
    g, pool = nested_gen
    cls = message_factory.GetMessageClass(pool.FindMessageTypeByName("nest.gen.v1.Order.Line"))
    theirs = any_pb2.Any()
    theirs.Pack(cls(sku="z"))
    ours = pa.deserialize(pa.Any, theirs.SerializeToString())
    assert ours.unpack() == g.Order.Line(sku="z")
    assert pa.Any.pack(g.Order.Line(sku="z")).type_url == theirs.type_url


def test_a_dotted_name_on_a_nested_class_exports(tmp_path: Path) -> None:
    # the case: name="Order.Line" on a class nested in Order was refused by schema()
    @proto_contract(package="nest.dotted.v1")
    @dataclass
    class Order:
        @proto_contract(name="Order.Line")
        @dataclass
        class Line:
            sku: str = field(1, default="")

        lines: list[Order.Line] = field(1, default_factory=list)

    assert pa.default_model.full_name(Order.Line) == "nest.dotted.v1.Order.Line"
    text = pa.default_model.schema(Order)
    assert "message Order {\n  message Line {\n    string sku = 1;\n  }\n" in text
    protoc_file(text, tmp_path, "dotted.proto")


def test_a_nested_contract_of_another_package_is_refused() -> None:
    with pytest.raises(pa.ContractError, match=r"Outer\.Inner: package='elsewhere'"):

        @proto_contract(package="nest.pkg.v1")
        @dataclass
        class Outer:
            @proto_contract(package="elsewhere")
            @dataclass
            class Inner:
                x: pa.int32 = field(1, default=0)


def test_nested_declarations_are_exported_with_their_message(tmp_path: Path) -> None:
    @proto_contract(package="nest.unused.v1")
    @dataclass
    class Holder:
        class Unused(enum.IntEnum):
            UNUSED_UNSPECIFIED = 0

        @proto_contract
        @dataclass
        class Spare:
            x: pa.int32 = field(1, default=0)

        name: str = field(1, default="")

    text = pa.default_model.schema(Holder)
    assert "  message Spare {" in text and "  enum Unused {" in text
    theirs = protoc_file(text, tmp_path, "unused.proto")
    (ours,) = descriptor_pb2.FileDescriptorSet.FromString(
        pa.default_model.descriptor_set(Holder, name="unused.proto", include_imports=False)
    ).file
    assert ours == theirs
