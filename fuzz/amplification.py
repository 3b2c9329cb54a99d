"""How much memory and time a small hostile input can make ``deserialize`` cost.

``python -m fuzz.amplification [KB] [--shapes a,b] [--runners r,s]`` decodes, each in a
fresh process, inputs made of the cheapest possible messages repeated (``82 03 02 12
00`` is TestAllTypesProto3's ``repeated_nested_message { corecursive {} }``: five
bytes, two messages), a field unknown to the contract repeated (also inside a
message that is merged), and deep chains repeated (protobuf merges each copy into
the last), and prints per input and runner the time (wall clock, and the process's
CPU time, steadier on a loaded machine) and the peak resident memory the decode
added.  The runners are protoattr's two backends without a bound and with
``TypeModel(max_messages=10_000)``, and upb (``google.protobuf``, from the same
schema).  docs/errors.md quotes its output.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from typing import Any

SHAPES = {
    "nested": "TestAllTypesProto3.repeated_nested_message { corecursive {} }, repeated",
    "map": "TestAllTypesProto3.map_string_nested_message, distinct keys, values { corecursive {} }",
    "tree": "Tree.children: empty children, repeated (2 bytes each)",
    "empty_fields": "TestAllTypesProto3.repeated_nested_message {}, repeated (3 bytes each)",
    "unknown": "f2 01 00 (field 30, unknown to TestAllTypesProto3), repeated",
    "merged_unknown": "optional_nested_message { f2 01 00 }, repeated (merged: unknown inside)",
    "recursive": "a 100-deep recursive_message chain, repeated (merged)",
    "corecursive": "a 98-deep optional_nested_message/corecursive chain, repeated (merged)",
}
RUNNERS = ("native", "native+bound", "python", "python+bound", "upb")
BOUND = 10_000


def _len(tag: int, body: bytes) -> bytes:
    from protoattr._core.wire import encode_varint

    return encode_varint(tag << 3 | 2) + encode_varint(len(body)) + body


def _chain(depth: int, tags: list[int]) -> bytes:
    body = b""
    for i in range(depth):
        body = _len(tags[i % len(tags)], body)
    return body


def _input(shape: str, size: int) -> tuple[type, bytes]:
    from . import alltypes, families

    units = {
        "nested": bytes.fromhex("8203021200"),
        "empty_fields": b"\x82\x03\x00",
        "unknown": bytes.fromhex("f20100"),
        "merged_unknown": _len(18, bytes.fromhex("f20100")),
        "recursive": _chain(100, [27]),
        "corecursive": _chain(98, [2, 18]),
    }
    if shape in units:
        unit = units[shape]
        return alltypes.TestAllTypesProto3, unit * (size // len(unit))
    if shape == "map":
        parts, n, total = [], 0, 0
        while total < size:  # (summing the parts at each step made this quadratic)
            parts.append(_len(71, _len(1, str(n).encode()) + _len(2, _len(2, b""))))
            total += len(parts[-1])
            n += 1
        return alltypes.TestAllTypesProto3, b"".join(parts)
    return families.Tree, b"\x12\x00" * (size // 2)


def _rss() -> int:
    """Resident memory now, in bytes (Linux; elsewhere the peak so far)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * resource.getpagesize()
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _decoder(runner: str, cls: type) -> tuple[Any, type[BaseException]]:
    """The decode function of ``runner`` and the error class it raises for bad input."""
    if runner == "upb":
        from google.protobuf.message import DecodeError as GoogleDecodeError

        from .targets import _google

        google = _google(3)
        return google.FromString, (GoogleDecodeError, RecursionError)  # type: ignore[return-value]
    import protoattr as pa

    backend, _, bound = runner.partition("+")
    model = pa.TypeModel(backend=backend, max_messages=BOUND if bound else None)
    model.deserialize(cls, b"")  # compile first: only decoding is measured
    assert model.backend == backend
    return (lambda data: model.deserialize(cls, data)), pa.DecodeError


def _measure(shape: str, size: int, runner: str) -> dict[str, object]:
    """The time of one decode and how far it raised the process's peak resident memory
    (from the larger of the resident memory and the peak just before)."""
    import gc

    cls, data = _input(shape, size)
    if runner == "upb" and cls.__name__ != "TestAllTypesProto3":
        return {"bytes": len(data), "memory": 0, "seconds": 0.0, "cpu": 0.0, "outcome": "n/a"}
    decode, error = _decoder(runner, cls)
    gc.collect()
    before = max(_rss(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
    began, cpu = time.perf_counter(), time.process_time()
    try:
        kept = decode(data)  # held while memory is measured
        outcome = "decoded"
    except error:
        kept = None
        outcome = "DecodeError"
    took, cpu = time.perf_counter() - began, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    del kept
    return {
        "bytes": len(data),
        "memory": max(peak - before, 0),
        "seconds": took,
        "cpu": cpu,
        "outcome": outcome,
    }


def main(argv: list[str]) -> None:
    if argv[:1] == ["_one"]:
        print(json.dumps(_measure(argv[1], int(argv[2]), argv[3])))
        return
    import argparse

    p = argparse.ArgumentParser(prog="python -m fuzz.amplification")
    p.add_argument("kb", nargs="?", type=int, default=100)
    p.add_argument("--shapes", default=",".join(SHAPES))
    p.add_argument("--runners", default=",".join(RUNNERS))
    p.add_argument("--timeout", type=float, default=120.0)
    a = p.parse_args(argv)
    size = a.kb * 1000
    head = f"{'input':<16}{'runner':<14}{'bytes':>11}{'peak memory':>13}{'ratio':>8}"
    print(f"{head}{'time':>10}{'cpu':>10}")
    for shape in a.shapes.split(","):
        for runner in a.runners.split(","):
            try:
                out = subprocess.run(
                    [sys.executable, "-m", "fuzz.amplification", "_one", shape, str(size), runner],
                    capture_output=True, text=True, check=True, timeout=a.timeout,
                )  # fmt: skip
            except subprocess.TimeoutExpired:
                print(f"{shape:<16}{runner:<14}{'':>11}{'':>13}{'':>8}  >{a.timeout:.0f}s")
                continue
            r = json.loads(out.stdout)
            if r["outcome"] == "n/a":
                continue
            print(
                f"{shape:<16}{runner:<14}{r['bytes']:>11,}{r['memory'] / 1e6:>11.1f}MB"
                f"{r['memory'] / r['bytes']:>7.0f}x{r['seconds']:>9.4f}s{r['cpu']:>9.4f}s"
                f"  {r['outcome']}"
            )


if __name__ == "__main__":
    main(sys.argv[1:])
