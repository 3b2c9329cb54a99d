"""Contracts for the schema export, ``gen`` and CLI tests, with sample values.

Between them they use every feature :func:`protoattr._schema.proto.schema` maps:
every scalar kind, enums (with and without a zero member, open and closed,
an ``IntFlag``), nested messages, Timestamp/Duration, packed and unpacked
repeated fields, maps, oneofs, ``Optional`` presence, Decimal/UUID/date,
reserved tags and names, renamed messages and fields, proto2 defaults,
required fields, groups and inheritance.  ``SAMPLES`` pairs each root
contract with the syntaxes that can express it and values to send.
"""

# protoattr.field() returns a dataclasses.Field, like dataclasses.field().

from __future__ import annotations

import decimal
import enum
import uuid
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Any

import protoattr as pa
from protoattr import field, proto_contract

UTC = timezone.utc
ALL = ("proto2", "proto3", "editions")
NOT_PROTO3 = ("proto2", "editions")


class Hue(enum.IntEnum):
    """Declared with its zero member last: the schema lists it first."""

    RED = 1
    GREEN = 2
    NEGATIVE = -3
    HUE_NONE = 0


class Level(enum.IntEnum):
    """No zero member: proto3 and open editions enums get LEVEL_UNSPECIFIED = 0."""

    LOW = 1
    HIGH = 2


class Perm(enum.IntFlag):
    R = 4
    W = 2
    X = 1


@pa.closed_enum
class Suit(enum.IntEnum):
    SPADES = 0
    HEARTS = 1
    CLUBS = 2


class Mood(enum.IntEnum):
    """Enum values share their package's scope: like :class:`Weather`, its values carry
    their enum's name (Google's style guide), else both would be SUNNY."""

    MOOD_SUNNY = 0
    MOOD_RAINY = 1


class Weather(enum.IntEnum):
    WEATHER_SUNNY = 0
    WEATHER_RAINY = 1
    WEATHER_FOGGY = 2


@proto_contract
@dataclass
class Point:
    x: pa.sint32 = field(1, default=0)
    y: pa.sint32 = field(2, default=0)


@proto_contract(name="Stamp", reserved=(3, range(5, 8), "old_name"))
@dataclass
class TimeStamp:
    """A renamed message with reserved tags and names."""

    when: datetime | None = field(1, default=None)
    took: timedelta | None = field(2, default=None)
    label: str = field(4, default="", name="proto_label")


@proto_contract
@dataclass
class Everything:
    """Every kind proto3 can say, and the containers."""

    i32: pa.int32 = field(1, default=0)
    i64: pa.int64 = field(2, default=0)
    u32: pa.uint32 = field(3, default=0)
    u64: pa.uint64 = field(4, default=0)
    s32: pa.sint32 = field(5, default=0)
    s64: pa.sint64 = field(6, default=0)
    f32: pa.fixed32 = field(7, default=0)
    f64: pa.fixed64 = field(8, default=0)
    sf32: pa.sfixed32 = field(9, default=0)
    sf64: pa.sfixed64 = field(10, default=0)
    fl: pa.float32 = field(11, default=0.0)
    db: float = field(12, default=0.0)
    flag: bool = field(13, default=False)
    text: str = field(14, default="")
    data: bytes = field(15, default=b"")
    hue: Hue = field(16, default=Hue.HUE_NONE)
    plain: int = field(17, default=0)
    point: Point | None = field(18, default=None)
    stamp: TimeStamp = field(19, default_factory=TimeStamp)
    when: datetime | None = field(20, default=None)
    took: timedelta | None = field(21, default=None)
    packed: list[pa.sint64] = field(22, default_factory=list)
    expanded: list[pa.fixed32] = field(23, default_factory=list, packed=False)
    hues: list[Hue] = field(24, default_factory=list)
    levels: list[Level] = field(25, default_factory=list, packed=False)
    names: list[str] = field(26, default_factory=list)
    points: list[Point] = field(27, default_factory=list)
    times: list[datetime] = field(28, default_factory=list)
    by_id: dict[pa.uint32, Point] = field(29, default_factory=dict)
    by_name: dict[str, Hue] = field(30, default_factory=dict)
    flags: dict[bool, bytes] = field(31, default_factory=dict)
    maybe_i: pa.int32 | None = field(32, default=None)
    maybe_s: str | None = field(33, default=None)
    maybe_hue: Hue | None = field(34, default=None)
    by_num: pa.int64 | None = field(35, default=None, oneof="key")
    by_text: str | None = field(36, default=None, oneof="key")
    by_point: Point | None = field(37, default=None, oneof="key")
    price: decimal.Decimal = field(38, default=decimal.Decimal(0))
    ident: uuid.UUID = field(39, default=uuid.UUID(int=0))
    raw_id: pa.UUIDBytes | None = field(40, default=None)
    day: date = field(41, default=date(1, 1, 1))
    perms: Perm = field(42, default=Perm(0))
    mood: Mood = field(43, default=Mood.MOOD_SUNNY)
    weather: list[Weather] = field(44, default_factory=list)


@proto_contract
@dataclass
class Card:
    suit: Suit = field(1, default=Suit.SPADES)
    rank: pa.int32 = field(2, default=0)


@proto_contract(wire_defaults=True)  # its Python defaults are the proto2 [default = ...]
@dataclass(kw_only=True)
class Legacy:
    """What only proto2 and editions can say: defaults, required, groups, closed enums."""

    key: str = field(1, required=True)
    count: pa.int32 = field(2, default=7)
    big: pa.uint64 = field(3, default=2**64 - 1)
    neg: pa.sint64 = field(4, default=-(2**40))
    ratio: pa.float32 = field(5, default=0.5)
    scale: float = field(6, default=-1e100)
    on: bool = field(7, default=True)
    greeting: str = field(8, default='hé "quoted" \\ \n')
    magic: bytes = field(9, default=b"\x00\xffA\x7f")
    hue: Hue = field(10, default=Hue.GREEN)
    level: Level = field(11, default=Level.LOW)
    price: decimal.Decimal = field(12, default=decimal.Decimal("9.99"))
    suit: Suit = field(13, default=Suit.SPADES)
    suits: list[Suit] = field(14, default_factory=list)
    card: Card | None = field(15, default=None, group=True)
    hand: list[Card] = field(16, default_factory=list, group=True)
    origin: Point = field(17, required=True)
    packed: list[pa.int32] = field(18, default_factory=list)
    loose: list[pa.int32] = field(19, default_factory=list, packed=False)
    maybe: pa.int32 | None = field(20, default=None)
    pick: Card | None = field(21, default=None, oneof="choice", group=True)
    other: str | None = field(22, default=None, oneof="choice")
    inf: float = field(23, default=float("inf"))


# ------------------------------------------------ inheritance (protobuf-net's layout)


@proto_contract
@dataclass
class Figure:
    """Subtype tags above the base's fields: Google writes the bytes in another order."""

    name: str = field(1, default="")
    origin: Point | None = field(2, default=None)


@proto_contract(subtype_tag=10)
@dataclass
class Round(Figure):
    radius: float = field(1, default=0.0)


@proto_contract(subtype_tag=11)
@dataclass
class Rect(Figure):
    width: pa.int32 = field(1, default=0)
    height: pa.int32 = field(2, default=0)


@proto_contract(subtype_tag=5)
@dataclass
class Square(Rect):
    filled: bool = field(1, default=False)


@proto_contract
@dataclass
class Canvas:
    """Fields typed with a base and with a subtype: both travel as the root, Figure."""

    figures: list[Figure] = field(1, default_factory=list)
    main: Rect | None = field(2, default=None)


@proto_contract
@dataclass
class Frame:
    """A group whose type is in a hierarchy: proto2 declares the root's body (Figure's)."""

    shape: Rect | None = field(1, default=None, group=True)


@proto_contract
@dataclass
class Vehicle:
    """Subtype tags below the base's fields: the bytes agree with Google's."""

    wheels: pa.int32 = field(5, default=0)


@proto_contract(subtype_tag=1)
@dataclass
class Car(Vehicle):
    seats: pa.int32 = field(1, default=0)


@proto_contract(subtype_tag=2)
@dataclass
class Truck(Vehicle):
    load: float = field(1, default=0.0)


# ------------------------------------------------ a proto2 group named like a message


@proto_contract
@dataclass
class Item:
    sku: str = field(1, default="")


@proto_contract
@dataclass
class Basket:
    """proto2 declares group ``Item`` inside Basket: ``other`` must say ``.shop.Item``."""

    item: Item | None = field(1, default=None, group=True)
    other: Item | None = field(2, default=None)


# ------------------------------------------------ samples

POINT = Point(-1, 2**31 - 1)

EVERYTHING = [
    Everything(),
    Everything(
        i32=-(2**31),
        i64=2**63 - 1,
        u32=2**32 - 1,
        u64=2**64 - 1,
        s32=-5,
        s64=-(2**63),
        f32=7,
        f64=2**64 - 1,
        sf32=-8,
        sf64=-9,
        fl=1.5,
        db=-0.0,
        flag=True,
        text="héllo wörld",
        data=b"\x00\x01\xff",
        hue=Hue.NEGATIVE,
        plain=-1,
        point=POINT,
        stamp=TimeStamp(
            datetime(2024, 2, 29, 12, 0, 1, 500, tzinfo=UTC), timedelta(seconds=-1.5), "lbl"
        ),
        when=datetime(1970, 1, 1, tzinfo=UTC),
        took=timedelta(0),
        packed=[0, -1, 2**62],
        expanded=[0, 1, 2**32 - 1],
        hues=[Hue.RED, Hue.HUE_NONE, Hue.NEGATIVE],
        levels=[Level.HIGH, Level.LOW],
        names=["a", "", "ü"],
        points=[Point(), POINT],
        times=[datetime(2000, 1, 1, tzinfo=UTC)],
        by_id={1: POINT},
        by_name={"a": Hue.GREEN},
        flags={True: b"yes"},
        maybe_i=0,
        maybe_s="",
        maybe_hue=Hue.HUE_NONE,
        by_point=Point(3, 4),
        price=decimal.Decimal("-12.50"),
        ident=uuid.UUID("12345678-1234-5678-1234-567812345678"),
        raw_id=uuid.UUID(int=1),
        day=date(2024, 12, 31),
        perms=Perm.W,
        mood=Mood.MOOD_RAINY,
        weather=[Weather.WEATHER_FOGGY, Weather.WEATHER_SUNNY],
    ),
    Everything(by_num=0, maybe_i=-1, stamp=TimeStamp(label="x")),
    Everything(by_text="t", levels=[Level.LOW]),
]

LEGACY = [
    Legacy(key="k", origin=Point()),
    Legacy(
        key="",
        count=0,
        big=0,
        neg=1,
        ratio=0.0,
        scale=2.5,
        on=False,
        greeting="",
        magic=b"",
        hue=Hue.HUE_NONE,
        level=Level.HIGH,
        price=decimal.Decimal("0"),
        suit=Suit.CLUBS,
        suits=[Suit.HEARTS, Suit.SPADES],
        card=Card(Suit.HEARTS, 12),
        hand=[Card(), Card(Suit.CLUBS, 1)],
        origin=POINT,
        packed=[1, -1],
        loose=[2, 3],
        maybe=0,
        pick=Card(rank=3),
        inf=float("-inf"),
    ),
    Legacy(key="z", origin=Point(1, 1), other="o", card=Card()),
]

FIGURES = [
    Canvas(),
    Canvas(
        figures=[
            Figure("plain", POINT),
            Round("circle", None, 2.5),
            Rect("rect", Point(), 3, 4),
            Square("square", None, 5, 5, True),
        ],
        main=Square("main", None, 1, 1, False),
    ),
    Canvas(main=Rect()),
]

FRAMES = [Frame(), Frame(Rect("r", None, 1, 2)), Frame(Square("s", POINT, 3, 3, True))]

VEHICLES = [Vehicle(4), Car(4, 5), Truck(6, 12.5), Vehicle()]

BASKETS = [Basket(), Basket(Item("a"), Item("b")), Basket(other=Item())]

#: (root contract, syntaxes that can express it, samples)
SAMPLES: list[tuple[type, tuple[str, ...], list[Any]]] = [
    (Everything, ALL, EVERYTHING),
    (Legacy, NOT_PROTO3, LEGACY),
    (Canvas, ALL, FIGURES),
    (Frame, NOT_PROTO3, FRAMES),
    (Vehicle, ALL, VEHICLES),
    (Basket, NOT_PROTO3, BASKETS),
]

#: Roots whose samples put a subtype's tag after its base's fields: protoattr writes the
#: subtype first, Google in field-number order, so only the parsed values agree.
REORDERED = {Canvas, Frame}
