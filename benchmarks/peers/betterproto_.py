"""betterproto 1.2.5: its dataclass ``Message`` classes (what its plugin generates), converted.

betterproto 1.x implements proto3 only: a field equal to its zero value is not
written and there are no proto2 defaults, so the DNS records carry
``type = "A"`` and ``ttl = 86400`` on the wire (larger output; the round trip
is still exact).  Timestamps map to ``datetime`` natively.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from importlib.metadata import version as _dist_version
from typing import Any, List  # noqa: UP035 - betterproto 1.x inspects typing.List

import betterproto

from benchmarks.peers import _base
from benchmarks.workloads import (
    AllBoilers,
    Boiler,
    Book,
    DnsRecord,
    DnsResponse,
    Task,
    TaskPriority,
)

NAME = "betterproto"


def version() -> str:
    return _dist_version("betterproto")


# betterproto 1.x resolves field types from real annotations: no string
# annotations in the message classes below.  Its ``*_field()`` helpers return
# ``dataclasses.field(...)``, which ruff's RUF009 does not know.
# ruff: noqa: RUF009


@dataclass
class BBook(betterproto.Message):
    isbn: str = betterproto.string_field(1)
    title: str = betterproto.string_field(2)
    author: str = betterproto.string_field(3)
    pagecount: int = betterproto.int32_field(4)


class BTaskPriority(betterproto.Enum):
    LOW = 0
    MEDIUM = 1
    HIGH = 2


@dataclass
class BTask(betterproto.Message):
    id: int = betterproto.int32_field(1)
    created_at: datetime = betterproto.message_field(2)
    created_by: str = betterproto.string_field(3)
    priority: BTaskPriority = betterproto.enum_field(4)
    content: str = betterproto.string_field(5)


@dataclass
class BTaskList(betterproto.Message):
    tasks: List[BTask] = betterproto.message_field(1)  # noqa: UP006


@dataclass
class BBoiler(betterproto.Message):
    boiler_id: str = betterproto.string_field(1)
    table_number: int = betterproto.int32_field(2)
    table_name: str = betterproto.string_field(3)
    boiler_data: str = betterproto.string_field(4)
    brand_name: str = betterproto.string_field(5)
    qualifier: str = betterproto.string_field(6)
    model_name: str = betterproto.string_field(7)


@dataclass
class BAllBoilers(betterproto.Message):
    boilers: List[BBoiler] = betterproto.message_field(1)  # noqa: UP006


@dataclass
class BDnsRecord(betterproto.Message):
    key: str = betterproto.string_field(1)
    value: str = betterproto.string_field(2)
    first: str = betterproto.string_field(3)
    last: str = betterproto.string_field(4)
    type: str = betterproto.string_field(5)
    ttl: int = betterproto.int32_field(6)


@dataclass
class BDnsResponse(betterproto.Message):
    records: List[BDnsRecord] = betterproto.message_field(1)  # noqa: UP006


# --- book ---------------------------------------------------------------------

_book_fields = _base.getter(_base.names(Book))


def encode_book(book: Book) -> bytes:
    return bytes(BBook(*_book_fields(book)))


def decode_book(data: bytes) -> Book:
    return Book(*_book_fields(BBook().parse(data)))


# --- tasks --------------------------------------------------------------------


def encode_tasks(tasks: list[Task]) -> bytes:
    return bytes(
        BTaskList(
            tasks=[
                BTask(
                    id=t.id,
                    created_at=t.created_at,
                    created_by=t.created_by,
                    priority=t.priority,
                    content=t.content,
                )
                for t in tasks
            ]
        )
    )


def decode_tasks(data: bytes) -> list[Task]:
    return [
        Task(m.id, m.created_at, m.created_by, TaskPriority(m.priority), m.content)
        for m in BTaskList().parse(data).tasks
    ]


# --- boilers ------------------------------------------------------------------

_to_boilers = _base.objects(BBoiler, _base.names(Boiler))
_from_boilers = _base.objects(Boiler, _base.names(Boiler))


def encode_boilers(obj: AllBoilers) -> bytes:
    return bytes(BAllBoilers(boilers=_to_boilers(obj.boilers)))


def decode_boilers(data: bytes) -> AllBoilers:
    return AllBoilers(boilers=_from_boilers(BAllBoilers().parse(data).boilers))


# --- dns ----------------------------------------------------------------------

_to_records = _base.objects(BDnsRecord, _base.names(DnsRecord))
_from_records = _base.objects(DnsRecord, _base.names(DnsRecord))


def encode_dns(obj: DnsResponse) -> bytes:
    return bytes(BDnsResponse(records=_to_records(obj.records)))


def decode_dns(data: bytes) -> DnsResponse:
    return DnsResponse(records=_from_records(BDnsResponse().parse(data).records))


CODECS: dict[str, Any] = {
    "book": (encode_book, decode_book),
    "tasks": (encode_tasks, decode_tasks),
    "boilers": (encode_boilers, decode_boilers),
    "dns": (encode_dns, decode_dns),
}
