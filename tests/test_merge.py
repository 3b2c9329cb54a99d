"""Merge semantics (Google's): what a message seen twice, or bytes concatenated,
decode to; ``pa.merge``, ``deep_clone`` and ``measure``.

A singular scalar seen twice keeps the last value, a singular message seen
twice is merged, repeated fields concatenate and a map key seen twice keeps the
last entry.  Every case is compared with Google's ``ParseFromString`` /
``MergeFromString`` on a proto3 twin.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Annotated, Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import protoattr as pa
from protoattr import field, member, proto_contract
from tests.contracts import assert_same, to_pb
from tests.contracts3 import canonical, parse
from tests.protoc import compile_proto

SETTINGS = settings(derandomize=True, max_examples=60)
UTC = timezone.utc


class Mood(enum.IntEnum):
    MOOD_NONE = 0
    HAPPY = 1
    SAD = 2


@proto_contract
@dataclass
class Part:
    a: pa.int32 = field(1, default=0)
    b: str = field(2, default="")
    r: list[pa.int32] = field(3, default_factory=list)
    sub: Part | None = field(4, default=None)


@proto_contract
@dataclass
class Whole:
    s: pa.int32 = field(1, default=0)
    t: str = field(2, default="")
    o: pa.sint64 | None = field(3, default=None)
    part: Part | None = field(4, default=None)
    names: list[str] = field(5, default_factory=list)
    nums: list[pa.int32] = field(6, default_factory=list)
    counts: dict[str, pa.int32] = field(7, default_factory=dict)
    parts: dict[pa.int32, Part] = field(8, default_factory=dict)
    mood: Mood = field(9, default=Mood.MOOD_NONE)
    d: float = field(10, default=0.0)
    blob: bytes = field(11, default=b"")
    items: list[Part] = field(12, default_factory=list)


WHOLE_PROTO = """
syntax = "proto3";
package merge3;

enum Mood {
  MOOD_NONE = 0;
  HAPPY = 1;
  SAD = 2;
}
message Part {
  int32 a = 1;
  string b = 2;
  repeated int32 r = 3;
  Part sub = 4;
}
message Whole {
  int32 s = 1;
  string t = 2;
  optional sint64 o = 3;
  Part part = 4;
  repeated string names = 5;
  repeated int32 nums = 6;
  map<string, int32> counts = 7;
  map<int32, Part> parts = 8;
  Mood mood = 9;
  double d = 10;
  bytes blob = 11;
  repeated Part items = 12;
}
message Times {
  Timestamp_ at = 1;
  Duration_ took = 2;
}
message Timestamp_ { int64 seconds = 1; int32 nanos = 2; }
message Duration_ { int64 seconds = 1; int32 nanos = 2; }
"""


def pb() -> Any:
    return compile_proto(WHOLE_PROTO, "merge3")


def google_of(obj: Whole) -> Any:
    return to_pb(obj, pb().Whole)


INT32 = st.integers(-(2**31), 2**31 - 1)
TEXT = st.text(st.characters(codec="utf-8"), max_size=5)
PARTS = st.recursive(
    st.builds(Part, a=INT32, b=TEXT, r=st.lists(INT32, max_size=3)),
    lambda inner: st.builds(Part, a=INT32, b=TEXT, r=st.lists(INT32, max_size=2), sub=inner),
    max_leaves=3,
)
WHOLES = st.builds(
    Whole,
    s=INT32,
    t=TEXT,
    o=st.none() | st.integers(-(2**63), 2**63 - 1),
    part=st.none() | PARTS,
    names=st.lists(TEXT, max_size=3),
    nums=st.lists(INT32, max_size=3),
    counts=st.dictionaries(st.sampled_from("abc"), INT32, max_size=3),
    parts=st.dictionaries(st.integers(0, 3), PARTS, max_size=2),
    mood=st.sampled_from(Mood),
    d=st.floats(allow_nan=False),
    blob=st.binary(max_size=4),
    items=st.lists(PARTS, max_size=2),
)


# ------------------------------------------------ concatenated encodings


@given(WHOLES, WHOLES)
@SETTINGS
def test_concatenation_decodes_like_google(first: Whole, second: Whole) -> None:
    data = pa.serialize(first) + pa.serialize(second)
    google = parse(pb().Whole, data)
    merged = pa.deserialize(Whole, data)
    assert canonical(google_of(merged)) == canonical(google)
    # and Google's own encodings, concatenated, read the same
    gdata = google_of(first).SerializeToString() + google_of(second).SerializeToString()
    assert_same(pa.deserialize(Whole, gdata), merged)


@given(WHOLES, WHOLES)
@SETTINGS
def test_merge_matches_google_merge_from_string(first: Whole, second: Whole) -> None:
    target = pa.deserialize(Whole, pa.serialize(first))
    result = pa.merge(target, pa.serialize(second))
    assert result is target
    google = google_of(first)
    google.MergeFromString(pa.serialize(second))
    assert canonical(google_of(result)) == canonical(google)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # a singular scalar seen twice: the last
        (b"\x08\x01\x08\x02", Whole(s=2)),
        (b"\x12\x01a\x12\x01b", Whole(t="b")),
        (b"\x18\x02\x18\x00", Whole(o=0)),  # explicit presence: a zero replaces
        (b"\x48\x01\x48\x02", Whole(mood=Mood.SAD)),
        (b"\x5a\x01x\x5a\x00", Whole(blob=b"")),
        # a singular message seen twice: merged, recursively
        (
            b"\x22\x06\x08\x01\x18\x01\x18\x02" + b"\x22\x05\x12\x01b\x18\x03",
            Whole(part=Part(a=1, b="b", r=[1, 2, 3])),
        ),
        (
            b"\x22\x04\x22\x02\x08\x01" + b"\x22\x04\x22\x02\x18\x02",
            Whole(part=Part(sub=Part(a=1, r=[2]))),
        ),
        # repeated fields concatenate, packed and unpacked alike
        (b"\x2a\x01a\x08\x01\x2a\x01b", Whole(s=1, names=["a", "b"])),
        (b"\x32\x02\x01\x02\x30\x03\x32\x01\x04", Whole(nums=[1, 2, 3, 4])),
        (b"\x62\x02\x08\x01\x62\x02\x08\x02", Whole(items=[Part(a=1), Part(a=2)])),
        # a map key seen twice: the last entry, whole (a message value is replaced)
        (
            b"\x3a\x05\x0a\x01k\x10\x01\x3a\x05\x0a\x01j\x10\x02\x3a\x05\x0a\x01k\x10\x03",
            Whole(counts={"k": 3, "j": 2}),
        ),
        (
            b"\x42\x06\x08\x01\x12\x02\x08\x05" + b"\x42\x07\x08\x01\x12\x03\x12\x01z",
            Whole(parts={1: Part(b="z")}),
        ),
        # an entry without key or value: the zero key / empty message
        (b"\x42\x00", Whole(parts={0: Part()})),
        (b"\x3a\x00", Whole(counts={"": 0})),
    ],
    ids=lambda v: v.hex(" ") if isinstance(v, bytes) else "",
)
def test_fields_seen_twice(data: bytes, expected: Whole) -> None:
    got = pa.deserialize(Whole, data)
    assert_same(got, expected)
    assert canonical(google_of(got)) == canonical(parse(pb().Whole, data))


def test_a_non_optional_message_field_merges_too() -> None:
    @proto_contract
    @dataclass
    class Holder:
        other: Part = field(2)  # no default: an empty Part when absent
        part: Part = field(1, default_factory=Part)

    data = b"\x0a\x02\x08\x01\x0a\x02\x10\x00\x12\x02\x18\x01\x12\x02\x18\x02"
    got = pa.deserialize(Holder, data)
    assert_same(got, Holder(part=Part(a=1), other=Part(r=[1, 2])))
    assert_same(pa.deserialize(Holder, b""), Holder(part=Part(), other=Part()))
    obj = Holder(part=Part(a=3), other=Part())
    assert_same(pa.deserialize(Holder, pa.serialize(obj)), obj)


@proto_contract
@dataclass
class Times:
    at: datetime | None = field(1, default=None)
    took: timedelta | None = field(2, default=None)


def test_well_known_time_messages_seen_twice_merge_like_messages() -> None:
    # Timestamp and Duration are messages: seen twice, Google merges them field by
    # field, so a second one without ``seconds`` keeps the first one's seconds.
    first = b"\x0a\x02\x08\x05" + b"\x12\x02\x08\x07"  # at=5s, took=7s
    second = b"\x0a\x03\x10\xe8\x07" + b"\x12\x03\x10\xe8\x07"  # nanos=1000 each
    google = parse(pb().Times, first + second)
    assert (google.at.seconds, google.at.nanos) == (5, 1000)
    got = pa.deserialize(Times, first + second)
    assert got.at == datetime(1970, 1, 1, 0, 0, 5, 1, tzinfo=UTC)
    assert got.took == timedelta(seconds=7, microseconds=1)


# --------------------------------------------------------------- pa.merge


def test_merge_updates_a_mutable_object_in_place() -> None:
    obj = Whole(s=1, t="t", part=Part(a=1), names=["a"], counts={"k": 1})
    result = pa.merge(obj, pa.serialize(Whole(s=2, part=Part(b="b"), names=["b"], counts={"j": 2})))
    assert result is obj
    assert_same(
        obj,
        Whole(s=2, t="t", part=Part(a=1, b="b"), names=["a", "b"], counts={"k": 1, "j": 2}),
    )


@pytest.mark.parametrize("kind", [bytes, bytearray, memoryview])
def test_merge_accepts_any_buffer(kind: Any) -> None:
    obj = Whole(s=1)
    pa.merge(obj, kind(b"\x12\x01x"))
    assert obj == Whole(s=1, t="x")


def test_merge_of_nothing_changes_nothing() -> None:
    obj = Whole(s=1, names=["a"], part=Part(a=2))
    assert pa.merge(obj, b"") is obj
    assert obj == Whole(s=1, names=["a"], part=Part(a=2))


@proto_contract
@dataclass(frozen=True)
class FrozenWhole:
    s: pa.int32 = field(1, default=0)
    names: tuple[str, ...] = field(2, default=())
    part: Part | None = field(3, default=None)


@proto_contract
@attrs.frozen
class AttrsFrozenWhole:
    s: Annotated[pa.int32, member(1)] = 0
    names: Annotated[tuple[str, ...], member(2)] = ()


@proto_contract
@attrs.define
class AttrsWhole:
    s: Annotated[pa.int32, member(1)] = 0
    names: Annotated[list[str], member(2)] = attrs.Factory(list)


def test_merge_into_a_frozen_object_returns_a_new_one() -> None:
    obj = FrozenWhole(s=1, names=("a",), part=Part(a=1))
    result = pa.merge(obj, pa.serialize(FrozenWhole(names=("b",), part=Part(b="x"))))
    assert result is not obj
    assert obj == FrozenWhole(s=1, names=("a",), part=Part(a=1))  # untouched
    assert_same(result, FrozenWhole(s=1, names=("a", "b"), part=Part(a=1, b="x")))

    attrs_obj = AttrsFrozenWhole(s=1, names=("a",))
    merged = pa.merge(attrs_obj, b"\x08\x02\x12\x01b")
    assert merged == AttrsFrozenWhole(s=2, names=("a", "b"))
    assert attrs_obj == AttrsFrozenWhole(s=1, names=("a",))


def test_merge_into_an_attrs_object_in_place() -> None:
    obj = AttrsWhole(s=1, names=["a"])
    assert pa.merge(obj, b"\x12\x01b") is obj
    assert obj == AttrsWhole(s=1, names=["a", "b"])


def test_merge_keeps_and_appends_unknown_fields_like_google() -> None:
    # The object's unknown fields stay, the merged bytes' unknown fields are
    # appended after them (Google's MergeFromString does the same).
    @proto_contract
    @dataclass
    class Small:
        s: pa.int32 = field(1, default=0)

    obj = pa.deserialize(Small, b"\x08\x01\x98\x01\x05")
    pa.merge(obj, b"\x98\x01\x06\x08\x02\xa0\x01\x07")
    google = parse(pb().Whole, b"\x08\x01\x98\x01\x05")
    google.MergeFromString(b"\x98\x01\x06\x08\x02\xa0\x01\x07")
    assert obj.s == 2
    assert pa.serialize(obj).hex(" ") == google.SerializeToString().hex(" ")
    assert pa.serialize(obj) == b"\x08\x02\x98\x01\x05\x98\x01\x06\xa0\x01\x07"


def test_merge_into_a_frozen_object_keeps_unknown_fields() -> None:
    @proto_contract
    @dataclass(frozen=True)
    class SmallFrozen:
        s: pa.int32 = field(1, default=0)

    obj = pa.deserialize(SmallFrozen, b"\x08\x01\x98\x01\x05")
    merged = pa.merge(obj, b"\x98\x01\x06")
    assert pa.serialize(merged) == b"\x08\x01\x98\x01\x05\x98\x01\x06"
    assert pa.serialize(obj) == b"\x08\x01\x98\x01\x05"


# -------------------------------------------------- deep_clone and measure


@given(WHOLES)
@SETTINGS
def test_deep_clone_is_equal_and_shares_nothing_mutable(obj: Whole) -> None:
    clone = pa.deep_clone(obj)
    assert_same(clone, obj)
    assert clone is not obj
    assert clone.names is not obj.names
    assert clone.parts is not obj.parts
    if obj.part is not None:
        assert clone.part is not obj.part
    clone.names.append("new")
    assert "new" not in obj.names or obj.names.count("new") == clone.names.count("new") - 1


@given(WHOLES)
@SETTINGS
def test_measure_is_the_encoded_length(obj: Whole) -> None:
    data = pa.serialize(obj)
    assert pa.measure(obj) == len(data)
    assert pa.measure(obj) == google_of(obj).ByteSize()


def test_measure_of_a_top_level_list() -> None:
    items = [Part(a=1), Part(), Part(b="x" * 200)]
    assert pa.measure(items, type=list[Part]) == len(pa.serialize(items, type=list[Part]))


@proto_contract
@attrs.define
class SlottedSmall:  # slotted, weakref-able: unknown fields live in a side table
    s: Annotated[pa.int32, member(1)] = 0


class Weakrefable:
    """A slotted base with ``__weakref__``: ``dataclass(weakref_slot=True)`` is 3.11+."""

    __slots__ = ("__weakref__",)


@proto_contract
@dataclass(slots=True)
class SlottedDataclassSmall(Weakrefable):
    s: pa.int32 = field(1, default=0)


@pytest.mark.parametrize("cls", [SlottedSmall, SlottedDataclassSmall], ids=lambda c: c.__name__)
def test_merge_into_a_slotted_object_appends_unknown_fields(cls: Any) -> None:
    obj = pa.deserialize(cls, b"\x08\x01\x98\x01\x05")
    assert pa.merge(obj, b"\x98\x01\x06\x08\x02") is obj
    assert obj.s == 2
    assert pa.serialize(obj) == b"\x08\x02\x98\x01\x05\x98\x01\x06"
