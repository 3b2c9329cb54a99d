"""The benchmark workloads: one set of domain dataclasses, and their data.

Every peer encodes and decodes these same classes, so every peer is timed on
the work its user has to do: from the user's dataclass to bytes, and from bytes
back to the user's dataclass.  The fields are declared with protoattr's
``field(tag)``, which returns an ordinary ``dataclasses.Field``; to every other
peer these are plain dataclasses.  Only ``peers/protoattr_.py`` applies
``@proto_contract`` to them (which, by contract, changes nothing about the class).

The four workloads come from the articles the project started from:

``book``     a Book: one small message (three strings and an int32).
``tasks``    protobuf-net's Task list: a top-level list of two ``Task``s (Timestamp, enum).
``boilers``  7,000 boiler records: ``AllBoilers`` of ``Boiler``s (proto2, all required).
``dns``      DNS records with proto2 defaults: ``DnsResponse`` with 5,000 ``DnsRecord``s.

and Google's own benchmark message (``benchmarks/google_message1.py``):

``gm1_proto2``  one GoogleMessage1 of the proto2 schema, the shape of Google's dataset.
``gm1_proto3``  the same values in the proto3 form.
"""

import random
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from enum import IntEnum

from benchmarks.google_message1 import make_gm1_proto2, make_gm1_proto3
from protoattr import field, int32

__all__ = [
    "ARTICLES",
    "DNS_DEFAULT_TTL",
    "DNS_DEFAULT_TYPE",
    "WORKLOADS",
    "AllBoilers",
    "Boiler",
    "Book",
    "DnsRecord",
    "DnsResponse",
    "Task",
    "TaskPriority",
    "make_data",
]

# The four articles' workloads, which every peer implements.
ARTICLES = ("book", "tasks", "boilers", "dns")
WORKLOADS = (*ARTICLES, "gm1_proto2", "gm1_proto3")

DNS_DEFAULT_TYPE = "A"
DNS_DEFAULT_TTL = 86400


# --- a Book -------------------------------------------------------------------


@dataclass
class Book:
    isbn: str = field(1)
    title: str = field(2)
    author: str = field(3)
    pagecount: int32 = field(4)


# --- protobuf-net's Task list -------------------------------------------------


class TaskPriority(IntEnum):
    LOW = 0
    MEDIUM = 1
    HIGH = 2


@dataclass
class Task:
    id: int32 = field(1)
    created_at: datetime = field(2)  # google.protobuf.Timestamp
    created_by: str = field(3)
    priority: TaskPriority = field(4)
    content: str = field(5, default="")


# --- 7,000 boiler records -----------------------------------------------------


@dataclass
class Boiler:
    boiler_id: str = field(1, required=True)
    table_number: int32 = field(2, required=True)
    table_name: str = field(3, required=True)
    boiler_data: str = field(4, required=True)
    brand_name: str = field(5, required=True)
    qualifier: str = field(6, required=True)
    model_name: str = field(7, required=True)


@dataclass
class AllBoilers:
    boilers: list[Boiler] = field(1, default_factory=list)


# --- DNS records with proto2 defaults -----------------------------------------


@dataclass
class DnsRecord:
    key: str = field(1, required=True)
    value: str = field(2, required=True)
    first: str = field(3, required=True)
    last: str = field(4, required=True)
    type: str = field(5, default=DNS_DEFAULT_TYPE, wire_default=DNS_DEFAULT_TYPE)
    ttl: int32 = field(6, default=DNS_DEFAULT_TTL, wire_default=DNS_DEFAULT_TTL)


@dataclass
class DnsResponse:
    records: list[DnsRecord] = field(1, default_factory=list)


# --- data ---------------------------------------------------------------------

_SEED = 20240517

_WORDS = (
    *("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india"),
    *("juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo"),
    *("sierra", "tango", "uniform", "victor", "whiskey", "xray", "yankee", "zulu", "north"),
    *("south", "east", "west", "upper", "lower", "main", "annex", "plant", "unit"),
)
_BRANDS = ("Vaillant", "Worcester", "Baxi", "Ideal", "Viessmann", "Glow-worm", "Potterton")
_QUALIFIERS = ("Combi", "System", "Regular", "Heat only", "Combi (LPG)", "System (LPG)")
_TLDS = ("com", "net", "org", "io", "co.uk", "de", "ru", "info")
_RARE_TYPES = ("CNAME", "MX", "NS", "AAAA", "TXT", "PTR")
_RARE_TTLS = (60, 300, 600, 1800, 3600, 7200, 43200, 172800, 604800)


def make_book() -> Book:
    # Exactly the article's book.
    return Book(
        isbn="9781857232097", title="The Fires of Heaven", author="Robert Jordan", pagecount=912
    )


def make_tasks() -> list[Task]:
    # The article's two tasks; "now" is fixed (aware UTC, with microseconds) so runs compare.
    now = datetime(2024, 5, 17, 9, 30, 12, 345678, tzinfo=timezone.utc)
    return [
        Task(
            id=1,
            created_by="Steve Jobs",
            created_at=now,
            priority=TaskPriority.HIGH,
            content="Invent new iPhone",
        ),
        Task(
            id=2,
            created_by="Steve Ballmer",
            created_at=now - timedelta(days=7),
            priority=TaskPriority.LOW,
            content="Install own Skype",
        ),
    ]


def make_boilers(n: int = 7000, seed: int = _SEED) -> AllBoilers:
    rnd = random.Random(seed)
    boilers = []
    for i in range(n):
        table = rnd.randrange(1, 400)
        brand = rnd.choice(_BRANDS)
        data = " ".join(rnd.choices(_WORDS, k=rnd.randrange(2, 9)))
        boilers.append(
            Boiler(
                boiler_id=f"{rnd.randrange(10**5, 10**6)}-{i:05d}",
                table_number=table,
                table_name=f"PCDF table {table:03d}",
                boiler_data=f"{data};{rnd.randrange(4, 60)}kW;eff={rnd.uniform(70, 95):.1f}",
                brand_name=brand,
                qualifier=rnd.choice(_QUALIFIERS),
                model_name=f"{brand} {rnd.choice(_WORDS).title()} {rnd.randrange(12, 45)}",
            )
        )
    return AllBoilers(boilers=boilers)


def make_dns(n: int = 5000, seed: int = _SEED) -> DnsResponse:
    rnd = random.Random(seed + 4)
    base = datetime(2010, 6, 1, tzinfo=timezone.utc)
    records = []
    for _ in range(n):
        domain = f"{rnd.choice(_WORDS)}{rnd.randrange(1000)}.{rnd.choice(_TLDS)}"
        host = rnd.choice(("www.", "mail.", "", "", "ns1.", "api.", "cdn."))
        rtype = DNS_DEFAULT_TYPE if rnd.random() < 0.85 else rnd.choice(_RARE_TYPES)
        if rtype in ("CNAME", "NS", "PTR", "MX"):
            value = f"{rnd.choice(('ns', 'mx', 'edge', 'lb'))}{rnd.randrange(1, 9)}.{domain}"
        elif rtype == "AAAA":
            value = "2001:db8:" + ":".join(f"{rnd.randrange(65536):x}" for _ in range(4))
        elif rtype == "TXT":
            value = f"v=spf1 include:_spf.{domain} ~all"
        else:
            value = ".".join(str(rnd.randrange(1, 255)) for _ in range(4))
        first = base + timedelta(seconds=rnd.randrange(0, 400 * 86400))
        last = first + timedelta(seconds=rnd.randrange(0, 300 * 86400))
        records.append(
            DnsRecord(
                key=host + domain,
                value=value,
                first=first.strftime("%Y-%m-%d %H:%M:%S"),
                last=last.strftime("%Y-%m-%d %H:%M:%S"),
                type=rtype,
                ttl=DNS_DEFAULT_TTL if rnd.random() < 0.8 else rnd.choice(_RARE_TTLS),
            )
        )
    return DnsResponse(records=records)


def make_data(scale: float = 1.0, names: tuple[str, ...] = WORKLOADS) -> dict[str, object]:
    """The workloads' objects; ``scale`` shrinks the two big lists (for ``--quick``)."""
    makers = {
        "book": make_book,
        "tasks": make_tasks,
        "boilers": lambda: make_boilers(max(1, round(7000 * scale))),
        "dns": lambda: make_dns(max(1, round(5000 * scale))),
        "gm1_proto2": make_gm1_proto2,
        "gm1_proto3": make_gm1_proto3,
    }
    return {name: makers[name]() for name in names}
