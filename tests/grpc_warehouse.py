"""A warehouse service for the gRPC tests: its contracts, declaration and implementations.

The same behaviour is implemented three times - a protoattr implementation
(sync), one for ``grpc.aio`` and a servicer over the messages and stubs that
``grpc_tools.protoc`` generates from ``model.schema(Warehouse)`` - so each
test can pair any client with any server:

* ``Get(Query)``: an ``Item`` named ``hello <x-user metadata>``; ``price`` is the
  deadline's time remaining; ``fail`` names a status code to fail with
  (``"crash"`` raises an unexpected exception); ``delay`` sleeps first;
  ``size`` is the payload's length.  Trailing metadata ``x-served-by``.
* ``ListItems(Query)``: ``count`` items numbered 0...; a negative count streams
  until the client cancels (``server.ended`` is set when the call ends).
* ``Upload(stream Item)``: how many, the sum of ids, the names.
* ``Chat(stream Item)``: each item back with its id doubled.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from datetime import datetime
from types import ModuleType
from typing import Any, Protocol

import grpc

import protoattr as pa
from protoattr import field, proto_contract
from protoattr.grpc import ServiceError
from tests.grpc_protoc import compile_grpc

PACKAGE = "protoattr.test.v1"
SERVICE = f"{PACKAGE}.Warehouse"


@proto_contract
@dataclass
class Query:
    id: pa.int32 = field(1, default=0)
    count: pa.int32 = field(2, default=0)
    delay: float = field(3, default=0.0)
    fail: str = field(4, default="")
    size: pa.int32 = field(5, default=0)


@proto_contract
@dataclass
class Item:
    id: pa.int32 = field(1, default=0)
    name: str = field(2, default="")
    payload: bytes = field(3, default=b"")
    tags: list[str] = field(4, default_factory=list)
    price: float | None = field(5, default=None)
    made: datetime | None = field(6, default=None)


@proto_contract
@dataclass
class Summary:
    count: pa.int32 = field(1, default=0)
    total: int = field(2, default=0)
    names: list[str] = field(3, default_factory=list)


@pa.service(SERVICE)
class Warehouse(Protocol):
    def get(self, request: Query, context: pa.CallContext) -> Item: ...

    def list_items(self, request: Query, context: pa.CallContext) -> Iterator[Item]: ...

    def upload(self, requests: Iterator[Item]) -> Summary: ...

    @pa.rpc(name="Chat")
    def converse(self, requests: Iterator[Item]) -> Iterator[Item]: ...


def generated() -> tuple[ModuleType, ModuleType]:
    """``(warehouse_pb2, warehouse_pb2_grpc)`` from the exported schema."""
    return compile_grpc(pa.default_model.schema(Warehouse), "warehouse")


def _answer(query: Query, user: str | None, remaining: float | None) -> Item:
    return Item(id=query.id, name=f"hello {user}", payload=b"x" * query.size, price=remaining)


class WarehouseImpl(Warehouse):
    """The protoattr implementation, for ``grpc.server()``."""

    def __init__(self) -> None:
        self.ended = threading.Event()
        self.cancelled_seen = False

    def get(self, request: Query, context: pa.CallContext) -> Item:
        if request.delay:
            time.sleep(request.delay)
        if request.fail == "crash":
            raise RuntimeError("the secret sauce is out")
        if request.fail:
            raise ServiceError(
                grpc.StatusCode[request.fail],
                f"no item {request.id}",
                trailing_metadata=[("x-reason", "test")],
            )
        context.set_trailing_metadata([("x-served-by", "protoattr")])
        user = context.metadata_value("x-user")
        return _answer(request, str(user) if user else None, context.time_remaining())

    def list_items(self, request: Query, context: pa.CallContext) -> Iterator[Item]:
        def done() -> None:
            self.cancelled_seen = context.cancelled
            self.ended.set()

        context.add_callback(done)
        n = 0
        while request.count < 0 or n < request.count:
            yield Item(id=n, name=f"item {n}")
            n += 1
            if request.count < 0:
                time.sleep(0.005)

    def upload(self, requests: Iterator[Item]) -> Summary:
        items = list(requests)
        return Summary(len(items), sum(i.id for i in items), [i.name for i in items])

    def converse(self, requests: Iterator[Item]) -> Iterator[Item]:
        for item in requests:
            yield Item(id=item.id * 2, name=item.name)


class AsyncWarehouseImpl:
    """The same over ``grpc.aio`` (not a subclass: any object with the methods will do)."""

    def __init__(self) -> None:
        self.ended = threading.Event()
        self.cancelled_seen = False
        self.get_cancelled = threading.Event()

    async def get(self, request: Query, context: pa.CallContext) -> Item:
        if request.delay:
            try:
                await asyncio.sleep(request.delay)
            except asyncio.CancelledError:
                self.get_cancelled.set()  # the client cancelled (or its deadline passed)
                raise
        if request.fail == "crash":
            raise RuntimeError("the secret sauce is out")
        if request.fail:
            raise ServiceError(grpc.StatusCode[request.fail], f"no item {request.id}")
        context.set_trailing_metadata([("x-served-by", "protoattr")])
        user = context.metadata_value("x-user")
        return _answer(request, str(user) if user else None, context.time_remaining())

    async def list_items(self, request: Query, context: pa.CallContext) -> AsyncIterator[Item]:
        def done() -> None:
            self.cancelled_seen = context.cancelled
            self.ended.set()

        context.add_callback(done)
        n = 0
        while request.count < 0 or n < request.count:
            yield Item(id=n, name=f"item {n}")
            n += 1
            if request.count < 0:
                await asyncio.sleep(0.005)

    async def upload(self, requests: AsyncIterator[Item]) -> Summary:
        items = [i async for i in requests]
        return Summary(len(items), sum(i.id for i in items), [i.name for i in items])

    async def converse(self, requests: AsyncIterator[Item]) -> AsyncIterator[Item]:
        async for item in requests:
            yield Item(id=item.id * 2, name=item.name)


def google_servicer(aio: bool) -> Any:
    """A servicer over Google's generated messages, with the warehouse's behaviour."""
    pb2, pb2_grpc = generated()

    def answer(request: Any, context: Any, remaining: float | None) -> Any:
        user = dict(context.invocation_metadata()).get("x-user")
        item = pb2.Item(id=request.id, name=f"hello {user}", payload=b"x" * request.size)
        if remaining is not None:
            item.price = remaining
        context.set_trailing_metadata((("x-served-by", "google"),))
        return item

    class Sync(pb2_grpc.WarehouseServicer):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            self.ended = threading.Event()
            self.cancelled_seen = False

        def Get(self, request: Any, context: Any) -> Any:
            if request.delay:
                time.sleep(request.delay)
            if request.fail:
                context.abort(grpc.StatusCode[request.fail], f"no item {request.id}")
            return answer(request, context, context.time_remaining())

        def ListItems(self, request: Any, context: Any) -> Any:
            def done() -> None:
                self.cancelled_seen = not context.is_active()
                self.ended.set()

            context.add_callback(done)
            n = 0
            while request.count < 0 or n < request.count:
                yield pb2.Item(id=n, name=f"item {n}")
                n += 1
                if request.count < 0:
                    time.sleep(0.005)

        def Upload(self, request_iterator: Any, context: Any) -> Any:
            items = list(request_iterator)
            return pb2.Summary(
                count=len(items), total=sum(i.id for i in items), names=[i.name for i in items]
            )

        def Chat(self, request_iterator: Any, context: Any) -> Any:
            for item in request_iterator:
                yield pb2.Item(id=item.id * 2, name=item.name)

    class Async(pb2_grpc.WarehouseServicer):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            self.ended = threading.Event()
            self.cancelled_seen = False

        async def Get(self, request: Any, context: Any) -> Any:
            if request.delay:
                await asyncio.sleep(request.delay)
            if request.fail:
                await context.abort(grpc.StatusCode[request.fail], f"no item {request.id}")
            return answer(request, context, context.time_remaining())

        async def ListItems(self, request: Any, context: Any) -> Any:
            # grpc.aio cancels the handler's task (context.cancelled() stays False)
            try:
                n = 0
                while request.count < 0 or n < request.count:
                    yield pb2.Item(id=n, name=f"item {n}")
                    n += 1
                    if request.count < 0:
                        await asyncio.sleep(0.005)
            except asyncio.CancelledError:
                self.cancelled_seen = True
                raise
            finally:
                self.ended.set()

        async def Upload(self, request_iterator: Any, context: Any) -> Any:
            items = [i async for i in request_iterator]
            return pb2.Summary(
                count=len(items), total=sum(i.id for i in items), names=[i.name for i in items]
            )

        async def Chat(self, request_iterator: Any, context: Any) -> Any:
            async for item in request_iterator:
                yield pb2.Item(id=item.id * 2, name=item.name)

    return Async() if aio else Sync()
