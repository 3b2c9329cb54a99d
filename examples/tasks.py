"""protobuf-net's Task list ("protobuf-net vs BinaryFormatter"): two Tasks, round-tripped.

The article serialises a ``List<Task>`` with protobuf-net and with .NET's
``BinaryFormatter`` 1,000-5,000 times, compares time and file size, and notes
protobuf-net's one drawback, a slow *cold start*, solved by compiling the model
up front.  Python's ``BinaryFormatter`` is ``pickle``; we add ``json`` too.

What it shows:

* the same ``Task`` contract as the article, on a plain ``@dataclass``;
* ``pa.serialize(tasks, type=list[Task])``: a top-level list, the bytes
  protobuf-net writes for ``Serializer.Serialize(stream, list)``;
* the first call's cost with and without ``model.compile()`` (cold start);
* time per round trip and size against ``pickle`` and ``json``.

Run: ``python examples/tasks.py``  (a few seconds)
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from enum import IntEnum
from typing import Any

import protoattr as pa
from protoattr import field, proto_contract


class TaskPriority(IntEnum):
    LOW = 0
    MEDIUM = 1
    HIGH = 2


@proto_contract
@dataclass
class Task:
    id: pa.int32 = field(1)
    created_at: datetime = field(2)  # google.protobuf.Timestamp
    created_by: str = field(3)
    priority: TaskPriority = field(4)  # an enum: one varint
    content: str = field(5, default="")


NOW = datetime(2012, 4, 13, 9, 30, tzinfo=timezone.utc)
TASKS = [
    Task(1, NOW, "Steve Jobs", TaskPriority.HIGH, "Invent new iPhone"),
    Task(2, NOW - timedelta(days=7), "Steve Ballmer", TaskPriority.LOW, "Install own Skype"),
]


def json_dumps(tasks: list[Task]) -> bytes:
    rows = [dataclasses.asdict(t) | {"created_at": t.created_at.isoformat()} for t in tasks]
    return json.dumps(rows).encode()


def json_loads(data: bytes) -> list[Task]:
    rows = json.loads(data)
    return [
        Task(
            r["id"],
            datetime.fromisoformat(r["created_at"]),
            r["created_by"],
            TaskPriority(r["priority"]),
            r["content"],
        )
        for r in rows
    ]


def per_call_us(fn: Callable[[Any], object], arg: object, rounds: int) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(rounds):
            fn(arg)
        best = min(best, time.perf_counter() - start)
    return best / rounds * 1e6


def cold_start() -> None:
    print("Cold start: the first serialize + deserialize of a fresh model")
    for label, compile_first in (
        ("lazy (compiled on first use)", False),
        ("after compile()", True),
    ):
        model = pa.TypeModel()
        model.add(Task)
        if compile_first:
            start = time.perf_counter()
            model.compile()
            print(f"  compile() took {(time.perf_counter() - start) * 1e3:.2f} ms")
        start = time.perf_counter()
        model.deserialize(list[Task], model.serialize(TASKS, type=list[Task]))
        first = (time.perf_counter() - start) * 1e6
        start = time.perf_counter()
        model.deserialize(list[Task], model.serialize(TASKS, type=list[Task]))
        second = (time.perf_counter() - start) * 1e6
        print(f"  {label:30} first call {first:8.1f} us, second call {second:6.1f} us")


def main() -> None:
    data = pa.serialize(TASKS, type=list[Task])
    assert pa.deserialize(list[Task], data) == TASKS
    print(f"protoattr bytes: {data.hex(' ')}\n")
    cold_start()

    rows = []
    for name, dumps, loads in (
        (
            "protoattr",
            lambda t: pa.serialize(t, type=list[Task]),
            lambda d: pa.deserialize(list[Task], d),
        ),
        ("pickle", lambda t: pickle.dumps(t, pickle.HIGHEST_PROTOCOL), pickle.loads),
        ("json", json_dumps, json_loads),
    ):
        encoded = dumps(TASKS)
        assert loads(encoded) == TASKS, name
        round_trip = per_call_us(lambda t: loads(dumps(t)), TASKS, 2000)  # noqa: B023
        rows.append((name, len(encoded), round_trip))

    print("\nRound trip of the two-task list (serialize + deserialize), best of 5 x 2000:")
    print(f"  {'format':10} {'bytes':>6} {'us/round trip':>14} {'vs protoattr':>13}")
    base = rows[0][2]
    for name, size, us in rows:
        print(f"  {name:10} {size:6d} {us:14.2f} {us / base:12.2f}x")


if __name__ == "__main__":
    main()
