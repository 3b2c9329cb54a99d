"""Services in exported schemas: ``service`` blocks, and descriptors equal to protoc's.

``model.descriptor_set(...)`` must be what protoc makes of ``model.schema(...)``:
each case exports the text, runs protoc on it, and compares the two
``FileDescriptorProto`` messages field for field (source info aside).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory

import protoattr as pa
from protoattr import field, proto_contract
from tests import schema_models as sm
from tests.grpc_warehouse import Item, Query, Summary, Warehouse
from tests.protoc import assert_same_descriptor, protoc_file


def test_schema_of_a_service_declares_it_with_its_messages() -> None:
    text = pa.default_model.schema(Warehouse)
    assert text == (
        'syntax = "proto3";\n'
        "\n"
        "package protoattr.test.v1;\n"
        "\n"
        'import "google/protobuf/timestamp.proto";\n'
        "\n"
        "message Query {\n"
        "  int32 id = 1;\n"
        "  int32 count = 2;\n"
        "  double delay = 3;\n"
        "  string fail = 4;\n"
        "  int32 size = 5;\n"
        "}\n"
        "\n"
        "message Item {\n"
        "  int32 id = 1;\n"
        "  string name = 2;\n"
        "  bytes payload = 3;\n"
        "  repeated string tags = 4;\n"
        "  optional double price = 5;\n"
        "  google.protobuf.Timestamp made = 6;\n"
        "}\n"
        "\n"
        "message Summary {\n"
        "  int32 count = 1;\n"
        "  int64 total = 2;\n"
        "  repeated string names = 3;\n"
        "}\n"
        "\n"
        "service Warehouse {\n"
        "  rpc Get(Query) returns (Item);\n"
        "  rpc ListItems(Query) returns (stream Item);\n"
        "  rpc Upload(stream Item) returns (Summary);\n"
        "  rpc Chat(stream Item) returns (stream Item);\n"
        "}\n"
    )


def test_services_and_contracts_mix_and_the_package_must_agree() -> None:
    text = pa.default_model.schema([sm.Point, Warehouse])
    assert text.index("message Point") < text.index("service Warehouse")
    with pytest.raises(
        ValueError, match=r"Warehouse is the service protoattr\.test\.v1\.Warehouse"
    ):
        pa.default_model.schema(Warehouse, package="other")
    assert "package protoattr.test.v1;" in pa.default_model.schema(
        Warehouse, package="protoattr.test.v1"
    )


def test_a_service_named_like_a_message_is_refused() -> None:
    @proto_contract
    @dataclass
    class Echo:
        text: str = field(1, default="")

    @pa.service("echo.v1.Echo")
    class EchoService(Protocol):
        def say(self, request: Echo) -> Echo: ...

    with pytest.raises(pa.ContractError, match="both named 'Echo'"):
        pa.default_model.schema(EchoService)


def _ours(roots: Any, syntax: str, name: str, package: str | None) -> Any:
    data = pa.default_model.descriptor_set(
        roots, syntax=syntax, name=name, package=package, include_imports=False
    )
    (fd,) = descriptor_pb2.FileDescriptorSet.FromString(data).file
    return fd


CASES = [
    ("warehouse", Warehouse, "proto3", None),
    ("warehouse_editions", Warehouse, "editions", None),
    ("canvas2", [sm.Canvas, sm.Vehicle], "proto2", "pkg.shapes"),
    ("card2", sm.Card, "proto2", None),
] + [  # every contract of the schema tests, in every syntax that can declare it
    (f"{cls.__name__.lower()}_{syntax}", cls, syntax, f"pkg.{syntax}")
    for cls, syntaxes, _ in sm.SAMPLES
    for syntax in syntaxes
]


@pytest.mark.parametrize(("stem", "roots", "syntax", "package"), CASES, ids=[c[0] for c in CASES])
def test_descriptor_is_what_protoc_makes_of_the_schema(
    stem: str, roots: Any, syntax: str, package: str | None, tmp_path: Path
) -> None:
    name = f"{stem}.proto"
    text = pa.default_model.schema(roots, syntax=syntax, package=package)
    theirs = protoc_file(text, tmp_path, name)
    ours = _ours(roots, syntax, name, package)
    assert_same_descriptor(ours, theirs, syntax)


def test_proto2_defaults_are_spelled_as_protoc_spells_them(tmp_path: Path) -> None:
    @proto_contract(name="Defaults")
    @dataclass
    class Defaults:
        count: pa.int32 = field(1, default=7)
        ratio: pa.float32 = field(2, default=0.1)
        scale: float = field(3, default=-1e100)
        on: bool = field(4, default=True)
        greeting: str = field(5, default='hé "quoted" \\ \n')
        magic: bytes = field(6, default=b"\x00\xffA\x7f'\"\t")
        hue: sm.Hue = field(7, default=sm.Hue.GREEN)
        inf: float = field(8, default=float("-inf"))
        third: float = field(9, default=1 / 3)

    text = pa.default_model.schema(Defaults, syntax="proto2", package="pkg.defaults")
    theirs = protoc_file(text, tmp_path, "defaults.proto")
    ours = _ours(Defaults, "proto2", "defaults.proto", "pkg.defaults")
    theirs.ClearField("syntax")
    ours.ClearField("syntax")
    assert json_format.MessageToDict(ours) == json_format.MessageToDict(theirs)


def test_what_a_syntax_cannot_say_is_refused_as_in_schema_text() -> None:
    with pytest.raises(pa.ContractError, match=r"Legacy\.key: proto3 has no required fields"):
        pa.default_model.descriptor_set(sm.Legacy, syntax="proto3")
    with pytest.raises(ValueError, match="syntax must be one of"):
        pa.default_model.descriptor_set(sm.Point, syntax="proto4")


def test_the_descriptor_set_loads_into_a_pool_and_its_classes_read_our_bytes() -> None:
    data = pa.default_model.descriptor_set(Warehouse)
    files = descriptor_pb2.FileDescriptorSet.FromString(data)
    assert [f.name for f in files.file] == [
        "google/protobuf/timestamp.proto",
        "protoattr/test/v1/warehouse.proto",
    ]
    pool = descriptor_pool.DescriptorPool()
    for f in files.file:
        pool.Add(f)
    service = pool.FindServiceByName("protoattr.test.v1.Warehouse")
    shapes = {
        m.name: (m.client_streaming, m.server_streaming, m.input_type.name, m.output_type.name)
        for m in service.methods
    }
    assert shapes == {
        "Get": (False, False, "Query", "Item"),
        "ListItems": (False, True, "Query", "Item"),
        "Upload": (True, False, "Item", "Summary"),
        "Chat": (True, True, "Item", "Item"),
    }
    item_cls = message_factory.GetMessageClass(pool.FindMessageTypeByName("protoattr.test.v1.Item"))
    ours = Item(id=3, name="bolt", tags=["a"], price=0.0)
    theirs = item_cls.FromString(pa.serialize(ours))
    assert (theirs.id, theirs.name, list(theirs.tags), theirs.HasField("price")) == (
        3,
        "bolt",
        ["a"],
        True,
    )
    assert theirs.SerializeToString() == pa.serialize(ours)
    assert pa.deserialize(Summary, pa.serialize(Summary(1, 2, ["x"]))) == Summary(1, 2, ["x"])
    assert isinstance(Query(), Query)


def test_the_file_name_follows_the_package() -> None:
    (fd,) = descriptor_pb2.FileDescriptorSet.FromString(
        pa.default_model.descriptor_set(sm.Point, include_imports=False)
    ).file
    assert fd.name == "point.proto"
    assert not fd.package


@pa.service("gen.v1.Streams")
class _Shapes(Protocol):
    def one(self, request: sm.Point) -> sm.Point: ...

    def many(self, requests: Iterator[sm.Point]) -> Iterator[sm.Point]: ...


SERVICE_MODULE = """
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

import protoattr as pa


@pa.proto_contract
@dataclass
class Ping:
    n: pa.int32 = pa.field(1, default=0)


@pa.service("cli.v1.Pinger")
class Pinger(Protocol):
    def ping(self, request: Ping) -> Iterator[Ping]: ...
"""


def test_the_command_line_exports_a_service(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / "pinger.py").write_text(SERVICE_MODULE, encoding="utf-8")
    root = Path(__file__).resolve().parent.parent
    expected = (
        'syntax = "proto3";\n\npackage cli.v1;\n\nmessage Ping {\n  int32 n = 1;\n}\n\n'
        "service Pinger {\n  rpc Ping(Ping) returns (stream Ping);\n}\n"
    )
    for target in ("pinger.py:Pinger", "pinger.py"):  # the service, or the whole module
        result = subprocess.run(
            [sys.executable, "-m", "protoattr", "schema", target],
            cwd=tmp_path,
            env={"PYTHONPATH": str(root), "PATH": ""},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert (result.returncode, result.stdout, result.stderr) == (0, expected, ""), target
