"""Leak check for the native backend: many encode/decode/merge cycles, error paths included.

``python -m tests.leak.cycles [CYCLES]`` (default 1,000,000) runs every feature
the engine covers, and every way it hands over to the Python codec (bad values,
garbled bytes, merges, contracts it calls back), and prints the RSS and
``sys.getallocatedblocks()`` (live Python allocations) at checkpoints.  It
exits non-zero when either keeps growing after the warm-up.  A short version
runs in the test suite (tests/test_native_leaks.py).

One cycle is the operations of every function in ``FEATURES`` (one function per
feature group, each returning its operations): add a group by adding a function
to that list.  An operation may return anything or raise ``EncodeError`` /
``DecodeError``; any other exception fails the run.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import decimal
import gc
import sys
from collections.abc import Callable
from typing import Any

import protoattr as pa
from protoattr import field, proto_contract
from tests.contracts3 import Circle, Cube, Drawing, Shape, Square
from tests.test_groups import G, Item
from tests.test_groups import Holder as GroupHolder
from tests.test_native import (
    Animal,
    Chain,
    Choice,
    ClosedLevel,
    Colour,
    Dog,
    Everything,
    Holder,
    Leaf,
    Level,
    Priced,
    Strict,
    When,
)

UTC = datetime.timezone.utc
Op = Callable[[], Any]


@proto_contract
@dataclasses.dataclass
class Record:
    """proto2 rules: required fields, defaults, a closed enum."""

    key: str = field(1, required=True)
    level: ClosedLevel = field(2, required=True)
    leaf: Leaf = field(3, required=True)
    ttl: pa.int32 = field(4, default=86400)
    kind: str = field(5, default="A")
    levels: list[ClosedLevel] = field(6, default_factory=list)


@proto_contract
@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Frozen:
    """Slotted, frozen, keyword-only: built with keywords, read without a __dict__."""

    name: str = field(1, default="")
    tags: tuple[str, ...] = field(2, default=())
    at: datetime.timedelta | None = field(3, default=None)


def _varint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _nest(depth: int) -> bytes:
    """A Chain ``depth`` levels deep."""
    data = b""
    for _ in range(depth):
        data = b"\x0a" + _varint(len(data)) + data
    return data


def _everything() -> Everything:
    return Everything(
        -1, -(2**63), 2**32 - 1, 2**64 - 1, -(2**31), 2**63 - 1, 2**32 - 1, 2**64 - 1,
        -(2**31), -(2**63), True, Colour.GREEN, 1.5, -0.0, "héllo", b"\x00\xff", Leaf("l", -1),
        Level.HIGH, [-1, 0, 2**62], [0, 1, 2**32 - 1], ("a", ""), {-5: "x", 2**40: ""},
        {"k": Leaf("v", 3)}, [True, False], [float("inf"), -1e-300], 0, 0,
    )  # fmt: skip


# ---------------------------------------------------------------- feature groups


def scalar_ops(model: pa.TypeModel) -> list[Op]:
    """Every scalar kind, packed and unpacked, and values the engine refuses."""
    every = _everything()
    data = model.serialize(every)
    bad = [
        Leaf("x", 2**31),  # out of range
        Leaf(3, 1),  # type: ignore[arg-type]  # wrong type
        Everything(u32=-1),
        Everything(colour=5),  # type: ignore[arg-type]
        Everything(packed=[1, "x"]),  # type: ignore[list-item]
        Everything(reals=[1.0, None]),  # type: ignore[list-item]
        Everything(texts=("a", b"b")),  # type: ignore[arg-type]
        Everything(blob=bytearray(b"ab")),  # type: ignore[arg-type]  # Python writes it
        Everything(flags={True}),  # type: ignore[arg-type]  # a set: Python iterates it
    ]
    return [
        lambda: model.deserialize(Everything, model.serialize(every)),
        lambda: model.deserialize(Everything, data),
        lambda: model.deserialize(Everything, b""),
        *[lambda b=b: model.serialize(b) for b in bad],
    ]


def message_ops(model: pa.TypeModel) -> list[Op]:
    """Nested messages, and native contracts calling back Python ones (Decimal)."""
    holder = Holder(
        Leaf("x", 1), Choice(b="c"), [Priced(decimal.Decimal("2.5"))], {"a": Leaf("", 0)}
    )
    data = model.serialize(holder)
    twice = data + model.serialize(Holder(Leaf("y", 2)))  # a message seen twice: merged
    return [
        lambda: model.deserialize(Holder, model.serialize(holder)),
        lambda: model.deserialize(Holder, data),
        lambda: model.deserialize(Holder, twice),
        lambda: model.serialize(Holder(Leaf("x", 1), priced=[Priced("nan?")])),  # type: ignore[arg-type]
    ]


def oneof_ops(model: pa.TypeModel) -> list[Op]:
    """Oneof: last member wins on decode, two members set is an EncodeError."""
    both = b"\x08\x05\x12\x02hi\x08\x07"
    return [
        lambda: model.deserialize(Choice, model.serialize(Choice(a=5))),
        lambda: model.deserialize(Choice, both),
        lambda: model.serialize(Choice(a=1, b="x")),
    ]


def map_ops(model: pa.TypeModel) -> list[Op]:
    """Maps: scalar and message values, entries with missing or extra parts, bad keys."""
    entries = [
        b"\xb2\x01\x00",  # an empty entry of by_id (22): key and value default
        b"\xb2\x01\x02\x08\x05",  # key only
        b"\xba\x01\x03\x0a\x01k",  # by_name (23) without its message value
        b"\xba\x01\x07\x0a\x01k\x12\x00\x18\x01",  # a third field: the entry is unknown
        b"\xba\x01\x06\x0a\x01k\x12\x01",  # a value running past the entry
        b"\xba\x01\x08\x0a\x01k\x12\x00\x12\x00",  # a message value seen twice: merged
    ]
    return [
        *[lambda d=d: model.deserialize(Everything, d) for d in entries],
        lambda: model.serialize(Everything(by_id={"k": "v"})),  # type: ignore[dict-item]
        lambda: model.serialize(Everything(by_name={"k": None})),  # type: ignore[dict-item]
        lambda: model.deserialize(Strict, b"\x2a\x05\x0a\x01k\x10\x07"),  # closed enum value
    ]


def time_ops(model: pa.TypeModel) -> list[Op]:
    """Timestamp/Duration: native values, other zones, out of range, merged into defaults."""
    when = When(datetime.datetime(2020, 1, 2, 3, 4, 5, 6, tzinfo=UTC), datetime.timedelta(-1, 3))
    data = model.serialize(when)
    zone = datetime.timezone(datetime.timedelta(hours=-5, minutes=-30))
    huge = b"\x08\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01"
    return [
        lambda: model.deserialize(When, model.serialize(when)),
        lambda: model.deserialize(When, data),
        lambda: model.serialize(When(datetime.datetime(2020, 1, 1, tzinfo=zone))),
        lambda: model.serialize(When(took=datetime.timedelta(days=999_999_999))),
        lambda: model.serialize(When(at="2020")),  # type: ignore[arg-type]
        lambda: model.deserialize(When, b"\x0a" + bytes([len(huge)]) + huge),
        lambda: model.deserialize(When, b"\x12" + bytes([len(huge)]) + huge),
        lambda: model.deserialize(When, b"\x0a\x02\x08\x01\x0a\x02\x10\x05"),  # merged
        lambda: model.deserialize(Strict, b"\x12\x04\x10\x05\x08\x01"),  # into a default
        lambda: model.deserialize(Strict, b"\x12\x02\x1b\x1c"),  # a group in the body
    ]


def proto2_ops(model: pa.TypeModel) -> list[Op]:
    """Required fields (present and missing), defaults, closed enums' unknown numbers."""
    rec = Record("k", ClosedLevel.MID, Leaf("i", 2), 60, "MX", [ClosedLevel.LOW])
    data = model.serialize(rec)
    return [
        lambda: model.deserialize(Record, model.serialize(rec)),
        lambda: model.deserialize(Record, data),
        lambda: model.deserialize(Record, data[:-2]),  # truncated
        lambda: model.deserialize(Record, b"\x0a\x01k\x10\x01"),  # leaf missing
        lambda: model.deserialize(Record, b""),  # all missing
        lambda: model.deserialize(Record, data + b"\x10\x09"),  # unknown closed number
        lambda: model.deserialize(Record, data + b"\x32\x02\x01\x09"),  # in a packed run
        lambda: model.serialize(Record("k", 9, Leaf("", 0))),  # type: ignore[arg-type]
        lambda: model.serialize(Record(None, ClosedLevel.LOW, Leaf("", 0))),  # type: ignore[arg-type]
    ]


def unknown_ops(model: pa.TypeModel) -> list[Op]:
    """Unknown fields kept byte-exact, re-encoded, merged into an object."""
    unknown = model.serialize(Leaf("u", 2)) + b"\xf8\x3e\x05\x82\x3f\x03abc\x8d\x3f\x01\x02\x03\x04"
    group = model.serialize(Leaf("u", 2)) + b"\x1b\x08\x01\x1c"  # a group: Python skips it
    return [
        lambda: model.serialize(model.deserialize(Leaf, unknown)),
        lambda: model.serialize(model.deserialize(Leaf, group)),
        lambda: model.merge(Leaf("m", 5), unknown),
        lambda: model.merge(Everything(texts=("a",)), b"\xaa\x01\x01b"),
    ]


def depth_ops(model: pa.TypeModel) -> list[Op]:
    """Nesting at a model's max_depth, one level beyond it, and far beyond the engine's
    own limit (a model with max_depth=8 keeps the Python side of the errors cheap)."""
    shallow = pa.TypeModel(backend=model.backend, max_depth=8)
    ok, deep, deeper = _nest(8), _nest(9), _nest(1200)
    return [
        lambda: model.deserialize(Chain, _nest(30)),
        lambda: shallow.deserialize(Chain, ok),
        lambda: shallow.deserialize(Chain, deep),  # DecodeError: deeper than max_depth
        lambda: shallow.deserialize(Chain, deeper),
        lambda: shallow.serialize(shallow.deserialize(Chain, ok)),
    ]


def garbled_ops(model: pa.TypeModel) -> list[Op]:
    """Bad bytes: truncated, overlong varints and tags, bad wire types, lengths past the end."""
    every = model.serialize(_everything())
    garbled = [
        every[:-3],
        every[:40] + b"\xff",
        b"\x0a\x05ab",  # a length past the end
        b"\x12\x80",  # a truncated varint
        b"\x00",  # field number 0
        b"\x0c",  # an end group without a start
        b"\x0a\x01\xff",  # invalid UTF-8
        b"\x88\x80\x80\x80\x80\x00\x01",  # a six-byte tag
        b"\x08" + b"\xff" * 10 + b"\x01",  # an eleven-byte varint
        b"\x0a\xff\xff\xff\xff\x0f",  # a 4 GiB length
        b"\x0d\x01\x02",  # a truncated fixed32
        b"\x9a\x01\x03\x01\x02",  # a packed run past its end
    ]
    return [
        lambda d=d, c=c: model.deserialize(c, d)
        for d in garbled
        for c in (Everything, Leaf, Holder)
    ]


def list_ops(model: pa.TypeModel) -> list[Op]:
    """Top-level lists: the engine's loop, a generator, a bad item, garbled items."""
    leaves = [Leaf("a", 1), Leaf("b", -2)]
    data = model.serialize(leaves, type=list[Leaf])
    return [
        lambda: model.deserialize(list[Leaf], data),
        lambda: model.deserialize(list[Leaf], data + b"\x10\x05"),
        lambda: model.deserialize(list[Leaf], data[:-1]),
        lambda: model.serialize(leaves, type=list[Leaf]),
        lambda: model.serialize((x for x in leaves), type=list[Leaf]),
        lambda: model.serialize([Leaf("a", 1), Leaf("b", 2**40)], type=list[Leaf]),
        lambda: model.serialize([1, -2, 3], type=list[pa.sint32]),
        lambda: model.deserialize(list[pa.sint32], b"\x0a\x02\x02\x03"),
    ]


def fallback_ops(model: pa.TypeModel) -> list[Op]:
    """Contracts the engine hands to Python (inheritance) and classes it builds otherwise."""
    frozen = Frozen(name="f", tags=("a", "b"), at=datetime.timedelta(seconds=5))
    frozen_bytes = model.serialize(frozen)
    dog = model.serialize(Dog("rex", True))
    return [
        lambda: model.deserialize(Frozen, frozen_bytes),
        lambda: model.deserialize(Frozen, model.serialize(frozen)),
        lambda: model.deserialize(Frozen, frozen_bytes[:-1]),
        lambda: model.deserialize(Animal, dog),
        lambda: model.serialize(Dog("rex", "yes")),  # type: ignore[arg-type]
    ]


def hier_ops(model: pa.TypeModel) -> list[Op]:
    """Inheritance, groups and merges (hier.c, groups.c): round trips, merges into
    objects, unknown groups, garbled hierarchies."""
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
    return [
        lambda: model.deserialize(Drawing, model.serialize(drawing)),
        lambda: model.deserialize(Shape, model.serialize(Cube("k", 1, 2, 3, ["a"]))),
        lambda: model.merge(Cube(name="a", side=1, labels=["x"]), sibling),
        lambda: model.merge(Drawing(main=Circle()), drawing_bytes),
        lambda: model.serialize(model.deserialize(GroupHolder, groups_bytes)),
        lambda: model.deserialize(GroupHolder, twice),
        lambda: model.merge(GroupHolder(item=[Item()]), groups_bytes),
        *[
            lambda data=data, cls=cls: model.deserialize(cls, data)
            for data in hier_garbled
            for cls in (Drawing, Square, Shape, GroupHolder)
        ],
    ]


def converted_ops(model: pa.TypeModel) -> list[Op]:
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


def bcl_ops(model: pa.TypeModel) -> list[Op]:
    """protobuf-net's bcl.proto forms (bcl.c): valid bodies, the Python helper's cases
    (another time zone, a tick, unknown fields) and values refused either way."""
    from tests.test_bcl import Explicit, Fixed

    paris = datetime.timezone(datetime.timedelta(hours=2))
    good = Explicit(
        datetime.datetime(2019, 9, 27, 10, 25, 32, 123000),
        datetime.timedelta(minutes=90),
        decimal.Decimal("-12.345"),
        __import__("uuid").UUID(int=2**100 + 7),
    )
    data = model.serialize(good)
    wire = [
        data,
        b"\x0a\x04\x08\x02\x10\x05",  # one tick: refused
        b"\x0a\x06\x08\x02\x10\x00\x20\x07",  # an unknown field: the helper reads it
        b"\x1a\x04\x08\x01\x18\x3a",  # scale 29
        b"\x22\x02\x20\x07",  # a Guid with an unknown field
        b"\x0a\x02\x10\x06",  # an unknown scale
        data[:-3],
    ]
    fixed = Fixed(datetime.datetime.min, datetime.timedelta.max, [datetime.datetime.max])
    return [
        lambda: model.deserialize(Explicit, model.serialize(good)),
        lambda: model.serialize(Explicit(good.when.replace(tzinfo=paris))),
        lambda: model.serialize(Explicit(good.when, total=decimal.Decimal("NaN"))),
        lambda: model.serialize(Explicit("x")),  # type: ignore[arg-type]
        lambda: model.deserialize(Fixed, model.serialize(fixed)),
        *(lambda w=w: model.deserialize(Explicit, w) for w in wire),
    ]


FEATURES: list[Callable[[pa.TypeModel], list[Op]]] = [
    scalar_ops,
    message_ops,
    oneof_ops,
    map_ops,
    time_ops,
    proto2_ops,
    unknown_ops,
    depth_ops,
    garbled_ops,
    list_ops,
    fallback_ops,
    hier_ops,
    converted_ops,
    bcl_ops,
]


def workload(model: pa.TypeModel) -> Callable[[], None]:
    """One cycle: the operations of every feature group, each may succeed or raise."""
    ops = [op for feature in FEATURES for op in feature(model)]

    def cycle() -> None:
        for op in ops:
            with contextlib.suppress(pa.EncodeError, pa.DecodeError):
                op()

    return cycle


def _rss_kb() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4


def run(
    cycles: int,
    checkpoints: int = 10,
    backend: str = "native",
    report: Callable[[int, int, int], None] | None = None,
) -> list[tuple[int, int]]:
    """``(rss_kb, allocated_blocks)`` after each checkpoint (the first after warm-up);
    ``report(cycles_done, rss_kb, blocks)`` is called at each one as it is reached."""
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
        if report is not None:
            report(min(done, cycles), *out[-1])
    return out


def main() -> int:
    cycles = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    ops = len([op for feature in FEATURES for op in feature(pa.TypeModel())])
    print(f"{cycles} cycles of {ops} operations", flush=True)

    def report(done: int, rss: int, blocks: int) -> None:
        print(f"after {done} cycles: rss {rss} KiB, allocated blocks {blocks}", flush=True)

    points = run(cycles, report=report)
    rss_growth = points[-1][0] - points[0][0]
    block_growth = points[-1][1] - points[0][1]
    print(f"growth after the first checkpoint: rss {rss_growth} KiB, blocks {block_growth}")
    return 0 if rss_growth < 2048 and block_growth < 1000 else 1


if __name__ == "__main__":
    sys.exit(main())
