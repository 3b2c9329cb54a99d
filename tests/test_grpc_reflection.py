"""gRPC server reflection and health checking for a protoattr server.

A reflection client that knows nothing of the service (``grpc_reflection``'s
``ProtoReflectionDescriptorDatabase``, which is what ``grpcurl``-like tools do)
lists the services, resolves the messages, and makes a call built only from
the descriptors it received.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import grpc
import grpc.aio
import pytest
from google.protobuf import descriptor_pool, message_factory
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)

import protoattr.grpc as pg
from tests.grpc_warehouse import SERVICE, AsyncWarehouseImpl, Warehouse, WarehouseImpl

TIMEOUT = 5.0
REFLECTION = "grpc.reflection.v1alpha.ServerReflection"


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    server = grpc.server(ThreadPoolExecutor(max_workers=4))
    pg.add_service(server, Warehouse, WarehouseImpl())
    pg.enable_reflection(server, Warehouse)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.stop(None)


def test_reflection_lists_the_service_and_resolves_its_messages(address: str) -> None:
    with grpc.insecure_channel(address) as channel:
        grpc.channel_ready_future(channel).result(timeout=TIMEOUT)
        database = ProtoReflectionDescriptorDatabase(channel)
        assert set(database.get_services()) == {SERVICE, REFLECTION}
        pool = descriptor_pool.DescriptorPool(database)
        service = pool.FindServiceByName(SERVICE)
        assert [m.name for m in service.methods] == ["Get", "ListItems", "Upload", "Chat"]
        item = pool.FindMessageTypeByName("protoattr.test.v1.Item")
        assert [f.name for f in item.fields] == ["id", "name", "payload", "tags", "price", "made"]
        assert item.fields_by_name["made"].message_type.full_name == "google.protobuf.Timestamp"
        assert service.methods_by_name["ListItems"].server_streaming


def test_a_call_built_from_reflected_descriptors_succeeds(address: str) -> None:
    with grpc.insecure_channel(address) as channel:
        pool = descriptor_pool.DescriptorPool(ProtoReflectionDescriptorDatabase(channel))
        method = pool.FindServiceByName(SERVICE).methods_by_name["Get"]
        query_cls = message_factory.GetMessageClass(method.input_type)
        item_cls = message_factory.GetMessageClass(method.output_type)
        call = channel.unary_unary(
            f"/{SERVICE}/Get",
            request_serializer=query_cls.SerializeToString,
            response_deserializer=item_cls.FromString,
        )
        item = call(query_cls(id=41, size=2), timeout=TIMEOUT, metadata=[("x-user", "eve")])
        assert (item.id, item.name, item.payload) == (41, "hello eve", b"xx")
        streamed = channel.unary_stream(
            f"/{SERVICE}/ListItems",
            request_serializer=query_cls.SerializeToString,
            response_deserializer=item_cls.FromString,
        )
        assert [i.id for i in streamed(query_cls(count=3), timeout=TIMEOUT)] == [0, 1, 2]


def test_reflection_on_an_aio_server_with_health_checking() -> None:
    from grpc_health.v1 import health, health_pb2, health_pb2_grpc

    async def main() -> None:
        server = grpc.aio.server()
        pg.add_service(server, Warehouse, AsyncWarehouseImpl())
        pg.enable_reflection(server, Warehouse)
        checks = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(checks, server)
        await checks.set(SERVICE, health_pb2.HealthCheckResponse.SERVING)
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                reply = await health_pb2_grpc.HealthStub(channel).Check(
                    health_pb2.HealthCheckRequest(service=SERVICE), timeout=TIMEOUT
                )
                assert reply.status == health_pb2.HealthCheckResponse.SERVING
        finally:
            await server.stop(None)
        return port

    port = asyncio.run(asyncio.wait_for(main(), 20))
    assert port > 0


def test_the_descriptor_pool_of_a_service() -> None:
    pool = pg.descriptor_pool(Warehouse)
    assert pool.FindServiceByName(SERVICE).full_name == SERVICE
    assert pool.FindMessageTypeByName("protoattr.test.v1.Summary").fields_by_name["total"].number


def test_services_of_two_packages_get_a_file_each() -> None:
    # one file per package, named as schema_files() names them; the unpackaged Query and
    # Item are declared once, in the file of the first service that uses them
    from typing import Protocol

    import protoattr as pa
    from tests.grpc_warehouse import Item, Query

    @pa.service("protoattr.test.other.v2.Lookup")
    class Lookup(Protocol):
        def find(self, request: Query) -> Item: ...

    pool = pg.descriptor_pool(Warehouse, Lookup)
    lookup = pool.FindServiceByName("protoattr.test.other.v2.Lookup")
    assert lookup.file.name == "protoattr/test/other/v2.proto"
    assert lookup.methods_by_name["Find"].input_type.full_name == "protoattr.test.v1.Query"
    assert pool.FindServiceByName(SERVICE).file.name == "protoattr/test/v1.proto"
    assert [d.name for d in lookup.file.dependencies] == ["protoattr/test/v1.proto"]
