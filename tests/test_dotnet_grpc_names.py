"""protobuf-net.Grpc's naming rules, pinned: the paths a Python client or server must use
to meet a .NET code-first peer.

Read from protobuf-net.Grpc's ServiceBinder: a contract's service name is its
``[Service("...")]`` name, else ``Namespace.TypeName`` with an interface's leading ``I``
dropped; an operation's name is its ``[Operation("...")]`` name, else the method's
name with a trailing ``Async`` dropped; a no-argument or ``void`` operation takes or
returns ``google.protobuf.Empty``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol

import pytest

import protoattr as pa
from protoattr._service import grpc_method_name, service_info


@pa.proto_contract
@dataclass
class MultiplyRequest:
    x: int = pa.field(1, default=0)
    y: int = pa.field(2, default=0)


@pa.proto_contract
@dataclass
class MultiplyResult:
    result: int = pa.field(1, default=0)


# public interface ICalculator { ValueTask<MultiplyResult> MultiplyAsync(MultiplyRequest r); }
# in namespace MegaCorp; plus ValueTask PingAsync() and [Operation("Sum")] Add...
@pa.service(pa.dotnet_service_name("MegaCorp", "ICalculator"), naming="protobuf-net")
class Calculator(Protocol):
    def multiply_async(self, request: MultiplyRequest) -> MultiplyResult: ...
    def ping_async(self, request: pa.Empty, context: pa.CallContext) -> pa.Empty: ...
    @pa.rpc(name="Sum")
    def add_async(self, request: MultiplyRequest) -> MultiplyResult: ...
    def Divide(self, request: MultiplyRequest) -> MultiplyResult: ...
    def ticks_async(self, request: pa.Empty) -> AsyncIterator[MultiplyResult]: ...


def paths(cls: type) -> list[str]:
    info = service_info(cls)
    return [f"/{info.full_name}/{m.name}" for m in info.methods]


def test_protobuf_net_paths() -> None:
    assert paths(Calculator) == [
        "/MegaCorp.Calculator/Multiply",
        "/MegaCorp.Calculator/Ping",
        "/MegaCorp.Calculator/Sum",
        "/MegaCorp.Calculator/Divide",
        "/MegaCorp.Calculator/Ticks",
    ]
    ping = service_info(Calculator).method("ping_async")
    assert ping.request is pa.Empty and ping.response is pa.Empty and ping.takes_context


def test_service_name_rules() -> None:
    assert pa.dotnet_service_name("MyCompany.Services", "ICalculator") == (
        "MyCompany.Services.Calculator"
    )
    assert pa.dotnet_service_name("A.B", "Inventory") == "A.B.nventory"  # .NET drops any "I"
    assert pa.dotnet_service_name("A.B", "Calculator", interface=False) == "A.B.Calculator"
    assert pa.dotnet_service_name("A.B", "ICalc", interface=False) == "A.B.ICalc"
    with pytest.raises(ValueError, match="namespace"):
        pa.dotnet_service_name("", "ICalc")


@pytest.mark.parametrize(
    ("attr", "grpc", "protobuf_net"),
    [
        ("get_product", "GetProduct", "GetProduct"),
        ("get_product_async", "GetProductAsync", "GetProduct"),
        ("GetProductAsync", "GetProductAsync", "GetProduct"),
        ("async_", "Async", "Async"),  # nothing left: kept
        ("asyncio_work", "AsyncioWork", "AsyncioWork"),
    ],
)
def test_method_names(attr: str, grpc: str, protobuf_net: str) -> None:
    assert grpc_method_name(attr) == grpc
    assert grpc_method_name(attr, "protobuf-net") == protobuf_net


def test_default_naming_keeps_async() -> None:
    @pa.service("MegaCorp.Calculator")
    class Plain(Protocol):
        def multiply_async(self, request: MultiplyRequest) -> MultiplyResult: ...

    assert paths(Plain) == ["/MegaCorp.Calculator/MultiplyAsync"]
    with pytest.raises(pa.ContractError, match="naming"):
        pa.service("A.B", naming="dotnet")


class CalculatorImpl:
    def multiply_async(self, request: MultiplyRequest) -> MultiplyResult:
        return MultiplyResult(request.x * request.y)

    def ping_async(self, request: pa.Empty, context: pa.CallContext) -> pa.Empty:
        return pa.Empty()

    def add_async(self, request: MultiplyRequest) -> MultiplyResult:
        return MultiplyResult(request.x + request.y)

    def Divide(self, request: MultiplyRequest) -> MultiplyResult:
        return MultiplyResult(request.x // request.y)

    def ticks_async(self, request: pa.Empty) -> AsyncIterator[MultiplyResult]:
        raise NotImplementedError


def test_a_python_server_answers_on_the_dotnet_paths() -> None:
    grpc = pytest.importorskip("grpc")
    import protoattr.grpc as pg

    server = grpc.server(ThreadPoolExecutor(max_workers=2))
    pg.add_service(server, Calculator, CalculatorImpl())
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            # what a .NET code-first client of ICalculator.MultiplyAsync sends, as raw bytes
            call = channel.unary_unary("/MegaCorp.Calculator/Multiply")
            assert call(b"\x08\x06\x10\x07", timeout=5) == b"\x08\x2a"
            assert channel.unary_unary("/MegaCorp.Calculator/Ping")(b"", timeout=5) == b""
            client = pg.client(Calculator, channel)
            assert client.add_async(MultiplyRequest(2, 3), timeout=5) == MultiplyResult(5)
    finally:
        server.stop(None)


# ValueTask PingAsync(); ValueTask ResetAsync(CallContext context = default);
# ValueTask<MultiplyResult> LastAsync(); ValueTask StoreAsync(MultiplyResult result)
@pa.service("MegaCorp.Memory", naming="protobuf-net")
class Memory(Protocol):
    def ping_async(self) -> None: ...
    def reset_async(self, context: pa.CallContext = pa.CallContext.NONE) -> None: ...
    def last_async(self) -> MultiplyResult: ...
    def store_async(self, request: MultiplyResult) -> None: ...


class MemoryImpl:
    def __init__(self) -> None:
        self.value = MultiplyResult(0)
        self.resets: list[bool] = []

    def ping_async(self) -> None:
        return None

    def reset_async(self, context: pa.CallContext) -> None:
        self.resets.append(context is not None)
        self.value = MultiplyResult(0)

    def last_async(self) -> MultiplyResult:
        return self.value

    def store_async(self, request: MultiplyResult) -> None:
        self.value = request


def test_void_and_no_argument_operations_are_empty_on_the_wire() -> None:
    info = service_info(Memory)
    assert [(m.name, m.request, m.response) for m in info.methods] == [
        ("Ping", pa.Empty, pa.Empty),
        ("Reset", pa.Empty, pa.Empty),
        ("Last", pa.Empty, MultiplyResult),
        ("Store", MultiplyResult, pa.Empty),
    ]
    assert "rpc Ping(google.protobuf.Empty) returns (google.protobuf.Empty);" in (
        pa.default_model.schema(Memory)
    )
    grpc = pytest.importorskip("grpc")
    import protoattr.grpc as pg

    impl = MemoryImpl()
    server = grpc.server(ThreadPoolExecutor(max_workers=2))
    pg.add_service(server, Memory, impl)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            # a .NET code-first client sends an empty message and reads one back
            assert channel.unary_unary("/MegaCorp.Memory/Ping")(b"", timeout=5) == b""
            client = pg.client(Memory, channel)
            assert client.ping_async(timeout=5) is None
            assert client.store_async(MultiplyResult(42), timeout=5) is None
            assert client.last_async(timeout=5) == MultiplyResult(42)
            assert client.reset_async(timeout=5) is None
            assert impl.resets == [True] and impl.value == MultiplyResult(0)
    finally:
        server.stop(None)


def test_only_the_protobuf_net_naming_maps_void_to_empty() -> None:
    with pytest.raises(pa.ContractError, match="an RPC takes a request"):

        @pa.service("MegaCorp.Plain")
        class Plain(Protocol):
            def ping(self) -> MultiplyResult: ...

    with pytest.raises(pa.ContractError, match="is not a contract"):

        @pa.service("MegaCorp.Plain2")
        class Plain2(Protocol):
            def store(self, request: MultiplyResult) -> None: ...


class AsyncMemoryImpl(MemoryImpl):
    async def ping_async(self) -> None:  # type: ignore[override]
        return None

    async def last_async(self) -> MultiplyResult:  # type: ignore[override]
        return self.value


def test_void_operations_over_grpc_aio() -> None:
    import asyncio

    grpc = pytest.importorskip("grpc")
    import protoattr.grpc as pg

    async def main() -> None:
        server = grpc.aio.server()
        pg.add_service(server, Memory, AsyncMemoryImpl())
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                client = pg.client(Memory, channel)
                assert await client.ping_async(timeout=5) is None
                assert await client.store_async(MultiplyResult(7), timeout=5) is None
                assert await client.last_async(timeout=5) == MultiplyResult(7)
                raw = channel.unary_unary("/MegaCorp.Memory/Ping")
                assert await raw(b"", timeout=5) == b""
        finally:
            await server.stop(None)

    asyncio.run(main())
