"""A code-first service whose request and response live in two other packages
(``tests/test_services_across_packages.py`` exports and serves it)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol

import protoattr as pa


@pa.proto_contract(package="xpkg.common.v1")
@dataclass
class Thing:
    class Kind(enum.IntEnum):
        KIND_UNSPECIFIED = 0
        BOLT = 1

    name: str = pa.field(1, default="")
    kind: Thing.Kind = pa.field(2, default=Kind.KIND_UNSPECIFIED)
    made: pa.Timestamp | None = pa.field(3, default=None)


@pa.proto_contract(package="xpkg.query.v1")
@dataclass
class FindThings:
    prefix: str = pa.field(1, default="")


@pa.proto_contract(package="xpkg.common.v1")
@dataclass
class ThingList:
    things: list[Thing] = pa.field(1, default_factory=list)


@pa.service("xpkg.api.v1.Things")
class Things(Protocol):
    def find(self, request: FindThings) -> ThingList: ...

    def forget(self, request: Thing) -> pa.Empty: ...
