"""Inheritance (protobuf-net's ProtoInclude): ``subtype_tag`` and ``add_subtype``.

A subclass's own fields travel as a message in field ``subtype_tag`` of its
base, written before the base's own fields; decoding the base yields the most
derived class present.  The proto twin is a ``oneof subtype`` of messages, so
Google's runtime reads and writes the same data.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Annotated, Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import protoattr as pa
from protoattr import field, member, proto_contract
from tests.contracts import assert_same
from tests.contracts3 import (
    Animal,
    Bird,
    Circle,
    Cube,
    Dog,
    Drawing,
    Parrot,
    Shape,
    Square,
    Zoo,
    animals_pb,
    canonical,
    parse,
    shapes_pb,
)

SETTINGS = settings(derandomize=True, max_examples=60)

INT32 = st.integers(-(2**31), 2**31 - 1)
TEXT = st.text(st.characters(codec="utf-8"), max_size=8)
DOUBLE = st.floats(allow_nan=False)

SHAPES = st.one_of(
    st.builds(Shape, name=TEXT, id=INT32),
    st.builds(Circle, name=TEXT, id=INT32, radius=DOUBLE),
    st.builds(Square, name=TEXT, id=INT32, side=INT32),
    st.builds(
        Cube, name=TEXT, id=INT32, side=INT32, depth=INT32, labels=st.lists(TEXT, max_size=3)
    ),
)
ANIMALS = st.one_of(
    st.builds(Animal, name=TEXT, legs=INT32),
    st.builds(Dog, name=TEXT, legs=INT32, breed=TEXT),
    st.builds(Bird, name=TEXT, legs=INT32, wingspan=DOUBLE),
    st.builds(Parrot, name=TEXT, legs=INT32, wingspan=DOUBLE, words=st.lists(TEXT, max_size=3)),
)


def _d(x: float) -> bytes:
    return struct.pack("<d", x)


# ------------------------------------------------------------ Google twins


def shape_to_pb(obj: Shape, msg: Any = None) -> Any:
    """The Google ``Shape`` holding ``obj`` (a oneof member per subtype level)."""
    msg = shapes_pb().Shape() if msg is None else msg
    msg.name = obj.name
    msg.id = obj.id
    if isinstance(obj, Circle):
        msg.circle.SetInParent()
        msg.circle.radius = obj.radius
    elif isinstance(obj, Square):
        msg.square.SetInParent()
        msg.square.side = obj.side
        if isinstance(obj, Cube):
            msg.square.cube.SetInParent()
            msg.square.cube.depth = obj.depth
            msg.square.cube.labels.extend(obj.labels)
    return msg


def animal_to_pb(obj: Animal, msg: Any = None) -> Any:
    msg = animals_pb().Animal() if msg is None else msg
    msg.name = obj.name
    msg.legs = obj.legs
    if isinstance(obj, Dog):
        msg.dog.SetInParent()
        msg.dog.breed = obj.breed
    elif isinstance(obj, Bird):
        msg.bird.SetInParent()
        msg.bird.wingspan = obj.wingspan
        if isinstance(obj, Parrot):
            msg.bird.parrot.SetInParent()
            msg.bird.parrot.words.extend(obj.words)
    return msg


# ------------------------------------------------------------ golden bytes


def test_subtype_message_is_written_before_the_base_fields() -> None:
    data = pa.serialize(Circle(name="c", radius=2.0))
    assert data == b"\x52\x09\x09" + _d(2.0) + b"\x0a\x01c"


def test_empty_subtype_level_is_still_written() -> None:
    # The subtype field is what says "this is a Circle": present even when empty.
    assert pa.serialize(Circle()) == b"\x52\x00"
    assert pa.serialize(Shape()) == b""
    assert pa.serialize(Cube()) == b"\x5a\x02\x2a\x00"


def test_three_levels_nest_each_in_its_parent() -> None:
    data = pa.serialize(Cube(name="x", id=1, side=3, depth=4, labels=["a"]))
    cube = b"\x10\x04\x1a\x01a"
    square = b"\x2a" + bytes([len(cube)]) + cube + b"\x08\x03"
    assert data == b"\x5a" + bytes([len(square)]) + square + b"\x0a\x01x\x10\x01"


# ---------------------------------------------------------- round trips


@pytest.mark.parametrize(
    "obj",
    [
        Shape(name="s", id=1),
        Circle(name="c", id=2, radius=1.5),
        Circle(),
        Square(name="q", side=-4),
        Cube(name="k", id=-1, side=2, depth=3, labels=["x", "y"]),
        Cube(),
    ],
    ids=repr,
)
def test_decoding_the_base_yields_the_most_derived_class(obj: Shape) -> None:
    data = pa.serialize(obj)
    assert_same(pa.deserialize(Shape, data), obj)
    assert_same(pa.deserialize(type(obj), data), obj)
    assert_same(pa.deep_clone(obj), obj)
    assert pa.measure(obj) == len(data)


def test_intermediate_class_as_the_requested_type() -> None:
    cube = Cube(name="k", side=2, depth=3)
    assert_same(pa.deserialize(Square, pa.serialize(cube)), cube)


def test_subclass_from_bytes_without_the_subtype_field_has_defaults() -> None:
    # Bytes written for the base alone: the requested class is built, its own
    # fields at their defaults.
    data = pa.serialize(Shape(name="plain", id=9))
    assert_same(pa.deserialize(Circle, data), Circle(name="plain", id=9))
    assert_same(pa.deserialize(Cube, data), Cube(name="plain", id=9))
    assert_same(pa.deserialize(Circle, b""), Circle())


def test_requested_subclass_is_built_when_the_bytes_name_a_less_derived_level() -> None:
    # Square bytes read as a Cube: the result must still be a Cube (as
    # protobuf-net does: the requested type is the least it constructs), with the
    # Cube level at its defaults.  ``deserialize(Cube, ...)`` returning a plain
    # Square would break its own return type.
    data = pa.serialize(Square(name="sq", side=5))
    got = pa.deserialize(Cube, data)
    assert isinstance(got, Cube), got
    assert_same(got, Cube(name="sq", side=5))


def test_lists_maps_and_optionals_hold_mixed_subtypes() -> None:
    drawing = Drawing(
        shapes=[Circle(radius=1.0), Shape(name="s"), Cube(depth=2), Square(side=1), Circle()],
        main=Cube(name="main", labels=["m"]),
        by_name={"c": Circle(radius=3.0), "s": Shape(id=4), "q": Square()},
    )
    data = pa.serialize(drawing)
    back = pa.deserialize(Drawing, data)
    assert_same(back, drawing)
    assert [type(s) for s in back.shapes] == [Circle, Shape, Cube, Square, Circle]


@given(st.lists(SHAPES, max_size=4), st.none() | SHAPES)
@SETTINGS
def test_mixed_lists_round_trip(shapes: list[Shape], main: Shape | None) -> None:
    drawing = Drawing(shapes=shapes, main=main)
    assert_same(pa.deserialize(Drawing, pa.serialize(drawing)), drawing)


def test_merge_deep_clone_and_measure_on_a_subtype() -> None:
    cube = Cube(name="a", side=1, labels=["x"])
    clone = pa.deep_clone(cube)
    assert clone == cube and clone is not cube and type(clone) is Cube
    merged = pa.merge(cube, pa.serialize(Cube(depth=7, labels=["y"])))
    assert merged is cube
    assert_same(cube, Cube(name="a", side=1, depth=7, labels=["x", "y"]))
    assert pa.measure(cube) == len(pa.serialize(cube))


def test_merging_base_bytes_into_a_subtype_keeps_its_own_fields() -> None:
    circle = Circle(name="c", radius=2.0)
    merged = pa.merge(circle, pa.serialize(Shape(id=5)))
    assert_same(merged, Circle(name="c", id=5, radius=2.0))


# ------------------------------------------------- Google's runtime, both ways


@given(SHAPES)
@SETTINGS
def test_shapes_against_google(obj: Shape) -> None:
    pb = shapes_pb()
    expected = shape_to_pb(obj)
    data = pa.serialize(obj)
    # Google parses protoattr's bytes (subtype first) to the same message...
    assert canonical(parse(pb.Shape, data)) == canonical(expected)
    # ...and protoattr reads Google's bytes (field-number order) to the same object.
    assert_same(pa.deserialize(Shape, expected.SerializeToString()), obj)


@given(ANIMALS)
@SETTINGS
def test_animals_identical_bytes_with_google(obj: Animal) -> None:
    # Subtype tags below the base's fields: both runtimes write the same order.
    pb = animals_pb()
    expected = animal_to_pb(obj)
    data = pa.serialize(obj)
    assert data.hex(" ") == expected.SerializeToString().hex(" ")
    assert_same(pa.deserialize(Animal, expected.SerializeToString()), obj)
    assert canonical(parse(pb.Animal, data)) == canonical(expected)


def test_zoo_of_mixed_animals_identical_bytes_with_google() -> None:
    zoo = Zoo(
        animals=[
            Parrot(name="polly", legs=2, wingspan=0.3, words=["hello", "cracker"]),
            Dog(name="rex", legs=4, breed="lab"),
            Animal(name="blob"),
            Bird(wingspan=-1.0),
            Dog(),
        ]
    )
    msg = animals_pb().Zoo()
    for a in zoo.animals:
        animal_to_pb(a, msg.animals.add())
    assert pa.serialize(zoo) == msg.SerializeToString()
    back = pa.deserialize(Zoo, msg.SerializeToString())
    assert_same(back, zoo)
    assert [type(a) for a in back.animals] == [Parrot, Dog, Animal, Bird, Dog]


def test_drawing_against_google() -> None:
    pb = shapes_pb()
    drawing = Drawing(
        shapes=[Circle(radius=1.0), Shape(name="s"), Cube(depth=2, labels=["l"])],
        main=Square(side=3),
        by_name={"c": Circle(name="cc")},
    )
    msg = pb.Drawing()
    for s in drawing.shapes:
        shape_to_pb(s, msg.shapes.add())
    shape_to_pb(drawing.main, msg.main)
    shape_to_pb(drawing.by_name["c"], msg.by_name["c"])
    assert canonical(parse(pb.Drawing, pa.serialize(drawing))) == canonical(msg)
    assert_same(pa.deserialize(Drawing, msg.SerializeToString()), drawing)


# ------------------------------------------------------------ add_subtype


@proto_contract
@dataclass
class Vehicle:
    wheels: pa.int32 = field(1, default=0)


@proto_contract
@dataclass
class Car(Vehicle):
    seats: pa.int32 = field(2, default=0)


@proto_contract
@dataclass
class SportsCar(Car):
    top_speed: float = field(3, default=0.0)


@proto_contract
@dataclass
class Truck(Vehicle):
    load: pa.uint32 = field(4, default=0)


@proto_contract
@dataclass
class Garage:
    vehicles: list[Vehicle] = field(1, default_factory=list)


def _vehicle_model() -> pa.TypeModel:
    model = pa.TypeModel()
    model.add_subtype(Vehicle, 10, Car)
    model.add_subtype(Car, 7, SportsCar)
    model.add_subtype(Vehicle, 11, Truck)
    return model


def test_add_subtype_uses_the_protobuf_net_layout() -> None:
    model = _vehicle_model()
    assert model.serialize(Car(wheels=4, seats=5)) == b"\x52\x02\x10\x05\x08\x04"
    sports = SportsCar(wheels=4, seats=2, top_speed=1.0)
    inner = b"\x19" + _d(1.0)
    car = b"\x3a" + bytes([len(inner)]) + inner + b"\x10\x02"
    assert model.serialize(sports) == b"\x52" + bytes([len(car)]) + car + b"\x08\x04"


def test_add_subtype_round_trips_to_the_most_derived_class() -> None:
    model = _vehicle_model()
    garage = Garage(
        vehicles=[Vehicle(wheels=1), Car(seats=4), SportsCar(top_speed=300.5), Truck(load=9)]
    )
    back = model.deserialize(Garage, model.serialize(garage))
    assert_same(back, garage)
    for obj in garage.vehicles:
        assert_same(model.deserialize(Vehicle, model.serialize(obj)), obj)


def test_add_subtype_matches_a_declared_hierarchy_on_the_wire(protoc: Any) -> None:
    pb = protoc(
        """
        syntax = "proto3";
        message Vehicle {
          int32 wheels = 1;
          oneof subtype { Car car = 10; Truck truck = 11; }
        }
        message Car {
          int32 seats = 2;
          oneof subtype { SportsCar sports = 7; }
        }
        message SportsCar { double top_speed = 3; }
        message Truck { uint32 load = 4; }
        """,
        "vehicles3",
    )
    model = _vehicle_model()
    msg = pb.Vehicle(wheels=4)
    msg.car.seats = 2
    msg.car.sports.top_speed = 2.5
    obj = SportsCar(wheels=4, seats=2, top_speed=2.5)
    assert_same(model.deserialize(Vehicle, msg.SerializeToString()), obj)
    assert canonical(parse(pb.Vehicle, model.serialize(obj))) == canonical(msg)


def test_add_subtype_does_not_touch_the_default_model() -> None:
    _vehicle_model()
    # In the default model Car is a flat contract of its own (all its fields).
    assert pa.serialize(Car(wheels=4, seats=5)) == b"\x08\x04\x10\x05"
    assert_same(pa.deserialize(Vehicle, pa.serialize(Car(wheels=4, seats=5))), Vehicle(wheels=4))


def test_add_subtype_after_first_use_recompiles() -> None:
    model = pa.TypeModel()
    assert model.serialize(Car(wheels=1, seats=2)) == b"\x08\x01\x10\x02"
    model.serialize(Vehicle(wheels=1))
    model.add_subtype(Vehicle, 10, Car)
    assert model.serialize(Car(wheels=1, seats=2)) == b"\x52\x02\x10\x02\x08\x01"
    assert_same(model.deserialize(Vehicle, b"\x52\x02\x10\x02\x08\x01"), Car(wheels=1, seats=2))


def test_add_subtype_rejects_bad_declarations() -> None:
    model = pa.TypeModel()
    with pytest.raises(pa.ContractError):
        model.add_subtype(Car, 10, Vehicle)  # not a subclass
    with pytest.raises(pa.ContractError):
        model.add_subtype(Vehicle, 10, Vehicle)
    model.add_subtype(Vehicle, 10, Car)
    with pytest.raises(pa.ContractError, match="10"):
        model.add_subtype(Vehicle, 10, Truck)  # tag taken by Car
    with pytest.raises(pa.ContractError, match="wheels"):
        pa.TypeModel().add_subtype(Vehicle, 1, Truck)  # collides with Vehicle.wheels


# ------------------------------------------------------- declaration errors


def test_subtype_tag_needs_a_contract_base() -> None:
    @dataclass
    class Plain:
        x: int = 0

    with pytest.raises(pa.ContractError, match="subtype_tag"):

        @proto_contract(subtype_tag=3)
        @dataclass
        class Child(Plain):
            y: pa.int32 = field(1, default=0)


def test_sibling_subtypes_cannot_share_a_tag() -> None:
    @proto_contract
    @dataclass
    class Base:
        a: pa.int32 = field(1, default=0)

    @proto_contract(subtype_tag=5)
    @dataclass
    class First(Base):
        b: pa.int32 = field(1, default=0)

    with pytest.raises(pa.ContractError, match="First"):

        @proto_contract(subtype_tag=5)
        @dataclass
        class Second(Base):
            c: pa.int32 = field(1, default=0)


def test_subtype_tag_colliding_with_a_base_field_is_a_contract_error() -> None:
    @proto_contract
    @dataclass
    class Base2:
        a: pa.int32 = field(1, default=0)
        b: pa.int32 = field(2, default=0)

    # Detected at decoration, or at the latest when the hierarchy is compiled:
    # never a codec that writes two different things under tag 2.
    with pytest.raises(pa.ContractError, match="2"):

        @proto_contract(subtype_tag=2)
        @dataclass
        class Clash(Base2):
            c: pa.int32 = field(1, default=0)

        pa.serialize(Clash())


@pytest.mark.parametrize("tag", [0, -1, 536870912])
def test_subtype_tag_out_of_range(tag: int) -> None:
    @proto_contract
    @dataclass
    class Base3:
        a: pa.int32 = field(1, default=0)

    with pytest.raises(pa.ContractError):

        @proto_contract(subtype_tag=tag)
        @dataclass
        class Child3(Base3):
            c: pa.int32 = field(1, default=0)


def test_subtypes_of_a_local_hierarchy_round_trip() -> None:
    @proto_contract
    @dataclass(frozen=True)
    class Event:
        at: pa.int64 = field(1, default=0)

    @proto_contract(subtype_tag=100)
    @dataclass(frozen=True)
    class Click(Event):
        x: pa.sint32 = field(1, default=0)
        y: pa.sint32 = field(2, default=0)

    @proto_contract(subtype_tag=101)
    @dataclass(frozen=True)
    class Key(Event):
        code: str = field(1, default="")

    @proto_contract
    @dataclass(frozen=True)
    class Log:
        events: tuple[Event, ...] = field(1, default=())

    log = Log(events=(Click(at=1, x=-5, y=6), Key(at=2, code="a"), Event(at=3)))
    back = pa.deserialize(Log, pa.serialize(log))
    assert_same(back, log)
    assert pa.serialize(Click(at=1, x=-5, y=6)) == b"\xa2\x06\x04\x08\x09\x10\x0c\x08\x01"


def test_merge_keeps_each_levels_unknown_fields_like_google() -> None:
    from tests.contracts3 import animals_v2_pb

    pb = animals_v2_pb()
    first = pb.Animal(name="a", habitat="h1")
    first.bird.eggs.append(1)
    first.bird.parrot.age = 3
    second = pb.Animal(legs=2, habitat="h2")
    second.bird.eggs.append(2)
    second.bird.parrot.words.append("w")
    obj = pa.deserialize(Animal, first.SerializeToString())
    assert pa.merge(obj, second.SerializeToString()) is obj
    assert_same(obj, Parrot(name="a", legs=2, words=["w"]))
    google = pb.Animal()
    google.MergeFromString(first.SerializeToString())
    google.MergeFromString(second.SerializeToString())
    # upb keeps unknown fields in arrival order per message, as protoattr does
    assert canonical(parse(pb.Animal, pa.serialize(obj))) == canonical(google)


# ------------------------------------------------------- attrs hierarchies


@proto_contract
@attrs.define
class Account:
    owner: Annotated[str, member(1)] = ""


@proto_contract(subtype_tag=10)
@attrs.define
class Savings(Account):
    rate: Annotated[float, member(1)] = 0.0


@proto_contract(subtype_tag=11)
@attrs.frozen
class Frozen(Account):
    until: Annotated[pa.int64, member(1)] = 0


def test_attrs_hierarchy_round_trips_with_unknowns_per_level() -> None:
    savings = Savings(owner="o", rate=0.5)
    data = pa.serialize(savings)
    assert data == b"\x52\x09\x09" + _d(0.5) + b"\x0a\x01o"
    assert pa.deserialize(Account, data) == savings
    # unknown field 2 in the Savings level, 3 in the Account level (slotted: side table)
    raw = b"\x52\x0b\x09" + _d(0.5) + b"\x10\x07" + b"\x0a\x01o\x18\x09"
    got = pa.deserialize(Account, raw)
    assert got == savings
    assert pa.serialize(got) == raw
    got.rate = 1.0
    assert pa.serialize(got) == raw.replace(_d(0.5), _d(1.0))
    frozen = pa.deserialize(Account, b"\x5a\x02\x08\x05\x0a\x01f")
    assert frozen == Frozen(owner="f", until=5) and type(frozen) is Frozen


@pytest.mark.parametrize(
    ("target", "incoming", "expected"),
    [
        # a sibling subtype: like a oneof switching member (the base fields merge)
        (Circle(name="c", id=3, radius=2.0), Square(side=4), Square(name="c", id=3, side=4)),
        # a deeper subtype: the object grows a level
        (Square(name="q", side=1), Cube(depth=2), Cube(name="q", side=1, depth=2)),
        # a shallower one: the deeper level stays
        (Cube(name="q", side=1, depth=5), Square(side=2), Cube(name="q", side=2, depth=5)),
    ],
    ids=["sibling", "deeper", "shallower"],
)
def test_merging_another_subtype_follows_google(
    target: Shape, incoming: Shape, expected: Shape
) -> None:
    before = pa.serialize(target)
    merged = pa.merge(target, pa.serialize(incoming))
    assert_same(merged, expected)
    google = shapes_pb().Shape.FromString(before)
    google.MergeFromString(pa.serialize(incoming))
    assert canonical(google) == canonical(shape_to_pb(merged))
