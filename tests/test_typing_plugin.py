"""protoattr's mypy plugin (``plugins = ["protoattr.mypy"]``), checked by running mypy.

Issue 22.9: ``mypy --strict`` flags a missing ``pa.field(n)`` argument, an aio
client's methods are coroutines, and every client method takes grpcio's call
keywords.  Each script marks the diagnostics mypy must give on a line with a
trailing ``# E: ...`` (an error) or ``# N: ...`` (a note); every other line must
be clean.  One mypy run checks them all (mypy is slow to start).
"""

# ruff: noqa: E501  (the scripts' lines carry mypy's messages whole)

from __future__ import annotations

import inspect
import os
import re
import sys
from pathlib import Path

import pytest

CONFIG = """
[mypy]
strict = True
plugins = protoattr.mypy

[mypy-grpc,grpc.*]
ignore_missing_imports = True
"""

CONTRACTS = """
from __future__ import annotations
from dataclasses import dataclass
import protoattr as pa
from protoattr import field

@pa.proto_contract
@dataclass
class Task:
    id: pa.int32 = field(1)
    created_by: str = pa.field(2)
    content: str = field(3, default="")
    tags: list[str] = field(4, default_factory=list)

@pa.proto_contract
@dataclass(kw_only=True)
class Flags:
    on: bool = field(1)
    loud: bool = field(2, default=False)

@dataclass
class Urgent(Task):  # a plain subclass: the inherited fields stay required
    level: int = 0

Task(1, "ada")
Task(id=1, created_by="ada", content="x", tags=["a"])
Task(1)  # E: Missing positional argument "created_by" in call to "Task"  [call-arg]
Task()  # E: Missing positional arguments "id", "created_by" in call to "Task"  [call-arg]
Task(1, 2)  # E: Argument 2 to "Task" has incompatible type "int"; expected "str"  [arg-type]
Flags(on=True)
Flags(loud=True)  # E: Missing named argument "on" for "Flags"  [call-arg]
Urgent(1, "ada", level=2)
Urgent(level=2)  # E: Missing positional arguments "id", "created_by" in call to "Urgent"  [call-arg]
"""

# another module: what the plugin learnt about a class travels with it
IMPORTER = """
from contracts import Task

Task("x", "y")  # E: Argument 1 to "Task" has incompatible type "str"; expected "int"  [arg-type]
Task(created_by="ada")  # E: Missing positional argument "id" in call to "Task"  [call-arg]
"""

SERVICE = """
from __future__ import annotations
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Protocol
import protoattr as pa

@pa.proto_contract
@dataclass
class Req:
    id: pa.int32 = pa.field(1, default=0)

@pa.proto_contract
@dataclass
class Resp:
    id: pa.int32 = pa.field(1, default=0)

@pa.service("t.v1.Orders")
class Orders(Protocol):
    def get_order(self, request: Req, context: pa.CallContext = pa.CallContext.NONE) -> Resp: ...
    def watch(self, request: Req) -> Iterator[Resp]: ...
    def upload(self, requests: Iterator[Req]) -> Resp: ...
    @pa.rpc(name="Ping")
    async def ping(self, request: Req) -> Resp: ...
    def feed(self, request: Req) -> AsyncIterator[Resp]: ...
"""

SYNC = """
import grpc
import protoattr.grpc as pg
from service import Orders, Req, Resp

def use(channel: grpc.Channel) -> None:
    orders = pg.client(Orders, channel, timeout=5)
    reveal_type(orders.get_order(Req(1), timeout=2.5, metadata={"x-user": "ada"}))  # N: Revealed type is "service.Resp"
    orders.get_order(Req(1), wait_for_ready=True, metadata=[("k", b"v")])
    for resp in orders.watch(Req(2), timeout=1):
        reveal_type(resp)  # N: Revealed type is "service.Resp"
    orders.upload(iter([Req(1)]), timeout=1)
    orders.get_order(Req(1), timeout="soon")  # E: Argument "timeout" to "get_order" of "Orders" has incompatible type "str"; expected "float | None"  [arg-type]
    orders.get_order(Req(1), deadline=3)  # E: Unexpected keyword argument "deadline" for "get_order" of "Orders"  [call-arg]
    orders.get_order(Resp(1))  # E: Argument 1 to "get_order" of "Orders" has incompatible type "Resp"; expected "Req"  [arg-type]
"""

AIO = """
import grpc.aio
import protoattr as pa
import protoattr.grpc as pg
from service import Orders, Req, Resp

async def requests() -> AsyncIterator[Req]:
    yield Req(1)

async def use(channel: grpc.aio.Channel) -> None:
    orders = pg.aio_client(Orders, channel, timeout=5)
    reveal_type(orders)  # N: Revealed type is "protoattr.grpc._client.AsyncClient[service.Orders]"
    reveal_type(await orders.get_order(Req(1), pa.CallContext(), timeout=2))  # N: Revealed type is "service.Resp"
    async for resp in orders.watch(Req(2), metadata={"x-user": "ada"}):
        reveal_type(resp)  # N: Revealed type is "service.Resp"
    reveal_type(orders.watch(Req(2)))  # N: Revealed type is "protoattr.grpc._client.AsyncResponseStream[service.Resp]"
    reveal_type(await orders.upload(requests()))  # N: Revealed type is "service.Resp"
    await orders.upload([Req(1), Req(2)])
    reveal_type(await orders.ping(Req(3)))  # N: Revealed type is "service.Resp"
    async for fed in orders.feed(Req(4)):
        reveal_type(fed)  # N: Revealed type is "service.Resp"
    pending = orders.get_order(Req(1))
    pending.id  # E: "Coroutine[Any, Any, Resp]" has no attribute "id"  [attr-defined]
    await orders.get_order(Resp(1))  # E: Argument 1 to "get_order" of "Orders" has incompatible type "Resp"; expected "Req"  [arg-type]
    await orders.get_order(Req(1), timeout="soon")  # E: Argument "timeout" to "get_order" of "Orders" has incompatible type "str"; expected "float | None"  [arg-type]
    await orders.upload([Resp(1)])  # E: List item 0 has incompatible type "Resp"; expected "Req"  [list-item]
    orders.cancel_order(Req(1))  # E: Service "Orders" has no RPC "cancel_order"  [attr-defined]
"""

SCRIPTS = {
    "contracts.py": CONTRACTS,
    "importer.py": IMPORTER,
    "service.py": SERVICE,
    "sync_client.py": SYNC,
    "aio_client.py": "from collections.abc import AsyncIterator\n" + AIO,
}

MARK = re.compile(r"  # ([EN]): (.*)$")


def _expected(name: str, source: str) -> set[str]:
    """``file:line: error: message`` for each marked line (mypy's own output format)."""
    found = set()
    for number, line in enumerate(source.splitlines(), 1):
        match = MARK.search(line)
        if match:
            kind = "error" if match[1] == "E" else "note"
            found.add(f"{name}:{number}: {kind}: {match[2]}")
    return found


def test_the_plugin_types_required_fields_and_clients(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api")
    for name, source in SCRIPTS.items():
        (tmp_path / name).write_text(source, encoding="utf-8")
    (tmp_path / "mypy.ini").write_text(CONFIG, encoding="utf-8")
    limit = sys.getrecursionlimit()  # mypy raises it for the whole process: put it back
    cwd = Path.cwd()
    try:
        os.chdir(tmp_path)  # protoattr (and its plugin) come from the installation
        out, err, status = api.run(["--cache-dir", ".mypy_cache", *SCRIPTS])
        # again, with ``contracts`` read from mypy's cache: the plugin's notes are in it
        (tmp_path / "importer.py").write_text(IMPORTER + "\n", encoding="utf-8")
        cached, _, _ = api.run(["--cache-dir", ".mypy_cache", "importer.py"])
    finally:
        os.chdir(cwd)
        sys.setrecursionlimit(limit)
    got = {ln for ln in out.splitlines() if ln.split(":", 1)[0] in SCRIPTS}
    # mypy adds a hint note to some errors ("defined in", "missing an await?"): not pinned
    got = {ln for ln in got if ": note: Revealed" in ln or ": note:" not in ln}
    expected = set().union(*(_expected(name, source) for name, source in SCRIPTS.items()))
    assert got == expected, f"missing: {expected - got}\nunexpected: {got - expected}\n{err}"
    assert status == 1
    importer = {ln for ln in cached.splitlines() if ln.startswith("importer.py")}
    assert importer == _expected("importer.py", IMPORTER), cached


def test_the_plugin_refuses_a_mypy_it_is_not_tested_with() -> None:
    pytest.importorskip("mypy.api")
    from protoattr.mypy import ProtoattrPlugin, plugin

    assert plugin("1.10.0") is ProtoattrPlugin
    assert plugin("2.4.1+dev.1234") is ProtoattrPlugin
    with pytest.raises(RuntimeError, match=r"needs mypy 1\.10 or later, not 1\.9\.0"):
        plugin("1.9.0")


def test_the_typed_keywords_are_grpcios_call_options() -> None:
    """The keywords the plugin gives client methods (``_call_options``) are exactly the
    options grpcio's multi-callables take, sync and aio: no drift either way."""
    pytest.importorskip("grpc")
    import grpc.aio

    from protoattr.grpc._client import _call_options

    typed = [
        p.name
        for p in inspect.signature(_call_options).parameters.values()
        if p.kind is p.KEYWORD_ONLY
    ]
    for callable_ in (
        grpc.UnaryUnaryMultiCallable,
        grpc.StreamStreamMultiCallable,
        grpc.aio.UnaryUnaryMultiCallable,
        grpc.aio.StreamStreamMultiCallable,
    ):
        taken = list(inspect.signature(callable_.__call__).parameters)[2:]
        assert sorted(taken) == sorted(typed), callable_
