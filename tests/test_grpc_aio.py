"""Services over ``grpc.aio``: async implementations, async clients, Google's aio stubs.

Each test runs its own event loop (``asyncio.run``) with a server on
127.0.0.1 and an ephemeral port, stopped in ``finally``; every call has a
timeout and every test an overall bound.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
import grpc.aio
import pytest

import protoattr as pa
import protoattr.grpc as pg
from tests.grpc_warehouse import (
    SERVICE,
    AsyncWarehouseImpl,
    Item,
    Query,
    Summary,
    Warehouse,
    WarehouseImpl,
    generated,
    google_servicer,
)

TIMEOUT = 5.0
LIMIT = 4 * 1024 * 1024

Body = Callable[[Any, grpc.aio.Channel], Awaitable[None]]


def run(kind: str, body: Body) -> None:
    """Serve the warehouse (``"protoattr"``, ``"protoattr-sync"`` or ``"google"``), run ``body``."""

    async def main() -> None:
        server = grpc.aio.server()
        impl: Any
        if kind == "protoattr":
            impl = AsyncWarehouseImpl()
            pg.add_service(server, Warehouse, impl)
        elif kind == "google":
            impl = google_servicer(aio=True)
            generated()[1].add_WarehouseServicer_to_server(impl, server)
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                await asyncio.wait_for(body(impl, channel), 20)
        finally:
            await server.stop(None)

    asyncio.run(main())


both = pytest.mark.parametrize("kind", ["protoattr", "google"])


async def items(n: int) -> AsyncIterator[Item]:
    for i in range(n):
        yield Item(id=i, name=f"n{i}")
        await asyncio.sleep(0)


@both
def test_all_four_shapes(kind: str) -> None:
    async def body(impl: Any, channel: grpc.aio.Channel) -> None:
        client = pg.client(Warehouse, channel)
        context = pa.CallContext(timeout=TIMEOUT, metadata=[("x-user", "ada")])
        item = await client.get(Query(id=7, size=2), context)  # type: ignore[misc]
        assert (item.id, item.name, item.payload) == (7, "hello ada", b"xx")
        assert item.price is not None and 0 < item.price <= TIMEOUT + 0.1  # deadlines round up
        served = "protoattr" if kind == "protoattr" else "google"
        assert ("x-served-by", served) in context.trailing_metadata
        context = pa.CallContext(timeout=TIMEOUT)
        stream = client.list_items(Query(count=30), context)
        got = [i async for i in stream]  # type: ignore[attr-defined]
        assert got == [Item(id=n, name=f"item {n}") for n in range(30)]
        assert context.code is grpc.StatusCode.OK
        summary = await client.upload(items(10), timeout=TIMEOUT)  # type: ignore[arg-type,misc]
        assert summary == Summary(10, 45, [f"n{i}" for i in range(10)])
        # a plain iterable is fine for an async client too
        summary = await client.upload([Item(id=2), Item(id=3)], timeout=TIMEOUT)  # type: ignore[arg-type,misc]
        assert summary.total == 5
        replies = client.converse(items(5), timeout=TIMEOUT)  # type: ignore[arg-type]
        assert [r.id async for r in replies] == [0, 2, 4, 6, 8]  # type: ignore[attr-defined]

    run(kind, body)


def test_aio_client_is_the_async_client_typed_as_one() -> None:
    """Issue 22.9: ``aio_client`` calls as ``client`` does over aio, with its own type."""

    async def body(impl: Any, channel: grpc.aio.Channel) -> None:
        client = pg.aio_client(Warehouse, channel, timeout=TIMEOUT)
        assert isinstance(client, pg.AsyncClient)
        assert isinstance(pg.client(Warehouse, channel), pg.AsyncClient)  # the same kind of client
        context = pa.CallContext(metadata=[("x-user", "ada")])
        item = await client.get(Query(id=7, size=2), context, timeout=TIMEOUT)
        assert item.name == "hello ada"
        got = [i.id async for i in client.list_items(Query(count=3), timeout=TIMEOUT)]
        assert got == [0, 1, 2]
        assert (await client.upload(items(3))).total == 3
        assert [r.id async for r in client.converse(items(2))] == [0, 2]
        with pytest.raises(AttributeError, match=f"{SERVICE} has no RPC 'nothing'"):
            client.nothing  # noqa: B018

    run("protoattr", body)
    with (
        grpc.insecure_channel("127.0.0.1:1") as sync_channel,
        pytest.raises(TypeError, match=r"aio_client\(\) takes a grpc\.aio\.Channel, not"),
    ):
        pg.aio_client(Warehouse, sync_channel)


@both
def test_status_deadline_and_size_limit(kind: str) -> None:
    async def body(impl: Any, channel: grpc.aio.Channel) -> None:
        client = pg.client(Warehouse, channel)
        with pytest.raises(pg.ServiceError) as caught:
            await client.get(Query(id=2, fail="ALREADY_EXISTS"), timeout=TIMEOUT)  # type: ignore[misc]
        assert caught.value.code() is grpc.StatusCode.ALREADY_EXISTS
        assert caught.value.details() == "no item 2"
        with pytest.raises(pg.ServiceError) as caught:
            await client.get(Query(delay=1.0), timeout=0.1)  # type: ignore[misc]
        assert caught.value.code() is grpc.StatusCode.DEADLINE_EXCEEDED
        near = await client.get(Query(size=LIMIT - 1024), timeout=TIMEOUT)  # type: ignore[misc]
        assert len(near.payload) == LIMIT - 1024
        with pytest.raises(pg.ServiceError) as caught:
            await client.get(Query(size=LIMIT + 1), timeout=TIMEOUT)  # type: ignore[misc]
        assert caught.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED

    run(kind, body)


@both
def test_cancelling_a_stream_midway(kind: str) -> None:
    async def body(impl: Any, channel: grpc.aio.Channel) -> None:
        client = pg.client(Warehouse, channel)
        stream = client.list_items(Query(count=-1), timeout=TIMEOUT)
        first = [await stream.__anext__() for _ in range(3)]  # type: ignore[attr-defined]
        assert [i.id for i in first] == [0, 1, 2]
        assert stream.cancel()  # type: ignore[attr-defined]
        for _ in range(200):
            if impl.ended.is_set():
                break
            await asyncio.sleep(0.01)
        assert impl.ended.is_set(), "the server never saw the call end"
        assert impl.cancelled_seen

    run(kind, body)


def test_cancelling_an_awaited_unary_call_reaches_the_server() -> None:
    async def body(impl: Any, channel: grpc.aio.Channel) -> None:
        client = pg.client(Warehouse, channel)
        task = asyncio.ensure_future(client.get(Query(delay=5.0), timeout=TIMEOUT))  # type: ignore[arg-type]
        await asyncio.sleep(0.2)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        for _ in range(200):
            if impl.get_cancelled.is_set():
                break
            await asyncio.sleep(0.01)
        assert impl.get_cancelled.is_set(), "the handler was not cancelled"

    run("protoattr", body)


def test_generated_aio_stub_against_a_protoattr_server(caplog: pytest.LogCaptureFixture) -> None:
    pb2, pb2_grpc = generated()

    async def body(impl: Any, channel: grpc.aio.Channel) -> None:
        stub = pb2_grpc.WarehouseStub(channel)
        call = stub.Get(pb2.Query(id=3), timeout=TIMEOUT, metadata=[("x-user", "lin")])
        item = await call
        assert (item.id, item.name) == (3, "hello lin")
        assert ("x-served-by", "protoattr") in tuple(await call.trailing_metadata())
        got = [i.id async for i in stub.ListItems(pb2.Query(count=4), timeout=TIMEOUT)]
        assert got == [0, 1, 2, 3]
        summary = await stub.Upload(iter([pb2.Item(id=1), pb2.Item(id=2)]), timeout=TIMEOUT)
        assert summary.total == 3
        replies = stub.Chat(iter([pb2.Item(id=4)]), timeout=TIMEOUT)
        assert [r.id async for r in replies] == [8]
        with (
            caplog.at_level(logging.ERROR, logger="protoattr.grpc"),
            pytest.raises(grpc.aio.AioRpcError) as caught,
        ):
            await stub.Get(pb2.Query(fail="crash"), timeout=TIMEOUT)
        assert caught.value.code() is grpc.StatusCode.INTERNAL
        assert "secret" not in (caught.value.details() or "")
        assert any("secret sauce" in str(r.exc_info[1]) for r in caplog.records if r.exc_info)
        raw = channel.unary_unary(f"/{SERVICE}/Get")
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await raw(b"\x0a\x05ab", timeout=TIMEOUT)
        assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert "not a valid Query" in (caught.value.details() or "")
        assert (await stub.Get(pb2.Query(id=8), timeout=TIMEOUT)).id == 8  # still serving
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await stub.Get(pb2.Query(delay=1.0), timeout=0.1)
        assert caught.value.code() is grpc.StatusCode.DEADLINE_EXCEEDED

    run("protoattr", body)


def test_plain_methods_serve_on_an_aio_server() -> None:
    """Plain unary/server-streaming methods run on the loop, stream readers in a thread."""

    async def main() -> None:
        server = grpc.aio.server()
        pg.add_service(server, Warehouse, WarehouseImpl())
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                client = pg.client(Warehouse, channel, timeout=TIMEOUT)
                item = await client.get(Query(id=4))  # type: ignore[misc]
                assert item.id == 4
                got = client.list_items(Query(count=3))
                assert [i.id async for i in got] == [0, 1, 2]  # type: ignore[attr-defined]
                summary = await client.upload(items(50))  # type: ignore[arg-type,misc]
                assert summary == Summary(50, 1225, [f"n{i}" for i in range(50)])
                replies = client.converse(items(30))  # type: ignore[arg-type]
                assert [r.id async for r in replies] == [2 * i for i in range(30)]  # type: ignore[attr-defined]
                upload = channel.stream_unary(f"/{SERVICE}/Upload")
                with pytest.raises(grpc.aio.AioRpcError) as caught:
                    await upload(iter([b"\x08\x01", b"\xff"]), timeout=TIMEOUT)
                assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
                assert "not a valid Item" in (caught.value.details() or "")
                assert (await client.upload([Item(id=7)])).total == 7  # type: ignore[misc,list-item]
        finally:
            await server.stop(None)

    asyncio.run(asyncio.wait_for(main(), 20))


CANCEL_THREADED = """
import asyncio, grpc, grpc.aio
import protoattr.grpc as pg
from tests.grpc_warehouse import Item, Warehouse, WarehouseImpl

async def endless():
    n = 0
    while True:
        yield Item(id=n)
        n += 1
        await asyncio.sleep(0.001)

async def main():
    server = grpc.aio.server()
    pg.add_service(server, Warehouse, WarehouseImpl())
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            client = pg.client(Warehouse, channel, timeout=5)
            stream = client.converse(endless())
            print([(await stream.__anext__()).id for _ in range(3)])
            stream.cancel()
            upload = asyncio.ensure_future(client.upload(endless()))
            await asyncio.sleep(0.2)
            upload.cancel()
            try:
                await upload
            except asyncio.CancelledError:
                print("cancelled")
    finally:
        await server.stop(None)

asyncio.run(main())
"""


def test_cancelling_streams_read_by_a_worker_thread_ends_cleanly() -> None:
    """A plain stream-reading method on an aio server: cancelled calls leave no stuck thread.

    Run in a subprocess, so that a thread left blocked would show as a timeout
    (``asyncio.run`` waits for the default executor) rather than hang the suite.
    """
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    result = subprocess.run(
        [sys.executable, "-c", CANCEL_THREADED],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["[0,", "2,", "4]", "cancelled"]
