"""``pa.which_oneof``: the member of a oneof that is set, as Google's ``WhichOneof``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

import protoattr as pa
from conformance import proto3
from fuzz import json_diff
from protoattr import field, proto_contract

M = proto3.TestAllTypesProto3


@proto_contract
@dataclass
class Shape:
    name: str = field(1, default="")
    circle: float | None = field(2, default=None, oneof="kind")
    square: float | None = field(3, default=None, oneof="kind")
    colour: str | None = field(4, default=None, oneof="paint")


@proto_contract
@dataclass
class Labelled(Shape):  # a oneof declared by the base is the subtype's too
    label: str = field(5, default="")


pa.add_subtype(Shape, 10, Labelled)


def test_the_member_that_is_set() -> None:
    assert pa.which_oneof(Shape(circle=1.0), "kind") == "circle"
    assert pa.which_oneof(Shape(square=0.0), "kind") == "square"  # a zero is set
    assert pa.which_oneof(Shape(), "kind") is None
    assert pa.which_oneof(Shape(circle=1.0), "paint") is None
    assert pa.which_oneof(Labelled(square=2.0), "kind") == "square"


def test_what_decoding_sets() -> None:
    obj = pa.deserialize(Shape, pa.serialize(Shape(colour="red", circle=2.0)))
    assert (pa.which_oneof(obj, "kind"), pa.which_oneof(obj, "paint")) == ("circle", "colour")
    obj = pa.deserialize(Shape, b"\x11" + bytes(8) + b"\x19" + bytes(8))  # the last one wins
    assert pa.which_oneof(obj, "kind") == "square"


def test_mistakes_are_named() -> None:
    with pytest.raises(ValueError, match=r"Shape has no oneof 'knd' \(its oneofs: kind, paint\)"):
        pa.which_oneof(Shape(), "knd")
    with pytest.raises(ValueError, match="more than one member of oneof 'kind' is set"):
        pa.which_oneof(Shape(circle=1.0, square=2.0), "kind")
    with pytest.raises(pa.ContractError):
        pa.which_oneof(object(), "kind")


MEMBERS: list[tuple[str, Any]] = [
    ("oneof_uint32", 0),
    ("oneof_string", "x"),
    ("oneof_bytes", b""),
    ("oneof_bool", False),
    ("oneof_uint64", 2**64 - 1),
    ("oneof_float", 0.0),
    ("oneof_double", 1.5),
    ("oneof_enum", 2),
    ("oneof_null_value", 0),
]


@pytest.mark.parametrize(("name", "value"), MEMBERS)
def test_like_googles_which_oneof(name: str, value: Any) -> None:
    upb = json_diff.google_classes()[3]()
    setattr(upb, name, value)
    obj = pa.deserialize(M, upb.SerializeToString())
    assert pa.which_oneof(obj, "oneof_field") == upb.WhichOneof("oneof_field") == name
    upb = json_diff.google_classes()[3]()
    upb.oneof_nested_message.a = 0
    obj = pa.deserialize(M, upb.SerializeToString())
    assert pa.which_oneof(obj, "oneof_field") == upb.WhichOneof("oneof_field")
