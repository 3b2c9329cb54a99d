"""``pa.load_schema`` of descriptor.proto's full ``FileDescriptorSet``, and where the time goes.

``python -m benchmarks.load_schema [--runs 7]``

The set is upb's own ``descriptor.proto`` (14 kB, 56 messages and enums).  Each run
clears load_schema's cache of loaded schemas (the classes are declared again, as a
fresh process would); the first run also pays for importing gen.  Printed: the
first run, the best of the others, and, for the best run's steps, decoding the set,
writing gen's source, compiling it, and running it (the ``@dataclass``,
``IntEnum`` and ``@proto_contract`` declarations), beside the cost of declaring as
many plain dataclasses and enums with nothing of protoattr in them.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import sys
import types
from time import perf_counter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()

    from google.protobuf import descriptor_pb2

    import protoattr as pa
    from protoattr._schema import descriptor as d
    from protoattr._schema import runtime
    from protoattr._schema.gen_descriptors import Index
    from protoattr._schema.gen_render import Writer

    fds = descriptor_pb2.FileDescriptorSet()
    descriptor_pb2.DESCRIPTOR.CopyToProto(fds.file.add())
    data = fds.SerializeToString()
    times = []
    for _ in range(args.runs):
        runtime._LOADED.clear()
        t = perf_counter()
        found = pa.load_schema(data)
        times.append(perf_counter() - t)
    print(
        f"load_schema(descriptor.proto, {len(data)} bytes, {len(found)} types): "
        f"first {times[0] * 1e3:.1f} ms, best of {len(times) - 1} more "
        f"{min(times[1:]) * 1e3:.1f} ms"
    )
    steps: dict[str, list[float]] = {"decode": [], "gen source": [], "compile": [], "run": []}
    for i in range(args.runs):
        t0 = perf_counter()
        decoded = pa.deserialize(d.FileDescriptorSet, data)
        t1 = perf_counter()
        text = Writer(Index(decoded), ["google/protobuf/descriptor.proto"], "").run()
        t2 = perf_counter()
        code = compile(text, "<bench>", "exec")
        t3 = perf_counter()
        module = types.ModuleType(f"protoattr.schemas.bench{i}")
        sys.modules[module.__name__] = module
        exec(code, module.__dict__)
        t4 = perf_counter()
        for name, (a, b) in zip(steps, [(t0, t1), (t1, t2), (t2, t3), (t3, t4)], strict=True):
            steps[name].append(b - a)
    print("  " + ", ".join(f"{k} {min(v) * 1e3:.1f} ms" for k, v in steps.items()))
    t = perf_counter()
    for _ in range(35):
        dataclasses.make_dataclass(
            "X", [(f"f{i}", int, dataclasses.field(default=0)) for i in range(5)]
        )
    for _ in range(21):
        enum.IntEnum("E", [("A", 0), ("B", 1), ("C", 2), ("D", 3)])
    plain = (perf_counter() - t) * 1e3
    print(f"  35 plain dataclasses + 21 IntEnums, nothing of protoattr: {plain:.1f} ms")


if __name__ == "__main__":
    main()
