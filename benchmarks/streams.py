"""Streams at the speed of single messages: 1,000,000 length-prefixed DNS records.

``python -m benchmarks.streams [--records N] [--rounds R]`` writes ``N`` (default
1,000,000) ``DnsRecord``s of the ``dns`` workload (``benchmarks/workloads.py``)
as a ``BASE128``-prefixed stream to a temporary file and times, interleaved,
best of ``R`` rounds (default 3), garbage collector on as a user would run it:

* ``deserialize_items``: ``for r in pa.deserialize_items(DnsRecord, f)`` over the
  open file (``open(path, "rb")``), each record dropped after it is counted (a
  stream's reader handles one at a time; keeping a million objects alive would
  time the garbage collector);
* ``hand loop``: the same file's bytes (``f.read()``, counted in the time) cut
  with a hand-written varint loop and each body given to ``pa.deserialize`` —
  the floor a user could write without the streaming API;
* ``serialize_items``: ``pa.serialize_items(f, records)`` to a ``BytesIO``;
* ``hand loop (write)``: ``b"".join`` of ``encode_varint(len(b)) + b`` for each
  ``b = pa.serialize(r)``, written once.

It prints per-item times, the ratio to the hand loop and MB/s of stream bytes.
Not a test: numbers vary with the machine (run it under ``nice`` on a shared one).
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import protoattr as pa
from protoattr._core.wire import encode_varint

from .workloads import DnsRecord, DnsResponse, make_dns

pa.proto_contract(DnsRecord)
pa.proto_contract(DnsResponse)


def _records(n: int) -> list[DnsRecord]:
    base = make_dns(5000).records
    return [base[i % len(base)] for i in range(n)]


def read_items(path: Path) -> int:
    with open(path, "rb") as f:
        return _count(pa.deserialize_items(DnsRecord, f))


def _count(items: Iterator[object]) -> int:
    """Consume each item and keep none (a stream's reader handles one at a time)."""
    n = 0
    for _ in items:
        n += 1
    return n


def read_hand_loop(path: Path) -> int:
    with open(path, "rb") as f:
        data = f.read()
    count = 0
    deserialize = pa.deserialize
    pos, end = 0, len(data)
    while pos < end:
        n = data[pos]
        pos += 1
        if n >= 0x80:  # the records are under 16 KiB: at most two prefix bytes
            n = (n & 0x7F) | (data[pos] << 7)
            pos += 1
        deserialize(DnsRecord, data[pos : pos + n])
        count += 1
        pos += n
    return count


def write_items(records: list[DnsRecord]) -> int:
    f = io.BytesIO()
    pa.serialize_items(f, records)
    return len(f.getvalue())


def write_hand_loop(records: list[DnsRecord]) -> int:
    f = io.BytesIO()
    serialize = pa.serialize
    parts = []
    for r in records:
        b = serialize(r)
        parts.append(encode_varint(len(b)))
        parts.append(b)
    f.write(b"".join(parts))
    return len(f.getvalue())


def _best(fns: dict[str, Callable[[], Any]], rounds: int) -> dict[str, float]:
    best = {name: float("inf") for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():  # interleaved: the machine's load hits each alike
            gc.collect()
            t0 = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - t0)
    return best


#: the timed operations, each with the hand loop it is compared with (None: is one)
OPS = (
    ("deserialize_items", "hand loop (read)"),
    ("hand loop (read)", None),
    ("serialize_items", "hand loop (write)"),
    ("hand loop (write)", None),
)


def measure(n: int, rounds: int) -> dict[str, Any]:
    """``{"records", "bytes", "seconds": {op: best s}}`` for ``n`` records, best of ``rounds``."""
    records = _records(n)
    fd, name = tempfile.mkstemp(suffix=".pb")
    os.close(fd)
    path = Path(name)
    try:
        with open(path, "wb") as f:
            pa.serialize_items(f, records)
        size = path.stat().st_size
        assert read_items(path) == read_hand_loop(path) == len(records)
        assert write_items(records) == write_hand_loop(records) == size
        times = _best(
            {
                "deserialize_items": lambda: read_items(path),
                "hand loop (read)": lambda: read_hand_loop(path),
                "serialize_items": lambda: write_items(records),
                "hand loop (write)": lambda: write_hand_loop(records),
            },
            rounds,
        )
    finally:
        path.unlink()
    return {"records": len(records), "bytes": size, "seconds": times}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    res = measure(args.records, args.rounds)
    n, size, times = res["records"], res["bytes"], res["seconds"]
    print(
        f"{n:,} DnsRecords, {size / 1e6:.1f} MB, backend {pa.default_model.backend}, "
        f"Python {sys.version.split()[0]}, best of {args.rounds}"
    )
    print(f"{'':20} {'s':>7} {'ns/item':>8} {'MB/s':>7} {'÷ hand loop':>12}")
    for name, hand in OPS:
        t = times[name]
        ratio = f"{t / times[hand]:.2f}x" if hand else ""
        print(f"{name:20} {t:7.3f} {t / n * 1e9:8.0f} {size / t / 1e6:7.0f} {ratio:>12}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
