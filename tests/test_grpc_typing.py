"""A client of a Protocol-declared service is typed as that service (checked with mypy)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "grpc_service.py"

SNIPPET = """
from __future__ import annotations
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol
import grpc
import protoattr as pa
import protoattr.grpc as pg

@pa.proto_contract
@dataclass
class Req:
    id: pa.int32 = pa.field(1, default=0)

@pa.proto_contract
@dataclass
class Resp:
    id: pa.int32 = pa.field(1, default=0)

@pa.service("t.v1.S")
class S(Protocol):
    def get(self, request: Req, context: pa.CallContext = pa.CallContext.NONE) -> Resp: ...
    def many(self, request: Req, context: pa.CallContext | None = None) -> Iterator[Resp]: ...

class Impl(S):  # an implementation keeps the default and uses the context unguarded
    def get(self, request: Req, context: pa.CallContext = pa.CallContext.NONE) -> Resp:
        context.set_trailing_metadata([("k", "v")])
        return Resp(request.id)

    def many(self, request: Req, context: pa.CallContext | None = None) -> Iterator[Resp]:
        yield Resp(request.id)

def use(channel: grpc.Channel) -> None:
    client = pg.client(S, channel)
    reveal_type(client.get(Req(1)))
    reveal_type(client.get(Req(1), pa.CallContext(timeout=2)))
    for item in client.many(Req(2)):
        reveal_type(item)
    client.get(Resp(1))
"""


def test_mypy_sees_the_declared_types(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api")
    path = tmp_path / "typed_client.py"
    path.write_text(SNIPPET, encoding="utf-8")
    limit = sys.getrecursionlimit()  # mypy raises it for the whole process: put it back
    try:
        out, err, status = api.run(
            [
                "--strict",
                "--ignore-missing-imports",
                "--cache-dir",
                str(tmp_path / ".mypy_cache"),
                str(path),
                str(EXAMPLE),  # the runnable example type-checks clean as well
            ]
        )
    finally:
        sys.setrecursionlimit(limit)
    lines = [ln.split(": ", 1)[1] for ln in out.splitlines() if ln.startswith(str(path))]
    assert lines == [
        'note: Revealed type is "typed_client.Resp"',
        'note: Revealed type is "typed_client.Resp"',
        'note: Revealed type is "typed_client.Resp"',
        'error: Argument 1 to "get" of "S" has incompatible type "Resp"; expected "Req"  '
        "[arg-type]",
    ], out + err
    assert status == 1
    assert "grpc_service.py" not in out, out


FRONT_DOOR = """
from __future__ import annotations
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Annotated, Protocol
import grpc  # type: ignore[import-untyped]
import protoattr as pa
import protoattr.grpc as pg

@pa.proto_contract
@dataclass
class Req:
    id: pa.int32 = pa.field(1, default=0)

@pa.service("t.v1.S")
class S(Protocol):
    def get(self, request: Req) -> Req: ...

class Impl(S):
    def get(self, request: Req) -> Req:
        return request

@pa.proto_contract
@dataclass
class Task:  # a required field as a type checker sees one: Annotated, no default
    id: Annotated[pa.int32, pa.member(1)]
    name: str = pa.field(2, default="")

reveal_type(pa.serialize(Req(1)))
pg.add_service(grpc.server(ThreadPoolExecutor()), Impl())  # the declaration found from Impl
Task(name="x")
"""


def test_an_installed_protoattr_is_found_and_typed(tmp_path: Path) -> None:
    """Issue 22.9: after ``pip install -e .`` mypy finds the package (a static .pth entry,
    not an import hook it cannot follow), from any directory."""
    api = pytest.importorskip("mypy.api")
    path = tmp_path / "front_door.py"
    path.write_text(FRONT_DOOR, encoding="utf-8")
    limit = sys.getrecursionlimit()
    cwd = Path.cwd()
    try:
        os.chdir(tmp_path)  # not the checkout: the package must come from the installation
        out, err, status = api.run(
            ["--strict", "--follow-imports=silent", "--cache-dir", str(tmp_path / ".c"), path.name]
        )
    finally:
        os.chdir(cwd)
        sys.setrecursionlimit(limit)
    mine = [ln for ln in out.splitlines() if ln.startswith(path.name)]
    assert [ln.split(": ", 1)[1] for ln in mine] == [
        'note: Revealed type is "bytes"',
        'error: Missing positional argument "id" in call to "Task"  [call-arg]',
    ], out + err
    assert status == 1
