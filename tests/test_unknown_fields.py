"""Unknown fields: kept byte-exact and in order, written back after the known ones.

The versioning story: v2 writes, v1 reads and re-writes, v2 reads everything
back - with Google's runtime as a third party on either side.
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
    SAMPLE_V2,
    Animal,
    Bird,
    Dog,
    Inner3,
    Parrot,
    RecordV1,
    RecordV2,
    Zoo,
    animals_v2_pb,
    canonical,
    parse,
    records_pb,
)

SETTINGS = settings(derandomize=True, max_examples=50)

# ------------------------------------------------------- the flavours of v1


@proto_contract
@dataclass(frozen=True)
class FrozenV1:
    id: pa.int32 = field(1, default=0)
    text: str = field(2, default="")


@proto_contract
@attrs.define
class AttrsV1:  # slotted, with __weakref__
    id: Annotated[pa.int32, member(1)] = 0
    text: Annotated[str, member(2)] = ""


@proto_contract
@attrs.frozen
class AttrsFrozenV1:
    id: Annotated[pa.int32, member(1)] = 0
    text: Annotated[str, member(2)] = ""


@proto_contract
@attrs.define(slots=False)
class AttrsDictV1:
    id: Annotated[pa.int32, member(1)] = 0
    text: Annotated[str, member(2)] = ""


class Weakrefable:
    """A slotted base with ``__weakref__``: ``dataclass(weakref_slot=True)`` is 3.11+."""

    __slots__ = ("__weakref__",)


@proto_contract
@dataclass(slots=True)
class SlotsWeakrefV1(Weakrefable):
    id: pa.int32 = field(1, default=0)
    text: str = field(2, default="")


@proto_contract
@dataclass(slots=True, frozen=True)
class FrozenSlotsWeakrefV1(Weakrefable):
    id: pa.int32 = field(1, default=0)
    text: str = field(2, default="")


@proto_contract
@dataclass(slots=True)
class SlotsV1:  # no __dict__, no __weakref__: nowhere to keep unknown fields
    id: pa.int32 = field(1, default=0)
    text: str = field(2, default="")


@proto_contract
@attrs.define(weakref_slot=False)
class AttrsNoWeakrefV1:
    id: Annotated[pa.int32, member(1)] = 0
    text: Annotated[str, member(2)] = ""


@proto_contract(preserve_unknown=False)
@dataclass
class DroppingV1:
    id: pa.int32 = field(1, default=0)
    text: str = field(2, default="")


KEEPING = [RecordV1, FrozenV1, AttrsV1, AttrsFrozenV1, AttrsDictV1, SlotsWeakrefV1]
KEEPING += [FrozenSlotsWeakrefV1]
DROPPING = [SlotsV1, AttrsNoWeakrefV1, DroppingV1]


def v2_bytes() -> bytes:
    return pa.serialize(SAMPLE_V2)


# ------------------------------------------------------ v2 -> v1 -> v2


@pytest.mark.parametrize("cls", KEEPING, ids=lambda c: c.__name__)
def test_v1_rewrites_v2_bytes_exactly(cls: Any) -> None:
    data = v2_bytes()
    old = pa.deserialize(cls, data)
    assert (old.id, old.text) == (SAMPLE_V2.id, SAMPLE_V2.text)
    assert old == cls(id=SAMPLE_V2.id, text=SAMPLE_V2.text)  # equality ignores them
    again = pa.serialize(old)
    assert again.hex(" ") == data.hex(" ")
    assert pa.measure(old) == len(data)
    assert_same(pa.deserialize(RecordV2, again), SAMPLE_V2)
    assert pa.serialize(pa.deep_clone(old)) == data


@pytest.mark.parametrize("cls", DROPPING, ids=lambda c: c.__name__)
def test_classes_that_cannot_or_will_not_keep_them_drop_them(cls: Any) -> None:
    data = v2_bytes()
    old = pa.deserialize(cls, data)
    assert old == cls(id=SAMPLE_V2.id, text=SAMPLE_V2.text)
    assert pa.serialize(old) == pa.serialize(cls(id=SAMPLE_V2.id, text=SAMPLE_V2.text))
    assert_same(
        pa.deserialize(RecordV2, pa.serialize(old)), RecordV2(id=SAMPLE_V2.id, text=SAMPLE_V2.text)
    )


@pytest.mark.parametrize("cls", [RecordV1, AttrsV1, SlotsWeakrefV1], ids=lambda c: c.__name__)
def test_changing_known_fields_keeps_the_unknown_ones(cls: Any) -> None:
    old = pa.deserialize(cls, v2_bytes())
    old.id = 99
    old.text = ""
    back = pa.deserialize(RecordV2, pa.serialize(old))
    expected = RecordV2(**{**vars_of(SAMPLE_V2), "id": 99, "text": ""})
    assert_same(back, expected)


def vars_of(obj: RecordV2) -> dict[str, Any]:
    import dataclasses

    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}


def test_slotted_side_table_does_not_leak_to_new_objects() -> None:
    # Unknown fields of slotted objects live in a side table keyed by identity:
    # once the object is gone, a new object (often at the same address) has none.
    for _ in range(20):
        old = pa.deserialize(SlotsWeakrefV1, v2_bytes())
        del old  # freed at once (no cycles)
        fresh = SlotsWeakrefV1(id=1)
        assert pa.serialize(fresh) == b"\x08\x01"
        fresh2 = AttrsV1(id=1)
        assert pa.serialize(fresh2) == b"\x08\x01"


# ------------------------------------------------------ order and byte-exactness


def _tag(number: int, wire_type: int) -> bytes:
    return _varint(number << 3 | wire_type)


def _varint(n: int) -> bytes:
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


UNKNOWNS = [
    _tag(3, 0) + b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",  # 10-byte varint
    _tag(4, 1) + struct.pack("<d", -1.25),
    _tag(5, 5) + b"\x01\x02\x03\x04",
    _tag(6, 2) + b"\x03abc",
    _tag(7, 3) + _tag(1, 0) + b"\x05" + _tag(2, 2) + b"\x00" + _tag(7, 4),  # a group
    _tag(8, 3) + _tag(9, 3) + _tag(9, 4) + _tag(8, 4),  # nested groups
    _tag(536870911, 0) + b"\x01",  # the largest field number
    _tag(1000, 2) + b"\x00",
    _tag(3, 0) + b"\x80\x00",  # a non-minimal varint, kept as it was
]


def test_all_wire_types_are_kept_byte_exact_in_order() -> None:
    data = b"\x08\x01" + b"".join(UNKNOWNS)
    obj = pa.deserialize(RecordV1, data)
    assert obj == RecordV1(id=1)
    assert pa.serialize(obj).hex(" ") == data.hex(" ")
    google = parse(records_pb().RecordV1, data)
    assert google.SerializeToString() == data


def test_interleaved_unknowns_follow_the_known_fields_in_their_order() -> None:
    u1, u2, u3 = UNKNOWNS[0], UNKNOWNS[3], UNKNOWNS[4]
    data = u1 + b"\x12\x01t" + u2 + b"\x08\x05" + u3 + b"\x08\x06"
    obj = pa.deserialize(RecordV1, data)
    assert obj == RecordV1(id=6, text="t")
    out = pa.serialize(obj)
    assert out == b"\x08\x06\x12\x01t" + u1 + u2 + u3
    # Google re-writes the same way: known fields in number order, then unknowns.
    assert out == parse(records_pb().RecordV1, data).SerializeToString()


def test_a_known_field_with_an_unexpected_wire_type_is_kept_as_unknown() -> None:
    odd = b"\x0a\x02hi" + b"\x15\x01\x00\x00\x00"  # id as LEN, text as I32
    data = b"\x08\x03" + odd
    obj = pa.deserialize(RecordV1, data)
    assert obj == RecordV1(id=3)
    assert pa.serialize(obj) == data == parse(records_pb().RecordV1, data).SerializeToString()


@given(st.lists(st.sampled_from(UNKNOWNS), max_size=6), st.integers(0, 6), st.integers(0, 2**31))
@SETTINGS
def test_any_mix_of_unknowns_survives_like_google(
    unknowns: list[bytes], split: int, number: int
) -> None:
    known = _tag(1, 0) + _varint(number)
    data = b"".join(unknowns[:split]) + known + b"".join(unknowns[split:])
    obj = pa.deserialize(RecordV1, data)
    assert obj.id == number
    expected = parse(records_pb().RecordV1, data).SerializeToString()
    assert pa.serialize(obj) == expected
    assert pa.serialize(pa.deserialize(FrozenV1, data)) == expected
    assert pa.serialize(pa.deserialize(AttrsV1, data)) == expected


# ------------------------------------------------- Google as a third party


def test_google_v2_to_protoattr_v1_and_back() -> None:
    pb = records_pb()
    msg = pb.RecordV2(id=5, text="x", count=7, ratio=2.5, small=9, blob=b"b", late="l")
    msg.nums.extend([1, -2])
    msg.inner.a = 3
    msg.extra["z"] = 26
    data = msg.SerializeToString()
    old = pa.deserialize(RecordV1, data)
    assert old == RecordV1(id=5, text="x")
    assert canonical(parse(pb.RecordV2, pa.serialize(old))) == canonical(msg)
    assert pa.serialize(old) == data  # one map entry: the order is fixed


def test_protoattr_v2_to_google_v1_and_back() -> None:
    pb = records_pb()
    old = parse(pb.RecordV1, v2_bytes())
    assert (old.id, old.text) == (SAMPLE_V2.id, SAMPLE_V2.text)
    assert_same(pa.deserialize(RecordV2, old.SerializeToString()), SAMPLE_V2)
    # and protoattr's v1 writes what Google's v1 writes
    assert pa.serialize(pa.deserialize(RecordV1, v2_bytes())) == old.SerializeToString()


# --------------------------------------------------------- nested positions


@proto_contract
@dataclass
class Envelope:
    one: RecordV1 | None = field(1, default=None)
    many: list[RecordV1] = field(2, default_factory=list)
    by_key: dict[str, RecordV1] = field(3, default_factory=dict)
    frozen: FrozenV1 | None = field(4, default=None)


@proto_contract
@dataclass
class EnvelopeV2:
    one: RecordV2 | None = field(1, default=None)
    many: list[RecordV2] = field(2, default_factory=list)
    by_key: dict[str, RecordV2] = field(3, default_factory=dict)
    frozen: RecordV2 | None = field(4, default=None)


def test_nested_messages_list_items_and_map_values_keep_theirs() -> None:
    other = RecordV2(id=2, count=1, inner=Inner3(s="deep"))
    new = EnvelopeV2(one=SAMPLE_V2, many=[other, SAMPLE_V2], by_key={"k": other}, frozen=SAMPLE_V2)
    data = pa.serialize(new)
    old = pa.deserialize(Envelope, data)
    assert old.one == RecordV1(id=7, text="seven")
    assert pa.serialize(old) == data
    assert_same(pa.deserialize(EnvelopeV2, pa.serialize(old)), new)


# ------------------------------------------------- one set per hierarchy level


def test_each_inheritance_level_keeps_its_own_unknowns() -> None:
    pb = animals_v2_pb()
    zoo = pb.Zoo()
    parrot = zoo.animals.add(name="polly", legs=2, habitat="jungle")
    parrot.bird.wingspan = 0.5
    parrot.bird.eggs.extend([1, 2])
    parrot.bird.parrot.words.append("hi")
    parrot.bird.parrot.age = -40
    dog = zoo.animals.add(name="rex", habitat="house")
    dog.dog.breed = "lab"
    dog.dog.good = True
    zoo.animals.add(habitat="sea")
    data = zoo.SerializeToString()

    old = pa.deserialize(Zoo, data)
    assert_same(
        old,
        Zoo(
            animals=[
                Parrot(name="polly", legs=2, wingspan=0.5, words=["hi"]),
                Dog(name="rex", breed="lab"),
                Animal(),
            ]
        ),
    )
    # Every level writes its own unknown fields at the end of its own message,
    # which is where Google's v2 has them: identical bytes.
    assert pa.serialize(old).hex(" ") == data.hex(" ")
    # and the unknown fields stay with their level when a known one changes
    old.animals[0].words.append("bye")
    parrot.bird.parrot.words.append("bye")
    assert pa.serialize(old) == zoo.SerializeToString()


def test_a_subtype_level_unknown_does_not_leak_into_the_base() -> None:
    pb = animals_v2_pb()
    msg = pb.Animal(name="b")
    msg.bird.eggs.append(3)
    bird = pa.deserialize(Animal, msg.SerializeToString())
    assert_same(bird, Bird(name="b"))
    assert pa.serialize(bird) == msg.SerializeToString()
    # re-read as v2 by Google: eggs are still in the Bird message
    assert list(parse(pb.Animal, pa.serialize(bird)).bird.eggs) == [3]
