"""``google.protobuf.Empty`` (``pa.Empty``) as an RPC's request and response: in ``gen``,
``schema``, ``descriptor_set`` and reflection (issue 18, problem 3)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import grpc
import pytest
from google.protobuf import descriptor_pb2, json_format

import protoattr as pa
from protoattr._schema.gen import descriptor_set as protoc_descriptor_set
from protoattr._service import service_info
from tests.test_gen import gen_proto

THINGS = """\
syntax = "proto3";
package empty.things.v1;
import "google/protobuf/empty.proto";

message DeleteThingRequest { string name = 1; }

service Things {
  rpc DeleteThing(DeleteThingRequest) returns (google.protobuf.Empty);
  rpc Ping(google.protobuf.Empty) returns (google.protobuf.Empty);
  rpc Watch(google.protobuf.Empty) returns (stream DeleteThingRequest);
}
"""


@pa.proto_contract(package="empty.code.v1")
@dataclass
class CancelRequest:
    id: pa.int64 = pa.field(1, default=0)


@pa.service("empty.code.v1.Jobs")
class Jobs(Protocol):
    def cancel(self, request: CancelRequest) -> pa.Empty: ...

    def ping(self, request: pa.Empty) -> pa.Empty: ...


@pytest.fixture(scope="module")
def things(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return gen_proto(THINGS, tmp_path_factory.mktemp("things"), "things")


def test_gen_uses_pa_empty(things: Any) -> None:
    methods = {m.name: m for m in service_info(things.Things).methods}
    assert methods["DeleteThing"].response is pa.Empty
    assert methods["Ping"].request is pa.Empty and methods["Ping"].response is pa.Empty
    assert not hasattr(things, "Empty")  # not generated again


def test_the_generated_service_exports_what_protoc_reads(things: Any, tmp_path: Path) -> None:
    (tmp_path / "things.proto").write_text(THINGS, encoding="utf-8")
    theirs = descriptor_pb2.FileDescriptorSet.FromString(
        protoc_descriptor_set([tmp_path / "things.proto"], [str(tmp_path)])
    )
    for f in theirs.file:
        f.ClearField("source_code_info")
    (fd,) = [f for f in theirs.file if f.name == "things.proto"]
    ours = descriptor_pb2.FileDescriptorSet.FromString(
        pa.default_model.descriptor_set(things.Things, name="things.proto")
    )
    assert [f.name for f in ours.file] == ["google/protobuf/empty.proto", "things.proto"]
    assert json_format.MessageToDict(ours.file[1]) == json_format.MessageToDict(fd)
    assert ours.file[0] == next(f for f in theirs.file if f.name == ours.file[0].name)


def test_schema_of_a_code_first_service_with_empty() -> None:
    text = pa.default_model.schema(Jobs)
    assert 'import "google/protobuf/empty.proto";' in text
    assert "rpc Cancel(CancelRequest) returns (google.protobuf.Empty);" in text
    assert "rpc Ping(google.protobuf.Empty) returns (google.protobuf.Empty);" in text
    with pytest.raises(pa.ContractError, match="import that file instead"):
        pa.default_model.schema(pa.Empty)  # on its own it is still Google's to declare


def test_serves_and_reflects_with_empty() -> None:
    from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
        ProtoReflectionDescriptorDatabase,
    )

    import protoattr.grpc as pg

    class Impl:
        def cancel(self, request: CancelRequest, context: Any = None) -> pa.Empty:
            return pa.Empty()

        def ping(self, request: pa.Empty, context: Any = None) -> pa.Empty:
            return pa.Empty()

    server = grpc.server(ThreadPoolExecutor(max_workers=2))
    pg.add_service(server, Jobs, Impl())
    pg.enable_reflection(server, Jobs)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            client = pg.client(Jobs, channel, timeout=5)
            assert client.ping(pa.Empty()) == pa.Empty()
            assert client.cancel(CancelRequest(id=3)) == pa.Empty()
            db = ProtoReflectionDescriptorDatabase(channel)
            fd = db.FindFileContainingSymbol("empty.code.v1.Jobs")
            assert fd.dependency == ["google/protobuf/empty.proto"]
            ping = next(m for m in fd.service[0].method if m.name == "Ping")
            assert ping.input_type == ping.output_type == ".google.protobuf.Empty"
    finally:
        server.stop(None)
