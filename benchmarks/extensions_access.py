"""What reading and writing one extension costs, beside upb's ``msg.Extensions[x]``.

``python -m benchmarks.extensions_access [--number 20000]``

An extendable contract with an int32 and a repeated string extension (set); upb's
classes are made from protoattr's own descriptor set of it (``descriptor_set``,
proto2), so both sides have the same schema.  Best of five runs, per call.
"""

from __future__ import annotations

import argparse
import timeit
from dataclasses import dataclass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=20000)
    args = parser.parse_args()

    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    import protoattr as pa

    @pa.proto_contract(package="bench.ext", extensions=[(100, 199)])
    @dataclass
    class Options:
        name: str = pa.field(1, default="")

    level = pa.extension(Options, 100, pa.int32, name="bench.ext.level")
    tags = pa.extension(Options, 101, list[str], name="bench.ext.tags")

    pool = descriptor_pool.DescriptorPool()
    fds = descriptor_pb2.FileDescriptorSet.FromString(
        pa.default_model.descriptor_set(Options, syntax="proto2")
    )
    for fd in fds.file:
        pool.Add(fd)
    upb_cls = message_factory.GetMessageClass(pool.FindMessageTypeByName("bench.ext.Options"))
    upb_level = pool.FindExtensionByName("bench.ext.level")

    obj = Options(name="x")
    level.set(obj, 5)
    tags.set(obj, ["a", "b"])
    data = pa.serialize(obj)
    ours = pa.deserialize(Options, data)
    theirs = upb_cls.FromString(data)
    n = args.number

    def best(fn: object) -> float:
        return min(timeit.repeat(fn, number=n, repeat=5)) / n * 1e6  # type: ignore[arg-type]

    rows = [
        ("get", lambda: level.get(ours), lambda: theirs.Extensions[upb_level]),
        ("set", lambda: level.set(ours, 7), lambda: theirs.Extensions.__setitem__(upb_level, 7)),
        (
            "decode + get",
            lambda: level.get(pa.deserialize(Options, data)),
            lambda: upb_cls.FromString(data).Extensions[upb_level],
        ),
    ]
    print(f"backend {pa.default_model.backend}, per call:")
    for name, mine, upb in rows:
        print(f"  {name:13} protoattr {best(mine):7.2f} us   upb {best(upb):7.2f} us")


if __name__ == "__main__":
    main()
