"""protoattr: ``@proto_contract`` on the workload dataclasses themselves.

The encoders and decoders are exactly what a user writes, with no wrapper:
``pa.serialize(book)``, ``pa.deserialize(Book, data)``, and for protobuf-net's
Task list, a top-level list, ``pa.serialize(tasks, type=list[Task])`` /
``pa.deserialize(list[Task], data)`` (repeated field 1, the bytes of
``message TaskList { repeated Task tasks = 1; }``).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import protoattr as pa
from benchmarks.google_message1 import MESSAGE_NAMES, GM1Proto2, GM1Proto3
from benchmarks.workloads import AllBoilers, Boiler, Book, DnsRecord, DnsResponse, Task

NAME = "protoattr"

# proto_contract leaves the classes as they are (same __init__, __eq__, ...), so
# every other peer keeps treating them as plain dataclasses.
for _cls in (Book, Task, Boiler, AllBoilers, DnsRecord, DnsResponse):
    pa.proto_contract(_cls)
# GoogleMessage1: both forms are named as Google's schemas name them.
for _cls, _name in MESSAGE_NAMES.items():
    pa.proto_contract(name=_name)(_cls)

TaskList = list[Task]


def version() -> str:
    return f"{pa.__version__} ({pa.default_model.backend} backend)"


def warm_up() -> None:
    # Generate and compile every codec now, as a long-running service would at start-up.
    pa.default_model.compile()


CODECS: dict[str, Any] = {
    "book": (pa.serialize, partial(pa.deserialize, Book)),
    "tasks": (partial(pa.serialize, type=TaskList), partial(pa.deserialize, TaskList)),
    "boilers": (pa.serialize, partial(pa.deserialize, AllBoilers)),
    "dns": (pa.serialize, partial(pa.deserialize, DnsResponse)),
    "gm1_proto2": (pa.serialize, partial(pa.deserialize, GM1Proto2)),
    "gm1_proto3": (pa.serialize, partial(pa.deserialize, GM1Proto3)),
}
