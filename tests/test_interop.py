"""Interop with Google's runtime (upb), for every type in the API's type table.

For each contract there is a ``.proto`` twin (see :mod:`tests.contracts`) and
three checks, property-based over values and explicit at the extremes:

* protoattr's bytes parse in Google's runtime to the same values;
* Google's bytes decode in protoattr to an equal object;
* where the twin has proto3 (implicit-presence) semantics, the bytes are
  identical.  Maps with several entries may be ordered differently, so there
  only the parsed messages are compared.
"""

from __future__ import annotations

import enum
import math
import struct
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from google.protobuf import duration_pb2, timestamp_pb2
from hypothesis import given, settings
from hypothesis import strategies as st

import protoattr as pa
from protoattr import field, proto_contract
from tests import contracts as c
from tests.contracts import UTC, Color, assert_same, canonical, f32, to_pb
from tests.protoc import compile_proto

SETTINGS = settings(derandomize=True)

# ------------------------------------------------------------ strategies

INT32 = st.integers(-(2**31), 2**31 - 1)
INT64 = st.integers(-(2**63), 2**63 - 1)
UINT32 = st.integers(0, 2**32 - 1)
UINT64 = st.integers(0, 2**64 - 1)
FLOAT32 = st.floats(width=32).map(f32)  # exactly representable, NaN as a float holds it
DOUBLE = st.floats()
TEXT = st.text(st.characters(codec="utf-8"), max_size=12)  # no lone surrogates
DATA = st.binary(max_size=12)
_COLOR_VALUES = {m.value for m in Color}
# An open enum: known members, and numbers it does not know (decoded as plain ints).
COLOR = st.one_of(st.sampled_from(Color), INT32.filter(lambda v: v not in _COLOR_VALUES))
DATETIMES = st.datetimes(
    min_value=datetime(1, 1, 1),
    max_value=datetime(9999, 12, 31, 23, 59, 59, 999999),
    timezones=st.just(UTC),
)
TIMEDELTAS = st.timedeltas(
    min_value=timedelta(seconds=-315576000000), max_value=timedelta(seconds=315576000000)
)
INNER = st.builds(c.Inner, a=INT32, s=TEXT)

KIND_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "i32": INT32,
    "i64": INT64,
    "u32": UINT32,
    "u64": UINT64,
    "s32": INT32,
    "s64": INT64,
    "f32": UINT32,
    "f64": UINT64,
    "sf32": INT32,
    "sf64": INT64,
    "fl": FLOAT32,
    "db": DOUBLE,
    "flag": st.booleans(),
    "text": TEXT,
    "data": DATA,
    "color": COLOR,
}


def _lists(names: list[str]) -> dict[str, st.SearchStrategy[Any]]:
    return {n: st.lists(KIND_VALUES[n], max_size=4) for n in names}


SCALARS = st.builds(
    c.Scalars,
    **KIND_VALUES,
    inner=st.none() | INNER,
    ts=st.none() | DATETIMES,
    dur=st.none() | TIMEDELTAS,
    plain=INT64,
)

PACKABLE = ["i32", "i64", "u32", "u64", "s32", "s64", "f32", "f64", "sf32", "sf64", "fl", "db"]
PACKABLE += ["flag", "color"]

REPEATS = st.builds(
    c.Repeats,
    **_lists([*PACKABLE, "text", "data"]),
    inner=st.lists(INNER, max_size=3),
    ts=st.lists(DATETIMES, max_size=3),
    dur=st.lists(TIMEDELTAS, max_size=3),
    plain=st.lists(INT64, max_size=4),
)

UNPACKED = st.builds(
    c.Unpacked,
    **{n: st.lists(KIND_VALUES[n], max_size=4) for n in PACKABLE if n not in ("i64", "u32")},
    i64=st.lists(INT64, max_size=4).map(tuple),
    u32=st.lists(UINT32, max_size=4),
    plain=st.lists(INT64, max_size=4),
)


def _small_dicts(keys: st.SearchStrategy[Any], values: st.SearchStrategy[Any]) -> Any:
    return st.dictionaries(keys, values, max_size=3)


MAPS = st.builds(
    c.Maps,
    i32=_small_dicts(INT32, TEXT),
    i64=_small_dicts(INT64, INT64),
    u32=_small_dicts(UINT32, UINT32),
    u64=_small_dicts(UINT64, INT64),
    s32=_small_dicts(INT32, INT32),
    s64=_small_dicts(INT64, UINT64),
    f32=_small_dicts(UINT32, INT32),
    f64=_small_dicts(UINT64, DOUBLE),
    sf32=_small_dicts(INT32, FLOAT32),
    sf64=_small_dicts(INT64, st.booleans()),
    flag=_small_dicts(st.booleans(), DATA),
    text=_small_dicts(TEXT, INNER),
    color=_small_dicts(TEXT, COLOR),
    plain=_small_dicts(INT64, INT64),
    ts=_small_dicts(TEXT, DATETIMES),
)

OPTIONALS = st.builds(c.Optionals, **{n: st.none() | s for n, s in KIND_VALUES.items()})

TASKS = st.builds(
    c.Task,
    id=INT32,
    created_at=DATETIMES,
    created_by=TEXT,
    priority=st.sampled_from(c.TaskPriority),
    content=TEXT,
    tags=st.lists(TEXT, max_size=3),
)

# The extremes every kind must survive, as one object per kind of extreme.
EXTREME_SCALARS = [
    c.Scalars(i32=-1, s32=-1, sf32=-1, i64=-1, s64=-1, sf64=-1, plain=-1),
    c.Scalars(i32=-(2**31), s32=-(2**31), sf32=-(2**31)),
    c.Scalars(i32=2**31 - 1, s32=2**31 - 1, sf32=2**31 - 1, u32=2**32 - 1, f32=2**32 - 1),
    c.Scalars(i64=-(2**63), s64=-(2**63), sf64=-(2**63), plain=-(2**63)),
    c.Scalars(i64=2**63 - 1, s64=2**63 - 1, sf64=2**63 - 1, plain=2**63 - 1),
    c.Scalars(u64=2**64 - 1, f64=2**64 - 1),
    c.Scalars(fl=-0.0, db=-0.0),
    c.Scalars(fl=math.nan, db=math.nan),
    c.Scalars(db=struct.unpack("<d", b"\x01\x00\x00\x00\x00\x00\xf8\xff")[0]),  # -NaN, payload
    c.Scalars(fl=math.inf, db=-math.inf),
    c.Scalars(fl=f32(3.4028234663852886e38), db=5e-324),
    c.Scalars(fl=f32(1e-45), db=1.7976931348623157e308),
    c.Scalars(text="", data=b"", inner=c.Inner()),
    c.Scalars(text="héllo wörld ✓ 𝄞 日本語", data=bytes(range(256))),
    c.Scalars(text="\x00", data=b"\x00"),
    c.Scalars(color=Color.NEGATIVE, flag=True),
    c.Scalars(color=99),
    c.Scalars(color=-(2**31)),
    c.Scalars(inner=c.Inner(a=-1, s="x" * 200)),
    c.Scalars(ts=datetime(1970, 1, 1, tzinfo=UTC), dur=timedelta(0)),
    c.Scalars(ts=datetime(1, 1, 1, tzinfo=UTC), dur=timedelta(seconds=-315576000000)),
    c.Scalars(
        ts=datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        dur=timedelta(seconds=315576000000),
    ),
    c.Scalars(ts=datetime(1969, 12, 31, 23, 59, 59, 1, tzinfo=UTC), dur=timedelta(microseconds=-1)),
    c.Scalars(dur=timedelta(seconds=-1, microseconds=500000)),
]


# ------------------------------------------------------------- the checks


def check_proto3(obj: Any, pb_cls: Any, *, identical: bool = True) -> bytes:
    """The three interop checks for one object; returns protoattr's bytes."""
    expected = to_pb(obj, pb_cls)
    data = pa.serialize(obj)
    google = expected.SerializeToString()
    if identical:
        assert data.hex(" ") == google.hex(" ")
    parsed = pb_cls.FromString(data)
    assert canonical(parsed) == canonical(expected)
    assert_same(pa.deserialize(type(obj), google), obj)
    assert_same(pa.deserialize(type(obj), data), obj)
    return data


@pytest.mark.parametrize("obj", EXTREME_SCALARS, ids=repr)
def test_scalar_extremes(obj: c.Scalars) -> None:
    check_proto3(obj, c.kinds_pb().Scalars)


@SETTINGS
@given(SCALARS)
def test_scalars(obj: c.Scalars) -> None:
    check_proto3(obj, c.kinds_pb().Scalars)


def test_zero_scalars_are_not_written_and_minus_zero_is() -> None:
    assert pa.serialize(c.Scalars()) == b""
    assert pa.serialize(c.Scalars(db=-0.0)) == b"\x61" + struct.pack("<d", -0.0)
    assert pa.serialize(c.Scalars(fl=-0.0)) == b"\x5d" + struct.pack("<f", -0.0)
    assert c.kinds_pb().Scalars(db=-0.0).SerializeToString() == pa.serialize(c.Scalars(db=-0.0))


def test_int32_negative_is_ten_bytes() -> None:
    data = pa.serialize(c.Scalars(i32=-1))
    assert data == b"\x08" + b"\xff" * 9 + b"\x01"
    assert data == c.kinds_pb().Scalars(i32=-1).SerializeToString()


def test_nan_payload_survives_bitwise() -> None:
    nan = struct.unpack("<d", b"\x01\x00\x00\x00\x00\x00\xf8\x7f")[0]
    data = pa.serialize(c.Scalars(db=nan))
    back = pa.deserialize(c.Scalars, data)
    assert struct.pack("<d", back.db) == struct.pack("<d", nan)
    google = c.kinds_pb().Scalars.FromString(data)
    assert struct.pack("<d", google.db) == struct.pack("<d", nan)


# ----------------------------------------------------------------- enums


def test_unknown_enum_number_decodes_to_int_and_reencodes_unchanged() -> None:
    pb = c.kinds_pb().Scalars(color=99)
    google = pb.SerializeToString()
    obj = pa.deserialize(c.Scalars, google)
    assert obj.color == 99
    assert type(obj.color) is int
    assert pa.serialize(obj) == google
    # known numbers decode to the member
    known = pa.deserialize(c.Scalars, c.kinds_pb().Scalars(color=-7).SerializeToString())
    assert known.color is Color.NEGATIVE


def test_unknown_enum_numbers_in_repeated_and_map() -> None:
    pb = c.kinds_pb().Repeats(color=[1, 42, -7, -100])
    obj = pa.deserialize(c.Repeats, pb.SerializeToString())
    assert obj.color == [Color.RED, 42, Color.NEGATIVE, -100]
    assert [type(x) for x in obj.color] == [Color, int, Color, int]
    assert pa.serialize(obj) == pb.SerializeToString()
    maps = c.kinds_pb().Maps()
    maps.color["x"] = 12345
    back = pa.deserialize(c.Maps, maps.SerializeToString())
    assert back.color == {"x": 12345}
    assert pa.serialize(back) == maps.SerializeToString()


class Mood(enum.Enum):
    """An ``Enum`` (not ``IntEnum``) with int values."""

    SAD = 0
    HAPPY = 1


@proto_contract
@dataclass
class Face:
    mood: Mood = field(1, default=Mood.SAD)
    moods: list[Mood] = field(2, default_factory=list)


def test_enum_with_int_values_that_is_not_intenum() -> None:
    pb = compile_proto(
        'syntax = "proto3"; enum Mood { SAD = 0; HAPPY = 1; }'
        " message Face { Mood mood = 1; repeated Mood moods = 2; }",
        "face",
    )
    face = Face(Mood.HAPPY, [Mood.HAPPY, Mood.SAD])
    google = pb.Face(mood=1, moods=[1, 0]).SerializeToString()
    assert pa.serialize(face) == google
    assert pa.deserialize(Face, google) == face
    assert pa.serialize(Face()) == b""


# ------------------------------------------------------------- repeated


@SETTINGS
@given(REPEATS)
def test_repeated_packed_by_default(obj: c.Repeats) -> None:
    check_proto3(obj, c.kinds_pb().Repeats)


@SETTINGS
@given(UNPACKED)
def test_repeated_unpacked(obj: c.Unpacked) -> None:
    check_proto3(obj, c.kinds_pb().Unpacked)


@SETTINGS
@given(UNPACKED)
def test_decoding_accepts_packed_and_unpacked_alike(obj: c.Unpacked) -> None:
    kinds = c.kinds_pb()
    unpacked_bytes = to_pb(obj, kinds.Unpacked).SerializeToString()
    as_repeats = c.Repeats(**{n: list(getattr(obj, n)) for n in [*PACKABLE, "plain"]})
    packed_bytes = to_pb(as_repeats, kinds.Repeats).SerializeToString()
    assert pa.serialize(as_repeats) == packed_bytes
    as_packed = pa.deserialize(c.Repeats, unpacked_bytes)
    as_unpacked = pa.deserialize(c.Unpacked, packed_bytes)
    for name in [*PACKABLE, "plain"]:
        expected = list(getattr(obj, name))
        assert_same(list(getattr(as_packed, name)), expected, f"Repeats.{name}")
        assert_same(list(getattr(as_unpacked, name)), expected, f"Unpacked.{name}")


def test_packed_and_unpacked_chunks_of_one_field_concatenate() -> None:
    # field 1 (int32): unpacked 1, packed [2, 3], unpacked 4
    data = b"\x08\x01" + b"\x0a\x02\x02\x03" + b"\x08\x04"
    assert pa.deserialize(c.Repeats, data).i32 == [1, 2, 3, 4]
    assert pa.deserialize(c.Unpacked, data).i32 == [1, 2, 3, 4]
    assert list(c.kinds_pb().Repeats.FromString(data).i32) == [1, 2, 3, 4]


def test_tuple_and_sequence_annotations() -> None:
    obj = c.Unpacked(i64=(1, -2), u32=[3])
    back = pa.deserialize(c.Unpacked, pa.serialize(obj))
    assert back.i64 == (1, -2)
    assert type(back.i64) is tuple
    assert list(back.u32) == [3]
    assert pa.deserialize(c.Unpacked, b"").i64 == ()


def test_empty_sub_messages_in_a_list() -> None:
    obj = c.Repeats(inner=[c.Inner(), c.Inner(a=1), c.Inner()])
    data = check_proto3(obj, c.kinds_pb().Repeats)
    assert data == b"\x8a\x01\x00\x8a\x01\x02\x08\x01\x8a\x01\x00"


# ----------------------------------------------------------------- maps


@SETTINGS
@given(MAPS)
def test_maps(obj: c.Maps) -> None:
    single = all(len(getattr(obj, name)) <= 1 for name in vars(obj))
    check_proto3(obj, c.kinds_pb().Maps, identical=single)


def test_single_entry_maps_are_byte_identical() -> None:
    obj = c.Maps(
        i32={-1: "minus one"},
        u64={2**64 - 1: -(2**63)},
        s32={-(2**31): 2**31 - 1},
        f64={0: -0.0},
        sf32={0: 0.0},
        flag={False: b""},
        text={"": c.Inner()},
        color={"c": Color.COLOR_ZERO},
        ts={"epoch": datetime(1970, 1, 1, tzinfo=UTC)},
    )
    data = check_proto3(obj, c.kinds_pb().Maps)
    # key and value are always written, even zero ones (as upb does)
    assert b"\x62\x04\x0a\x00\x12\x00" in data  # text: {"": Inner()}


def test_map_entry_missing_key_or_value_decodes_to_zero() -> None:
    # map<int32, string> i32 = 1: an entry with no key, and one with no value
    data = b"\x0a\x03\x12\x01a" + b"\x0a\x02\x08\x05"
    assert pa.deserialize(c.Maps, data).i32 == {0: "a", 5: ""}
    # map<string, Inner> text = 12: an entry with no value gets an empty Inner
    data = b"\x62\x03\x0a\x01k"
    assert pa.deserialize(c.Maps, data).text == {"k": c.Inner()}
    pb = c.kinds_pb().Maps.FromString(data)
    assert pb.text["k"] == c.kinds_pb().Inner()


def test_repeated_map_key_keeps_the_last_value() -> None:
    data = b"\x0a\x05\x08\x01\x12\x01a" + b"\x0a\x05\x08\x01\x12\x01b"
    assert pa.deserialize(c.Maps, data).i32 == {1: "b"}
    assert dict(c.kinds_pb().Maps.FromString(data).i32) == {1: "b"}


# -------------------------------------------------------------- presence


@SETTINGS
@given(OPTIONALS)
def test_optional_presence(obj: c.Optionals) -> None:
    check_proto3(obj, c.kinds_pb().Optionals)


@pytest.mark.parametrize(
    ("name", "zero", "encoded"),
    [
        ("i32", 0, b"\x08\x00"),
        ("u64", 0, b"\x20\x00"),
        ("s32", 0, b"\x28\x00"),
        ("f32", 0, b"\x3d\x00\x00\x00\x00"),
        ("fl", 0.0, b"\x5d\x00\x00\x00\x00"),
        ("db", 0.0, b"\x61" + bytes(8)),
        ("flag", False, b"\x68\x00"),
        ("text", "", b"\x72\x00"),
        ("data", b"", b"\x7a\x00"),
        ("color", Color.COLOR_ZERO, b"\x80\x01\x00"),
    ],
)
def test_optional_zero_is_written_and_none_is_not(name: str, zero: Any, encoded: bytes) -> None:
    assert pa.serialize(c.Optionals()) == b""
    obj = c.Optionals(**{name: zero})
    assert pa.serialize(obj) == encoded
    pb = c.kinds_pb().Optionals.FromString(encoded)
    assert pb.HasField(name)
    back = pa.deserialize(c.Optionals, encoded)
    assert_same(getattr(back, name), zero)
    assert pa.deserialize(c.Optionals, b"") == c.Optionals()


# ------------------------------------------------ proto2: defaults, required


def test_default_equal_is_not_written_and_missing_decodes_to_it() -> None:
    dns = c.dns_pb()
    assert pa.serialize(c.Defaults()) == b""
    google_empty = dns.Defaults()
    back = pa.deserialize(c.Defaults, b"")
    assert_same(back, c.Defaults())
    for name in ("i32", "u64", "s32", "sf64", "fl", "db", "flag", "text", "data"):
        assert_same(getattr(back, name), getattr(google_empty, name), name)
    assert back.color is Color.GREEN and google_empty.color == Color.GREEN


@pytest.mark.parametrize(
    "obj",
    [
        c.Defaults(i32=0, u64=0, s32=0, sf64=0, fl=0.0, db=0.0, flag=False, text="", data=b""),
        c.Defaults(color=Color.COLOR_ZERO),
        c.Defaults(i32=-6, u64=2**64 - 2, s32=1, sf64=2**63 - 1, fl=-0.0, db=2.25),
        c.Defaults(text="hello", data=b"\x00", color=Color.RED),
    ],
    ids=repr,
)
def test_proto2_defaults(obj: c.Defaults) -> None:
    dns = c.dns_pb()
    data = pa.serialize(obj)
    parsed = dns.Defaults.FromString(data)
    for name in ("i32", "u64", "s32", "sf64", "fl", "db", "flag", "text", "data"):
        value = getattr(obj, name)
        default = getattr(c.Defaults(), name)
        assert_same(getattr(parsed, name), value, name)
        if isinstance(value, float):
            written = struct.pack("<d", value) != struct.pack("<d", default)
        else:
            written = value != default
        assert parsed.HasField(name) == written, name
    # Google's message with every field set explicitly decodes to the same object
    google = to_pb(obj, dns.Defaults).SerializeToString()
    assert_same(pa.deserialize(c.Defaults, google), obj)
    # and with only the non-default fields set, the bytes are Google's
    sparse = dns.Defaults()
    sparse.MergeFromString(data)
    assert sparse.SerializeToString() == data


def test_proto2_closed_enum_default() -> None:
    # an enum field equal to its non-zero default is not written
    assert pa.serialize(c.Defaults(color=Color.GREEN)) == b""
    assert pa.serialize(c.Defaults(color=Color.RED)) == b"\x50\x01"


DNS = c.DnsRecord("example.com", "93.184.216.34", "2020-01-01", "2024-01-01")


def test_seed_004_dns_records() -> None:
    dns = c.dns_pb()
    records = c.DnsResponse(
        [DNS, c.DnsRecord("a", "b", "c", "d", type="AAAA", ttl=60), c.DnsRecord("", "", "", "")]
    )
    data = pa.serialize(records)
    parsed = dns.DnsResponse.FromString(data)
    assert parsed.IsInitialized()
    assert [(r.key, r.type, r.ttl, r.HasField("ttl")) for r in parsed.records] == [
        ("example.com", "A", 86400, False),
        ("a", "AAAA", 60, True),
        ("", "A", 86400, False),
    ]
    # required fields are always written, even empty
    assert pa.serialize(c.DnsRecord("", "", "", "")) == b"\x0a\x00\x12\x00\x1a\x00\x22\x00"
    google = to_pb(records, dns.DnsResponse).SerializeToString()
    assert pa.deserialize(c.DnsResponse, google) == records


def test_required_missing_is_a_decode_error() -> None:
    data = b"\x0a\x01k\x12\x01v\x1a\x01f"  # no field 4
    with pytest.raises(pa.DecodeError, match="last"):
        pa.deserialize(c.DnsRecord, data)
    # Google's parser leaves the check to IsInitialized()
    assert not c.dns_pb().DnsRecord.FromString(data).IsInitialized()


# ------------------------------------------------------------------ oneof


@pytest.mark.parametrize(
    "obj",
    [
        c.Shape("none"),
        c.Shape("circle", radius=0.0),
        c.Shape("square", side=0),
        c.Shape("square", side=-3),
        c.Shape("tag", label=""),
        c.Shape(radius=-0.0),
    ],
    ids=repr,
)
def test_oneof(obj: c.Shape) -> None:
    check_proto3(obj, c.shape_pb().Shape)
    parsed = c.shape_pb().Shape.FromString(pa.serialize(obj))
    set_member = next((n for n in ("radius", "side", "label") if getattr(obj, n) is not None), None)
    assert parsed.WhichOneof("kind") == set_member


def test_oneof_decoding_keeps_the_last_member() -> None:
    data = b"\x11" + struct.pack("<d", 1.5) + b"\x18\x07"
    obj = pa.deserialize(c.Shape, data)
    assert (obj.radius, obj.side, obj.label) == (None, 7, None)
    assert c.shape_pb().Shape.FromString(data).WhichOneof("kind") == "side"


# ------------------------------------------------------ seeds 000 and 002


def test_seed_000_task() -> None:
    pb = c.task_pb()
    task = c.Task(
        id=1,
        created_by="Steve Jobs",
        created_at=datetime(2013, 5, 14, 9, 30, 15, 123456, tzinfo=UTC),
        priority=c.TaskPriority.HIGH,
        content="Invent new iPhone",
    )
    data = check_proto3(task, pb.Task)
    parsed = pb.Task.FromString(data)
    assert parsed.created_at.seconds == 1368523815
    assert parsed.created_at.nanos == 123456000
    assert parsed.priority == pb.HIGH
    back = pa.deserialize(c.Task, data)
    assert back.priority is c.TaskPriority.HIGH
    assert back.created_at.tzinfo is not None


@SETTINGS
@given(TASKS)
def test_tasks(task: c.Task) -> None:
    check_proto3(task, c.task_pb().Task)


BOOK = c.Book(
    isbn="9781857232097", title="The Fires of Heaven", author="Robert Jordan", pagecount=912
)


def test_seed_002_book_edition_2023() -> None:
    pb = c.book_pb()
    google = pb.Book(
        isbn="9781857232097", title="The Fires of Heaven", author="Robert Jordan", pagecount=912
    )
    data = pa.serialize(BOOK)
    assert data == google.SerializeToString()
    assert pa.deserialize(c.Book, google.SerializeToString()) == BOOK
    parsed = pb.Book.FromString(data)
    assert f"{parsed.title} by {parsed.author}" == "The Fires of Heaven by Robert Jordan"
    assert parsed.pagecount == 912
    # edition 2023 has explicit presence: Google writes a zero it was given; it still decodes
    explicit_zero = pb.Book(isbn="", pagecount=0).SerializeToString()
    assert explicit_zero == b"\x0a\x00\x20\x00"
    assert pa.deserialize(c.Book, explicit_zero) == c.Book()


@SETTINGS
@given(st.builds(c.Book, isbn=TEXT, title=TEXT, author=TEXT, pagecount=INT32))
def test_books(book: c.Book) -> None:
    check_proto3(book, c.book3_pb().Book)
    # edition 2023: the same bytes when only non-default fields are set
    pb = c.book_pb().Book()
    for name in ("isbn", "title", "author", "pagecount"):
        if getattr(book, name):
            setattr(pb, name, getattr(book, name))
    assert pa.serialize(book) == pb.SerializeToString()
    assert pa.deserialize(c.Book, pb.SerializeToString()) == book


# --------------------------------------------- Timestamp and Duration


@SETTINGS
@given(DATETIMES)
def test_timestamps_match_from_datetime(value: datetime) -> None:
    ts = timestamp_pb2.Timestamp()
    ts.FromDatetime(value)
    data = pa.serialize(c.Scalars(ts=value))
    assert data == c.kinds_pb().Scalars(ts=ts).SerializeToString()
    back = pa.deserialize(c.Scalars, data).ts
    assert back == value
    assert back.tzinfo is not None and back.utcoffset() == timedelta(0)


@SETTINGS
@given(DATETIMES.map(lambda d: d.replace(tzinfo=None)))
def test_naive_datetimes_encode_as_utc(value: datetime) -> None:
    ts = timestamp_pb2.Timestamp()
    ts.FromDatetime(value)  # Google takes a naive datetime as UTC too
    data = pa.serialize(c.Scalars(ts=value))
    assert data == c.kinds_pb().Scalars(ts=ts).SerializeToString()
    back = pa.deserialize(c.Scalars, data).ts
    assert back == value.replace(tzinfo=UTC)


@pytest.mark.parametrize("hours", [-12, -7, 5.5, 14])
def test_aware_datetimes_in_other_zones_encode_their_instant(hours: float) -> None:
    zone = timezone(timedelta(hours=hours))
    value = datetime(2024, 2, 29, 23, 59, 59, 999999, tzinfo=zone)
    ts = timestamp_pb2.Timestamp()
    ts.FromDatetime(value)
    data = pa.serialize(c.Scalars(ts=value))
    assert data == c.kinds_pb().Scalars(ts=ts).SerializeToString()
    back = pa.deserialize(c.Scalars, data).ts
    assert back == value
    assert back.utcoffset() == timedelta(0)


@SETTINGS
@given(TIMEDELTAS)
def test_durations_match_from_timedelta(value: timedelta) -> None:
    d = duration_pb2.Duration()
    d.FromTimedelta(value)
    data = pa.serialize(c.Scalars(dur=value))
    assert data == c.kinds_pb().Scalars(dur=d).SerializeToString()
    assert pa.deserialize(c.Scalars, data).dur == value


def test_timestamp_nanos_below_a_microsecond_are_truncated() -> None:
    ts = timestamp_pb2.Timestamp(seconds=-1, nanos=999_999_999)
    data = c.kinds_pb().Scalars(ts=ts).SerializeToString()
    assert pa.deserialize(c.Scalars, data).ts == datetime(
        1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC
    )


# ------------------------------------------------ nested contracts, groups


def test_nested_contracts() -> None:
    obj = c.Scalars(inner=c.Inner(a=150, s="testing"))
    data = check_proto3(obj, c.kinds_pb().Scalars)
    assert data == b"\x8a\x01\x0c\x08\x96\x01\x12\x07testing"


def test_a_singular_message_seen_twice_is_merged() -> None:
    first = pa.serialize(c.Scalars(inner=c.Inner(a=1)))
    second = pa.serialize(c.Scalars(inner=c.Inner(s="x")))
    obj = pa.deserialize(c.Scalars, first + second)
    assert obj.inner == c.Inner(a=1, s="x")
    google = c.kinds_pb().Scalars.FromString(first + second)
    assert (google.inner.a, google.inner.s) == (1, "x")


@proto_contract
@dataclass
class GroupItem:
    a: pa.int32 = field(2, default=0)


@proto_contract
@dataclass
class WithGroups:
    item: GroupItem | None = field(1, default=None, group=True)
    entries: list[GroupItem] = field(3, default_factory=list, group=True)
    after: pa.int32 = field(5, default=0)


GROUPS_PROTO = """
syntax = "proto2";
message WithGroups {
  optional group Item = 1 { optional int32 a = 2; }
  repeated group Entries = 3 { optional int32 a = 2; }
  optional int32 after = 5;
}
"""


def test_groups() -> None:
    pb = compile_proto(GROUPS_PROTO, "groups")
    google = pb.WithGroups(after=7)
    google.item.a = 150
    data = pa.serialize(WithGroups(item=GroupItem(150), after=7))
    assert data == b"\x0b\x10\x96\x01\x0c" + b"\x28\x07"
    assert data == google.SerializeToString()
    assert pa.deserialize(WithGroups, data) == WithGroups(item=GroupItem(150), after=7)
    repeated = pa.serialize(WithGroups(entries=[GroupItem(1), GroupItem()]))
    assert repeated == b"\x1b\x10\x01\x1c\x1b\x1c"
    assert pa.deserialize(WithGroups, repeated) == WithGroups(entries=[GroupItem(1), GroupItem()])
    google = pb.WithGroups()
    google.entries.add(a=1)
    google.entries.add()
    assert repeated == google.SerializeToString()
    assert [e.a for e in pb.WithGroups.FromString(repeated).entries] == [1, 0]


# --------------------------------------------------- unknown fields


def test_known_field_with_unexpected_wire_type_matches_google() -> None:
    # i32 (field 1) arriving as fixed32, text (field 14) as a varint
    data = b"\x0d\x01\x00\x00\x00" + b"\x70\x05" + b"\x10\x02"
    obj = pa.deserialize(c.Scalars, data)
    google = c.kinds_pb().Scalars.FromString(data)
    assert (obj.i32, obj.text, obj.i64) == (google.i32, google.text, google.i64) == (0, "", 2)


def test_unknown_fields_survive_a_round_trip() -> None:
    # preserve_unknown=True is the default: like Google's runtimes, bytes protoattr
    # does not understand are written back out
    full = to_pb(c.Scalars(i32=1, text="kept", u64=2**64 - 1), c.kinds_pb().Scalars)
    data = full.SerializeToString()
    inner = pa.deserialize(c.Inner, data)  # knows only fields 1 and 2
    assert inner.a == 1
    assert pa.serialize(inner) == data
