"""More value types: Decimal, UUID, date, sets, bytearray, IntFlag.

Each travels as a plain protobuf kind (protobuf-net's choices): ``Decimal`` as
its ``str()``, ``UUID`` as its canonical string or (``pa.UUIDBytes``) its 16
bytes in RFC 4122 order, ``date`` as an int32 day number counted from
0001-01-01 (protobuf-net's DateOnly), ``set``/``frozenset`` as repeated fields,
``bytearray`` as bytes, an ``IntFlag`` as an enum varint.  Google's runtime
reads and writes the same bytes through the plain twin; a wire value that does
not convert is a ``DecodeError`` with an offset.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import protoattr as pa
from protoattr import field, member, proto_contract
from tests.contracts3 import parse
from tests.protoc import compile_proto

SETTINGS = settings(derandomize=True, max_examples=60)


class Perm(enum.IntFlag):
    X = 1
    W = 2
    R = 4


ZERO_UUID = uuid.UUID(int=0)
DAY_ONE = datetime.date(1, 1, 1)


@proto_contract
@dataclass
class More:
    d: Decimal = field(1, default=Decimal(0))
    u: uuid.UUID = field(2, default=ZERO_UUID)
    ub: pa.UUIDBytes = field(3, default=ZERO_UUID)
    day: datetime.date = field(4, default=DAY_ONE)
    s: set[pa.int32] = field(5, default_factory=set)
    fs: frozenset[str] = field(6, default_factory=frozenset)
    ba: bytearray = field(7, default_factory=bytearray)
    p: Perm = field(8, default=Perm(0))
    od: Decimal | None = field(9, default=None)
    lu: list[uuid.UUID] = field(10, default_factory=list)
    dd: dict[str, datetime.date] = field(11, default_factory=dict)
    lp: list[Perm] = field(12, default_factory=list)
    oday: datetime.date | None = field(13, default=None)
    lub: list[pa.UUIDBytes] = field(14, default_factory=list)


MORE_PROTO = """
syntax = "proto3";
package more3;

enum Perm {
  NONE = 0;
  X = 1;
  W = 2;
  R = 4;
}
message More {
  string d = 1;
  string u = 2;
  bytes ub = 3;
  int32 day = 4;
  repeated int32 s = 5;
  repeated string fs = 6;
  bytes ba = 7;
  Perm p = 8;
  optional string od = 9;
  repeated string lu = 10;
  map<string, int32> dd = 11;
  repeated Perm lp = 12;
  optional int32 oday = 13;
  repeated bytes lub = 14;
}
"""


def pb() -> Any:
    return compile_proto(MORE_PROTO, "more3")


def days(d: datetime.date) -> int:
    return d.toordinal() - 1


def to_google(obj: More) -> Any:
    msg = pb().More(
        d="" if obj.d == 0 else str(obj.d),
        u="" if obj.u == ZERO_UUID else str(obj.u),
        ub=b"" if obj.ub == ZERO_UUID else obj.ub.bytes,
        day=days(obj.day),
        s=sorted(obj.s),
        fs=sorted(obj.fs),
        ba=bytes(obj.ba),
        p=int(obj.p),
        lu=[str(x) for x in obj.lu],
        dd={k: days(v) for k, v in obj.dd.items()},
        lp=[int(x) for x in obj.lp],
        lub=[x.bytes for x in obj.lub],
    )
    if obj.od is not None:
        msg.od = str(obj.od)
    if obj.oday is not None:
        msg.oday = days(obj.oday)
    return msg


def from_google(msg: Any) -> More:
    return More(
        d=Decimal(msg.d) if msg.d else Decimal(0),
        u=uuid.UUID(msg.u) if msg.u else ZERO_UUID,
        ub=uuid.UUID(bytes=msg.ub) if msg.ub else ZERO_UUID,
        day=datetime.date.fromordinal(msg.day + 1),
        s=set(msg.s),
        fs=frozenset(msg.fs),
        ba=bytearray(msg.ba),
        p=Perm(msg.p),
        od=Decimal(msg.od) if msg.HasField("od") else None,
        lu=[uuid.UUID(x) for x in msg.lu],
        dd={k: datetime.date.fromordinal(v + 1) for k, v in msg.dd.items()},
        lp=[Perm(x) for x in msg.lp],
        oday=datetime.date.fromordinal(msg.oday + 1) if msg.HasField("oday") else None,
        lub=[uuid.UUID(bytes=x) for x in msg.lub],
    )


def assert_more_equal(actual: More, expected: More) -> None:
    assert actual == expected
    # types, and the exact decimal text where it is written
    assert type(actual.ba) is bytearray
    assert type(actual.s) is set and type(actual.fs) is frozenset
    assert isinstance(actual.p, Perm) and all(isinstance(x, Perm) for x in actual.lp)
    assert str(actual.od) == str(expected.od)
    if expected.d != 0:
        assert str(actual.d) == str(expected.d)


DECIMALS = st.decimals(allow_nan=False, allow_infinity=False, places=None)
UUIDS = st.uuids()
DATES = st.dates()
PERMS = st.integers(0, 7).map(Perm)
TEXT = st.text(st.characters(codec="utf-8"), max_size=5)
MORES = st.builds(
    More,
    d=DECIMALS,
    u=UUIDS,
    ub=UUIDS,
    day=DATES,
    s=st.sets(st.integers(-(2**31), 2**31 - 1), max_size=4),
    fs=st.frozensets(TEXT, max_size=3),
    ba=st.binary(max_size=6).map(bytearray),
    p=PERMS,
    od=st.none() | DECIMALS,
    lu=st.lists(UUIDS, max_size=2),
    dd=st.dictionaries(TEXT, DATES, max_size=1),
    lp=st.lists(PERMS, max_size=3),
    oday=st.none() | DATES,
    lub=st.lists(UUIDS, max_size=2),
)


# ------------------------------------------------------------- golden bytes

SAMPLE_UUID = uuid.UUID("00112233-4455-6677-8899-aabbccddeeff")


@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (More(), b""),
        (More(d=Decimal("-1.50")), b"\x0a\x05-1.50"),
        (More(d=Decimal("1E+3")), b"\x0a\x041E+3"),
        (More(d=Decimal("0.000001")), b"\x0a\x080.000001"),
        (More(u=SAMPLE_UUID), b"\x12\x24" + b"00112233-4455-6677-8899-aabbccddeeff"),
        (More(ub=SAMPLE_UUID), b"\x1a\x10" + bytes.fromhex("00112233445566778899aabbccddeeff")),
        (More(day=datetime.date(1, 1, 2)), b"\x20\x01"),
        (More(day=datetime.date(1970, 1, 1)), b"\x20\xba\xf2\x2b"),  # 719162
        (More(day=datetime.date(9999, 12, 31)), b"\x20\xda\xf3\xde\x01"),  # 3652058
        (More(oday=DAY_ONE), b"\x68\x00"),  # present, even at day 0
        (More(od=Decimal(0)), b"\x4a\x010"),
        (More(s={5}), b"\x2a\x01\x05"),  # packed, like any repeated int32
        (More(fs=frozenset({"a"})), b"\x32\x01a"),
        (More(ba=bytearray(b"\x00\xff")), b"\x3a\x02\x00\xff"),
        (More(p=Perm.R | Perm.X), b"\x40\x05"),
        (More(lp=[Perm.W, Perm(0), Perm(7)]), b"\x62\x03\x02\x00\x07"),
        (More(lub=[SAMPLE_UUID]), b"\x72\x10" + SAMPLE_UUID.bytes),
    ],
    ids=repr,
)
def test_golden_bytes(obj: More, expected: bytes) -> None:
    assert pa.serialize(obj) == expected
    assert_more_equal(pa.deserialize(More, expected), obj)
    assert pa.serialize(obj) == to_google(obj).SerializeToString()


def test_uuid_bytes_are_rfc_4122_order_not_dotnet_order() -> None:
    data = pa.serialize(More(ub=SAMPLE_UUID))
    assert data[2:] == SAMPLE_UUID.bytes
    assert data[2:] != SAMPLE_UUID.bytes_le


def test_decimal_keeps_its_exponent() -> None:
    for text in ["1.50", "1.5", "100", "1E+2", "-0.00000", "123456789012345678901234567890.1234"]:
        back = pa.deserialize(More, pa.serialize(More(od=Decimal(text)))).od
        assert str(back) == text


# ------------------------------------------------------- Google's runtime


@given(MORES)
@SETTINGS
def test_against_google(obj: More) -> None:
    data = pa.serialize(obj)
    google = parse(pb().More, data)
    assert_more_equal(from_google(google), obj)
    assert_more_equal(pa.deserialize(More, to_google(obj).SerializeToString()), obj)
    assert_more_equal(pa.deserialize(More, data), obj)
    assert pa.measure(obj) == len(data)
    if len(obj.s) <= 1 and len(obj.fs) <= 1:  # a set's order is not defined
        assert data == to_google(obj).SerializeToString()


def test_sets_deduplicate_what_the_wire_repeats() -> None:
    got = pa.deserialize(More, b"\x28\x01\x28\x01\x2a\x02\x01\x02\x32\x01a\x32\x01a")
    assert got.s == {1, 2} and type(got.s) is set
    assert got.fs == frozenset({"a"}) and type(got.fs) is frozenset


def test_intflag_combinations_and_unnamed_bits_survive() -> None:
    for value in [0, 1, 3, 5, 7]:
        assert pa.deserialize(More, pa.serialize(More(p=Perm(value)))).p == value
    got = pa.deserialize(More, b"\x40\x0d")  # 13: R|X plus an unnamed bit 8
    assert int(got.p) == 13
    assert pa.serialize(got) == b"\x40\x0d"


# -------------------------------------------------------- invalid wire data


@pytest.mark.parametrize(
    "data",
    [
        b"\x0a\x03abc",  # not a decimal
        b"\x0a\x00",  # an empty decimal string
        b"\x4a\x021,",
        b"\x12\x03abc",  # not a UUID
        b"\x12\x24" + b"00112233-4455-6677-8899-aabbccddeefg",
        b"\x52\x01x",  # repeated UUID
        b"\x1a\x03abc",  # UUID bytes: 3, not 16
        b"\x1a\x11" + bytes(17),
        b"\x72\x0f" + bytes(15),
        b"\x20\xff\xff\xff\xff\x0f",  # day -1
        b"\x20\xdb\xf3\xde\x01",  # day 3652059: past 9999-12-31
        b"\x20\xff\xff\xff\xff\x07",  # int32 max
        b"\x68\x80\x80\x80\x80\xf8\xff\xff\xff\xff\x01",  # int32 min (sign-extended)
        b"\x5a\x09\x0a\x01k\x10\xff\xff\xff\xff\x0f",  # a map value: day -1
    ],
    ids=lambda d: d.hex(" "),
)
def test_unconvertible_wire_values_are_decode_errors_with_an_offset(data: bytes) -> None:
    with pytest.raises(pa.DecodeError) as info:
        pa.deserialize(More, data)
    assert info.value.offset is not None
    assert 0 <= info.value.offset <= len(data)


def test_a_bad_value_in_a_nested_message_reports_the_outer_offset_range() -> None:
    @proto_contract
    @dataclass
    class Outer:
        pad: str = field(1, default="")
        inner: More | None = field(2, default=None)

    data = b"\x0a\x04abcd" + b"\x12\x05\x0a\x03abc"
    with pytest.raises(pa.DecodeError) as info:
        pa.deserialize(Outer, data)
    assert info.value.offset is not None and info.value.offset >= 6


# ------------------------------------------------------------ encode errors


@pytest.mark.parametrize(
    "obj",
    [
        More(d="1.5"),  # type: ignore[arg-type]
        More(d=1.5),  # type: ignore[arg-type]
        More(u="00112233-4455-6677-8899-aabbccddeeff"),  # type: ignore[arg-type]
        More(day=datetime.datetime(2020, 1, 1)),  # a datetime is not a date
        More(lu=["x"]),  # type: ignore[list-item]
    ],
    ids=repr,
)
def test_wrong_python_types_are_encode_errors(obj: More) -> None:
    with pytest.raises(pa.EncodeError):
        pa.serialize(obj)


def test_signalling_nan_decimal_is_written_or_refused_cleanly() -> None:
    obj = More(od=Decimal("sNaN"))
    try:
        data = pa.serialize(obj)
    except pa.EncodeError:
        return
    back = pa.deserialize(More, data).od
    assert back is not None and back.is_snan()


def test_signalling_nan_in_a_singular_decimal() -> None:
    # compared against the default to decide whether to write it: must not
    # leak decimal.InvalidOperation
    try:
        data = pa.serialize(More(d=Decimal("sNaN")))
    except pa.EncodeError:
        return
    assert pa.deserialize(More, data).d.is_snan()


# ------------------------------------------------------ other kinds of class


@proto_contract
@attrs.frozen
class FrozenMore:
    d: Annotated[Decimal, member(1)] = Decimal(0)
    u: Annotated[pa.UUIDBytes, member(2)] = ZERO_UUID
    day: Annotated[datetime.date | None, member(3)] = None
    tags: Annotated[frozenset[str], member(4)] = frozenset()


def test_attrs_frozen_class_with_converted_types() -> None:
    obj = FrozenMore(Decimal("2.5"), SAMPLE_UUID, datetime.date(2024, 2, 29), frozenset({"x"}))
    back = pa.deserialize(FrozenMore, pa.serialize(obj))
    assert back == obj
    assert pa.deserialize(FrozenMore, b"") == FrozenMore()


# ---------------------------------------- contract options: implicit_fields, reserved, name


@proto_contract(implicit_fields=True)
@dataclass
class Implicit:
    a: pa.int32 = 0
    b: str = ""
    c: list[pa.sint32] = dataclasses.field(default_factory=list)
    d: bool = False


@proto_contract(implicit_fields=True)
@dataclass
class ImplicitMixed:
    a: pa.int32 = 0
    b: pa.int32 = field(2, default=0)  # explicit: the implicit ones go around it
    c: pa.int32 = 0
    d: pa.int32 = field(10, default=0)
    e: pa.int32 = 0


@proto_contract(implicit_fields=True)
@attrs.define
class ImplicitAttrs:
    x: pa.sint32 = 0
    y: pa.sint32 = 0


def _tags(cls: type) -> dict[str, int]:
    return {f.name: f.tag for f in pa.default_model.info(cls).fields}


def test_implicit_fields_number_in_declaration_order() -> None:
    assert _tags(Implicit) == {"a": 1, "b": 2, "c": 3, "d": 4}
    obj = Implicit(a=1, b="x", c=[-1], d=True)
    assert pa.serialize(obj) == b"\x08\x01\x12\x01x\x1a\x01\x01\x20\x01"
    assert pa.deserialize(Implicit, pa.serialize(obj)) == obj
    assert _tags(ImplicitAttrs) == {"x": 1, "y": 2}
    assert pa.serialize(ImplicitAttrs(x=-1, y=1)) == b"\x08\x01\x10\x02"


def test_implicit_fields_skip_explicit_tags() -> None:
    assert _tags(ImplicitMixed) == {"a": 1, "b": 2, "c": 3, "d": 10, "e": 4}
    obj = ImplicitMixed(a=1, b=2, c=3, d=10, e=4)
    assert pa.serialize(obj) == b"\x08\x01\x10\x02\x18\x03\x20\x04\x50\x0a"


def test_without_implicit_fields_ignored_attributes_do_not_travel() -> None:
    @proto_contract
    @dataclass
    class Partly:
        a: pa.int32 = field(1, default=0)
        cache: pa.Ignored[str] = "not serialized"

    assert pa.serialize(Partly(a=1, cache="x")) == b"\x08\x01"
    assert pa.deserialize(Partly, b"\x08\x01") == Partly(a=1)


@pytest.mark.parametrize(
    ("reserved", "match"),
    [
        ((2,), "2"),
        ((range(1, 5),), "reserved"),
        ((7, range(2, 3)), "reserved"),
        (("b",), "b"),
        (("proto_b",), "proto_b"),  # the field's schema name
    ],
    ids=repr,
)
def test_a_reserved_tag_or_name_in_use_is_a_contract_error(
    reserved: tuple[Any, ...], match: str
) -> None:
    with pytest.raises(pa.ContractError, match=match) as info:

        @proto_contract(reserved=reserved)
        @dataclass
        class Clash:
            a: pa.int32 = field(1, default=0)
            b: pa.int32 = field(2, default=0, name="proto_b")

    assert "Clash" in str(info.value)


def test_reserved_tags_and_names_not_in_use_are_fine() -> None:
    @proto_contract(reserved=(3, range(10, 20), "old", "gone"))
    @dataclass
    class Evolved:
        a: pa.int32 = field(1, default=0)
        b: pa.int32 = field(2, default=0)
        c: pa.int32 = field(20, default=0)

    assert pa.default_model.info(Evolved).options.reserved == (3, range(10, 20), "old", "gone")
    assert pa.deserialize(Evolved, pa.serialize(Evolved(1, 2, 3))) == Evolved(1, 2, 3)


def test_schema_names_are_accepted_and_stored() -> None:
    @proto_contract(name="orders.v1.Order")
    @dataclass
    class Order:
        order_id: pa.int64 = field(1, default=0, name="id")

    info = pa.default_model.info(Order)
    assert info.name == "orders.v1.Order"
    assert info.fields[0].proto_name == "id"
    assert pa.default_model.info(Implicit).name == "Implicit"
    assert pa.serialize(Order(order_id=5)) == b"\x08\x05"  # names never reach the wire
