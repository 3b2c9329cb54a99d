"""Declaring services: shapes, names, the call context, and errors naming Class.method."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator, Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

import pytest

import protoattr as pa
from protoattr import field, proto_contract
from protoattr._service import grpc_method_name, is_service, service_info


@proto_contract
@dataclass
class Ping:
    n: pa.int32 = field(1, default=0)


@proto_contract
@dataclass
class Pong:
    n: pa.int32 = field(1, default=0)


@pa.service("test.v1.Shapes")
class Shapes(Protocol):
    def unary(self, request: Ping) -> Pong: ...

    def server_stream(self, request: Ping, context: pa.CallContext) -> Iterator[Pong]: ...

    def client_stream(self, requests: Iterable[Ping]) -> Pong: ...

    def bidi(
        self, requests: AsyncIterator[Ping], ctx: pa.CallContext | None = None
    ) -> AsyncIterator[Pong]: ...

    @pa.rpc(name="GetHTTPStatus")
    def http_status(self, request: Ping) -> Pong: ...

    def _helper(self) -> None:  # private: not an RPC
        ...


def test_shapes_names_and_context_are_read_from_the_declaration() -> None:
    info = service_info(Shapes)
    assert (info.full_name, info.package, info.name) == ("test.v1.Shapes", "test.v1", "Shapes")
    table = [(m.attr, m.name, m.shape, m.takes_context) for m in info.methods]
    assert table == [
        ("unary", "Unary", "unary_unary", False),
        ("server_stream", "ServerStream", "unary_stream", True),
        ("client_stream", "ClientStream", "stream_unary", False),
        ("bidi", "Bidi", "stream_stream", True),
        ("http_status", "GetHTTPStatus", "unary_unary", False),
    ]
    assert all((m.request, m.response) == (Ping, Pong) for m in info.methods)
    assert is_service(Shapes) and not is_service(Ping)


def test_method_names_are_pascal_case() -> None:
    assert grpc_method_name("get_product") == "GetProduct"
    assert grpc_method_name("list") == "List"
    assert grpc_method_name("get_v2_item") == "GetV2Item"


def test_a_service_inherits_its_bases_rpcs() -> None:
    @pa.service("test.v1.More")
    class More(Shapes, Protocol):
        def extra(self, request: Pong) -> Ping: ...

    names = [m.name for m in service_info(More).methods]
    assert names[-1] == "Extra" and names[:-1] == [m.name for m in service_info(Shapes).methods]


@pa.service("test.v1.Later")
class Later(Protocol):
    def get(self, request: Ping) -> LaterReply: ...


@proto_contract
@dataclass
class LaterReply:  # declared after the service that uses it
    ok: bool = field(1, default=False)


def test_a_forward_reference_resolves_on_first_use() -> None:
    assert service_info(Later).methods[0].response is LaterReply


def _declare(body: str) -> None:
    namespace = {
        "pa": pa,
        "Ping": Ping,
        "Pong": Pong,
        "Iterator": Iterator,
        "Protocol": Protocol,
        "int": int,
    }
    exec(body, namespace)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "def get(self, request: int) -> Pong: ...",
            r"Bad\.get: the request type int is not a contract \(decorate it with @proto_con",
        ),
        (
            "def get(self, request: Ping) -> dict: ...",
            r"Bad\.get: the response type dict is not a contract",
        ),
        ("def get(self, request: Ping) -> Iterator: ...", r"Bad\.get: say what the response"),
        ("def get(self, request) -> Pong: ...", r"Bad\.get: annotate the request parameter"),
        ("def get(self, request: Ping): ...", r"Bad\.get: annotate the response type"),
        ("def get(self) -> Pong: ...", r"Bad\.get: an RPC takes a request"),
        (
            "def get(self, request: Ping, context: Ping) -> Pong: ...",
            r"Bad\.get: the second parameter 'context' must be a CallContext, not Ping",
        ),
        (
            "def get(self, request: Ping, a: pa.CallContext, b: int) -> Pong: ...",
            r"Bad\.get: an RPC takes the request and optionally a CallContext",
        ),
        (
            "def get(self, request: Ping, *, timeout: float) -> Pong: ...",
            r"Bad\.get: an RPC takes the request and optionally a CallContext",
        ),
        (
            "@staticmethod\n    def get(request: Ping) -> Pong: ...",
            r"Bad\.get: an RPC is an instance method, not a staticmethod",
        ),
        (
            "def get_x(self, request: Ping) -> Pong: ...\n"
            "    @pa.rpc(name='GetX')\n    def other(self, request: Ping) -> Pong: ...",
            r"Bad\.other: the gRPC method name 'GetX' is also Bad\.get_x's",
        ),
        ("x = 1", r"Bad: a service needs at least one public method"),
    ],
)
def test_bad_declarations_name_the_method(body: str, message: str) -> None:
    source = f"@pa.service('test.v1.Bad')\nclass Bad(Protocol):\n    {body}\n"
    with pytest.raises(pa.ContractError, match=message):
        _declare(source)


def test_bad_names_are_refused() -> None:
    with pytest.raises(pa.ContractError, match="full service name"):
        pa.service("shop v1")
    with pytest.raises(pa.ContractError, match="not a valid gRPC method name"):
        pa.rpc(name="Get-Product")
    with pytest.raises(pa.ContractError, match="is not a service"):
        service_info(Ping)


def test_a_client_side_call_context_carries_options() -> None:
    context = pa.CallContext(timeout=2.5, metadata={"x-user": "ada"}, wait_for_ready=True)
    assert context.metadata == (("x-user", "ada"),)
    assert context.metadata_value("X-User") == "ada"
    assert context.time_remaining() == 2.5
    assert context.peer is None and not context.cancelled
    with pytest.raises(RuntimeError, match="for handlers"):
        context.set_trailing_metadata({"a": "b"})


def test_import_protoattr_grpc_without_grpcio_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['grpc'] = None\n"
        "import protoattr\n"
        "try:\n    import protoattr.grpc\n"
        "except ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert "pip install 'protoattr[grpc]'" in out.stdout


def test_call_context_none_is_an_unchangeable_default() -> None:
    none = pa.CallContext.NONE
    assert repr(none) == "CallContext.NONE" and isinstance(none, pa.CallContext)
    assert none.metadata == () and none.time_remaining() is None
    with pytest.raises(AttributeError, match=r"CallContext\.NONE cannot be changed"):
        none.timeout = 3.0
