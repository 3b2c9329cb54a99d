"""pure-protobuf 3.x: its own dataclass-style ``BaseMessage`` classes, converted to and from.

pure-protobuf writes every field that is not ``None``, so proto2 defaults
(of the DNS records) are expressed the way its user would: ``Optional`` fields left
``None`` when the value is the default.  ``google.protobuf.Timestamp`` is
declared here as a two-field message: pure-protobuf 3.1.5's own
``well_known.Timestamp`` raises ``KeyError: 'seconds'`` on construction (its
fields live in a base class that its ``__init_subclass__`` does not see).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from importlib.metadata import version as _dist_version
from typing import Annotated, Any, Optional

from pure_protobuf.annotations import Field
from pure_protobuf.message import BaseMessage

from benchmarks.peers import _base
from benchmarks.workloads import (
    DNS_DEFAULT_TTL,
    DNS_DEFAULT_TYPE,
    AllBoilers,
    Boiler,
    Book,
    DnsRecord,
    DnsResponse,
    Task,
    TaskPriority,
)

NAME = "pure-protobuf"


def version() -> str:
    return _dist_version("pure-protobuf")


# Field types are evaluated by pure-protobuf at class creation, so no string
# annotations here; ``Optional`` is what its docs use (ruff UP045 would rewrite it).
# ruff: noqa: UP045


@dataclass
class PBook(BaseMessage):
    isbn: Annotated[str, Field(1)] = ""
    title: Annotated[str, Field(2)] = ""
    author: Annotated[str, Field(3)] = ""
    pagecount: Annotated[int, Field(4)] = 0


@dataclass
class Timestamp(BaseMessage):
    seconds: Annotated[int, Field(1)] = 0
    nanos: Annotated[int, Field(2)] = 0


@dataclass
class PTask(BaseMessage):
    id: Annotated[int, Field(1)] = 0
    created_at: Annotated[Optional[Timestamp], Field(2)] = None
    created_by: Annotated[str, Field(3)] = ""
    priority: Annotated[Optional[TaskPriority], Field(4)] = None  # proto3: zero not written
    content: Annotated[str, Field(5)] = ""


@dataclass
class PTaskList(BaseMessage):
    tasks: Annotated[list[PTask], Field(1)] = field(default_factory=list)


@dataclass
class PBoiler(BaseMessage):
    boiler_id: Annotated[str, Field(1)]
    table_number: Annotated[int, Field(2)]
    table_name: Annotated[str, Field(3)]
    boiler_data: Annotated[str, Field(4)]
    brand_name: Annotated[str, Field(5)]
    qualifier: Annotated[str, Field(6)]
    model_name: Annotated[str, Field(7)]


@dataclass
class PAllBoilers(BaseMessage):
    boilers: Annotated[list[PBoiler], Field(1)] = field(default_factory=list)


@dataclass
class PDnsRecord(BaseMessage):
    key: Annotated[str, Field(1)]
    value: Annotated[str, Field(2)]
    first: Annotated[str, Field(3)]
    last: Annotated[str, Field(4)]
    type: Annotated[Optional[str], Field(5)] = None
    ttl: Annotated[Optional[int], Field(6)] = None


@dataclass
class PDnsResponse(BaseMessage):
    records: Annotated[list[PDnsRecord], Field(1)] = field(default_factory=list)


# --- book ---------------------------------------------------------------------

_book_fields = _base.getter(_base.names(Book))


def encode_book(book: Book) -> bytes:
    return bytes(PBook(*_book_fields(book)))


def decode_book(data: bytes) -> Book:
    return Book(*_book_fields(PBook.loads(data)))


# --- tasks --------------------------------------------------------------------

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def _timestamp(dt: datetime) -> Timestamp:
    delta = dt - _EPOCH
    return Timestamp(seconds=delta.days * 86400 + delta.seconds, nanos=delta.microseconds * 1000)


def _datetime(ts: Timestamp | None) -> datetime:
    if ts is None:
        return _EPOCH
    return _EPOCH + timedelta(seconds=ts.seconds, microseconds=ts.nanos // 1000)


def encode_tasks(tasks: list[Task]) -> bytes:
    return bytes(
        PTaskList(
            tasks=[
                PTask(
                    id=t.id,
                    created_at=_timestamp(t.created_at),
                    created_by=t.created_by,
                    priority=t.priority or None,
                    content=t.content,
                )
                for t in tasks
            ]
        )
    )


def decode_tasks(data: bytes) -> list[Task]:
    return [
        Task(m.id, _datetime(m.created_at), m.created_by, TaskPriority(m.priority or 0), m.content)
        for m in PTaskList.loads(data).tasks
    ]


# --- boilers ------------------------------------------------------------------

_to_boilers = _base.objects(PBoiler, _base.names(Boiler))
_from_boilers = _base.objects(Boiler, _base.names(Boiler))


def encode_boilers(obj: AllBoilers) -> bytes:
    return bytes(PAllBoilers(boilers=_to_boilers(obj.boilers)))


def decode_boilers(data: bytes) -> AllBoilers:
    return AllBoilers(boilers=_from_boilers(PAllBoilers.loads(data).boilers))


# --- dns ----------------------------------------------------------------------


def encode_dns(obj: DnsResponse) -> bytes:
    return bytes(
        PDnsResponse(
            records=[
                PDnsRecord(
                    key=r.key,
                    value=r.value,
                    first=r.first,
                    last=r.last,
                    type=None if r.type == DNS_DEFAULT_TYPE else r.type,
                    ttl=None if r.ttl == DNS_DEFAULT_TTL else r.ttl,
                )
                for r in obj.records
            ]
        )
    )


def decode_dns(data: bytes) -> DnsResponse:
    return DnsResponse(
        records=[
            DnsRecord(
                m.key,
                m.value,
                m.first,
                m.last,
                DNS_DEFAULT_TYPE if m.type is None else m.type,
                DNS_DEFAULT_TTL if m.ttl is None else m.ttl,
            )
            for m in PDnsResponse.loads(data).records
        ]
    )


CODECS: dict[str, Any] = {
    "book": (encode_book, decode_book),
    "tasks": (encode_tasks, decode_tasks),
    "boilers": (encode_boilers, decode_boilers),
    "dns": (encode_dns, decode_dns),
}
