"""A server given no model bounds what one request may build (``SERVER_MAX_MESSAGES``).

A 140 kB request of 70,000 empty messages would otherwise make the server build
70,000 objects (a megabyte of a fatter message: gigabytes); without ``model=`` the
server decodes requests with a twin of the default model bounded at one message per
64 bytes of grpcio's 4 MiB request limit, and answers INVALID_ARGUMENT past it."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

import grpc
import pytest

import protoattr as pa
import protoattr.grpc as pg
from protoattr import field, proto_contract
from protoattr.grpc._server import SERVER_MAX_MESSAGES

TIMEOUT = 10


@proto_contract
@dataclass
class Entry:
    n: pa.int32 = field(1, default=0)


@proto_contract
@dataclass
class Batch:
    entries: list[Entry] = field(1, default_factory=list)


@proto_contract
@dataclass
class Total:
    count: pa.int32 = field(1, default=0)


@pa.service("protoattr.test.v1.Counter")
class Counter(Protocol):
    def count(self, request: Batch) -> Total: ...


class CounterImpl(Counter):
    def count(self, request: Batch) -> Total:
        return Total(len(request.entries))


@contextmanager
def serving(model: pa.TypeModel | None) -> Iterator[grpc.Channel]:
    server = grpc.server(ThreadPoolExecutor(max_workers=2))
    pg.add_service(server, Counter, CounterImpl(), model=model)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            yield channel
    finally:
        server.stop(None)


def test_a_server_without_a_model_bounds_the_messages_of_a_request() -> None:
    assert SERVER_MAX_MESSAGES == 65_536
    hostile = b"\x0a\x00" * 70_000
    fine = pa.serialize(Batch([Entry(i) for i in range(1000)]))
    with serving(None) as channel:
        call = channel.unary_unary("/protoattr.test.v1.Counter/Count")
        assert pa.deserialize(Total, call(fine, timeout=TIMEOUT)) == Total(1000)
        with pytest.raises(grpc.RpcError) as caught:
            call(hostile, timeout=TIMEOUT)
        assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert "max_messages=65536" in caught.value.details()


def test_a_model_given_to_the_server_sets_its_own_bound() -> None:
    hostile = b"\x0a\x00" * 70_000
    with serving(pa.TypeModel()) as channel:  # no max_messages: no bound
        call = channel.unary_unary("/protoattr.test.v1.Counter/Count")
        assert pa.deserialize(Total, call(hostile, timeout=TIMEOUT)) == Total(70_000)
    with serving(pa.TypeModel(max_messages=10)) as channel:
        call = channel.unary_unary("/protoattr.test.v1.Counter/Count")
        with pytest.raises(grpc.RpcError, match="max_messages=10 "):
            call(b"\x0a\x00" * 10, timeout=TIMEOUT)
