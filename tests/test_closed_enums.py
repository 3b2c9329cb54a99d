"""Closed enums (``@pa.closed_enum``, proto2 semantics).

An unknown number on the wire does not reach the attribute: it goes to the
unknown fields, so it survives re-encoding.  upb treats proto2 enums exactly so,
which makes Google's runtime the reference for every case here: singular,
optional, repeated unpacked and packed, oneof members and map values.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Annotated, Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import protoattr as pa
from protoattr import field, member, proto_contract
from tests.contracts import assert_same
from tests.contracts3 import parse
from tests.protoc import compile_proto

SETTINGS = settings(derandomize=True, max_examples=80)


@pa.closed_enum
class Level(enum.IntEnum):
    LOW = 0
    MID = 1
    HIGH = 2
    MINUS = -3


@pa.closed_enum
class Start(enum.IntEnum):  # no zero: the default is the first value, as in proto2
    ONE = 1
    TWO = 2


class OpenLevel(enum.IntEnum):
    LOW = 0
    MID = 1
    HIGH = 2
    MINUS = -3


@proto_contract
@dataclass
class Reading:
    level: Level = field(1, default=Level.LOW)
    maybe: Level | None = field(2, default=None)
    many: list[Level] = field(3, default_factory=list, packed=False)
    packed: list[Level] = field(4, default_factory=list)
    start: Start = field(5, default=Start.ONE)
    choice: Level | None = field(6, default=None, oneof="pick")
    other: pa.int32 | None = field(7, default=None, oneof="pick")
    named: dict[str, Level] = field(8, default_factory=dict)
    note: str = field(9, default="")


@proto_contract
@dataclass
class OpenReading:
    level: OpenLevel = field(1, default=OpenLevel.LOW)
    many: list[OpenLevel] = field(3, default_factory=list, packed=False)
    packed: list[OpenLevel] = field(4, default_factory=list)


READING_PROTO = """
syntax = "proto2";
package closed3;

enum Level {
  LOW = 0;
  MID = 1;
  HIGH = 2;
  MINUS = -3;
}
enum Start {
  ONE = 1;
  TWO = 2;
}
message Reading {
  optional Level level = 1;
  optional Level maybe = 2;
  repeated Level many = 3;
  repeated Level packed = 4 [packed = true];
  optional Start start = 5;
  oneof pick {
    Level choice = 6;
    int32 other = 7;
  }
  map<string, Level> named = 8;
  optional string note = 9;
}
"""


def pb() -> Any:
    return compile_proto(READING_PROTO, "closed3")


def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def as_google_values(obj: Reading) -> dict[str, Any]:
    """The values of ``obj`` in the shape ``google_values`` gives."""
    return {
        "level": int(obj.level),
        "maybe": None if obj.maybe is None else int(obj.maybe),
        "many": [int(x) for x in obj.many],
        "packed": [int(x) for x in obj.packed],
        "start": int(obj.start),
        "choice": None if obj.choice is None else int(obj.choice),
        "other": obj.other,
        "named": {k: int(v) for k, v in obj.named.items()},
        "note": obj.note,
    }


def google_values(msg: Any) -> dict[str, Any]:
    return {
        "level": msg.level,
        "maybe": msg.maybe if msg.HasField("maybe") else None,
        "many": list(msg.many),
        "packed": list(msg.packed),
        "start": msg.start,
        "choice": msg.choice if msg.WhichOneof("pick") == "choice" else None,
        "other": msg.other if msg.WhichOneof("pick") == "other" else None,
        "named": dict(msg.named),
        "note": msg.note,
    }


def check_like_google(data: bytes) -> Reading:
    """protoattr reads ``data`` to Google's values and writes back Google's bytes."""
    google = parse(pb().Reading, data)
    obj = pa.deserialize(Reading, data)
    assert as_google_values(obj) == google_values(google)
    # ``level`` and ``start`` have implicit presence in protoattr (not written at
    # their defaults) but explicit presence in proto2: clear those to compare bytes.
    if google.level == Level.LOW:
        google.ClearField("level")
    if google.start == Start.ONE:
        google.ClearField("start")
    assert pa.serialize(obj).hex(" ") == google.SerializeToString().hex(" ")
    return obj


# --------------------------------------------------------------- singular


def test_unknown_singular_value_goes_to_the_unknown_fields() -> None:
    obj = check_like_google(b"\x08\x07")
    assert obj.level is Level.LOW  # untouched: still the default
    assert pa.serialize(obj) == b"\x08\x07"


def test_unknown_after_a_known_value_keeps_the_known_one() -> None:
    obj = check_like_google(b"\x08\x01\x08\x07")
    assert obj.level is Level.MID
    assert pa.serialize(obj) == b"\x08\x01\x08\x07"


def test_known_after_an_unknown_value() -> None:
    obj = check_like_google(b"\x08\x07\x08\x02")
    assert obj.level is Level.HIGH


def test_unknown_optional_stays_absent() -> None:
    obj = check_like_google(b"\x10\x09")
    assert obj.maybe is None


def test_unknown_value_of_an_enum_without_zero_keeps_its_default() -> None:
    obj = check_like_google(b"\x28\x00")
    assert obj.start is Start.ONE
    assert pa.serialize(obj) == b"\x28\x00"
    assert check_like_google(b"\x28\x02").start is Start.TWO


@pytest.mark.parametrize("value", [-3, -1, -(2**31), 2**31 - 1, 3, 127, 128, 300])
def test_negative_and_large_numbers(value: int) -> None:
    data = b"\x08" + _varint(value)
    obj = check_like_google(data)
    expected = Level(value) if value in Level._value2member_map_ else Level.LOW
    assert obj.level is expected


# --------------------------------------------------------------- repeated


def test_unknown_values_in_an_unpacked_list() -> None:
    obj = check_like_google(b"\x18\x01\x18\x07\x18\x02\x18\x08")
    assert obj.many == [Level.MID, Level.HIGH]
    assert pa.serialize(obj) == b"\x18\x01\x18\x02\x18\x07\x18\x08"


def test_unknown_values_in_a_packed_list_become_single_unknown_fields() -> None:
    # upb moves each unknown number of a packed run to the unknown fields as one
    # unpacked varint of the same field; protoattr does the same.
    obj = check_like_google(b"\x22\x04\x01\x07\x02\x08")
    assert obj.packed == [Level.MID, Level.HIGH]
    assert pa.serialize(obj) == b"\x22\x02\x01\x02\x20\x07\x20\x08"


def test_packed_data_for_an_unpacked_field_and_vice_versa() -> None:
    check_like_google(b"\x1a\x03\x01\x09\x02")  # packed run for `many`
    check_like_google(b"\x20\x01\x20\x09\x20\x02")  # unpacked values for `packed`


def test_negative_unknowns_in_a_packed_list() -> None:
    run = _varint(-3) + _varint(-4) + _varint(1)
    obj = check_like_google(b"\x22" + bytes([len(run)]) + run)
    assert obj.packed == [Level.MINUS, Level.MID]


# ----------------------------------------------------------- oneof and maps


def test_unknown_oneof_member_leaves_the_oneof_as_it_was() -> None:
    obj = check_like_google(b"\x38\x05\x30\x09")
    assert (obj.choice, obj.other) == (None, 5)
    obj = check_like_google(b"\x30\x01\x30\x09")
    assert (obj.choice, obj.other) == (Level.MID, None)


def test_map_entry_with_an_unknown_value_goes_to_the_unknown_fields() -> None:
    # proto2 map<string, ClosedEnum>: an entry whose value is unknown is not put
    # in the map (not even with a zero value): the whole entry is kept as an
    # unknown field, so it survives re-encoding.
    unknown_entry = b"\x42\x05\x0a\x01k\x10\x07"
    known_entry = b"\x42\x05\x0a\x01j\x10\x01"
    obj = check_like_google(unknown_entry + known_entry)
    assert obj.named == {"j": Level.MID}
    assert pa.serialize(obj) == known_entry + unknown_entry


# ----------------------------------------------------------------- property


@st.composite
def wire_values(draw: st.DrawFn) -> bytes:
    """A message of closed-enum fields holding known and unknown numbers."""
    numbers = st.one_of(st.sampled_from([0, 1, 2, -3]), st.integers(-(2**31), 2**31 - 1))
    parts = []
    for _ in range(draw(st.integers(0, 6))):
        tag = draw(st.sampled_from([1, 2, 3, 4, 5, 6]))
        if tag in (3, 4) and draw(st.booleans()):
            run = b"".join(_varint(n) for n in draw(st.lists(numbers, max_size=4)))
            parts.append(bytes([tag << 3 | 2]) + _varint(len(run)) + run)
        else:
            parts.append(bytes([tag << 3]) + _varint(draw(numbers)))
    return b"".join(parts)


@given(wire_values())
@SETTINGS
def test_any_mix_reads_and_rewrites_like_google(data: bytes) -> None:
    obj = check_like_google(data)
    # and the known values are members, never plain ints
    for v in [obj.level, obj.maybe, *obj.many, *obj.packed, obj.choice]:
        assert v is None or isinstance(v, Level)


def test_reencoding_twice_is_stable() -> None:
    data = b"\x08\x07\x18\x01\x18\x09\x22\x02\x0a\x01"
    first = pa.serialize(pa.deserialize(Reading, data))
    assert pa.serialize(pa.deserialize(Reading, first)) == first


# --------------------------------------------------------- open, by contrast


def test_open_enums_keep_unknown_numbers_in_the_attribute() -> None:
    obj = pa.deserialize(OpenReading, b"\x08\x07\x18\x01\x18\x09\x22\x02\x0a\x01")
    assert obj.level == 7 and type(obj.level) is int
    assert obj.many == [OpenLevel.MID, 9]
    assert obj.packed == [10, OpenLevel.MID]
    assert pa.serialize(obj) == b"\x08\x07\x18\x01\x18\x09\x22\x02\x0a\x01"


def test_closed_enum_leaves_the_class_unchanged() -> None:
    assert Level(1) is Level.MID
    assert list(Level) == [Level.LOW, Level.MID, Level.HIGH, Level.MINUS]
    with pytest.raises(ValueError):
        Level(7)


def test_closed_enum_rejects_non_enums() -> None:
    with pytest.raises(pa.ContractError):
        pa.closed_enum(int)
    with pytest.raises(pa.ContractError):

        @pa.closed_enum
        class NotAnEnum:
            pass


# ------------------------------------------------------- other kinds of class


@proto_contract
@attrs.define
class AttrsReading:
    level: Annotated[Level, member(1)] = Level.LOW
    many: Annotated[list[Level], member(3, packed=False)] = attrs.Factory(list)


@proto_contract
@dataclass(frozen=True)
class FrozenReading:
    level: Level = field(1, default=Level.LOW)
    many: tuple[Level, ...] = field(3, default=(), packed=False)


@pytest.mark.parametrize("cls", [AttrsReading, FrozenReading])
def test_unknowns_survive_on_attrs_and_frozen_classes(cls: Any) -> None:
    data = b"\x08\x07\x18\x02\x18\x09"
    obj = pa.deserialize(cls, data)
    assert obj.level is Level.LOW
    assert list(obj.many) == [Level.HIGH]
    assert pa.serialize(obj) == b"\x18\x02\x08\x07\x18\x09"


def test_merge_with_an_unknown_value_keeps_the_attribute() -> None:
    obj = Reading(level=Level.HIGH, many=[Level.MID])
    pa.merge(obj, b"\x08\x07\x18\x09\x18\x00")
    assert_same(obj, Reading(level=Level.HIGH, many=[Level.MID, Level.LOW]))
    google = pb().Reading(level=2, many=[1])
    google.MergeFromString(b"\x08\x07\x18\x09\x18\x00")
    assert pa.serialize(obj) == google.SerializeToString()
