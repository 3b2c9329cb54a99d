"""How much memory a small hostile input can make ``deserialize`` build.

``python -m fuzz.amplification [KB]`` decodes, each in a fresh process, inputs
made of the cheapest possible messages repeated (``82 03 02 12 00`` is
TestAllTypesProto3's ``repeated_nested_message { corecursive {} }``: five bytes,
two messages) and prints the memory per input byte: without a bound, the resident memory the
decoded result holds; with one, the peak of Python allocations before the
``DecodeError``, without a bound
and with ``TypeModel(max_messages=10_000)``.  docs/errors.md quotes its output.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
import tracemalloc

SHAPES = {
    "nested": "TestAllTypesProto3.repeated_nested_message { corecursive {} }, repeated",
    "map": "TestAllTypesProto3.map_string_nested_message, distinct keys, values { corecursive {} }",
    "tree": "Tree.children: empty children, repeated (2 bytes each)",
    "empty_fields": "TestAllTypesProto3.repeated_nested_message {}, repeated (3 bytes each)",
}


def _len(tag: int, body: bytes) -> bytes:
    from protoattr._core.wire import encode_varint

    return encode_varint(tag << 3 | 2) + encode_varint(len(body)) + body


def _input(shape: str, size: int) -> tuple[type, bytes]:
    from . import alltypes, families

    if shape == "nested":
        unit = bytes.fromhex("8203021200")
        return alltypes.TestAllTypesProto3, unit * (size // len(unit))
    if shape == "empty_fields":
        return alltypes.TestAllTypesProto3, b"\x82\x03\x00" * (size // 3)
    if shape == "map":
        parts, n = [], 0
        while sum(map(len, parts)) < size:
            parts.append(_len(71, _len(1, str(n).encode()) + _len(2, _len(2, b""))))
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


def _measure(shape: str, size: int, max_messages: int | None) -> dict[str, object]:
    """Unbounded: the resident memory the result holds.  Bounded: the decode fails, so
    what counts is its peak of Python allocations (tracemalloc) before it does."""
    import gc

    import protoattr as pa

    cls, data = _input(shape, size)
    model = pa.TypeModel(max_messages=max_messages)
    model.deserialize(cls, b"")  # compile first: only decoding is measured
    gc.collect()
    if max_messages is not None:
        tracemalloc.start()
    before = _rss()
    began = time.perf_counter()
    try:
        kept = model.deserialize(cls, data)  # held while memory is measured
        outcome = "decoded"
    except pa.DecodeError:
        kept = None
        outcome = "DecodeError"
    took = time.perf_counter() - began
    if max_messages is None:
        memory = max(_rss() - before, 0)
    else:
        memory = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    del kept
    return {"bytes": len(data), "memory": memory, "seconds": took, "outcome": outcome}


def main(argv: list[str]) -> None:
    if argv[:1] == ["_one"]:
        shape, size, limit = argv[1], int(argv[2]), argv[3]
        print(json.dumps(_measure(shape, size, None if limit == "-" else int(limit))))
        return
    size = int(argv[0]) * 1000 if argv else 100_000
    print(f"{'input':<14}{'bound':>20}{'input bytes':>13}{'memory':>10}{'ratio':>8}{'time':>8}")
    for shape in SHAPES:
        for limit in ("-", "10000"):
            out = subprocess.run(
                [sys.executable, "-m", "fuzz.amplification", "_one", shape, str(size), limit],
                capture_output=True, text=True, check=True,
            )  # fmt: skip
            r = json.loads(out.stdout)
            bound = "none" if limit == "-" else f"max_messages={limit}"
            print(
                f"{shape:<14}{bound:>20}{r['bytes']:>13,}{r['memory'] / 1e6:>8.1f}MB"
                f"{r['memory'] / r['bytes']:>7.0f}x{r['seconds']:>7.2f}s  {r['outcome']}"
            )


if __name__ == "__main__":
    main(sys.argv[1:])
