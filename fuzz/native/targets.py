"""The contracts the native decoder is fuzzed on (one per harness target).

``scalars``    every scalar kind, packed and unpacked repeated fields, maps
               (scalar, string and message values), Optional presence,
               Timestamp/Duration, a nested message and a oneof;
``proto2``     required fields, proto2 defaults and closed enums (the
               engine hands their unknown numbers to the Python codec);
``recursive``  a message that contains itself (depth limits, deep nesting);
``list``       a top-level ``list[Proto2]`` (the engine's loop over the items);
``groups``     proto2 groups (singular, repeated, a group in a group, a message
               of the same contract), required fields and closed enums;
``hierarchy``  an inheritance hierarchy three levels deep with sibling
               subtypes, in a repeated base-typed field, a singular one, a map
               and a field typed as the middle level (never a sibling);
``converted``  Decimal, UUID (text and bytes), date, bytearray, IntFlag, singly,
               repeated, packed and in maps, a surrogate and a wrapper (the
               engine converts in C or calls the Python converter back);
``bcl``        protoattr's bcl.proto forms (DateTime with and without its kind,
               TimeSpan, Decimal, Guid), singly, repeated and in maps (bcl.c);
``json``       ``Scalars`` read from canonical JSON text (json_read.c), with and
               without ``ignore_unknown_fields``;
``json_more``  wrappers, a required field, a closed enum, a tuple, a recursive
               message and maps of them, in JSON;
``merged``     singular message fields of classes that cannot merge in place
               (frozen, ``__post_init__``, tuple fields, a required field), each
               seen many times and nested in each other and in a plain holder (the
               merges that wait for their holder's build: hier.c's Merged).
"""

from __future__ import annotations

import datetime as dt
import enum
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

import protoattr as pa
from protoattr import field, proto_contract


class Colour(enum.IntEnum):
    RED = 0
    GREEN = 1
    BLUE = 2


@pa.closed_enum
class Level(enum.IntEnum):
    LOW = 1
    MID = 2
    HIGH = 3


@proto_contract
@dataclass
class Inner:
    name: str = field(1, default="")
    n: pa.sint64 = field(2, default=0)


@proto_contract
@dataclass
class Scalars:
    i32: pa.int32 = field(1, default=0)
    i64: int = field(2, default=0)
    u32: pa.uint32 = field(3, default=0)
    u64: pa.uint64 = field(4, default=0)
    s32: pa.sint32 = field(5, default=0)
    s64: pa.sint64 = field(6, default=0)
    f32: pa.fixed32 = field(7, default=0)
    f64: pa.fixed64 = field(8, default=0)
    sf32: pa.sfixed32 = field(9, default=0)
    sf64: pa.sfixed64 = field(10, default=0)
    flag: bool = field(11, default=False)
    colour: Colour = field(12, default=Colour.RED)
    real: pa.float32 = field(13, default=0.0)
    double: float = field(14, default=0.0)
    text: str = field(15, default="")
    blob: bytes = field(16, default=b"")
    inner: Inner | None = field(17, default=None)
    packed: list[pa.int32] = field(18, default_factory=list)
    unpacked: list[pa.sfixed64] = field(19, default_factory=list, packed=False)
    texts: list[str] = field(20, default_factory=list)
    by_id: dict[pa.uint32, str] = field(21, default_factory=dict)
    by_name: dict[str, Inner] = field(22, default_factory=dict)
    by_flag: dict[bool, pa.float32] = field(23, default_factory=dict)
    maybe: pa.int64 | None = field(24, default=None)
    at: datetime | None = field(25, default=None)
    took: timedelta | None = field(26, default=None)
    colours: list[Colour] = field(27, default_factory=list)
    far: str = field(100000, default="")
    pick_n: int | None = field(28, oneof="pick", default=None)
    pick_s: str | None = field(29, oneof="pick", default=None)
    pick_m: Inner | None = field(30, oneof="pick", default=None)


@proto_contract
@dataclass
class Proto2:
    key: str = field(1, required=True)
    level: Level = field(2, required=True)
    inner: Inner = field(6, required=True)
    ttl: pa.int32 = field(3, default=86400)
    kind: str = field(4, default="A")
    levels: list[Level] = field(5, default_factory=list)
    flags: list[bool] = field(7, default_factory=list, packed=False)
    ratio: float = field(8, default=0.5)


@proto_contract
@dataclass
class Node:
    value: pa.int32 = field(1, default=0)
    children: list[Node] = field(2, default_factory=list)
    next: Node | None = field(3, default=None)
    label: str = field(4, default="")


@proto_contract
@dataclass
class GroupBody:
    a: pa.int32 | None = field(1, default=None)
    s: str | None = field(2, default=None)
    level: Level | None = field(3, default=None)
    deep: GroupBody | None = field(4, default=None, group=True)


@proto_contract
@dataclass
class Grouped:
    key: str = field(1, required=True)
    level: Level = field(2, required=True)
    ttl: pa.int32 = field(3, default=86400)
    g: GroupBody | None = field(5, default=None, group=True)
    items: list[GroupBody] = field(6, default_factory=list, group=True)
    levels: list[Level] = field(7, default_factory=list)
    msg: GroupBody | None = field(10, default=None)


@proto_contract
@dataclass
class Base:
    name: str = field(1, default="")
    id: pa.int32 = field(2, default=0)


@proto_contract(subtype_tag=10)
@dataclass
class Mid(Base):
    side: pa.sint32 = field(1, default=0)
    tags: list[str] = field(2, default_factory=list)


@proto_contract(subtype_tag=11)
@dataclass
class Sibling(Base):
    radius: float = field(1, default=0.0)


@proto_contract(subtype_tag=5)
@dataclass
class Deep(Mid):
    depth: pa.int64 = field(3, default=0)
    inner: Inner | None = field(4, default=None)


@proto_contract
@dataclass
class Scene:
    shapes: list[Base] = field(1, default_factory=list)
    main: Base | None = field(2, default=None)
    mid: Mid | None = field(3, default=None)
    by_name: dict[str, Base] = field(4, default_factory=dict)


class Perm(enum.IntFlag):
    X = 1
    W = 2
    R = 4


class Spot:
    """A class without a contract: it travels as SpotMessage (a surrogate)."""

    def __init__(self, x: int, name: str) -> None:
        self.x, self.name = x, name


@proto_contract
@dataclass
class SpotMessage:
    x: pa.sint32 = field(1, default=0)
    name: str = field(2, default="")


pa.add_surrogate(Spot, SpotMessage, lambda s: SpotMessage(s.x, s.name), lambda m: Spot(m.x, m.name))


@proto_contract
@dataclass
class Converted:
    price: Decimal = field(1, default=Decimal("0"))
    id: uuid.UUID = field(2, default=uuid.UUID(int=0))
    raw_id: pa.UUIDBytes = field(3, default=uuid.UUID(int=0))
    day: dt.date = field(4, default=dt.date(2000, 1, 1))
    blob: bytearray = field(5, default_factory=bytearray)
    perm: Perm = field(6, default=Perm(0))
    days: list[dt.date] = field(7, default_factory=list)
    perms: list[Perm] = field(8, default_factory=list)
    prices: list[Decimal] = field(9, default_factory=list)
    by_id: dict[uuid.UUID, Decimal] = field(10, default_factory=dict)
    by_day: dict[dt.date, bytearray] = field(11, default_factory=dict)
    spot: Spot = field(12, default=None)
    spots: list[Spot] = field(13, default_factory=list)
    count: pa.wrappers.Int32Value = field(14, default=None)
    rate: Decimal | None = field(15, default=None)


@proto_contract
@dataclass
class Bcl:
    when: pa.bcl.DateTime = field(1)
    kinded: pa.bcl.DateTimeWithKind = field(2, default=datetime.min)
    wait: pa.bcl.TimeSpan = field(3, default=timedelta(0))
    total: pa.bcl.Decimal = field(4, default=Decimal(0))
    ref: pa.bcl.Guid = field(5, default=uuid.UUID(int=0))
    whens: list[pa.bcl.DateTime] = field(6, default_factory=list)
    waits: list[pa.bcl.TimeSpan] = field(7, default_factory=list)
    totals: list[pa.bcl.Decimal] = field(8, default_factory=list)
    by_ref: dict[str, pa.bcl.Guid] = field(9, default_factory=dict)
    maybe: pa.bcl.Decimal | None = field(10, default=None)
    ticks: list[pa.bcl.DateTimeTicks] = field(11, default_factory=list)
    span: pa.bcl.TimeSpanTicks = field(12, default=timedelta(0))


@proto_contract
@dataclass
class JsonMore:
    key: str = field(1, required=True)
    level: Level = field(2, default=Level.MID)
    i: pa.wrappers.Int32Value = field(3, default=None)
    u: pa.wrappers.UInt64Value = field(4, default=None)
    d: pa.wrappers.DoubleValue = field(5, default=None)
    f: pa.wrappers.FloatValue = field(6, default=None)
    b: pa.wrappers.BoolValue = field(7, default=None)
    s: pa.wrappers.StringValue = field(8, default=None)
    y: pa.wrappers.BytesValue = field(9, default=None)
    many: list[pa.wrappers.Int64Value] = field(10, default_factory=list)
    by_key: dict[pa.sint32, pa.wrappers.StringValue] = field(11, default_factory=dict)
    names: tuple[str, ...] = field(12, default=())
    node: Node = field(13, default_factory=Node)
    levels: dict[bool, Level] = field(14, default_factory=dict)


@proto_contract
@dataclass(frozen=True)
class Frozen:
    n: pa.int32 = field(1, default=0)
    tags: list[str] = field(2, default_factory=list)
    inner: Inner = field(3, default_factory=Inner)
    more: Frozen | None = field(4, default=None)


@proto_contract
@dataclass
class Posted:
    key: str = field(1, required=True)
    nums: tuple[pa.sint32, ...] = field(2, default=())
    frozen: Frozen | None = field(3, default=None)

    def __post_init__(self) -> None:
        self.key = self.key.strip()


@proto_contract
@dataclass
class Plain:
    frozen: Frozen = field(1)
    posted: Posted | None = field(2, default=None)
    label: str = field(3, default="")


@proto_contract
@dataclass
class Merges:
    plain: Plain = field(1)
    posted: Posted | None = field(2, default=None, oneof="pick")
    frozen: Frozen | None = field(3, default=None, oneof="pick")
    plains: list[Plain] = field(4, default_factory=list)


TARGETS: dict[str, Any] = {
    "scalars": Scalars,
    "proto2": Proto2,
    "recursive": Node,
    "list": list[Proto2],  # a top-level list: the engine's own loop over its items
    "groups": Grouped,
    "hierarchy": Scene,
    "converted": Converted,
    "bcl": Bcl,
    "json": Scalars,  # from_json: the C reader (json_read.c) against the Python reference
    "json_more": JsonMore,  # wrappers, proto2 rules, tuples, recursion, in JSON
    "merged": Merges,  # merges into classes that cannot merge in place
}
#: the targets whose inputs are JSON texts (harness.py checks them with from_json)
JSON_TARGETS = frozenset({"json", "json_more"})


def seeds() -> dict[str, list[bytes]]:
    """Valid encodings of each target: the starting corpus."""
    found = _binary_seeds()
    found["json"] = _json_seeds(found["scalars"])
    py = pa.TypeModel(backend="python")
    more = JsonMore(
        "k", Level.HIGH, -1, 2**64 - 1, float("nan"), 0.1, False, "s\u00e9", b"\x00\xff",
        [0, -(2**63)], {-5: "v", 0: ""}, ("a", "b"), Node(1, [Node(2)], Node(3)),
        {True: Level.LOW},
    )  # fmt: skip
    found["json_more"] = [
        py.to_json(more).encode(),
        py.to_json(JsonMore("x"), always_print_fields_with_no_presence=True).encode(),
        py.to_json(more, preserving_proto_field_name=True, use_integers_for_enums=True).encode(),
        b'{"key": "k", "i": "1e2", "many": [null], "byKey": {"01": "x"}, "levels": {"true": 2}}',
    ]
    return found


def _json_seeds(binary: list[bytes]) -> list[bytes]:
    """The ``scalars`` seeds as canonical JSON (each option set), and some unusual texts."""
    py = pa.TypeModel(backend="python")
    out = []
    for data in binary:
        obj = py.deserialize(Scalars, data)
        out.append(py.to_json(obj).encode())
        out.append(py.to_json(obj, preserving_proto_field_name=True, indent=None).encode())
        out.append(py.to_json(obj, use_integers_for_enums=True, ensure_ascii=False).encode())
    out += [
        b'{"i32": 1e2, "i64": "-0", "u64": 1.8e19, "real": "NaN", "double": "-Infinity"}',
        b'{"text": "\\ud83d\\ude00\\n\\u00e9", "blob": "-_+/AA==", "colour": "GREEN"}',
        b'{"byId": {"01": "a", "1e1": "b"}, "byFlag": {"true": 3.4028235e38}, "nope": [{}]}',
        b'{"at": "2021-02-29T00:00:00Z", "took": "-1.000000001s", "pickN": null, "pickS": "x"}',
    ]
    return out


def _binary_seeds() -> dict[str, list[bytes]]:
    py = pa.TypeModel(backend="python")
    node = Node(1, [Node(2), Node(3, [Node(4, label="x")])], Node(5, next=Node(6)), "root")
    return {
        "scalars": [
            py.serialize(
                Scalars(
                    -1,
                    2**40,
                    7,
                    2**64 - 1,
                    -5,
                    9,
                    1,
                    2,
                    -3,
                    -4,
                    True,
                    Colour.BLUE,
                    1.5,
                    -2.25,
                    "héllo",
                    b"\x00\x01",
                    Inner("in", -7),
                    [1, -1, 300],
                    [5, -6],
                    ["a", ""],
                    {1: "one", 0: ""},
                    {"k": Inner("v", 1)},
                    {True: 0.5},
                    0,
                    datetime(2024, 5, 17, 9, 30, 12, 345678),
                    timedelta(days=-1, seconds=5),
                    [Colour.GREEN, Colour.BLUE],
                    "far",
                )
            ),
            py.serialize(Scalars()),
            py.serialize(Scalars(pick_m=Inner("m", 3))),
            py.serialize(Scalars(pick_s="s")) + py.serialize(Scalars(pick_n=-1)),
        ],
        "proto2": [
            py.serialize(Proto2("k", Level.MID, Inner("i", 2), 60, "MX", [Level.LOW, Level.HIGH])),
            py.serialize(Proto2("", Level.LOW, Inner())),
        ],
        "recursive": [
            py.serialize(node),
            py.serialize(Node()),
            # next { 30: "" } twice, next { next { 30: "" } } twice, ...: merged, with
            # unknown fields one and two deep (the pending unknown fields of decode.c)
            bytes.fromhex("1a03f20100 1a03f20100 1a051a03f20100 1a051a03f20100 1a03f20100"),
        ],
        "groups": [
            py.serialize(
                Grouped(
                    "k",
                    Level.MID,
                    60,
                    GroupBody(1, "g", Level.HIGH, GroupBody(2, deep=GroupBody(s="d"))),
                    [GroupBody(3), GroupBody(s="i", level=Level.LOW), GroupBody()],
                    [Level.LOW, Level.HIGH],
                    GroupBody(4, "m", deep=GroupBody(5)),
                )
            ),
            py.serialize(Grouped("", Level.LOW))
            + b"\x9b\x06\x08\x01\xa3\x06\x12\x01x\xa4\x06\x9c\x06",  # unknown groups
            py.serialize(Grouped("a", Level.HIGH, g=GroupBody(1)))
            + py.serialize(Grouped("b", Level.LOW, g=GroupBody(s="t"), msg=GroupBody(2))),
        ],
        "hierarchy": [
            py.serialize(
                Scene(
                    [
                        Base("b", 1),
                        Mid("m", 2, -3, ["t"]),
                        Sibling("s", 3, 1.5),
                        Deep("d", 4, 5, ["u", "v"], 6, Inner("i", 7)),
                    ],
                    Deep("main", depth=9),
                    Deep("mid", side=1),
                    {"x": Sibling(radius=2.0), "y": Base()},
                )
            ),
            py.serialize(Scene(main=Sibling("s"), mid=Mid(tags=["a"])))
            + py.serialize(Scene(main=Mid("m"), mid=Deep(depth=1))),
            py.serialize(Scene()),
        ],
        "list": [
            py.serialize(
                [Proto2("a", Level.HIGH, Inner("x", 1)), Proto2("b", Level.LOW, Inner(), 5)],
                type=list[Proto2],
            )
        ],
        "bcl": [
            py.serialize(
                Bcl(
                    datetime(2019, 9, 27, 10, 25, 32, 123000),
                    datetime(2010, 2, 1, tzinfo=dt.timezone.utc),
                    timedelta(days=32, hours=10, minutes=25, seconds=32, milliseconds=123),
                    Decimal("-79228162514264337593543950335"),
                    uuid.UUID("12345678-2345-3456-4567-56789a6789ab"),
                    [datetime.min, datetime.max, datetime(1969, 12, 31, 23, 59, 59, 1)],
                    [timedelta.min, timedelta.max, timedelta(microseconds=-1)],
                    [Decimal("1.0000000000000000000000000000"), Decimal("-0"), Decimal(0)],
                    {"a": uuid.UUID(int=0), "b": uuid.UUID(int=2**128 - 1)},
                    Decimal("0.5"),
                    [datetime.min, datetime(2019, 9, 27, 10, 25, 32, 123000)],
                    timedelta.max,
                )
            ),
            py.serialize(Bcl(datetime.min)),
            b"\x0a\x06\x08\x02\x10\x05\x20\x07",  # a tick, and an unknown field
            b"\x22\x04\x08\x01\x18\x3a\x2a\x02\x20\x07",  # scale 29; a Guid's unknown field
        ],
        "merged": [
            py.serialize(
                Merges(
                    Plain(Frozen(1, ["a"], Inner("i", 1), Frozen(2)), Posted("k ", (1, -2))),
                    frozen=Frozen(3, ["b"]),
                    plains=[Plain(Frozen(4), label="p")],
                )
            )
            + py.serialize(
                Merges(
                    Plain(Frozen(5, ["c"], more=Frozen(tags=["d"])), Posted("j", (3,), Frozen())),
                    posted=Posted("q", frozen=Frozen(6)),
                )
            ),
            py.serialize(Merges(Plain(Frozen(tags=["x"])), frozen=Frozen(more=Frozen(1)))) * 3
            + b"\x0a\x03\xfa\x01\x00",  # and an unknown field in plain
            py.serialize(Merges(Plain(Frozen()), posted=Posted("a", (1,)))) * 2,
        ],
        "converted": [
            py.serialize(
                Converted(
                    Decimal("-12.50"),
                    uuid.UUID(int=2**100 + 7),
                    uuid.UUID(int=5),
                    dt.date(2024, 2, 29),
                    bytearray(b"\x00b"),
                    Perm.R | Perm.X,
                    [dt.date(1, 1, 1), dt.date(9999, 12, 31)],
                    [Perm.W, Perm(9)],
                    [Decimal("1E+5"), Decimal("NaN")],
                    {uuid.UUID(int=1): Decimal("0.1")},
                    {dt.date(1970, 1, 1): bytearray(b"z")},
                    Spot(-3, "s"),
                    [Spot(1, "")],
                    0,
                    Decimal("-0"),
                )
            ),
            py.serialize(Converted()),
        ],
    }
