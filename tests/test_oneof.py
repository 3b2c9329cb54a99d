"""``oneof``: at most one member set, zeros are written, the last one seen wins.

Cross-checked against a proto3 ``oneof`` in Google's runtime.
"""

from __future__ import annotations

import enum
import io
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
from tests.contracts3 import canonical, parse
from tests.protoc import compile_proto

SETTINGS = settings(derandomize=True, max_examples=80)


class Hue(enum.IntEnum):
    HUE_NONE = 0
    WARM = 1
    COLD = 2


@proto_contract
@dataclass
class Leaf:
    a: pa.int32 = field(1, default=0)
    s: str = field(2, default="")
    r: list[pa.int32] = field(3, default_factory=list)


@proto_contract
@dataclass
class Choice:
    name: str = field(1, default="")
    num: pa.int32 | None = field(2, default=None, oneof="value")
    text: str | None = field(3, default=None, oneof="value")
    real: float | None = field(4, default=None, oneof="value")
    leaf: Leaf | None = field(5, default=None, oneof="value")
    hue: Hue | None = field(6, default=None, oneof="value")
    raw: bytes | None = field(7, default=None, oneof="value")
    flag: bool | None = field(8, default=None, oneof="value")
    big: pa.sint64 | None = field(9, default=None, oneof="value")
    x: str | None = field(10, default=None, oneof="other")
    y: pa.uint32 | None = field(11, default=None, oneof="other")


CHOICE_PROTO = """
syntax = "proto3";
package oneof3;

enum Hue {
  HUE_NONE = 0;
  WARM = 1;
  COLD = 2;
}
message Leaf {
  int32 a = 1;
  string s = 2;
  repeated int32 r = 3;
}
message Choice {
  string name = 1;
  oneof value {
    int32 num = 2;
    string text = 3;
    double real = 4;
    Leaf leaf = 5;
    Hue hue = 6;
    bytes raw = 7;
    bool flag = 8;
    sint64 big = 9;
  }
  oneof other {
    string x = 10;
    uint32 y = 11;
  }
}
"""

VALUE_MEMBERS = ["num", "text", "real", "leaf", "hue", "raw", "flag", "big"]
OTHER_MEMBERS = ["x", "y"]


def pb() -> Any:
    return compile_proto(CHOICE_PROTO, "oneof3")


def to_google(obj: Choice) -> Any:
    msg = pb().Choice(name=obj.name)
    for name in VALUE_MEMBERS + OTHER_MEMBERS:
        value = getattr(obj, name)
        if value is None:
            continue
        if name == "leaf":
            msg.leaf.SetInParent()
            msg.leaf.a, msg.leaf.s = value.a, value.s
            msg.leaf.r.extend(value.r)
        else:
            setattr(msg, name, int(value) if name == "hue" else value)
    return msg


TEXT = st.text(st.characters(codec="utf-8"), max_size=6)
LEAVES = st.builds(
    Leaf,
    a=st.integers(-(2**31), 2**31 - 1),
    s=TEXT,
    r=st.lists(st.integers(-(2**31), 2**31 - 1), max_size=3),
)
MEMBER_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "num": st.integers(-(2**31), 2**31 - 1),
    "text": TEXT,
    "real": st.floats(allow_nan=False),
    "leaf": LEAVES,
    "hue": st.sampled_from(Hue),
    "raw": st.binary(max_size=6),
    "flag": st.booleans(),
    "big": st.integers(-(2**63), 2**63 - 1),
    "x": TEXT,
    "y": st.integers(0, 2**32 - 1),
}


@st.composite
def choices(draw: st.DrawFn) -> Choice:
    kwargs: dict[str, Any] = {"name": draw(TEXT)}
    for group in (VALUE_MEMBERS, OTHER_MEMBERS):
        chosen = draw(st.none() | st.sampled_from(group))
        if chosen is not None:
            kwargs[chosen] = draw(MEMBER_VALUES[chosen])
    return Choice(**kwargs)


# --------------------------------------------------------------- encoding


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"num": 0}, b"\x10\x00"),
        ({"text": ""}, b"\x1a\x00"),
        ({"real": 0.0}, b"\x21" + bytes(8)),
        ({"leaf": Leaf()}, b"\x2a\x00"),
        ({"hue": Hue.HUE_NONE}, b"\x30\x00"),
        ({"raw": b""}, b"\x3a\x00"),
        ({"flag": False}, b"\x40\x00"),
        ({"big": 0}, b"\x48\x00"),
        ({"y": 0}, b"\x58\x00"),
        ({}, b""),
    ],
    ids=repr,
)
def test_a_member_set_to_its_zero_is_written(kwargs: dict[str, Any], expected: bytes) -> None:
    obj = Choice(**kwargs)
    assert pa.serialize(obj) == expected
    assert pa.serialize(obj) == to_google(obj).SerializeToString()
    assert_same(pa.deserialize(Choice, expected), obj)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num": 1, "text": "a"},
        {"num": 0, "flag": False},  # zeros count as set
        {"leaf": Leaf(), "raw": b""},
        {"x": "", "y": 0},
        {"num": 1, "text": "a", "real": 1.0},
    ],
    ids=repr,
)
def test_two_members_set_is_an_encode_error(kwargs: dict[str, Any]) -> None:
    obj = Choice(**kwargs)
    with pytest.raises(pa.EncodeError, match="oneof"):
        pa.serialize(obj)
    stream = io.BytesIO()
    with pytest.raises(pa.EncodeError):
        pa.serialize_to(stream, obj)
    assert stream.getvalue() == b""  # nothing written
    with pytest.raises(pa.EncodeError):
        pa.measure(obj)


def test_two_oneofs_are_independent() -> None:
    obj = Choice(num=5, x="x")
    data = pa.serialize(obj)
    assert data == b"\x10\x05\x52\x01x"
    assert_same(pa.deserialize(Choice, data), obj)


def test_nested_oneof_violation_is_reported() -> None:
    @proto_contract
    @dataclass
    class Holder:
        items: list[Choice] = field(1, default_factory=list)

    with pytest.raises(pa.EncodeError, match="oneof"):
        pa.serialize(Holder(items=[Choice(num=1), Choice(text="a", raw=b"")]))


# --------------------------------------------------------------- decoding


@pytest.mark.parametrize(
    "data",
    [
        b"\x10\x05\x1a\x01a",  # num then text: text
        b"\x1a\x01a\x10\x05",  # text then num: num
        b"\x10\x05\x10\x06",  # num twice: the last
        b"\x2a\x02\x08\x01\x10\x07\x2a\x02\x12\x00",  # leaf, num, leaf: a fresh leaf
        b"\x2a\x04\x08\x01\x18\x05\x2a\x05\x12\x01s\x18\x06",  # leaf twice: merged
        b"\x21" + struct.pack("<d", 1.5) + b"\x52\x01x\x40\x01\x58\x02",
        b"\x58\x02\x52\x00\x30\x02\x48\x03",
        b"\x0a\x01n\x3a\x01r\x0a\x01m",
    ],
    ids=lambda d: d.hex(" "),
)
def test_last_member_seen_wins_as_in_google(data: bytes) -> None:
    google = parse(pb().Choice, data)
    obj = pa.deserialize(Choice, data)
    assert canonical(to_google(obj)) == canonical(google)
    assert pa.serialize(obj) == google.SerializeToString()
    set_members = [n for n in VALUE_MEMBERS if getattr(obj, n) is not None]
    assert len(set_members) <= 1
    set_members = [n for n in OTHER_MEMBERS if getattr(obj, n) is not None]
    assert len(set_members) <= 1


def test_merge_switches_the_member() -> None:
    obj = Choice(num=5, x="keep")
    merged = pa.merge(obj, pa.serialize(Choice(text="t")))
    assert merged is obj
    assert_same(obj, Choice(text="t", x="keep"))
    pa.merge(obj, pa.serialize(Choice(y=3)))
    assert_same(obj, Choice(text="t", y=3))


def test_merge_of_the_same_message_member_merges_it() -> None:
    obj = Choice(leaf=Leaf(a=1, r=[1]))
    pa.merge(obj, pa.serialize(Choice(leaf=Leaf(s="s", r=[2]))))
    assert_same(obj, Choice(leaf=Leaf(a=1, s="s", r=[1, 2])))
    google = pb().Choice()
    google.MergeFromString(pa.serialize(Choice(leaf=Leaf(a=1, r=[1]))))
    google.MergeFromString(pa.serialize(Choice(leaf=Leaf(s="s", r=[2]))))
    assert canonical(google) == canonical(to_google(obj))


@given(choices())
@SETTINGS
def test_against_google(obj: Choice) -> None:
    data = pa.serialize(obj)
    expected = to_google(obj)
    assert data.hex(" ") == expected.SerializeToString().hex(" ")
    assert canonical(parse(pb().Choice, data)) == canonical(expected)
    assert_same(pa.deserialize(Choice, expected.SerializeToString()), obj)


@given(choices(), choices())
@SETTINGS
def test_concatenation_reads_like_google(first: Choice, second: Choice) -> None:
    data = pa.serialize(first) + pa.serialize(second)
    google = parse(pb().Choice, data)
    assert canonical(to_google(pa.deserialize(Choice, data))) == canonical(google)


# ------------------------------------------------- other kinds of class


@proto_contract
@attrs.define
class AttrsChoice:
    a: Annotated[pa.int32 | None, member(1, oneof="v")] = None
    b: Annotated[str | None, member(2, oneof="v")] = None


@proto_contract
@dataclass(frozen=True)
class FrozenChoice:
    a: pa.int32 | None = field(1, default=None, oneof="v")
    b: str | None = field(2, default=None, oneof="v")


@pytest.mark.parametrize("cls", [AttrsChoice, FrozenChoice])
def test_oneof_on_attrs_and_frozen_classes(cls: Any) -> None:
    assert pa.serialize(cls(a=0)) == b"\x08\x00"
    assert pa.deserialize(cls, b"\x08\x01\x12\x01z") == cls(b="z")
    assert pa.deserialize(cls, b"\x12\x01z\x08\x01") == cls(a=1)
    with pytest.raises(pa.EncodeError):
        pa.serialize(cls(a=1, b="z"))


def test_a_repeated_field_cannot_be_in_a_oneof() -> None:
    with pytest.raises(pa.ContractError, match="oneof"):

        @proto_contract
        @dataclass
        class Bad:
            a: list[pa.int32] = field(1, default_factory=list, oneof="v")


def test_a_map_cannot_be_in_a_oneof() -> None:
    with pytest.raises(pa.ContractError, match="oneof"):

        @proto_contract
        @dataclass
        class Bad:
            a: dict[str, str] = field(1, default_factory=dict, oneof="v")
