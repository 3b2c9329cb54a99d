"""Leak check for the native backend: many encode/decode/merge cycles, error paths included.

``python -m tests.leak.cycles [CYCLES]`` (default 1,000,000) runs every feature
the engine covers, and every way it hands over to the Python codec (bad values,
garbled bytes, merges, contracts it calls back), and prints the RSS and
``sys.getallocatedblocks()`` (live Python allocations) at checkpoints.  It
exits non-zero when either keeps growing after the warm-up.  A short version
runs in the test suite (tests/test_native_leaks.py).
"""

from __future__ import annotations

import contextlib
import datetime
import gc
import sys
from collections.abc import Callable
from typing import Any

import protoattr as pa
from tests.contracts3 import Circle, Cube, Drawing, Shape, Square
from tests.test_groups import G, Item
from tests.test_groups import Holder as GroupHolder
from tests.test_native import Chain, Choice, Colour, Everything, Holder, Leaf, Level, Priced, When

UTC = datetime.timezone.utc


def workload(model: pa.TypeModel) -> Callable[[], None]:
    """One cycle: a list of operations, each of which may succeed or raise."""
    import decimal

    every = Everything(
        -1, -(2**63), 2**32 - 1, 2**64 - 1, -(2**31), 2**63 - 1, 2**32 - 1, 2**64 - 1,
        -(2**31), -(2**63), True, Colour.GREEN, 1.5, -0.0, "héllo", b"\x00\xff", Leaf("l", -1),
        Level.HIGH, [-1, 0, 2**62], [0, 1, 2**32 - 1], ("a", ""), {-5: "x", 2**40: ""},
        {"k": Leaf("v", 3)}, [True, False], [float("inf"), -1e-300], 0, 0,
    )  # fmt: skip
    every_bytes = model.serialize(every)
    holder = Holder(
        Leaf("x", 1), Choice(b="c"), [Priced(decimal.Decimal("2.5"))], {"a": Leaf("", 0)}
    )
    holder_bytes = model.serialize(holder)
    when = When(datetime.datetime(2020, 1, 2, 3, 4, 5, 6, tzinfo=UTC), datetime.timedelta(-1, 3))
    when_bytes = model.serialize(when)
    chain_bytes = b""
    for _ in range(30):  # nested 30 deep, each level under 128 bytes
        chain_bytes = b"\x0a" + bytes([len(chain_bytes)]) + chain_bytes
    unknown = model.serialize(Leaf("u", 2)) + b"\xf8\x3e\x05\x82\x3f\x03abc"
    bad_values = [Leaf("x", 2**31), Leaf(3, 1), Everything(u32=-1), Everything(colour=5)]  # type: ignore[arg-type]
    garbled = [every_bytes[:-3], every_bytes[:40] + b"\xff", b"\x0a\x05ab", b"\x12\x80", b"\x00"]
    tasks_of = list[Leaf]
    leaves = [Leaf("a", 1), Leaf("b", -2)]
    leaves_bytes = model.serialize(leaves, type=tasks_of)
    # inheritance, groups, merges (hier.c, groups.c)
    drawing = Drawing(
        shapes=[Circle(radius=1.0), Shape(name="s"), Cube(depth=2, labels=["l"]), Square(side=3)],
        main=Cube(name="m"),
        by_name={"c": Circle(name="cc"), "q": Square()},
    )
    drawing_bytes = model.serialize(drawing)
    groups = GroupHolder(x=1, g=G(a=2, s="g"), item=[Item(n=-1, tags=["t"], deep=G(a=3))])
    unknown_group = b"\x9b\x06\x08\x01\xa3\x06\x12\x01x\xa4\x06\x9c\x06"
    groups_bytes = model.serialize(groups) + unknown_group
    twice = groups_bytes + model.serialize(GroupHolder(g=G(s="t"), msg=G(a=5)))
    sibling = model.serialize(Circle(radius=2.0))
    hier_garbled = [drawing_bytes[:-2], b"\x5a\x03\x08\x01", sibling, groups_bytes[:-3],
                    b"\x2b\x08\x01", b"\x9b\x06\xa4\x06"]  # fmt: skip
    ops: list[Callable[[], Any]] = [
        lambda: model.deserialize(Drawing, model.serialize(drawing)),
        lambda: model.deserialize(Shape, model.serialize(Cube("k", 1, 2, 3, ["a"]))),
        lambda: model.merge(Cube(name="a", side=1, labels=["x"]), sibling),
        lambda: model.merge(Drawing(main=Circle()), drawing_bytes),
        lambda: model.serialize(model.deserialize(GroupHolder, groups_bytes)),
        lambda: model.deserialize(GroupHolder, twice),
        lambda: model.merge(GroupHolder(item=[Item()]), groups_bytes),
        lambda: model.deserialize(Everything, model.serialize(every)),
        lambda: model.deserialize(Everything, every_bytes),
        lambda: model.deserialize(Holder, model.serialize(holder)),
        lambda: model.deserialize(Holder, holder_bytes),
        lambda: model.deserialize(When, model.serialize(when)),
        lambda: model.deserialize(When, when_bytes),
        lambda: model.deserialize(Chain, chain_bytes),
        lambda: model.serialize(model.deserialize(Leaf, unknown)),
        lambda: model.merge(Leaf("m", 5), unknown),
        lambda: model.deserialize(tasks_of, leaves_bytes),
        lambda: model.serialize(leaves, type=tasks_of),
    ]
    ops += _converted_ops(model)
    for bad in bad_values:
        ops.append(lambda bad=bad: model.serialize(bad))
    for data in hier_garbled:
        for cls in (Drawing, Square, Shape, GroupHolder):
            ops.append(lambda data=data, cls=cls: model.deserialize(cls, data))
    for data in garbled:
        for cls in (Everything, Leaf, Holder):
            ops.append(lambda data=data, cls=cls: model.deserialize(cls, data))

    def cycle() -> None:
        for op in ops:
            with contextlib.suppress(pa.EncodeError, pa.DecodeError):
                op()

    return cycle


def _converted_ops(model: pa.TypeModel) -> list[Callable[[], Any]]:
    """Converted types and surrogates, natively: valid round trips, values the converters
    refuse, wire values that do not convert (each of those hands over to Python)."""
    import decimal
    import uuid

    from tests.test_native_convert import Converted, Perm, Point, Required, Surrogates

    day = datetime.date(2024, 2, 29)
    conv = Converted(
        decimal.Decimal("-1.25"), decimal.Decimal("NaN"), uuid.UUID(int=7), uuid.UUID(int=9),
        day, day, bytearray(b"ab"), Perm(5), [decimal.Decimal("1E+3")], [day, day],
        [Perm.R, Perm(64)], [uuid.UUID(int=1)], {uuid.UUID(int=2): decimal.Decimal("0.5")},
        {day: bytearray(b"x")}, [bytearray()], frozenset([day]),
    )  # fmt: skip
    sur = Surrogates(
        Point(1, -2, "p"), Point(3, 4), [Point(5, 6)], {"k": Point(7, 8)}, 5, "t",
        {"a": [1.0, None, "x"]}, {"s": True}, conv,
    )  # fmt: skip
    conv_bytes, sur_bytes = model.serialize(conv), model.serialize(sur)
    refused = model.serialize(Surrogates(Point(1, 2, "refuse")))
    bad_wire = [b"\x0a\x03abc", b"\x1a\x04abcd", b"\x22\x03abc", b"\x28\xff\xff\xff\xff\x0f"]
    return [
        lambda: model.deserialize(Converted, model.serialize(conv)),
        lambda: model.deserialize(Converted, conv_bytes),
        lambda: model.deserialize(Surrogates, model.serialize(sur)),
        lambda: model.deserialize(Surrogates, sur_bytes),
        lambda: model.deserialize(Surrogates, refused),
        lambda: model.deserialize(Surrogates, b""),
        lambda: model.serialize(Converted(price=1.5)),  # type: ignore[arg-type]
        lambda: model.serialize(Required(None, day)),  # type: ignore[arg-type]
        lambda: model.serialize(Surrogates(Point(2**40, 0))),
        lambda: model.deserialize(Point, model.serialize(Point(1, 2))),
        *(lambda data=data: model.deserialize(Converted, data) for data in bad_wire),
        lambda: model.deserialize(Converted, conv_bytes[:-3]),
        lambda: model.deserialize(Surrogates, sur_bytes[:-2]),
    ]


def _rss_kb() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4


def run(cycles: int, checkpoints: int = 10, backend: str = "native") -> list[tuple[int, int]]:
    """``(rss_kb, allocated_blocks)`` after each checkpoint (the first after warm-up)."""
    model = pa.TypeModel(backend=backend)
    cycle = workload(model)
    for _ in range(200):  # warm-up: compile, caches, interned strings
        cycle()
    out: list[tuple[int, int]] = []
    step = max(1, cycles // checkpoints)
    done = 0
    while done < cycles:
        for _ in range(min(step, cycles - done)):
            cycle()
        done += step
        gc.collect()
        out.append((_rss_kb(), sys.getallocatedblocks()))
    return out


def main() -> int:
    cycles = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    points = run(cycles)
    for i, (rss, blocks) in enumerate(points):
        print(f"checkpoint {i + 1}: rss {rss} KiB, allocated blocks {blocks}")
    rss_growth = points[-1][0] - points[0][0]
    block_growth = points[-1][1] - points[0][1]
    print(f"growth after the first checkpoint: rss {rss_growth} KiB, blocks {block_growth}")
    return 0 if rss_growth < 2048 and block_growth < 1000 else 1


if __name__ == "__main__":
    sys.exit(main())
