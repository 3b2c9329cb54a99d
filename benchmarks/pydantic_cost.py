"""What a pydantic model costs as a contract, against the same contract as a dataclass.

``python -m benchmarks.pydantic_cost [--calls 20000] [--repeat 7]``

protobuf-net's Task (six fields: int32, Timestamp, string, enum, string,
repeated string; 42 bytes) declared twice, as a ``@dataclass`` and as a pydantic
``BaseModel``, compiled up front.  Prints the best of ``--repeat`` interleaved
runs of ``--calls`` calls, in microseconds per call, for encoding, decoding and calling
each class's ``__init__`` (decoding a model validates through its ``__init__``,
so that is where the difference is).  Needs pydantic (``pip install pydantic``).
"""

from __future__ import annotations

import argparse
import enum
import sys
import timeit
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Annotated, Any

if __package__ in (None, ""):  # run as a script: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pydantic

import protoattr as pa
from protoattr import field, member, proto_contract

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


class Priority(enum.IntEnum):
    LOW = 0
    MEDIUM = 1
    HIGH = 2


@proto_contract
@dataclass
class TaskDataclass:
    id: pa.int32 = field(1, default=0)
    created_at: datetime = field(2, default=EPOCH)
    created_by: str = field(3, default="")
    priority: Priority = field(4, default=Priority.LOW)
    content: str = field(5, default="")
    tags: list[str] = field(6, default_factory=list)


@proto_contract
class TaskModel(pydantic.BaseModel):
    id: Annotated[pa.int32, member(1)] = 0
    created_at: Annotated[datetime, member(2)] = EPOCH
    created_by: Annotated[str, member(3)] = ""
    priority: Annotated[Priority, member(4)] = Priority.LOW
    content: Annotated[str, member(5)] = ""
    tags: Annotated[list[str], member(6)] = pydantic.Field(default_factory=list)


VALUES: dict[str, Any] = {
    "id": 7,
    "created_at": datetime(2024, 5, 6, 7, 8, 9, tzinfo=timezone.utc),
    "created_by": "ann",
    "priority": Priority.HIGH,
    "content": "write the docs",
    "tags": ["a", "b", "c"],
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)

    plain, model = TaskDataclass(**VALUES), TaskModel(**VALUES)
    data = pa.serialize(plain)
    assert data == pa.serialize(model) and pa.deserialize(TaskModel, data) == model
    pa.default_model.compile()

    def best(*calls: Callable[[], object]) -> list[float]:
        """Best time per call of each; runs interleaved, so that load on a shared
        machine falls on both sides alike."""
        times: list[list[float]] = [[] for _ in calls]
        for _ in range(args.repeat):
            for call, spent in zip(calls, times, strict=True):
                spent.append(timeit.timeit(call, number=args.calls))
        return [min(spent) / args.calls * 1e6 for spent in times]

    rows = [
        ("encode", lambda: pa.serialize(plain), lambda: pa.serialize(model)),
        (
            "decode",
            lambda: pa.deserialize(TaskDataclass, data),
            lambda: pa.deserialize(TaskModel, data),
        ),
        ("__init__", lambda: TaskDataclass(**VALUES), lambda: TaskModel(**VALUES)),
    ]
    print(
        f"protobuf-net's Task, {len(data)} bytes; CPython {sys.version.split()[0]}, "
        f"pydantic {pydantic.VERSION}; best of {args.repeat} x {args.calls:,} calls"
    )
    print(f"{'':10} {'dataclass':>10} {'pydantic':>10} {'ratio':>6}")
    for name, with_dataclass, with_model in rows:
        a, b = best(with_dataclass, with_model)
        print(f"{name:10} {a:8.2f}us {b:8.2f}us {b / a:6.2f}")


if __name__ == "__main__":
    main()
