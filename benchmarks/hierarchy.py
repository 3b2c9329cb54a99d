"""Speed of an inheritance workload: a drawing of 2,000 shapes, three levels deep.

``python -m benchmarks.hierarchy [--shapes N] [--rounds R]``

The shapes (tests/contracts3.py: ``Shape`` ← ``Circle``, ``Square`` ← ``Cube``)
are mixed in one ``list[Shape]``, the subtypes nested in their base's message
as protobuf-net writes them.  Timed, best of R interleaved rounds (GC on):
protoattr's C engine, protoattr's generated Python codecs, and Google's upb
runtime on the equivalent ``.proto`` (a ``oneof subtype`` of nested messages),
both codec only (``SerializeToString``/``FromString`` of ready pb objects) and
end to end (dataclasses → pb objects → bytes, and back to dataclasses).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import protoattr as pa
from tests.contracts3 import Circle, Cube, Drawing, Shape, Square, shapes_pb


def drawing(n: int) -> Drawing:
    shapes: list[Shape] = []
    for i in range(n):
        k = i % 4
        if k == 0:
            shapes.append(Shape(name=f"shape {i}", id=i))
        elif k == 1:
            shapes.append(Circle(name=f"circle {i}", id=i, radius=i / 7))
        elif k == 2:
            shapes.append(Square(name=f"square {i}", id=i, side=i * 3))
        else:
            shapes.append(Cube(name=f"cube {i}", id=i, side=i, depth=-i, labels=["a", f"l{i}"]))
    return Drawing(shapes=shapes)


def to_pb(pb: Any, obj: Drawing) -> Any:
    msg = pb.Drawing()
    for s in obj.shapes:
        m = msg.shapes.add(name=s.name, id=s.id)
        if isinstance(s, Circle):
            m.circle.radius = s.radius
        elif isinstance(s, Square):
            m.square.side = s.side
            if isinstance(s, Cube):
                m.square.cube.depth = s.depth
                m.square.cube.labels.extend(s.labels)
    return msg


def from_pb(msg: Any) -> Drawing:
    shapes: list[Shape] = []
    for m in msg.shapes:
        which = m.WhichOneof("subtype")
        if which == "circle":
            shapes.append(Circle(m.name, m.id, m.circle.radius))
        elif which == "square":
            sq = m.square
            if sq.WhichOneof("subtype") == "cube":
                shapes.append(Cube(m.name, m.id, sq.side, sq.cube.depth, list(sq.cube.labels)))
            else:
                shapes.append(Square(m.name, m.id, sq.side))
        else:
            shapes.append(Shape(m.name, m.id))
    return Drawing(shapes=shapes)


def best(fn: Callable[[], Any], rounds: int, inner: int) -> float:
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - t0) / inner)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--inner", type=int, default=5)
    args = ap.parse_args()
    pb = shapes_pb()
    obj = drawing(args.shapes)
    native = pa.TypeModel(backend="native")
    python = pa.TypeModel(backend="python")
    data = python.serialize(obj)
    assert native.serialize(obj) == data
    assert native.deserialize(Drawing, data) == obj == python.deserialize(Drawing, data)
    msg = to_pb(pb, obj)
    assert from_pb(pb.Drawing.FromString(data)) == obj
    assert native._native is not None
    assert native._native.explain(Drawing) == "native"
    cases: dict[str, Callable[[], Any]] = {
        "serialize native": lambda: native.serialize(obj),
        "serialize python": lambda: python.serialize(obj),
        "serialize upb codec": lambda: msg.SerializeToString(),
        "serialize upb end to end": lambda: to_pb(pb, obj).SerializeToString(),
        "deserialize native": lambda: native.deserialize(Drawing, data),
        "deserialize python": lambda: python.deserialize(Drawing, data),
        "deserialize upb codec": lambda: pb.Drawing.FromString(data),
        "deserialize upb end to end": lambda: from_pb(pb.Drawing.FromString(data)),
    }
    results = {name: float("inf") for name in cases}
    for _ in range(args.rounds):  # interleaved: every case once per round
        for name, fn in cases.items():
            results[name] = min(results[name], best(fn, 1, args.inner))
    plan = native._native.plans[Drawing]
    print(f"{args.shapes} shapes, {len(data)} bytes, best of {args.rounds} rounds "
          f"(native fallbacks: {plan.fallbacks})")  # fmt: skip
    for name, t in results.items():
        direction = name.split(" ", 1)[0]
        e2e = results[f"{direction} upb end to end"]
        print(f"{name:30s} {t * 1e3:8.3f} ms  {t / e2e:5.2f}x upb end to end")


if __name__ == "__main__":
    main()
