"""Buf's protobuf-py (its Rust native extension, ``protobuf-py-ext``), classes from its plugin.

The twin ``.proto`` files in ``benchmarks/schemas/`` are compiled with
grpcio-tools' ``protoc`` running protobuf-py's plugin (``protoc-gen-py``) into a
temporary directory at start-up (``benchmarks/_protoc.py``).

Timed end to end, as a user of generated classes has to work: build the
generated message from the dataclass's fields and ``to_binary()``; then
``from_binary()`` and build the dataclass from the message (the same shape as
``peers/google_upb.py``).  ``warm_up`` refuses to run on the pure-Python
fallback, so the figures are always the native extension's.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from benchmarks import google_message1 as gm1
from benchmarks._protoc import load_protobuf_py
from benchmarks.peers import _base, _gm1
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

NAME = "protobuf-py"

book_pb, tasks_pb, boilers_pb, dns_pb, gm1_proto2_pb, gm1_proto3_pb = load_protobuf_py()


def version() -> str:
    from importlib.metadata import version as dist_version

    return f"{dist_version('protobuf-py')} (protobuf-py-ext {dist_version('protobuf-py-ext')})"


def warm_up() -> None:
    import protobuf_ext  # noqa: F401  (ImportError: the pure-Python fallback would run)


# --- book ---------------------------------------------------------------------

_Book = book_pb.Book


def book_to_msg(book: Book) -> Any:
    return _Book(isbn=book.isbn, title=book.title, author=book.author, pagecount=book.pagecount)


_book_fields = _base.getter(_base.names(Book))


def book_from_msg(m: Any) -> Book:
    return Book(*_book_fields(m))


# --- tasks --------------------------------------------------------------------

_Task = tasks_pb.Task
_TaskList = tasks_pb.TaskList
_Priority = tasks_pb.TaskPriority
_UTC = timezone.utc
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def _timestamp() -> Any:
    from protobuf.wkt.google.protobuf.timestamp_pb import Timestamp

    return Timestamp


_Timestamp = _timestamp()


def tasks_to_msg(tasks: list[Task]) -> Any:
    out = []
    for t in tasks:
        d = t.created_at - _EPOCH  # exact integer seconds/nanos, as for upb
        ts = _Timestamp(seconds=d.days * 86400 + d.seconds, nanos=d.microseconds * 1000)
        out.append(
            _Task(
                id=t.id,
                created_at=ts,
                created_by=t.created_by,
                priority=_Priority(t.priority),
                content=t.content,
            )
        )
    return _TaskList(tasks=out)


def tasks_from_msg(msg: Any) -> list[Task]:
    return [
        Task(
            m.id,
            m.created_at.to_datetime().replace(tzinfo=_UTC),
            m.created_by,
            TaskPriority(int(m.priority)),
            m.content,
        )
        for m in msg.tasks
    ]


# --- boilers ------------------------------------------------------------------

_AllBoilers = boilers_pb.AllBoilers
_Boiler = boilers_pb.Boiler


def boilers_to_msg(obj: AllBoilers) -> Any:
    return _AllBoilers(
        Boiler=[
            _Boiler(
                BoilerId=b.boiler_id,
                TableNumber=b.table_number,
                TableName=b.table_name,
                BoilerData=b.boiler_data,
                BrandName=b.brand_name,
                Qualifier=b.qualifier,
                ModelName=b.model_name,
            )
            for b in obj.boilers
        ]
    )


_boilers = _base.objects(Boiler, _base.BOILER_PROTO_FIELDS)


def boilers_from_msg(msg: Any) -> AllBoilers:
    return AllBoilers(boilers=_boilers(msg.Boiler))


# --- dns ----------------------------------------------------------------------

_DnsResponse = dns_pb.DnsResponse
_DnsRecord = dns_pb.DnsRecord


def _record(r: DnsRecord) -> Any:
    m = _DnsRecord(key=r.key, value=r.value, first=r.first, last=r.last)
    # proto2 optional: only a value that differs from the default is set (and written).
    if r.type != DNS_DEFAULT_TYPE:
        m.type = r.type
    if r.ttl != DNS_DEFAULT_TTL:
        m.ttl = r.ttl
    return m


def dns_to_msg(obj: DnsResponse) -> Any:
    return _DnsResponse(records=[_record(r) for r in obj.records])


_records = _base.objects(DnsRecord, _base.names(DnsRecord))


def dns_from_msg(msg: Any) -> DnsResponse:
    return DnsResponse(records=_records(msg.records))


# --- GoogleMessage1 -------------------------------------------------------------


def gm1_converters(pb: Any, cls: type, sub_cls: type, *, presence: bool) -> tuple[Any, Any]:
    """``(to_msg, from_msg)`` between a GoogleMessage1 dataclass and ``pb``'s message."""
    to_msg = _gm1.to_message(pb.GoogleMessage1, pb.GoogleMessage1SubMessage)
    return to_msg, _gm1.from_protobuf_py(cls, sub_cls, presence=presence)


def _gm1_codec(pb: Any, cls: type, sub_cls: type, *, presence: bool) -> _base.Codec:
    msg = pb.GoogleMessage1
    to_msg, from_msg = gm1_converters(pb, cls, sub_cls, presence=presence)
    return _base.codec(to_msg, msg.to_binary, msg.from_binary, from_msg)


CODECS: dict[str, Any] = {
    "book": _base.codec(book_to_msg, _Book.to_binary, _Book.from_binary, book_from_msg),
    "tasks": _base.codec(tasks_to_msg, _TaskList.to_binary, _TaskList.from_binary, tasks_from_msg),
    "boilers": _base.codec(
        boilers_to_msg, _AllBoilers.to_binary, _AllBoilers.from_binary, boilers_from_msg
    ),
    "dns": _base.codec(dns_to_msg, _DnsResponse.to_binary, _DnsResponse.from_binary, dns_from_msg),
    "gm1_proto2": _gm1_codec(gm1_proto2_pb, gm1.GM1Proto2, gm1.GM1SubProto2, presence=True),
    "gm1_proto3": _gm1_codec(gm1_proto3_pb, gm1.GM1Proto3, gm1.GM1SubProto3, presence=False),
}
