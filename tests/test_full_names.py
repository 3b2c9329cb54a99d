"""Protobuf full names: ``package=``, a module's ``__protobuf_package__``, look-up, clashes."""

from __future__ import annotations

import sys
import textwrap
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

import protoattr as pa
from protoattr import field, proto_contract
from protoattr._schema.gen import descriptor_set
from tests.protoc import compile_proto


@proto_contract(package="names.shop.v1")
@dataclass
class Order:
    id: pa.int32 = field(1, default=0)
    lines: list[Line] = field(2, default_factory=list)


@proto_contract(package="names.shop.v1", name="OrderLine")
@dataclass
class Line:
    sku: str = field(1, default="")
    note: Note | None = field(2, default=None)


@proto_contract
@dataclass
class Note:  # no package: it joins the file of whoever reaches it
    text: str = field(1, default="")


def test_full_name_on_the_model_and_the_contract() -> None:
    model = pa.default_model
    assert model.full_name(Order) == "names.shop.v1.Order"
    assert model.full_name(Line) == "names.shop.v1.OrderLine"
    assert model.full_name(Note) == "Note"
    info = model.info(Line)
    assert (info.package, info.name, info.full_name) == (
        "names.shop.v1",
        "OrderLine",
        "names.shop.v1.OrderLine",
    )
    assert model.info(Note).package is None
    with pytest.raises(pa.ContractError, match="is not a contract"):
        model.full_name(int)


def test_find_by_full_name() -> None:
    assert pa.default_model.find("names.shop.v1.Order") is Order
    assert pa.default_model.find("names.shop.v1.OrderLine") is Line
    assert pa.default_model.find("names.shop.v1.Line") is None
    assert pa.default_model.find("nowhere.Order") is None
    assert pa.TypeModel().find("names.shop.v1.Order") is Order  # any model finds declared contracts
    assert pa.default_model.find("google.protobuf.Timestamp") is pa.Timestamp


def module(name: str, source: str) -> types.ModuleType:
    mod = types.ModuleType(name)
    sys.modules[name] = mod
    exec(compile(textwrap.dedent(source), f"<{name}>", "exec"), mod.__dict__)
    return mod


def test_a_module_level_default_package() -> None:
    mod = module(
        "names_inventory_v2",
        """
        from dataclasses import dataclass
        import protoattr as pa

        __protobuf_package__ = "inventory.v2"

        @pa.proto_contract
        @dataclass
        class Item:
            sku: str = pa.field(1, default="")

        @pa.proto_contract(package="inventory.v3")
        @dataclass
        class Moved:
            sku: str = pa.field(1, default="")
        """,
    )
    assert pa.default_model.full_name(mod.Item) == "inventory.v2.Item"
    assert pa.default_model.full_name(mod.Moved) == "inventory.v3.Moved"  # package= wins
    assert pa.default_model.find("inventory.v2.Item") is mod.Item


@pytest.mark.parametrize("bad", ["shop..v1", "1shop", "shop-v1", ".shop", "shop.v1."])
def test_a_bad_package_is_a_contract_error(bad: str) -> None:
    with pytest.raises(pa.ContractError, match=r"Bad: package .* is not a dotted protobuf name"):

        @proto_contract(package=bad)
        @dataclass
        class Bad:
            x: int = field(1, default=0)

    with pytest.raises(pa.ContractError, match=r"__protobuf_package__ .* is not a dotted"):
        module(
            f"names_bad_{abs(hash(bad))}",
            f"""
            from dataclasses import dataclass
            import protoattr as pa
            __protobuf_package__ = {bad!r}
            @pa.proto_contract
            @dataclass
            class Bad:
                x: int = pa.field(1, default=0)
            """,
        )


def test_two_classes_claiming_one_packaged_name_is_a_contract_error() -> None:
    with pytest.raises(
        pa.ContractError,
        match=r"'names\.shop\.v1\.Order' is already taken by .*test_full_names\.Order",
    ):

        @proto_contract(package="names.shop.v1", name="Order")
        @dataclass
        class Other:
            x: int = field(1, default=0)

    assert pa.default_model.find("names.shop.v1.Order") is Order  # the first keeps it
    assert not pa.default_model.find("names.shop.v1.Other")


def test_declaring_a_class_again_replaces_it() -> None:
    def declare() -> type:
        @proto_contract(package="names.again")
        @dataclass
        class Again:
            x: int = field(1, default=0)

        return Again

    first, second = declare(), declare()
    assert pa.default_model.find("names.again.Again") is second
    assert first is not second


def test_unpackaged_names_clash_only_when_looked_up() -> None:
    def declare(n: int) -> type:
        @proto_contract(name="NamesPoint")
        @dataclass
        class P:
            x: int = field(n, default=0)

        P.__qualname__ = f"P{n}"  # two different declarations
        return P

    a = declare(1)
    b = declare(2)
    with pytest.raises(pa.ContractError, match=r"2 contracts are named 'NamesPoint'.*packages"):
        pa.default_model.find("NamesPoint")
    del a, b


# -- schema export -------------------------------------------------------------------


def test_schema_takes_the_contracts_package_and_protoc_agrees() -> None:
    text = pa.default_model.schema(Order)
    assert "package names.shop.v1;" in text
    assert "message OrderLine {" in text and "message Note {" in text
    pb = compile_proto(text, "names_order", unique_package=False)
    assert pb.Order.DESCRIPTOR.full_name == "names.shop.v1.Order"
    assert pb.OrderLine.DESCRIPTOR.full_name == pa.default_model.full_name(Line)
    order = Order(7, [Line("a", Note("n"))])
    assert pb.Order.FromString(pa.serialize(order)).lines[0].note.text == "n"


def test_schema_refuses_to_mix_packages() -> None:
    @proto_contract(package="names.billing.v1")
    @dataclass
    class Receipt:
        order: Order | None = field(1, default=None)

    with pytest.raises(
        pa.ContractError, match=r"different packages.*names\.billing\.v1.*names\.shop\.v1"
    ):
        pa.default_model.schema(Receipt)
    with pytest.raises(pa.ContractError, match=r"different packages.*the package argument"):
        pa.default_model.schema(Order, package="elsewhere")
    assert "package names.shop.v1;" in pa.default_model.schema(Order, package="names.shop.v1")


def test_unpackaged_contracts_still_take_the_package_argument() -> None:
    assert "package notes;" in pa.default_model.schema(Note, package="notes")
    assert "package" not in pa.default_model.schema(Note)


def test_any_type_urls_use_the_full_name() -> None:
    packed = pa.Any.pack(Order(1))
    assert packed.type_url == "type.googleapis.com/names.shop.v1.Order"
    assert packed.unpack() == Order(1)
    unpackaged: Any = pa.Any.pack(Note("x"))
    assert unpackaged.type_url == "type.googleapis.com/Note"


# -- one file per package ------------------------------------------------------------


@proto_contract(package="names.billing.v1")
@dataclass
class Invoice:
    order: Order | None = field(1, default=None)
    total: pa.wrappers.Int64Value = field(2, default=None)
    at: pa.Timestamp | None = field(3, default=None)


def test_schema_files_one_per_package_and_protoc_accepts_them(tmp_path: Path) -> None:
    files = pa.default_model.schema_files(Invoice)
    assert sorted(files) == ["names/billing/v1.proto", "names/shop/v1.proto"]
    billing = files["names/billing/v1.proto"]
    assert "package names.billing.v1;" in billing
    assert 'import "names/shop/v1.proto";' in billing
    assert 'import "google/protobuf/wrappers.proto";' in billing
    assert "  .names.shop.v1.Order order = 1;" in billing
    assert "message Note {" in files["names/shop/v1.proto"]  # unpackaged: joins who reaches it
    assert "timestamp.proto" not in files["names/shop/v1.proto"]  # imports only what it uses

    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    data = descriptor_set([str(tmp_path / p) for p in files], [str(tmp_path)])
    pool = descriptor_pool.DescriptorPool()
    for proto in descriptor_pb2.FileDescriptorSet.FromString(data).file:
        pool.Add(proto)
    upb = message_factory.GetMessageClass(pool.FindMessageTypeByName("names.billing.v1.Invoice"))
    invoice = Invoice(Order(3, [Line("x", Note("n"))]), 0, pa.Timestamp(5, 6))
    theirs = upb.FromString(pa.serialize(invoice))
    assert theirs.order.lines[0].note.text == "n" and theirs.HasField("total")
    assert theirs.SerializeToString() == pa.serialize(invoice)


def test_schema_files_with_one_package_is_schema() -> None:
    assert pa.default_model.schema_files(Order) == {
        "names/shop/v1.proto": pa.default_model.schema(Order)
    }
    assert list(pa.default_model.schema_files(Note, package="notes")) == ["notes.proto"]


@proto_contract(package="names.ping.v1")
@dataclass
class Ping:
    pong: Pong | None = field(1, default=None)


@proto_contract(package="names.pong.v1")
@dataclass
class Pong:
    ping: Ping | None = field(1, default=None)


def test_packages_that_refer_to_each_other_cannot_be_files() -> None:
    with pytest.raises(pa.ContractError, match="refer to each other"):
        pa.default_model.schema_files(Ping)


def test_the_cli_writes_one_file_per_package(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from protoattr._cli import main

    out = tmp_path / "protos"
    assert main(["schema", "tests.test_full_names:Invoice", "--out-dir", str(out)]) == 0
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.proto"))
    assert written == ["names/billing/v1.proto", "names/shop/v1.proto"]
    assert (out / "names/shop/v1.proto").read_text() == pa.default_model.schema_files(Invoice)[
        "names/shop/v1.proto"
    ]
    assert capsys.readouterr().out.splitlines() == [
        str(out / "names/billing/v1.proto"),
        str(out / "names/shop/v1.proto"),
    ]
