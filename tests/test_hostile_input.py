"""What a fuzz run over the decoder found, each pinned with the bytes it found.

Every case is cross-checked with upb (Google's runtime) where the two share
semantics; the rest pins protoattr's own rule (a subtype-typed field never
holds a sibling, an ``IntFlag`` never turns a negative number into flags).
Then the bounds a server relies on: ``max_messages`` and Python's recursion
limit, both ``DecodeError``s.
"""

from __future__ import annotations

import enum
import struct
import sys
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Optional

import pytest
from google.protobuf.message import DecodeError as GoogleDecodeError

import protoattr as pa
from protoattr import DecodeError, field, proto_contract
from tests.test_closed_enums import Reading
from tests.test_closed_enums import pb as reading_pb


def decode_error(cls: Any, data: bytes, model: pa.TypeModel | None = None) -> DecodeError:
    """Decode ``data``, expecting a DecodeError whose offset lies within the input."""
    with pytest.raises(DecodeError) as info:
        (model or pa.default_model).deserialize(cls, data)
    offset = info.value.offset
    assert offset is None or 0 <= offset <= len(data), f"offset {offset} outside the input"
    return info.value


def google_rejects(pb_cls: Any, data: bytes) -> bool:
    try:
        pb_cls.FromString(data)
    except GoogleDecodeError:
        return True
    return False


def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _len(tag: int, body: bytes) -> bytes:
    return _varint(tag << 3 | 2) + _varint(len(body)) + body


# --------------------------------------------------------------- a hierarchy


@proto_contract
@dataclass
class Pet:
    name: str = field(1, default="")
    legs: pa.int32 = field(2, default=0)


@proto_contract(subtype_tag=11)
@dataclass
class Cat(Pet):
    lives: pa.uint32 = field(1, default=1)


@proto_contract(subtype_tag=12)
@dataclass
class Hound(Pet):
    breed: str = field(1, default="")


@proto_contract
@dataclass
class Kennel:
    hound: Optional[Hound] = field(4, default=None)  # noqa: UP045
    pets: list[Pet] = field(5, default_factory=list)
    by_name: dict[str, Hound] = field(6, default_factory=dict)


PETS_PROTO = """
syntax = "proto3";
message Pet {
  oneof subtype {
    Cat cat = 11;
    Hound hound = 12;
  }
  string name = 1;
  int32 legs = 2;
}
message Cat { uint32 lives = 1; }
message Hound { string breed = 1; }
message Kennel {
  Pet hound = 4;
  repeated Pet pets = 5;
}
"""


@pytest.mark.parametrize(
    "data",
    [
        "5a 01 08 01",  # the varint of lives runs past the level's one-byte body
        "5a 01 0d 00 00 00 00",  # a fixed32 unknown field past the end of the level
        "5a 02 08 80",  # a truncated varint inside the level
        "5a 01 10 05",  # the base's legs read as if inside the Cat level
    ],
)
def test_a_subtype_level_ends_where_its_length_says(protoc: Any, data: str) -> None:
    raw = bytes.fromhex(data)
    assert google_rejects(protoc(PETS_PROTO, "pets").Pet, raw)
    decode_error(Pet, raw)
    decode_error(Kennel, _len(5, raw))  # inside a list element too
    decode_error(Kennel, _len(4, b"") + _len(4, raw))  # and merged into a present value


def test_a_well_formed_subtype_level_still_decodes() -> None:
    assert pa.deserialize(Pet, bytes.fromhex("5a 02 08 07 10 04")) == Cat(legs=4, lives=7)


def test_a_subtype_typed_field_never_merges_into_a_sibling(protoc: Any) -> None:
    alone = bytes.fromhex("22 02 5a 00")  # a Cat where a Hound is declared
    repeated = bytes.fromhex("22 00 22 02 5a 00")  # the same, after an empty Hound
    assert not google_rejects(protoc(PETS_PROTO, "pets").Kennel, repeated)  # Pet-typed there
    for data in (alone, repeated):
        error = decode_error(Kennel, data)
        assert "holds a Cat, which is not a Hound" in str(error)
    entry = _len(1, b"k") + _len(2, b"") + _len(2, bytes.fromhex("5a 00"))
    assert "not a Hound" in str(decode_error(Kennel, _len(6, entry)))  # a map value, merged
    ok = pa.deserialize(Kennel, bytes.fromhex("22 00 22 05 62 03 0a 01 78"))
    assert ok.hound == Hound(breed="x") and type(ok.hound) is Hound


# ------------------------------------------------------------------- IntFlag


class Perm(enum.IntFlag):
    R = 4
    W = 2
    X = 1


@proto_contract
@dataclass
class File:
    perm: Perm = field(1, default=Perm(0))
    perms: list[Perm] = field(2, default_factory=list)


@pytest.mark.parametrize("number", [-1, -(2**31), -5])
def test_negative_numbers_in_an_intflag_field_stay_plain_ints(number: int) -> None:
    data = b"\x08" + _varint(number) + b"\x12" + _varint(len(_varint(number))) + _varint(number)
    obj = pa.deserialize(File, data)
    assert obj.perm == number and type(obj.perm) is int
    assert obj.perms == [number] and type(obj.perms[0]) is int
    assert pa.serialize(obj) == data


def test_non_negative_intflag_numbers_are_flags() -> None:
    obj = pa.deserialize(File, b"\x08\x05\x08\x0f")
    assert obj.perm == 15 and isinstance(obj.perm, Perm)


# ---------------------------------------------------------------------- depth


@proto_contract
@dataclass
class Chain:
    child: Optional[Chain] = field(1, default=None)  # noqa: UP045
    at: Optional[datetime] = field(2, default=None)  # noqa: UP045
    took: Optional[timedelta] = field(3, default=None)  # noqa: UP045


CHAIN_PROTO = """
syntax = "proto3";
import "google/protobuf/duration.proto";
import "google/protobuf/timestamp.proto";
message Chain {
  Chain child = 1;
  google.protobuf.Timestamp at = 2;
  google.protobuf.Duration took = 3;
}
"""


def _nest(levels: int, inner: bytes) -> bytes:
    for _ in range(levels):
        inner = _len(1, inner)
    return inner


@pytest.mark.parametrize("tag", [2, 3])
@pytest.mark.parametrize(
    ("levels", "groups"),
    [(0, 99), (0, 100), (50, 49), (50, 50), (98, 1), (98, 2), (99, 0), (99, 1), (100, 0)],
)
def test_depth_counts_inside_timestamp_and_duration_like_upb(
    protoc: Any, tag: int, levels: int, groups: int
) -> None:
    body = b"\x2b" * groups + b"\x2c" * groups  # unknown groups of field 5, nested
    data = _nest(levels, _len(tag, body))
    rejected = google_rejects(protoc(CHAIN_PROTO, "chain").Chain, data)
    if rejected:
        decode_error(Chain, data)
    else:
        pa.deserialize(Chain, data)
    assert rejected == ((levels + 1) + groups > 100)  # the rule both follow


def test_max_depth_beyond_what_python_can_recurse_is_a_decode_error() -> None:
    model = pa.TypeModel(max_depth=5000)
    data = _nest(4000, b"")
    error = decode_error(Chain, data, model)
    assert "recursion limit" in str(error) and "max_depth=5000" in str(error)
    with pytest.raises(DecodeError, match="recursion limit"):
        model.merge(Chain(), data)
    assert sys.getrecursionlimit() < 4000  # the test means what it says
    model.deserialize(Chain, _nest(200, b""))  # within both limits: fine


# ----------------------------------------------------------------------- tags


@pytest.mark.parametrize(
    "data",
    [
        "88 80 80 80 80 00 01",  # field 1 as a 6-byte tag
        "88 80 80 80 80 80 80 80 00 d2 09",  # a 9-byte tag
        "88 80 80 80 10 01",  # 5 bytes but over 32 bits
    ],
)
def test_tags_longer_than_five_bytes_are_refused_like_upb(protoc: Any, data: str) -> None:
    raw = bytes.fromhex(data)
    assert google_rejects(protoc(CHAIN_PROTO, "chain").Chain, raw)
    decode_error(Chain, raw)  # the general loop of a generated decoder
    decode_error(Chain, _len(2, raw))  # inside a Timestamp
    decode_error(Chain, b"\x2b" + raw + b"\x2c")  # inside an unknown group
    decode_error(Reading, _len(8, raw))  # inside a map entry
    with pytest.raises(DecodeError):
        pa.deserialize(list[Chain], raw)  # a top-level list


def test_a_five_byte_tag_is_still_a_tag(protoc: Any) -> None:
    raw = bytes.fromhex("8a 80 80 80 00 00")  # field 1, an empty Chain
    assert not google_rejects(protoc(CHAIN_PROTO, "chain").Chain, raw)
    assert pa.deserialize(Chain, raw) == Chain(child=Chain())


# ------------------------------------------------------------ float32 NaN bits


@proto_contract
@dataclass
class Floats:
    one: pa.float32 = field(1, default=0.0)
    packed: list[pa.float32] = field(2, default_factory=list)
    unpacked: list[pa.float32] = field(3, default_factory=list, packed=False)
    maybe: Optional[pa.float32] = field(4, default=None)  # noqa: UP045
    named: dict[str, pa.float32] = field(5, default_factory=dict)


FLOATS_PROTO = """
syntax = "proto3";
message Floats {
  float one = 1;
  repeated float packed = 2;
  repeated float unpacked = 3 [packed = false];
  optional float maybe = 4;
  map<string, float> named = 5;
}
"""

SIGNALLING = bytes.fromhex("0100807f")  # a float32 signalling NaN with payload 1
NEGATIVE_QUIET = bytes.fromhex("0500c0ff")


def test_float32_nans_keep_their_bits_like_upb(protoc: Any) -> None:
    data = (
        b"\x0d" + SIGNALLING
        + _len(2, SIGNALLING + struct.pack("<f", 1.5) + NEGATIVE_QUIET)
        + b"\x1d" + NEGATIVE_QUIET + b"\x1d" + SIGNALLING
        + b"\x25" + SIGNALLING
        + _len(5, _len(1, b"k") + b"\x15" + SIGNALLING)
    )  # fmt: skip
    google = protoc(FLOATS_PROTO, "floats").Floats.FromString(data)
    assert google.SerializeToString() == data
    obj = pa.deserialize(Floats, data)
    assert obj.packed[1] == 1.5 and all(x != x for x in [obj.one, obj.maybe, *obj.unpacked])
    assert pa.serialize(obj) == data
    assert pa.serialize(Floats(one=float("nan"))) == b"\x0d" + struct.pack("<f", float("nan"))


# ------------------------------------------------- packed closed enums, 64 bits


@pytest.mark.parametrize("number", [2**40 + 7, 2**63 + 5, 2**32 + 9])
def test_a_packed_closed_enum_number_over_32_bits_is_kept_whole_like_upb(number: int) -> None:
    data = _len(4, _varint(number) + b"\x01")  # as int32 the number is no member either
    google = reading_pb().Reading.FromString(data)
    obj = pa.deserialize(Reading, data)
    assert obj.packed == list(google.packed) == [1]
    assert pa.serialize(obj) == google.SerializeToString()
    assert google.SerializeToString().endswith(b"\x20" + _varint(number))


def test_a_packed_closed_enum_number_that_truncates_to_a_member_is_that_member() -> None:
    data = _len(4, _varint(2**40 + 1))  # int32 1 is MID, for upb too
    assert pa.deserialize(Reading, data).packed == list(
        reading_pb().Reading.FromString(data).packed
    )


# ------------------------------------------------------------- max_messages


def test_max_messages_bounds_what_one_decode_builds() -> None:
    model = pa.TypeModel(max_messages=50)
    wide = _len(5, b"") * 49  # 49 pets in a Kennel: 50 messages
    assert len(model.deserialize(Kennel, wide).pets) == 49
    error = decode_error(Kennel, wide + _len(5, b""), model)
    assert "max_messages=50" in str(error)
    decode_error(Chain, _nest(60, b""), model)  # deep counts as well as wide
    with pytest.raises(DecodeError, match="max_messages"):
        model.deserialize(list[Pet], _len(1, b"") * 51)
    with pytest.raises(DecodeError, match="max_messages"):
        model.merge(Kennel(), wide + _len(5, b""))
    # the budget is per decode: the next one starts afresh
    assert len(model.deserialize(Kennel, wide).pets) == 49
    assert len(pa.deserialize(Kennel, wide * 3).pets) == 147  # the default model: no bound


def test_max_messages_is_validated() -> None:
    with pytest.raises(ValueError, match="max_messages"):
        pa.TypeModel(max_messages=0)


# --------------------------------------------- map entries with unexpected fields


@proto_contract
@dataclass
class Tally:
    counts: dict[pa.int32, pa.int32] = field(1, default_factory=dict)
    note: str = field(2, default="")


TALLY_PROTO = """
syntax = "proto3";
message Tally {
  map<int32, int32> counts = 1;
  string note = 2;
}
"""


@pytest.mark.parametrize(
    "entry",
    [
        "08 01 10 02 18 05",  # an extra field 3
        "0a 01 01",  # the key with the wrong wire type
        "08 40 12 01 76",  # the value with the wrong wire type
        "08 01 10 02",  # a plain entry
        "08 01 10 02 08 02 10 03",  # key and value twice: the last wins
    ],
)
def test_a_map_entry_with_other_fields_stays_unknown_whole_like_upb(
    protoc: Any, entry: str
) -> None:
    body = bytes.fromhex(entry)
    data = b"\x12\x01x" + _len(1, body) + _len(1, b"\x08\x07\x10\x08")
    tally = protoc(TALLY_PROTO, "tally").Tally
    google = tally.FromString(data)
    obj = pa.deserialize(Tally, data)
    assert obj.counts == dict(google.counts)
    ours = tally.FromString(pa.serialize(obj))  # the same entries, and the same unknown fields
    assert ours.SerializeToString(deterministic=True) == google.SerializeToString(
        deterministic=True
    )


def test_field_number_zero_inside_an_unknown_group_is_refused(protoc: Any) -> None:
    # upb's group skipper reads "00 00" as field 0 and skips it; the wire format has no
    # field 0, and protoattr refuses it everywhere (a documented difference)
    data = bytes.fromhex("2b 00 00 2c")
    assert not google_rejects(protoc(CHAIN_PROTO, "chain").Chain, data)
    assert "invalid field number 0" in str(decode_error(Chain, data))
