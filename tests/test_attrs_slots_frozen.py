"""attrs classes and dataclasses with slots/frozen/kw_only: they round-trip, interop,
and ``@proto_contract`` leaves them exactly as it found them.

(No ``from __future__ import annotations`` here: the twins are built by factory
functions, and their annotations are evaluated where they are written.)
"""

# ruff: noqa: UP045

import dataclasses
import functools
import inspect
import types
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Optional

import attrs
import pytest

import protoattr as pa
from protoattr import field, member, proto_contract
from tests.protoc import compile_proto

POINT_PROTO = """
syntax = "proto3";
message Point { sint32 x = 1; sint32 y = 2; }
message Path { repeated Point points = 1; string name = 2; repeated int64 ids = 3; }
"""


def point_pb() -> Any:
    return compile_proto(POINT_PROTO, "point")


@functools.cache
def attrs_contracts() -> types.SimpleNamespace:
    """The attrs contracts, declared on first use (so that a failure to declare
    them fails the tests that use them, not the collection of this module)."""

    @proto_contract
    @attrs.define
    class Point:
        x: Annotated[pa.sint32, member(1)] = 0
        y: Annotated[pa.sint32, member(2)] = 0

    @proto_contract
    @attrs.frozen
    class FrozenPath:
        points: Annotated[tuple[Point, ...], member(1)] = ()
        name: Annotated[str, member(2)] = ""
        ids: Annotated[list[int], member(3)] = attrs.Factory(list)

    return types.SimpleNamespace(Point=Point, FrozenPath=FrozenPath)


# ------------------------------------------------------------------ attrs


def test_attrs_point_golden_and_interop() -> None:
    Point = attrs_contracts().Point
    pb = point_pb()
    point = Point(-1, 2)
    data = pa.serialize(point)
    assert data == b"\x08\x01\x10\x04"
    assert data == pb.Point(x=-1, y=2).SerializeToString()
    assert pa.deserialize(Point, data) == point
    assert pa.serialize(Point()) == b""
    assert pa.deserialize(Point, b"") == Point()


def test_attrs_frozen_with_nested_tuple_and_factory() -> None:
    Point, FrozenPath = attrs_contracts().Point, attrs_contracts().FrozenPath
    pb = point_pb()
    path = FrozenPath((Point(1, -1), Point()), "route", [1, -(2**63)])
    data = pa.serialize(path)
    google = pb.Path(points=[pb.Point(x=1, y=-1), pb.Point()], name="route", ids=[1, -(2**63)])
    assert data == google.SerializeToString()
    back = pa.deserialize(FrozenPath, data)
    assert back == path
    assert type(back.points) is tuple
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        back.name = "x"  # type: ignore[misc]
    assert pa.deserialize(FrozenPath, b"").ids == []


def test_attrs_private_attribute_uses_its_alias() -> None:
    @proto_contract
    @attrs.define
    class Secret:
        _token: Annotated[str, member(1)] = ""
        visible: Annotated[pa.int32, member(2)] = 0

    obj = Secret(token="abc", visible=3)
    assert pa.serialize(obj) == b"\x0a\x03abc\x10\x03"
    assert pa.deserialize(Secret, pa.serialize(obj)) == obj


def test_attrs_kw_only_and_required_without_default() -> None:
    @proto_contract
    @attrs.define(kw_only=True)
    class Account:
        owner: Annotated[str, member(1, required=True)]
        balance: Annotated[pa.sint64, member(2)] = 0

    obj = Account(owner="me", balance=-5)
    assert pa.deserialize(Account, pa.serialize(obj)) == obj
    with pytest.raises(pa.DecodeError):
        pa.deserialize(Account, b"\x10\x09")


def test_attrs_field_without_member_and_without_default_is_a_contract_error() -> None:
    with pytest.raises(pa.ContractError, match=r"\bBad\.untagged\b"):

        @proto_contract
        @attrs.define
        class Bad:
            tagged: Annotated[pa.int32, member(1)]
            untagged: int


def test_attrs_non_init_attribute() -> None:
    @proto_contract
    @attrs.define
    class Counter:
        name: Annotated[str, member(1)] = ""
        hits: Annotated[pa.int32, member(2)] = attrs.field(default=0, init=False)

    obj = Counter("x")
    obj.hits = 7
    back = pa.deserialize(Counter, pa.serialize(obj))
    assert (back.name, back.hits) == ("x", 7)


def test_attrs_implicit_fields() -> None:
    @proto_contract(implicit_fields=True)
    @attrs.define
    class Implicit:
        a: pa.int32 = 0
        b: str = ""

    assert pa.serialize(Implicit(1, "x")) == b"\x08\x01\x12\x01x"


# ------------------------------------------------------------- dataclasses


@proto_contract
@dataclass(slots=True)
class Slotted:
    a: pa.int32 = field(1, default=0)
    b: list[str] = field(2, default_factory=list)


@proto_contract
@dataclass(frozen=True)
class Frozen:
    a: pa.int32 = field(1, default=0)
    inner: Optional[Slotted] = field(2, default=None)


@proto_contract
@dataclass(kw_only=True)
class KwOnly:
    a: pa.int32 = field(1)
    b: str = field(2, default="")


@proto_contract
@dataclass(slots=True, frozen=True, kw_only=True)
class Everything:
    a: pa.int32 = field(1, default=0)
    b: tuple[pa.sint32, ...] = field(2, default=())
    c: Optional[Frozen] = field(3, default=None)


@pytest.mark.parametrize(
    "obj",
    [
        Slotted(5, ["x", "y"]),
        Frozen(1, Slotted(2)),
        KwOnly(a=3, b="z"),
        Everything(a=-1, b=(1, -2), c=Frozen(0, Slotted())),
        Everything(),
    ],
    ids=repr,
)
def test_dataclass_variants_round_trip(obj: Any) -> None:
    back = pa.deserialize(type(obj), pa.serialize(obj))
    assert back == obj
    assert pa.deep_clone(obj) == obj


def test_slotted_instances_have_no_dict_after_decoding() -> None:
    back = pa.deserialize(Slotted, pa.serialize(Slotted(1)))
    assert not hasattr(back, "__dict__")


def test_frozen_dataclass_stays_frozen_after_decoding() -> None:
    back = pa.deserialize(Frozen, pa.serialize(Frozen(1)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        back.a = 2  # type: ignore[misc]


def test_dataclass_non_init_field_is_decoded() -> None:
    @proto_contract
    @dataclass(frozen=True)
    class Stamped:
        name: str = field(1, default="")
        version: pa.int32 = field(2, default=0, init=False)

    obj = Stamped("x")
    object.__setattr__(obj, "version", 9)
    back = pa.deserialize(Stamped, pa.serialize(obj))
    assert (back.name, back.version) == ("x", 9)


def test_post_init_runs_on_decode() -> None:
    seen: list[int] = []

    @proto_contract
    @dataclass
    class Checked:
        a: pa.int32 = field(1, default=0)

        def __post_init__(self) -> None:
            seen.append(self.a)

    pa.deserialize(Checked, b"\x08\x05")
    assert seen == [5]


# ------------------------------------------ @proto_contract changes nothing


def make_attrs_define() -> type:
    @attrs.define
    class Twin:
        x: Annotated[pa.sint32, member(1)] = 0
        tags: Annotated[list[str], member(2)] = attrs.Factory(list)

    return Twin


def make_attrs_frozen() -> type:
    @attrs.frozen(kw_only=True)
    class Twin:
        x: Annotated[pa.sint32, member(1)] = 0
        name: Annotated[str, member(2)] = ""

    return Twin


def make_attrs_dict() -> type:
    @attrs.define(slots=False, eq=False)
    class Twin:
        x: Annotated[pa.int64, member(1)] = 0

    return Twin


def make_dataclass() -> type:
    @dataclass
    class Twin:
        x: pa.int32 = field(1, default=0)
        tags: list[str] = field(2, default_factory=list)

    return Twin


def make_dataclass_slots() -> type:
    @dataclass(slots=True)
    class Twin:
        x: pa.int32 = field(1, default=0)

    return Twin


def make_dataclass_frozen() -> type:
    @dataclass(frozen=True)
    class Twin:
        x: pa.int32 = field(1, default=0)

    return Twin


def make_dataclass_kw_only() -> type:
    @dataclass(kw_only=True, order=True)
    class Twin:
        x: pa.int32 = field(1)
        y: str = field(2, default="")

    return Twin


def make_dataclass_everything() -> type:
    @dataclass(slots=True, frozen=True, kw_only=True, eq=True, unsafe_hash=False)
    class Twin:
        x: pa.int32 = field(1, default=0)

    return Twin


TWINS: dict[str, tuple[Callable[[], type], dict[str, Any]]] = {
    "attrs.define": (make_attrs_define, {"x": -3, "tags": ["a"]}),
    "attrs.frozen": (make_attrs_frozen, {"x": 4, "name": "n"}),
    "attrs-dict": (make_attrs_dict, {"x": 5}),
    "dataclass": (make_dataclass, {"x": 6, "tags": ["b"]}),
    "dataclass-slots": (make_dataclass_slots, {"x": 7}),
    "dataclass-frozen": (make_dataclass_frozen, {"x": 8}),
    "dataclass-kw_only": (make_dataclass_kw_only, {"x": 9, "y": "y"}),
    "dataclass-everything": (make_dataclass_everything, {"x": 10}),
}


def _behaviour(cls: type, values: dict[str, Any]) -> dict[str, Any]:
    """Everything observable about a class and an instance of it."""
    obj = cls(**values)
    other = cls(**values)
    seen: dict[str, Any] = {
        "class attributes": sorted(vars(cls)),
        "signature": str(inspect.signature(cls)),
        "init code": cls.__init__.__code__.co_code,  # type: ignore[misc]
        "slots": getattr(cls, "__slots__", None),
        "match args": getattr(cls, "__match_args__", None),
        "hashable": cls.__hash__ is not None,
        "eq": obj == other,
        "repr": repr(obj),
        "instance dict": hasattr(obj, "__dict__"),
        "weakref": _weakrefable(obj),
        "mro": [k.__name__ for k in cls.__mro__],
        "metaclass": type(cls),
        "doc": cls.__doc__,
        "module": cls.__module__,
        "qualname": cls.__qualname__,
    }
    try:
        obj.x = 99  # type: ignore[attr-defined]
        seen["frozen"] = False
    except (dataclasses.FrozenInstanceError, attrs.exceptions.FrozenInstanceError) as exc:
        seen["frozen"] = type(exc)
    if cls.__hash__ is None:
        seen["hash"] = None
    elif cls.__hash__ is object.__hash__:
        seen["hash"] = "identity"
    else:
        seen["hash"] = hash(other)
    return seen


def _weakrefable(obj: Any) -> bool:
    try:
        weakref.ref(obj)
    except TypeError:
        return False
    return True


@pytest.mark.parametrize(("make", "values"), TWINS.values(), ids=TWINS.keys())
def test_proto_contract_leaves_the_class_unchanged(
    make: Callable[[], type], values: dict[str, Any]
) -> None:
    plain = make()
    expected = _behaviour(plain, values)
    twin = make()
    decorated = proto_contract(twin)
    assert decorated is twin
    assert _behaviour(decorated, values) == expected
    # and using it changes nothing either
    obj = decorated(**values)
    back = pa.deserialize(decorated, pa.serialize(obj))
    for name, value in values.items():
        assert getattr(back, name) == value
    assert _behaviour(decorated, values) == expected


@pytest.mark.parametrize(("make", "values"), TWINS.values(), ids=TWINS.keys())
def test_called_form_leaves_the_class_unchanged(
    make: Callable[[], type], values: dict[str, Any]
) -> None:
    expected = _behaviour(make(), values)
    decorated = proto_contract(name="Renamed", reserved=(100,))(make())
    assert _behaviour(decorated, values) == expected
