"""proto2 groups: ``field(tag, group=True)`` writes start-group/end-group tags.

Cross-checked against proto2 ``optional group`` / ``repeated group`` twins in
Google's runtime; unknown groups are skipped (and kept byte-exact) with their
depth counted against ``max_depth``; unmatched or mismatched end-groups are a
``DecodeError``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from google.protobuf.message import DecodeError as GoogleDecodeError
from hypothesis import given, settings
from hypothesis import strategies as st

import protoattr as pa
from protoattr import field, proto_contract
from tests.contracts import assert_same
from tests.contracts3 import canonical, parse
from tests.protoc import compile_proto

SETTINGS = settings(derandomize=True, max_examples=60)


@proto_contract
@dataclass
class G:
    a: pa.int32 | None = field(1, default=None)
    s: str | None = field(2, default=None)


@proto_contract
@dataclass
class Item:
    n: pa.sint64 | None = field(7, default=None)
    tags: list[str] = field(8, default_factory=list)
    deep: G | None = field(9, default=None, group=True)  # a group in a group


@proto_contract
@dataclass
class Holder:
    x: pa.int32 | None = field(1, default=None)
    g: G | None = field(5, default=None, group=True)
    item: list[Item] = field(6, default_factory=list, group=True)
    msg: G | None = field(10, default=None)  # the same contract as a plain message
    last: str | None = field(20, default=None)


HOLDER_PROTO = """
syntax = "proto2";
package groups3;

message Holder {
  optional int32 x = 1;
  optional group G = 5 {
    optional int32 a = 1;
    optional string s = 2;
  }
  repeated group Item = 6 {
    optional sint64 n = 7;
    repeated string tags = 8;
    optional group Deep = 9 {
      optional int32 a = 1;
      optional string s = 2;
    }
  }
  optional Plain msg = 10;
  optional string last = 20;
}
message Plain {
  optional int32 a = 1;
  optional string s = 2;
}
"""


def pb() -> Any:
    return compile_proto(HOLDER_PROTO, "groups3")


def _fill_g(target: Any, g: G) -> None:
    target.SetInParent()
    if g.a is not None:
        target.a = g.a
    if g.s is not None:
        target.s = g.s


def to_google(obj: Holder) -> Any:
    msg = pb().Holder()
    if obj.x is not None:
        msg.x = obj.x
    if obj.g is not None:
        _fill_g(msg.g, obj.g)
    for it in obj.item:
        m = msg.item.add()
        if it.n is not None:
            m.n = it.n
        m.tags.extend(it.tags)
        if it.deep is not None:
            _fill_g(m.deep, it.deep)
    if obj.msg is not None:
        _fill_g(msg.msg, obj.msg)
    if obj.last is not None:
        msg.last = obj.last
    return msg


TEXT = st.text(st.characters(codec="utf-8"), max_size=5)
GS = st.builds(G, a=st.none() | st.integers(-(2**31), 2**31 - 1), s=st.none() | TEXT)
ITEMS = st.builds(
    Item,
    n=st.none() | st.integers(-(2**63), 2**63 - 1),
    tags=st.lists(TEXT, max_size=2),
    deep=st.none() | GS,
)
HOLDERS = st.builds(
    Holder,
    x=st.none() | st.integers(-(2**31), 2**31 - 1),
    g=st.none() | GS,
    item=st.lists(ITEMS, max_size=3),
    msg=st.none() | GS,
    last=st.none() | TEXT,
)

# --------------------------------------------------------------- golden bytes


def test_group_golden_bytes() -> None:
    assert pa.serialize(Holder(g=G(a=1))) == b"\x2b\x08\x01\x2c"
    assert pa.serialize(Holder(g=G())) == b"\x2b\x2c"
    assert pa.serialize(Holder(item=[Item(n=-1), Item()])) == b"\x33\x38\x01\x34\x33\x34"
    assert pa.serialize(Holder(item=[Item(deep=G(s="z"))])) == b"\x33\x4b\x12\x01z\x4c\x34"
    # the same contract as a length-delimited message
    assert pa.serialize(Holder(msg=G(a=1))) == b"\x52\x02\x08\x01"


def test_group_start_tag_with_a_multi_byte_number() -> None:
    @proto_contract
    @dataclass
    class Far:
        g: G | None = field(300, default=None, group=True)

    data = pa.serialize(Far(g=G(a=2)))
    assert data == b"\xe3\x12\x08\x02\xe4\x12"
    assert pa.deserialize(Far, data) == Far(g=G(a=2))


# ------------------------------------------------------ Google's runtime


@given(HOLDERS)
@SETTINGS
def test_against_google_proto2_groups(obj: Holder) -> None:
    expected = to_google(obj)
    data = pa.serialize(obj)
    assert data.hex(" ") == expected.SerializeToString().hex(" ")
    assert canonical(parse(pb().Holder, data)) == canonical(expected)
    assert_same(pa.deserialize(Holder, expected.SerializeToString()), obj)


def test_group_seen_twice_merges_like_google() -> None:
    data = b"\x2b\x08\x01\x2c" + b"\x2b\x12\x01s\x2c" + b"\x33\x42\x01a\x34\x33\x42\x01b\x34"
    obj = pa.deserialize(Holder, data)
    assert_same(obj, Holder(g=G(a=1, s="s"), item=[Item(tags=["a"]), Item(tags=["b"])]))
    assert canonical(to_google(obj)) == canonical(parse(pb().Holder, data))


def test_a_group_field_sent_as_a_message_is_an_unknown_field() -> None:
    # Field 5 with wire type LEN: not the group protoattr expects; like Google,
    # keep it as an unknown field instead of failing.
    data = b"\x08\x01\x2a\x02\x08\x01"
    obj = pa.deserialize(Holder, data)
    assert obj == Holder(x=1)
    assert pa.serialize(obj) == data == parse(pb().Holder, data).SerializeToString()


# ---------------------------------------------------- unknown groups


@proto_contract
@dataclass
class Bare:
    x: pa.int32 | None = field(1, default=None)


def _nested_unknown_groups(levels: int, number: int = 2) -> bytes:
    start = bytes([number << 3 | 3])
    end = bytes([number << 3 | 4])
    return start * levels + end * levels


@pytest.mark.parametrize(
    "group",
    [
        b"\x13\x14",  # empty
        b"\x13\x08\x01\x11" + bytes(8) + b"\x1a\x02hi\x1d" + bytes(4) + b"\x14",  # all types
        b"\x13\x1b\x08\x01\x1c\x14",  # group in group
        b"\x13\x13\x14\x14",  # the same number nested
        b"\x13\xa3\x01\x08\x07\xa4\x01\x14",  # a two-byte inner group tag
        b"\x13\x1a\x02\x1c\x14\x14",  # end-group bytes inside a string: data, not tags
    ],
    ids=lambda d: d.hex(" "),
)
def test_unknown_groups_are_skipped_and_kept(group: bytes) -> None:
    data = b"\x08\x05" + group + b"\x08\x06"
    obj = pa.deserialize(Bare, data)
    assert obj == Bare(x=6)
    assert pa.serialize(obj) == b"\x08\x06" + group
    assert pa.serialize(obj) == parse(pb().Holder, data).SerializeToString()


def test_unknown_group_depth_counts_against_max_depth() -> None:
    assert pa.deserialize(Bare, _nested_unknown_groups(100)) == Bare()
    with pytest.raises(pa.DecodeError):
        pa.deserialize(Bare, _nested_unknown_groups(101))
    # Google draws the line at the same place
    parse(pb().Plain, _nested_unknown_groups(100))
    with pytest.raises(GoogleDecodeError):
        parse(pb().Plain, _nested_unknown_groups(101))

    model = pa.TypeModel(max_depth=5)
    assert model.deserialize(Bare, _nested_unknown_groups(5)) == Bare()
    with pytest.raises(pa.DecodeError):
        model.deserialize(Bare, _nested_unknown_groups(6))


def test_unknown_groups_inside_known_nesting_count_too() -> None:
    # a known group one level deep holding unknown groups
    model = pa.TypeModel(max_depth=5)
    inner = _nested_unknown_groups(4, number=3)
    assert model.deserialize(Holder, b"\x2b" + inner + b"\x2c").g == G()
    with pytest.raises(pa.DecodeError):
        model.deserialize(Holder, b"\x2b" + _nested_unknown_groups(5, number=3) + b"\x2c")


@proto_contract
@dataclass
class Tree:
    value: pa.int32 = field(1, default=0)
    child: Tree | None = field(2, default=None, group=True)


TREE_PROTO = """
syntax = "proto2";
message Tree {
  optional int32 value = 1;
  optional group Child = 2 {
    optional int32 value = 1;
    optional group Child = 2 { optional int32 value = 1; }
  }
}
"""


def test_known_recursive_groups_obey_max_depth() -> None:
    def nested(levels: int) -> bytes:
        return b"\x13" * levels + b"\x14" * levels

    tree = pa.deserialize(Tree, nested(100))
    depth = 0
    while tree.child is not None:
        tree, depth = tree.child, depth + 1
    assert depth == 100
    with pytest.raises(pa.DecodeError):
        pa.deserialize(Tree, nested(101))
    deep = Tree(value=1, child=Tree(value=2, child=Tree(value=3)))
    data = pa.serialize(deep)
    assert data == b"\x08\x01\x13\x08\x02\x13\x08\x03\x14\x14"
    google = parse(compile_proto(TREE_PROTO, "tree3").Tree, data)
    assert google.child.child.value == 3
    assert google.SerializeToString() == data


# ------------------------------------------------------------ malformed


@pytest.mark.parametrize(
    "data",
    [
        b"\x2c",  # end-group 5 without a start
        b"\x08\x01\x2c",
        b"\x2b\x08\x01",  # start-group 5, no end
        b"\x2b\x08\x01\x34",  # ended by end-group 6
        b"\x2b\x34\x2c",
        b"\x33\x2c",  # repeated group 6 ended by 5
        b"\x33\x4b\x34\x4c",  # inner group 9 ended by the outer's end
        b"\x13",  # an unknown group never ended
        b"\x13\x1c",  # an unknown group 2 ended by 3
        b"\x1c",  # an unknown end-group
        b"\x13\x1b\x14\x1c",
        b"\x2b\x08",  # truncated inside a group
        b"\x2b\x12\x05ab\x2c",  # a length running past the group
    ],
    ids=lambda d: d.hex(" "),
)
def test_malformed_groups_are_decode_errors(data: bytes) -> None:
    with pytest.raises(pa.DecodeError) as info:
        pa.deserialize(Holder, data)
    assert info.value.offset is not None
    with pytest.raises(GoogleDecodeError):  # Google rejects the same bytes
        parse(pb().Holder, data)


# ------------------------------------------------------------ declarations


def test_group_needs_a_contract() -> None:
    with pytest.raises(pa.ContractError, match="group"):

        @proto_contract
        @dataclass
        class Bad:
            a: pa.int32 = field(1, default=0, group=True)


def test_map_values_cannot_be_groups() -> None:
    with pytest.raises(pa.ContractError, match="group"):

        @proto_contract
        @dataclass
        class Bad:
            a: dict[str, G] = field(1, default_factory=dict, group=True)


def test_non_optional_group_field_is_always_written() -> None:
    @proto_contract
    @dataclass
    class Always:
        g: G = field(1, group=True)

    assert pa.serialize(Always(g=G())) == b"\x0b\x0c"
    assert pa.deserialize(Always, b"") == Always(g=G())


def test_a_group_can_hold_a_hierarchy() -> None:
    from tests.contracts3 import Cube, Shape

    @proto_contract
    @dataclass
    class Scene:
        shape: Shape | None = field(5, default=None, group=True)
        shapes: list[Shape] = field(6, default_factory=list, group=True)

    scene = Scene(shape=Cube(name="c", depth=2), shapes=[Shape(name="s"), Cube()])
    data = pa.serialize(scene)
    assert data.startswith(b"\x2b\x5a\x04\x2a\x02\x10\x02\x0a\x01c\x2c")
    back = pa.deserialize(Scene, data)
    assert back == scene
    assert [type(s) for s in back.shapes] == [Shape, Cube]


def test_unknown_fields_inside_a_known_group_stay_inside_it() -> None:
    data = b"\x2b\x08\x01\x18\x07\x22\x01z\x2c\x08\x05"
    obj = pa.deserialize(Holder, data)
    assert obj == Holder(x=5, g=G(a=1))
    assert pa.serialize(obj) == b"\x08\x05\x2b\x08\x01\x18\x07\x22\x01z\x2c"
    assert pa.serialize(obj) == parse(pb().Holder, data).SerializeToString()
