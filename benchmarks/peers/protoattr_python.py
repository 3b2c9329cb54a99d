"""protoattr with the generated-Python backend (``TypeModel(backend="python")``).

The same contracts as ``protoattr_``; only the backend differs, so the two rows
side by side are the native engine's gain (and show that the Python backend,
the fallback where the extension is not built, has not become slower).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import protoattr as pa
from benchmarks.google_message1 import GM1Proto2, GM1Proto3
from benchmarks.peers import protoattr_  # noqa: F401  (declares the contracts)
from benchmarks.workloads import AllBoilers, Book, DnsResponse, Task

NAME = "protoattr-python"

MODEL = pa.TypeModel(backend="python")
TaskList = list[Task]


def version() -> str:
    return f"{pa.__version__} (python backend)"


def warm_up() -> None:
    for cls in (Book, Task, AllBoilers, DnsResponse, GM1Proto2, GM1Proto3):
        MODEL.add(cls)
    MODEL.compile()


CODECS: dict[str, Any] = {
    "book": (MODEL.serialize, partial(MODEL.deserialize, Book)),
    "tasks": (partial(MODEL.serialize, type=TaskList), partial(MODEL.deserialize, TaskList)),
    "boilers": (MODEL.serialize, partial(MODEL.deserialize, AllBoilers)),
    "dns": (MODEL.serialize, partial(MODEL.deserialize, DnsResponse)),
    "gm1_proto2": (MODEL.serialize, partial(MODEL.deserialize, GM1Proto2)),
    "gm1_proto3": (MODEL.serialize, partial(MODEL.deserialize, GM1Proto3)),
}
