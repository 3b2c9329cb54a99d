"""The fresh processes of ``benchmarks.cold_start_upb``: run as a script, so that nothing
but ``sys`` and ``time`` is imported before the clock starts (not even ``typing``).

``python benchmarks/_cold_start_child.py compiled|lazy|upb DIRECTORY`` prints one JSON line.
"""

import sys
from time import perf_counter_ns

MODULE = "protoattr_cold_start_contracts"
PROTO = "protoattr_cold_start_upb"
DATA = "messages.bin"


def _read_messages(directory: str) -> list[bytes]:
    """The length-prefixed (4-byte little-endian) encodings written by ``prepare``."""
    with open(f"{directory}/{DATA}", "rb") as f:
        blob = f.read()
    out, pos = [], 0
    while pos < len(blob):
        n = int.from_bytes(blob[pos : pos + 4], "little")
        out.append(blob[pos + 4 : pos + 4 + n])
        pos += 4 + n
    return out


def measure_protoattr(directory: str, compile_first: bool) -> dict[str, float]:
    """One fresh process: protoattr from ``import`` to the first use of every contract (ms)."""
    datas = _read_messages(directory)
    sys.path.insert(0, directory)
    import importlib

    t0 = perf_counter_ns()
    import protoattr as pa

    t_import = perf_counter_ns() - t0

    real_field = pa.field
    field_ns = 0

    def timed_field(*args, **kwargs):  # type: ignore[no-untyped-def]
        nonlocal field_ns
        t = perf_counter_ns()
        try:
            return real_field(*args, **kwargs)
        finally:
            field_ns += perf_counter_ns() - t

    pa.field = timed_field  # the module's "from protoattr import field" takes this one
    t0 = perf_counter_ns()
    mod = importlib.import_module(MODULE)
    t_module = perf_counter_ns() - t0
    pa.field = real_field

    t0 = perf_counter_ns()
    for c in mod.CLASSES:
        pa.proto_contract(c)
    t_declare = perf_counter_ns() - t0
    t0 = perf_counter_ns()
    if compile_first:
        pa.default_model.compile()
    t_compile = perf_counter_ns() - t0
    t0 = perf_counter_ns()
    for c, data in zip(mod.CLASSES, datas, strict=True):
        obj = pa.deserialize(c, data)
        pa.serialize(obj)
    t_use = perf_counter_ns() - t0
    own = t_import + field_ns + t_declare + t_compile + t_use
    return {
        "import_ms": t_import / 1e6,
        "field_calls_ms": field_ns / 1e6,
        "dataclasses_ms": (t_module - field_ns) / 1e6,
        "declare_ms": t_declare / 1e6,
        "compile_ms": t_compile / 1e6,
        "first_use_ms": t_use / 1e6,
        "own_ms": own / 1e6,
    }


def measure_upb(directory: str) -> dict[str, float]:
    """One fresh process: the ``_pb2`` module from import to first use of every message (ms)."""
    datas = _read_messages(directory)
    sys.path.insert(0, directory)
    import importlib

    t0 = perf_counter_ns()
    pb2 = importlib.import_module(f"{PROTO}_pb2")
    t_import = perf_counter_ns() - t0
    t0 = perf_counter_ns()
    for i, data in enumerate(datas):
        getattr(pb2, f"C{i}").FromString(data).SerializeToString()
    t_use = perf_counter_ns() - t0
    from google.protobuf.internal import api_implementation

    if api_implementation.Type() != "upb":
        raise SystemExit(f"google.protobuf runs {api_implementation.Type()!r}, not upb")
    return {
        "import_ms": t_import / 1e6,
        "first_use_ms": t_use / 1e6,
        "own_ms": (t_import + t_use) / 1e6,
    }


if __name__ == "__main__":
    kind, directory = sys.argv[1], sys.argv[2]
    fig = (
        measure_upb(directory)
        if kind == "upb"
        else measure_protoattr(directory, kind == "compiled")
    )
    import json

    sys.stdout.write(json.dumps(fig) + "\n")
