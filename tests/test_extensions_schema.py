"""Extensions in exported schemas: ``extensions N to M;``, ``extend`` blocks, descriptors.

The schema of :mod:`tests.ext_schema`'s ``Base`` (an extension of every kind),
exported as proto2 and editions, is what protoc makes of the exported text
(descriptor sets compared field by field), and protoc's classes for that text write
the same bytes for the same extensions as protoattr does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from google.protobuf import descriptor_pb2

import protoattr as pa
from protoattr import field, proto_contract
from tests.ext_schema import Base, Color, G, Sub, named
from tests.protoc import assert_same_descriptor, compile_proto, protoc_file


@pytest.mark.parametrize("syntax", ["proto2", "editions"])
def test_descriptor_set_is_what_protoc_makes_of_the_schema(syntax: str, tmp_path: Path) -> None:
    text = pa.default_model.schema(Base, syntax=syntax)
    assert "  extensions 100 to 499;\n" in text and "extend Base {\n" in text
    theirs = protoc_file(text, tmp_path, "ext.proto")
    (ours,) = descriptor_pb2.FileDescriptorSet.FromString(
        pa.default_model.descriptor_set(
            Base, syntax=syntax, name="ext.proto", include_imports=False
        )
    ).file
    assert_same_descriptor(ours, theirs, syntax)


def test_protocs_classes_for_the_exported_schema_write_the_same_bytes() -> None:
    pb = compile_proto(pa.default_model.schema(Base, syntax="proto2"), "ext_exported")
    ours = Base(id=1)
    theirs = pb.Base(id=1)
    named("e_sint64").set(ours, -5)
    theirs.Extensions[pb.e_sint64] = -5
    named("p_color").set(ours, [Color.BLUE, Color.RED])
    theirs.Extensions[pb.p_color].extend([2, 0])
    named("g").set(ours, G(x=1, s="a"))
    theirs.Extensions[pb.g].x, theirs.Extensions[pb.g].s = 1, "a"
    named("r_sub").set(ours, [Sub(x=2)])
    theirs.Extensions[pb.r_sub].add().x = 2
    assert pa.serialize(ours) == theirs.SerializeToString()


def test_proto3_refuses_extension_ranges() -> None:
    with pytest.raises(pa.ContractError, match=r"Base: proto3 messages cannot declare extension"):
        pa.default_model.schema(Base)


@proto_contract(package="schemaext.a", extensions=[(10, 19), (30, 30), (1000, 536870911)])
@dataclass
class Host:
    x: pa.int32 = field(1, default=0)


here = pa.extension(Host, 10, str, name="schemaext.a.here")
elsewhere = pa.extension(Host, 11, str, name="schemaext.b.elsewhere")


def test_ranges_and_extensions_of_another_package() -> None:
    text = pa.default_model.schema(Host, syntax="proto2")
    assert "  extensions 10 to 19, 30, 1000 to max;\n" in text
    assert "extend Host {\n  optional string here = 10;\n}\n" in text
    assert "elsewhere" not in text  # it belongs to package schemaext.b's file


@proto_contract(package="schemaext.b")
@dataclass
class Foreign:
    y: pa.int32 = field(1, default=0)


foreign = pa.extension(Host, 12, Foreign, name="schemaext.b.foreign")


def test_another_packages_extension_does_not_bring_its_types() -> None:
    """Regression: an extension declared under another package (a custom option of a
    shared message) is not written, so the message type it holds is not exported either
    (it made a one-file export span two packages)."""
    text = pa.default_model.schema(Host, syntax="proto2")
    assert "Foreign" not in text and "foreign" not in text
