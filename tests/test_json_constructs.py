"""The JSON forms of protoattr-only constructs, against their exported schema.

Subtypes, ``Decimal``/``UUID``/``date``, surrogates, groups, closed enums and
flags have the JSON that Google's ``json_format`` prints for the message of
the ``.proto`` :meth:`TypeModel.schema` exports for them: the oracle is the
upb twin compiled from that export.
"""

from __future__ import annotations

import contextlib
import datetime
import decimal
import enum
import uuid
from dataclasses import dataclass
from types import ModuleType
from typing import Annotated, Any

import attrs
import pytest
from google.protobuf import json_format
from hypothesis import given, settings
from hypothesis import strategies as st

import protoattr as pa
from protoattr import field, member, proto_contract
from tests.protoc import compile_proto
from tests.test_json import check_json
from tests.test_json_errors import _JSON

# ------------------------------------------------------------- inheritance


@proto_contract
@dataclass
class Animal:
    name: str = field(1, default="")
    legs: pa.int32 = field(2, default=0)


@proto_contract(subtype_tag=10)
@dataclass
class Dog(Animal):
    good: bool = field(1, default=False)
    tricks: list[str] = field(2, default_factory=list)


@proto_contract(subtype_tag=5)
@dataclass
class Puppy(Dog):
    age_weeks: pa.int32 = field(1, default=0)


@proto_contract(subtype_tag=11)
@dataclass
class Cat(Animal):
    lives: pa.int32 = field(1, default=9, wire_default=9)


@proto_contract
@dataclass
class Zoo:
    keeper: Animal | None = field(1, default=None)
    animals: list[Animal] = field(2, default_factory=list)
    by_name: dict[str, Animal] = field(3, default_factory=dict)
    star: Dog | None = field(4, default=None)


def _pb(name: str, *roots: type, syntax: str = "editions") -> ModuleType:
    return compile_proto(pa.default_model.schema(list(roots), syntax=syntax), name)


def zoo_pb() -> ModuleType:
    return _pb("json_zoo", Zoo)


def test_a_subtype_is_a_field_named_after_its_message() -> None:
    dog = Dog(name="rex", legs=4, good=True, tricks=["sit"])
    assert pa.to_dict(dog) == {"name": "rex", "legs": 4, "Dog": {"good": True, "tricks": ["sit"]}}
    puppy = Puppy(name="bit", good=True, age_weeks=8)
    assert pa.to_dict(puppy) == {"name": "bit", "Dog": {"good": True, "Puppy": {"ageWeeks": 8}}}
    # an empty level is still there: it is what says "this is a Dog"
    assert pa.to_dict(Dog()) == {"Dog": {}}
    assert pa.from_dict(Animal, {"Dog": {"Puppy": {}}}) == Puppy()
    assert pa.from_dict(Animal, {"name": "x", "Cat": {}}) == Cat(name="x")
    assert pa.from_dict(Dog, {"name": "x", "Dog": {"good": True}}) == Dog(name="x", good=True)


@pytest.mark.parametrize(
    "obj",
    [
        Zoo(),
        Zoo(keeper=Animal("keeper", 2)),
        Zoo(keeper=Puppy(name="p", legs=4, good=True, tricks=["a", "b"], age_weeks=3)),
        Zoo(animals=[Animal(), Dog(), Cat(lives=1), Puppy(age_weeks=1)], star=Dog(good=True)),
        Zoo(by_name={"c": Cat(name="c")}, star=Puppy()),
    ],
    ids=repr,
)
def test_hierarchies_against_the_exported_schema(obj: Zoo) -> None:
    check_json(obj, zoo_pb().Zoo)


def test_subtype_errors() -> None:
    with pytest.raises(pa.DecodeError, match=r"^Animal: more than one subtype"):
        pa.from_dict(Animal, {"Dog": {}, "Cat": {}})
    with pytest.raises(pa.DecodeError, match=r"^Zoo\.star: a Cat where Dog is expected"):
        pa.from_dict(Zoo, {"star": {"Cat": {}}})
    with pytest.raises(pa.DecodeError, match=r"^Animal\.Dog\.Puppy\.ageWeeks: "):
        pa.from_dict(Animal, {"Dog": {"Puppy": {"ageWeeks": "old"}}})
    with pytest.raises(pa.DecodeError, match=r"^Animal\.Dog: expected a JSON object"):
        pa.from_dict(Animal, {"Dog": []})


# ------------------------------------------------- converted types, surrogates


class Perm(enum.IntFlag):
    READ = 1
    WRITE = 2
    EXEC = 4


@pa.closed_enum
class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


@proto_contract
@attrs.define
class Point:
    x: Annotated[pa.sint32, member(1)] = 0
    y: Annotated[pa.sint32, member(2)] = 0


@proto_contract
@dataclass
class Address:
    value: bytes = field(1, default=b"")


class Ip:
    """A foreign class (one protoattr cannot annotate): travels as :class:`Address`."""

    def __init__(self, packed: bytes) -> None:
        self.packed = packed

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ip) and other.packed == self.packed

    def __repr__(self) -> str:
        return f"Ip({self.packed!r})"


pa.add_surrogate(Ip, Address, lambda a: Address(a.packed), lambda s: Ip(s.value))


@proto_contract
@dataclass(frozen=True)
class Account:
    balance: decimal.Decimal = field(1, default=decimal.Decimal(0))
    id: uuid.UUID = field(2, default=uuid.UUID(int=0))
    raw_id: pa.UUIDBytes = field(3, default=uuid.UUID(int=0))
    opened: datetime.date = field(4, default=datetime.date(1, 1, 1))
    perms: Perm = field(5, default=Perm(0))
    level: Level = field(6, default=Level.LOW)
    where: Point | None = field(7, default=None, group=True)
    ip: Ip | None = field(8, default=None)
    blob: bytearray = field(9, default_factory=bytearray)
    history: list[decimal.Decimal] = field(10, default_factory=list)
    limits: list[Level] = field(11, default_factory=list)
    amount: float = field(12, default=2.5, wire_default=2.5)


def account_pb() -> ModuleType:
    return _pb("json_account", Account)


ACCOUNTS = [
    Account(),
    Account(
        balance=decimal.Decimal("-12.50"),
        id=uuid.UUID("12345678-1234-5678-1234-567812345678"),
        raw_id=uuid.UUID(int=1),
        opened=datetime.date(2024, 2, 29),
        perms=Perm.READ | Perm.EXEC,
        level=Level.HIGH,
        where=Point(-1, 2),
        ip=Ip(bytes([10, 0, 0, 1])),
        blob=bytearray(b"\x00\x01"),
        history=[decimal.Decimal("1E+3"), decimal.Decimal("0.0")],
        limits=[Level.LOW, Level.HIGH],
        amount=0.0,
    ),
    Account(perms=Perm.WRITE, where=Point(), amount=-0.0),
]


@pytest.mark.parametrize("obj", ACCOUNTS, ids=repr)
def test_converted_types_against_the_exported_schema(obj: Account) -> None:
    check_json(obj, account_pb().Account, ordered=False)


def test_converted_type_forms() -> None:
    obj = ACCOUNTS[1]
    assert pa.to_dict(obj) == {
        "balance": "-12.50",
        "id": "12345678-1234-5678-1234-567812345678",
        "rawId": "AAAAAAAAAAAAAAAAAAAAAQ==",
        "opened": 738944,
        "perms": 5,  # a combination of flags has no name: its number
        "level": "HIGH",
        "where": {"x": -1, "y": 2},
        "ip": {"value": "CgAAAQ=="},
        "blob": "AAE=",
        "history": ["1E+3", "0.0"],
        "limits": ["LOW", "HIGH"],
        "amount": 0.0,
    }
    assert pa.from_dict(Account, pa.to_dict(obj)) == obj
    assert pa.to_dict(Account(perms=Perm.READ)) == {"perms": "READ"}


def test_converted_type_errors() -> None:
    with pytest.raises(pa.DecodeError, match=r"^Account\.balance: not a valid Decimal"):
        pa.from_dict(Account, {"balance": "lots"})
    with pytest.raises(pa.DecodeError, match=r"^Account\.id: not a valid UUID"):
        pa.from_dict(Account, {"id": "nope"})
    with pytest.raises(pa.DecodeError, match=r"^Account\.level: 7 is not a value of the closed"):
        pa.from_dict(Account, {"level": 7})
    with pytest.raises(pa.EncodeError, match=r"^Account\.balance: "):
        pa.to_json(Account(balance=1.5))  # type: ignore[arg-type]


def test_closed_enum_unknown_number_is_rejected_by_google_too() -> None:
    with pytest.raises(json_format.ParseError):
        json_format.Parse('{"level": 7}', account_pb().Account())


def test_top_level_surrogate() -> None:
    ip = Ip(bytes([1, 2, 3, 4]))
    assert pa.to_dict(ip) == {"value": "AQIDBA=="}
    assert pa.from_dict(Ip, {"value": "AQIDBA=="}) == ip


@proto_contract
@dataclass
class WithGroups:
    my_where: Point | None = field(1, default=None, group=True)
    many: list[Point] = field(2, default_factory=list, group=True)


@pytest.mark.parametrize(
    "obj", [WithGroups(), WithGroups(Point(1, -2), [Point(3, 4), Point()])], ids=repr
)
@pytest.mark.parametrize("syntax", ["proto2", "editions"])
def test_groups_are_objects_against_the_exported_schema(obj: WithGroups, syntax: str) -> None:
    pb = _pb(f"json_groups_{syntax}", WithGroups, syntax=syntax).WithGroups
    message = pb.FromString(pa.serialize(obj))
    for options in ({}, {"preserving_proto_field_name": True, "indent": None}):
        assert pa.to_json(obj, **options) == json_format.MessageToJson(message, **options)
    assert pa.from_json(WithGroups, json_format.MessageToJson(message)) == obj


@proto_contract
@dataclass
class Plain:
    a: pa.int32 = field(1, default=0)


def test_unknown_fields_are_not_printed() -> None:
    obj = pa.deserialize(Plain, b"\x08\x01\x10\x02")  # field 2 is unknown to Plain
    assert pa.serialize(obj) == b"\x08\x01\x10\x02"
    assert pa.to_dict(obj) == {"a": 1}


@proto_contract
@dataclass
class Vehicle:
    wheels: pa.int32 = field(1, default=0)


@proto_contract
@dataclass
class Bike(Vehicle):
    bell: bool = field(2, default=False)


def test_a_subtype_added_after_first_use_is_read_and_written() -> None:
    model = pa.TypeModel()
    assert model.from_dict(Vehicle, {"wheels": 2}) == Vehicle(2)
    with pytest.raises(pa.DecodeError, match="has no field 'Bike'"):
        model.from_dict(Vehicle, {"Bike": {}})
    model.add_subtype(Vehicle, 5, Bike)
    assert model.from_dict(Vehicle, {"wheels": 2, "Bike": {"bell": True}}) == Bike(2, True)
    assert model.to_dict(Bike(2, True)) == {"wheels": 2, "Bike": {"bell": True}}


_KEYS = [
    "keeper",
    "animals",
    "byName",
    "star",
    "Dog",
    "Cat",
    "Puppy",
    "name",
    "legs",
    "balance",
    "id",
    "rawId",
    "opened",
    "perms",
    "level",
    "where",
    "ip",
    "blob",
    "history",
    "limits",
    "amount",
    "myWhere",
    "many",
    "good",
    "tricks",
]


@settings(derandomize=True, max_examples=200)
@given(
    st.sampled_from([Zoo, Account, Animal, WithGroups]),
    st.dictionaries(st.sampled_from(_KEYS), _JSON),
)
def test_garbled_json_only_raises_decode_error(cls: type, data: dict[str, Any]) -> None:
    with contextlib.suppress(pa.DecodeError):
        pa.from_dict(cls, data)
