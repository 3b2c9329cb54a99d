"""stdlib ``json`` on ``dataclasses.asdict``; datetimes as ISO 8601, enums as numbers."""

from __future__ import annotations

import json
import platform
from dataclasses import asdict
from datetime import datetime
from typing import Any

from benchmarks.workloads import (
    AllBoilers,
    Boiler,
    Book,
    DnsRecord,
    DnsResponse,
    Task,
    TaskPriority,
)

NAME = "json"

_dumps = json.JSONEncoder(separators=(",", ":"), default=lambda o: o.isoformat()).encode
_loads = json.loads
_fromiso = datetime.fromisoformat


def version() -> str:
    return f"stdlib (Python {platform.python_version()})"


def encode_book(book: Book) -> bytes:
    return _dumps(asdict(book)).encode()


def decode_book(data: bytes) -> Book:
    return Book(**_loads(data))


def encode_tasks(tasks: list[Task]) -> bytes:
    return _dumps([asdict(t) for t in tasks]).encode()


def decode_tasks(data: bytes) -> list[Task]:
    return [
        Task(
            id=d["id"],
            created_at=_fromiso(d["created_at"]),
            created_by=d["created_by"],
            priority=TaskPriority(d["priority"]),
            content=d["content"],
        )
        for d in _loads(data)
    ]


def encode_boilers(obj: AllBoilers) -> bytes:
    return _dumps(asdict(obj)).encode()


def decode_boilers(data: bytes) -> AllBoilers:
    return AllBoilers(boilers=[Boiler(**d) for d in _loads(data)["boilers"]])


def encode_dns(obj: DnsResponse) -> bytes:
    return _dumps(asdict(obj)).encode()


def decode_dns(data: bytes) -> DnsResponse:
    return DnsResponse(records=[DnsRecord(**d) for d in _loads(data)["records"]])


CODECS: dict[str, Any] = {
    "book": (encode_book, decode_book),
    "tasks": (encode_tasks, decode_tasks),
    "boilers": (encode_boilers, decode_boilers),
    "dns": (encode_dns, decode_dns),
}
