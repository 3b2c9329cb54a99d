"""Python defaults, wire defaults and presence (issues 22.1 and 18.5).

A Python default is local (the constructor's); ``wire_default=d`` is the schema's
``[default = d]``: without presence on a plain field, with presence on an
``Optional`` one.  Pinned against upb and ``json_format``.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Protocol

import attrs
import pydantic
import pytest
from google.protobuf import descriptor_pb2, json_format, message_factory

import protoattr as pa
import protoattr.grpc as pg
from protoattr import field, member, proto_contract
from tests.protoc import compile_proto

FILE_OPTIONS = bytes.fromhex("08 05 f8 01 01")
PROTO2 = """
syntax = "proto2";
package defaults.v1;
message Opts {
  optional int32 n = 1 [default = 5];
  optional bool arenas = 31 [default = true];
}
"""


@proto_contract
@dataclasses.dataclass
class Opts:
    n: pa.int32 | None = field(1, default=None, wire_default=5)
    arenas: bool | None = field(31, default=None, wire_default=True)


@proto_contract
@dataclasses.dataclass
class Line:
    sku: str = field(1, default="")
    quantity: pa.int32 = field(2, default=1)


@proto_contract
@attrs.define
class AttrsLine:
    quantity: Annotated[pa.int32, member(2)] = 1


@proto_contract
class PydanticLine(pydantic.BaseModel):
    quantity: Annotated[pa.int32, member(2)] = 1


def test_set_to_its_default_is_kept_and_json_equals_json_format() -> None:
    pb = compile_proto(PROTO2, "defaults_opts")
    google = pb.Opts.FromString(FILE_OPTIONS)
    opts = pa.deserialize(Opts, FILE_OPTIONS)
    assert (opts.n, opts.arenas) == (5, True)
    assert pa.serialize(opts) == FILE_OPTIONS == google.SerializeToString()
    assert pa.to_dict(opts) == json_format.MessageToDict(google) == {"n": 5, "arenas": True}
    assert pa.from_json(Opts, pa.to_json(opts)) == opts
    empty = pa.deserialize(Opts, b"")
    assert (empty.n, empty.arenas) == (None, None) and pa.serialize(empty) == b""
    assert pa.to_dict(empty) == json_format.MessageToDict(pb.Opts()) == {}
    assert pb.Opts.FromString(pa.serialize(empty)).n == 5  # absent reads as 5 to a peer


def test_generated_contracts_keep_presence(tmp_path: pytest.TempPathFactory) -> None:
    from tests.test_gen import gen_proto

    pb = compile_proto(PROTO2, "defaults_gen")
    g = gen_proto(PROTO2, tmp_path, "defaults_gen")  # type: ignore[arg-type]
    relayed = pa.serialize(pa.deserialize(g.Opts, FILE_OPTIONS))
    assert relayed == FILE_OPTIONS
    assert pa.to_json(pa.deserialize(g.Opts, FILE_OPTIONS)) == json_format.MessageToJson(
        pb.Opts.FromString(FILE_OPTIONS)
    )


@pytest.mark.parametrize("cls", [Line, AttrsLine, PydanticLine])
def test_python_defaults_are_local(cls: type) -> None:
    """``quantity = 1`` is written, so a proto3 peer reads 1; a peer's 0 reads as 0."""
    pb = compile_proto(pa.default_model.schema(cls, syntax="proto3"), f"local_{cls.__name__}")
    assert pa.serialize(cls()) == b"\x10\x01"
    assert pb.__dict__[cls.__name__].FromString(pa.serialize(cls())).quantity == 1
    assert pa.deserialize(cls, b"").quantity == 0
    assert pa.to_dict(pa.deserialize(cls, b"\x10\x01")) == {"quantity": 1}


def test_wire_defaults_true_is_the_old_behaviour() -> None:
    @proto_contract(wire_defaults=True)
    @dataclasses.dataclass
    class Old:
        kind: str = field(1, default="A")
        maybe: pa.int32 | None = field(2, default=3)

    assert pa.serialize(Old(maybe=None)) == b""
    assert pa.deserialize(Old, b"").kind == "A"
    assert pa.serialize(Old("A", 3)) == b"\x10\x03"  # Optional: presence with default 3
    assert pa.deserialize(Old, b"").maybe is None
    text = pa.default_model.schema(Old, syntax="proto2")
    assert 'optional string kind = 1 [default = "A"];' in text
    assert "optional int32 maybe = 2 [default = 3];" in text


def test_wire_default_declaration_errors() -> None:
    with pytest.raises(pa.ContractError, match=r"Bad\.xs: wire_default= needs a scalar"):

        @proto_contract
        @dataclasses.dataclass
        class Bad:
            xs: list[int] = field(1, default_factory=list, wire_default=1)

    with pytest.raises(pa.ContractError, match=r"Worse\.n: default 'x' is not a int32"):

        @proto_contract
        @dataclasses.dataclass
        class Worse:
            n: pa.int32 | None = field(1, default=None, wire_default="x")

    with pytest.raises(pa.ContractError, match=r"Local\.s: default 5 is not a string"):

        @proto_contract
        @dataclasses.dataclass
        class Local:  # a Python default is still checked
            s: str = field(1, default=5)


@pa.service("defaults.v1.Options")
class OptionsService(Protocol):
    def get(self, request: Opts) -> Opts: ...


def test_reflection_and_descriptor_pool_infer_a_syntax() -> None:
    pool = pg.descriptor_pool(OptionsService)
    desc = pool.FindMessageTypeByName("defaults.v1.Opts")
    n = desc.fields_by_name["n"]
    assert n.has_presence and n.default_value == 5
    msg = message_factory.GetMessageClass(desc)()
    msg.MergeFromString(FILE_OPTIONS)
    assert msg.SerializeToString() == FILE_OPTIONS
    with pytest.raises(pa.ContractError, match="proto3 cannot declare the default"):
        pg.descriptor_pool(OptionsService, syntax="proto3")
    fds = descriptor_pb2.FileDescriptorSet.FromString(
        pa.default_model.descriptor_set(Line, syntax="proto3")
    )
    assert fds.file[0].syntax == "proto3"
    local = pg.descriptor_pool(Line).FindMessageTypeByName("Line")
    assert not local.fields_by_name["quantity"].has_presence  # proto3: implicit presence
