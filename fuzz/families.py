"""Small contracts, one family of features each, for the fuzz targets beside the
TestAllTypes twins: maps, oneofs, recursion, groups, closed enums, inheritance,
time and domain types (datetime, timedelta, date, Decimal, UUID), frozen and
slotted attrs classes.  Each family's ``SAMPLES`` are the seed corpus's values.
"""

from __future__ import annotations

import datetime
import decimal
import enum
import uuid
from dataclasses import dataclass
from typing import Annotated, Any, Optional

import attrs

import protoattr as pa
from protoattr import field, member, proto_contract

# ruff: noqa: UP045  (Optional[...] reads like the .proto's "optional")

UTC = datetime.timezone.utc


class Color(enum.IntEnum):
    RED = 0
    GREEN = 1
    BLUE = 2


@pa.closed_enum
class Grade(enum.IntEnum):  # closed, and no zero: the default is the first value
    PASS = 1
    MERIT = 2
    DISTINCTION = 3


class Perm(enum.IntFlag):
    R = 4
    W = 2
    X = 1


# -- maps -----------------------------------------------------------------------


@proto_contract
@dataclass
class Cell:
    text: str = field(1, default="")
    color: Color = field(2, default=Color.RED)


@proto_contract
@dataclass
class Sheet:
    cells: dict[str, Cell] = field(1, default_factory=dict)
    widths: dict[pa.int32, pa.float32] = field(2, default_factory=dict)
    flags: dict[bool, bytes] = field(3, default_factory=dict)
    colors: dict[pa.sint64, Color] = field(4, default_factory=dict)
    grades: dict[str, Grade] = field(5, default_factory=dict)
    ids: dict[pa.fixed64, pa.uint64] = field(6, default_factory=dict)


# -- oneofs ---------------------------------------------------------------------


@proto_contract
@dataclass
class Payment:
    amount: pa.sint64 = field(1, default=0)
    card: Optional[str] = field(2, default=None, oneof="method")
    iban: Optional[bytes] = field(3, default=None, oneof="method")
    cell: Optional[Cell] = field(4, default=None, oneof="method")
    points: Optional[pa.uint32] = field(5, default=None, oneof="method")
    grade: Optional[Grade] = field(6, default=None, oneof="method")
    note: Optional[str] = field(7, default=None)


# -- recursion --------------------------------------------------------------------


@proto_contract
@dataclass
class Tree:
    label: str = field(1, default="")
    children: list[Tree] = field(2, default_factory=list)
    left: Optional[Tree] = field(3, default=None)
    forest: dict[str, Tree] = field(4, default_factory=dict)
    weight: pa.float32 = field(5, default=0.0)


# -- groups (proto2) --------------------------------------------------------------


@proto_contract
@dataclass
class Line:
    sku: str = field(1, default="")
    qty: pa.int32 = field(2, default=1)  # a proto2 default


@proto_contract
@dataclass
class Order:
    header: Optional[Line] = field(1, default=None, group=True)
    lines: list[Line] = field(2, default_factory=list, group=True)
    id: pa.fixed32 = field(3, default=0)
    needed: str = field(4, default="", required=True)


# -- closed enums -----------------------------------------------------------------


@proto_contract
@dataclass
class Report:
    grade: Grade = field(1, default=Grade.PASS)
    maybe: Optional[Grade] = field(2, default=None)
    many: list[Grade] = field(3, default_factory=list, packed=False)
    packed: list[Grade] = field(4, default_factory=list)
    perm: Perm = field(5, default=Perm(0))
    color: Color = field(6, default=Color.RED)
    colors: list[Color] = field(7, default_factory=list)


# -- inheritance ------------------------------------------------------------------


@proto_contract
@dataclass
class Animal:
    name: str = field(1, default="")
    legs: pa.int32 = field(2, default=0)


@proto_contract(subtype_tag=11)
@dataclass
class Cat(Animal):
    lives: pa.uint32 = field(1, default=1)


@proto_contract(subtype_tag=12)
@dataclass
class Dog(Animal):
    breed: str = field(1, default="")
    friends: list[Animal] = field(2, default_factory=list)


@proto_contract(subtype_tag=5)
@dataclass
class Puppy(Dog):
    toy: Optional[str] = field(1, default=None)


@proto_contract
@dataclass
class Zoo:
    animals: list[Animal] = field(1, default_factory=list)
    dog: Optional[Dog] = field(2, default=None)
    star: Optional[Animal] = field(3, default=None)
    by_name: dict[str, Cat] = field(4, default_factory=dict)


# -- time and domain types ----------------------------------------------------------


@proto_contract
@dataclass
class Event:
    at: Optional[datetime.datetime] = field(1, default=None)
    took: Optional[datetime.timedelta] = field(2, default=None)
    day: datetime.date = field(3, default=datetime.date(1970, 1, 1))
    price: decimal.Decimal = field(4, default=decimal.Decimal(0))
    id: uuid.UUID = field(5, default=uuid.UUID(int=0))
    history: list[datetime.datetime] = field(6, default_factory=list)
    spans: dict[str, datetime.timedelta] = field(7, default_factory=dict)


# -- attrs: frozen and slotted ------------------------------------------------------


@proto_contract
@attrs.frozen
class Point:
    x: Annotated[pa.sint32, member(1)] = 0
    y: Annotated[pa.sint32, member(2)] = 0


@proto_contract
@attrs.define(slots=True)
class Path:
    points: Annotated[list[Point], member(1)] = attrs.field(factory=list)
    name: Annotated[str, member(2)] = ""
    closed: Annotated[bool, member(3)] = False


def samples() -> dict[str, list[Any]]:
    """Values of each family: their encodings seed the corpus."""
    now = datetime.datetime(2024, 5, 17, 12, 30, 5, 123456, tzinfo=UTC)
    return {
        "maps": [
            Sheet(),
            Sheet(
                cells={"a1": Cell("x", Color.BLUE), "": Cell()},
                widths={1: 2.5, -3: float("inf")},
                flags={True: b"\x00\xff", False: b""},
                colors={-(2**40): Color.GREEN, 7: 9},
                grades={"ann": Grade.MERIT},
                ids={2**64 - 1: 2**63},
            ),
        ],
        "oneofs": [
            Payment(),
            Payment(amount=-5, card="4111", note=""),
            Payment(cell=Cell("c")),
            Payment(points=0),
            Payment(grade=Grade.DISTINCTION, iban=None),
        ],
        "recursion": [
            Tree(),
            Tree("root", [Tree("a"), Tree("b", [Tree("c")])], Tree("l"), {"f": Tree("g")}, 1.5),
        ],
        "groups": [
            Order(needed=""),
            Order(Line("h", 2), [Line("a"), Line("b", 0)], 7, "yes"),
        ],
        "closed": [
            Report(),
            Report(
                Grade.MERIT,
                Grade.PASS,
                [Grade.PASS, Grade.DISTINCTION],
                [Grade.MERIT],
                Perm.R | Perm.X,
                Color.BLUE,
                [Color.GREEN, 5],
            ),
        ],
        "inheritance": [
            Zoo(),
            Zoo(
                [Animal("a", 4), Cat("c", 4, 9), Dog("d", 4, "lab", [Cat()]), Puppy(toy="ball")],
                Puppy("p"),
                Cat(),
                {"tom": Cat("tom")},
            ),
        ],
        "times": [
            Event(),
            Event(
                now,
                datetime.timedelta(days=-1, microseconds=5),
                datetime.date(2024, 2, 29),
                decimal.Decimal("-12.50"),
                uuid.UUID(int=2**100 + 5),
                [now, now],
                {"x": datetime.timedelta(seconds=3)},
            ),
        ],
        "attrs": [
            Path(),
            Path([Point(1, -2), Point()], "route", True),
        ],
    }


#: each family's root contract
ROOTS: dict[str, type] = {
    "maps": Sheet,
    "oneofs": Payment,
    "recursion": Tree,
    "groups": Order,
    "closed": Report,
    "inheritance": Zoo,
    "times": Event,
    "attrs": Path,
}
