"""Malformed input raises DecodeError (with an int ``offset``), and nothing else.

Each failure mode of API section 4 has explicit cases; then every prefix of
valid encodings, random bytes and mutated valid encodings are thrown at
``deserialize``, which must return or raise DecodeError - never another
exception, never hang - and which must agree with upb about what is
malformed wherever the two runtimes share semantics (proto3 twins).
"""

from __future__ import annotations

import contextlib
import signal
import tracemalloc
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pytest
from google.protobuf.message import DecodeError as GoogleDecodeError
from google.protobuf.message import Message
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import protoattr as pa
from protoattr import DecodeError, field, proto_contract
from tests import contracts as c
from tests.contracts import UTC, Color, assert_same, canonical, chain_bytes, to_pb
from tests.protoc import compile_proto

GARBAGE = settings(derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def decode_error(cls: Any, data: bytes, model: pa.TypeModel | None = None) -> DecodeError:
    """Decode ``data``, expecting a DecodeError whose offset lies within the input."""
    with pytest.raises(DecodeError) as info:
        (model or pa.default_model).deserialize(cls, data)
    error = info.value
    assert isinstance(error, ValueError)
    assert isinstance(error.offset, int), f"{error!r} has no offset"
    assert 0 <= error.offset <= len(data), f"offset {error.offset} outside 0..{len(data)}"
    return error


def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def google_rejects(pb_cls: Any, data: bytes) -> bool:
    try:
        pb_cls.FromString(data)
    except GoogleDecodeError:
        return True
    return False


@proto_contract
@dataclass
class FixedInner:
    f: pa.fixed32 = field(1, default=0)
    d: float = field(2, default=0.0)


@proto_contract
@dataclass
class FixedOuter:
    inner: FixedInner | None = field(1, default=None)
    pad: bytes = field(2, default=b"")
    packed: list[pa.fixed32] = field(3, default_factory=list)
    varints: list[pa.int32] = field(4, default_factory=list)


FIXED_PROTO = """
syntax = "proto3";
message FixedInner { fixed32 f = 1; double d = 2; }
message FixedOuter {
  FixedInner inner = 1;
  bytes pad = 2;
  repeated fixed32 packed = 3;
  repeated int32 varints = 4;
}
"""


def fixed_pb() -> Any:
    return compile_proto(FIXED_PROTO, "fixed_outer")


# ----------------------------------------------------------- varints


@pytest.mark.parametrize(
    "data",
    [
        b"\x08" + b"\xff" * 10 + b"\x01",  # value: 11 bytes
        b"\x08" + b"\x80" * 10 + b"\x00",  # value: 11 bytes, all padding
        b"\xff" * 10 + b"\x01",  # tag: 11 bytes
        b"\x72" + b"\x80" * 10 + b"\x00",  # length: 11 bytes
        b"\x0a\x0b" + b"\xff" * 10 + b"\x01",  # packed element: 11 bytes
        b"\xf8\x01" + b"\xff" * 10 + b"\x01",  # unknown field 31: 11 bytes
        b"\x92\x01\x0c\x08" + b"\xff" * 10 + b"\x01",  # Timestamp.seconds: 11 bytes
    ],
    ids=["value", "padding", "tag", "length", "packed", "unknown", "timestamp"],
)
def test_varint_over_ten_bytes(data: bytes) -> None:
    cls = c.Repeats if data.startswith(b"\x0a\x0b") else c.Scalars
    decode_error(cls, data)


def test_ten_byte_varint_is_fine() -> None:
    assert pa.deserialize(c.Scalars, b"\x08" + b"\xff" * 9 + b"\x01").i32 == -1
    assert pa.deserialize(c.Scalars, b"\x20" + b"\xff" * 9 + b"\x01").u64 == 2**64 - 1


@pytest.mark.parametrize(
    "data",
    [b"\x08", b"\x08\x96", b"\x08\xff\xff", b"\x96", b"\x80\x80", b"\x20" + b"\xff" * 9],
    ids=repr,
)
def test_truncated_varint(data: bytes) -> None:
    decode_error(c.Scalars, data)


# ------------------------------------------------------------- lengths


@pytest.mark.parametrize(
    "data",
    [
        b"\x72\x05abc",  # string
        b"\x7a\x01",  # bytes, nothing after the length
        b"\x72",  # no length at all
        b"\x8a\x01\x03\x08\x01",  # sub-message
        b"\x92\x01\x05\x08\x01",  # Timestamp
        b"\xfa\x01\x05ab",  # unknown field 31
        b"\x72\x80\x80\x80\x80\x80\x80\x80\x80\x40",  # 2**62 bytes claimed
        b"\x72" + b"\xff" * 9 + b"\x01",  # 2**64 - 1 bytes claimed
    ],
    ids=["string", "bytes", "missing", "message", "timestamp", "unknown", "huge", "max"],
)
def test_length_past_the_end(data: bytes) -> None:
    decode_error(c.Scalars, data)
    assert google_rejects(c.kinds_pb().Scalars, data)


def test_length_past_the_end_of_the_enclosing_message() -> None:
    # inner (2 bytes) holds a string tag claiming 5 bytes: the bytes after the inner
    # message belong to the outer one and must not be read
    data = b"\x8a\x01\x02\x12\x05" + b"\x72\x03abc"
    decode_error(c.Scalars, data)
    assert google_rejects(c.kinds_pb().Scalars, data)


@pytest.mark.parametrize(
    "data",
    [
        b"\x0a\x03\x0d\x01\x00" + b"\x12\x00",  # fixed32 running out of its message
        b"\x0a\x05\x11\x00\x00\x00\x00" + b"\x12\x02\x00\x00",  # double likewise
        b"\x1a\x03\x01\x00\x00",  # packed fixed32, length not a multiple of 4
        b"\x1a\x05\x01\x00\x00\x00\x00",
        b"\x22\x01\x96" + b"\x22\x01\x01",  # packed varint running out of its run
        b"\x0a\x02\x0d\x01",
    ],
    ids=repr,
)
def test_fixed_width_values_do_not_cross_their_boundaries(data: bytes) -> None:
    decode_error(FixedOuter, data)
    assert google_rejects(fixed_pb().FixedOuter, data)


@pytest.mark.parametrize(
    "data",
    [
        b"\x12\x01\x61",  # map entry of 1 byte holding an (unknown) fixed64 tag
        b"\x12\x02\x08\x81",  # map key varint running out of its entry
        b"\x62\x02\x0d\x00",  # fixed32 tag in a map<string, Inner> entry
    ],
    ids=repr,
)
def test_map_entry_overrunning_its_length(data: bytes) -> None:
    decode_error(c.Maps, data)  # the offset must still lie within the input
    assert google_rejects(c.kinds_pb().Maps, data)


def test_a_lying_length_prefix_allocates_nothing() -> None:
    data = b"\x7a" + b"\xff" * 7 + b"\x7f" + b"x" * 16  # bytes field claiming ~2**63
    tracemalloc.start()
    try:
        decode_error(c.Scalars, data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20


# ---------------------------------------------------- tags and wire types


@pytest.mark.parametrize(
    "data",
    [
        b"\x00",
        b"\x00\x01",
        b"\x02\x00",
        b"\x05\x00\x00\x00\x00",
        b"\x80\x00\x01",  # field 0 with a two-byte tag
        b"\x8a\x01\x02\x00\x00",  # inside a sub-message
        b"\x08\x01\x00",
    ],
    ids=repr,
)
def test_field_number_zero(data: bytes) -> None:
    decode_error(c.Scalars, data)
    assert google_rejects(c.kinds_pb().Scalars, data)


def test_field_number_zero_in_a_map_entry() -> None:
    data = b"\x0a\x04\x00\x00\x08\x01"
    decode_error(c.Maps, data)
    assert google_rejects(c.kinds_pb().Maps, data)


def test_field_number_above_the_maximum() -> None:
    data = b"\x80\x80\x80\x80\x10\x00"  # field 2**29, varint
    decode_error(c.Scalars, data)


@pytest.mark.parametrize("wire_type", [6, 7])
@pytest.mark.parametrize("field_number", [1, 14, 17, 99])
def test_wire_types_six_and_seven(wire_type: int, field_number: int) -> None:
    tag = _varint(field_number << 3 | wire_type)
    for data in (tag, tag + b"\x00\x00\x00\x00\x00\x00\x00\x00"):
        decode_error(c.Scalars, data)
        assert google_rejects(c.kinds_pb().Scalars, data)


# ----------------------------------------------------------------- groups


@pytest.mark.parametrize(
    "data",
    [
        b"\x0c",  # end-group 1 (a known field) without a start
        b"\xfc\x01",  # end-group 31 (unknown)
        b"\x08\x01\x0c",
        b"\x8a\x01\x01\x0c",  # inside a sub-message
    ],
    ids=repr,
)
def test_end_group_without_start(data: bytes) -> None:
    decode_error(c.Scalars, data)
    assert google_rejects(c.kinds_pb().Scalars, data)


@pytest.mark.parametrize(
    "data",
    [
        b"\x0b\x14",  # start 1, end 2
        b"\xfb\x01\x0c",  # start 31, end 1
        b"\x0b\x13\x1c\x0c",  # start 1, start 2, end 3, end 1
        b"\x0b\x13\x0c\x14",  # crossed
    ],
    ids=repr,
)
def test_end_group_with_the_wrong_number(data: bytes) -> None:
    decode_error(c.Scalars, data)
    assert google_rejects(c.kinds_pb().Scalars, data)


@pytest.mark.parametrize(
    "data",
    [
        b"\x0b",
        b"\x0b\x08\x01",
        b"\x0b\x13\x14",
        b"\x8a\x01\x01\x0b" + b"\x0c",
        b"\x0b\x09",  # a fixed64 inside the group, cut short
        b"\x0b\x0d\x00",  # a fixed32 likewise
        b'\x0b\x09s"\x06circle',
    ],
    ids=repr,
)
def test_group_without_end(data: bytes) -> None:
    decode_error(c.Scalars, data)
    assert google_rejects(c.kinds_pb().Scalars, data)


def test_well_formed_unknown_groups_are_skipped() -> None:
    data = b"\x08\x05" + b"\xfb\x01\x08\x01\x13\x1a\x00\x14\xfc\x01" + b"\x10\x06"
    obj = pa.deserialize(c.Scalars, data)
    assert (obj.i32, obj.i64) == (5, 6)


# ----------------------------------------------------------------- UTF-8


INVALID_UTF8 = [
    b"\xff",
    b"\xc3\x28",
    b"\xc0\x80",  # overlong NUL
    b"\xed\xa0\x80",  # an encoded surrogate
    b"\xf4\x90\x80\x80",  # above U+10FFFF
    b"abc\xe2\x82",  # truncated sequence
]


@pytest.mark.parametrize("raw", INVALID_UTF8, ids=repr)
def test_invalid_utf8(raw: bytes) -> None:
    n = bytes([len(raw)])
    cases = [
        (c.Scalars, c.kinds_pb().Scalars, b"\x72" + n + raw),  # singular
        (c.Repeats, c.kinds_pb().Repeats, b"\x72\x01a\x72" + n + raw),  # repeated
        (c.Scalars, c.kinds_pb().Scalars, b"\x8a\x01" + bytes([len(raw) + 2]) + b"\x12" + n + raw),
        (c.Maps, c.kinds_pb().Maps, b"\x62" + bytes([len(raw) + 2]) + b"\x0a" + n + raw),  # key
        (c.Maps, c.kinds_pb().Maps, b"\x0a" + bytes([len(raw) + 4]) + b"\x08\x01\x12" + n + raw),
    ]
    for cls, pb_cls, data in cases:
        decode_error(cls, data)
        assert google_rejects(pb_cls, data)


def test_bytes_fields_take_any_bytes() -> None:
    for raw in INVALID_UTF8:
        assert pa.deserialize(c.Scalars, b"\x7a" + bytes([len(raw)]) + raw).data == raw


# ------------------------------------------------------------- required


def test_missing_required_field() -> None:
    error = decode_error(c.DnsRecord, b"\x0a\x01k\x12\x01v\x1a\x01f")
    assert "last" in str(error) and "DnsRecord" in str(error)
    decode_error(c.DnsRecord, b"")


def test_missing_required_field_in_a_nested_message() -> None:
    record = b"\x0a\x01k\x12\x01v\x22\x01l"  # no "first"
    error = decode_error(c.DnsResponse, b"\x0a" + bytes([len(record)]) + record)
    assert "first" in str(error)


# ------------------------------------------------- Timestamp and Duration


@pytest.mark.parametrize(
    "body",
    [
        b"\x08" + _varint(2**63 - 1),  # far beyond year 9999
        b"\x08" + _varint(253402300800),  # 10000-01-01T00:00:00Z
        b"\x08" + _varint(-62135596801),  # just before 0001-01-01
        b"\x10" + _varint(-1),  # nanos -1
        b"\x10" + _varint(10**9),  # nanos one second
    ],
    ids=["huge", "year-10000", "year-0", "negative-nanos", "nanos-overflow"],
)
def test_timestamp_out_of_range(body: bytes) -> None:
    decode_error(c.Scalars, b"\x92\x01" + bytes([len(body)]) + body)


@pytest.mark.parametrize("seconds", [315576000001, -315576000001, 2**62])
def test_duration_out_of_range(seconds: int) -> None:
    body = b"\x08" + _varint(seconds)
    decode_error(c.Scalars, b"\x9a\x01" + bytes([len(body)]) + body)


# ------------------------------------------------------------------ depth


def test_upb_depth_boundary() -> None:
    """Documents upb's limit: a top-level message holding 100 nested messages parses, 101 do not."""
    pb = c.recursive_pb().Chain
    pb.FromString(chain_bytes(100))
    assert google_rejects(pb, chain_bytes(101))
    # the same limit holds for unknown groups nested in one message
    inner = c.kinds_pb().Inner
    inner.FromString(b"\x0b" * 100 + b"\x0c" * 100)
    assert google_rejects(inner, b"\x0b" * 101 + b"\x0c" * 101)


def test_max_depth_default_is_upbs() -> None:
    deep = pa.deserialize(c.Chain, chain_bytes(100))
    levels = 0
    while deep.child is not None:
        deep, levels = deep.child, levels + 1
    assert levels == 100
    decode_error(c.Chain, chain_bytes(101))
    assert pa.deserialize(c.Chain, pa.serialize(c.chain(100))) == c.chain(100)
    decode_error(c.Chain, pa.serialize(c.chain(101)))


@pytest.mark.parametrize("limit", [1, 5, 30])
def test_max_depth_of_a_model(limit: int) -> None:
    model = pa.TypeModel(max_depth=limit)
    assert model.deserialize(c.Chain, pa.serialize(c.chain(limit))) == c.chain(limit)
    model.deserialize(c.Chain, chain_bytes(limit))
    decode_error(c.Chain, chain_bytes(limit + 1), model)
    decode_error(c.Chain, pa.serialize(c.chain(limit + 1)), model)


def test_depth_counts_through_lists_maps_and_mutual_recursion() -> None:
    node = c.Node(0)
    for i in range(101):
        node = c.Node(i, [c.Node(-1), node])
    decode_error(c.Node, pa.serialize(node))
    assert pa.deserialize(c.Node, pa.serialize(node.children[1])) == node.children[1]

    tree = c.Tree("leaf")
    for _ in range(50):  # Tree -> Forest -> Tree ...: two levels per step
        tree = c.Tree("t", c.Forest("f", [tree]))
    assert pa.deserialize(c.Tree, pa.serialize(tree)) == tree
    decode_error(c.Tree, pa.serialize(c.Tree("t", c.Forest("f", [tree]))))
    # (through map values: see test_map_entries_count_as_a_level_like_upb)


def test_map_entries_count_as_a_level_like_upb() -> None:
    """upb counts a map entry as a message level: nesting through a map value costs two."""

    def mapped(levels: int) -> c.Tree:
        tree = c.Tree("leaf")
        for i in range(levels):
            tree = c.Tree(str(i), sizes={"k": tree})
        return tree

    pb = c.recursive_pb().Tree
    pb.FromString(pa.serialize(mapped(50)))
    assert google_rejects(pb, pa.serialize(mapped(51)))
    assert pa.deserialize(c.Tree, pa.serialize(mapped(50))) == mapped(50)
    decode_error(c.Tree, pa.serialize(mapped(51)))


def test_unknown_groups_count_against_max_depth() -> None:
    assert pa.deserialize(c.Inner, b"\x0b" * 100 + b"\x0c" * 100) == c.Inner()
    decode_error(c.Inner, b"\x0b" * 101 + b"\x0c" * 101)


def test_very_deep_input_is_a_decode_error_not_a_recursion_error() -> None:
    decode_error(c.Chain, chain_bytes(20_000))
    decode_error(c.Inner, b"\x0b" * 20_000 + b"\x0c" * 20_000)
    decode_error(c.Inner, b"\x0b" * 20_000)


# ---------------------------------------- unexpected wire types are not errors


@pytest.mark.parametrize(
    "data",
    [
        b"\x0d\x01\x00\x00\x00",  # i32 as fixed32
        b"\x09" + bytes(8),  # i32 as fixed64
        b"\x0a\x00",  # i32 as length-delimited
        b"\x0b\x0c",  # i32 as an (empty) group
        b"\x70\x05",  # text as a varint
        b"\x88\x01\x01",  # inner (message) as a varint
        b"\x58\x01",  # fl (float) as a varint
        b"\x61" + bytes(8) + b"\x60\x01",  # db, then db as a varint
        b"\x90\x01\x05",  # ts as a varint
    ],
    ids=repr,
)
def test_known_field_with_unexpected_wire_type(data: bytes) -> None:
    obj = pa.deserialize(c.Scalars, data)
    google = c.kinds_pb().Scalars.FromString(data)
    # the field is kept as an unknown field, as upb keeps it: same bytes back out
    assert pa.serialize(obj) == google.SerializeToString()
    google.DiscardUnknownFields()
    assert canonical(google) == canonical(to_pb(obj, c.kinds_pb().Scalars))


def test_repeated_field_with_unexpected_wire_type() -> None:
    data = b"\x0d\x01\x00\x00\x00" + b"\x08\x02" + b"\xa5\x01" + bytes(4)  # i32 as fixed32, ...
    assert pa.deserialize(c.Repeats, data).i32 == [2]
    assert list(c.kinds_pb().Repeats.FromString(data).i32) == [2]


# ---------------------------------------------- every prefix of valid input


PREFIX_CASES: list[tuple[Any, Any]] = [
    (
        c.Scalars(
            i32=-1,
            i64=300,
            u32=2**32 - 1,
            u64=2**64 - 1,
            s32=-2,
            s64=2**40,
            f32=7,
            f64=8,
            sf32=-9,
            sf64=-10,
            fl=1.5,
            db=-2.5,
            flag=True,
            text="héllo",
            data=b"\x00\x01",
            color=Color.NEGATIVE,
            inner=c.Inner(150, "x" * 130),
            ts=datetime(2020, 2, 29, 12, 0, 0, 123456, tzinfo=UTC),
            dur=timedelta(seconds=-1, microseconds=1),
            plain=-(2**63),
        ),
        "Scalars",
    ),
    (
        c.Repeats(
            i32=[1, -1, 300],
            u64=[2**64 - 1],
            f32=[1, 2],
            db=[1.0, -0.0],
            flag=[True, False],
            text=["a", "é", ""],
            data=[b"x"],
            color=[Color.RED, 99],
            inner=[c.Inner(1, "a")],
            ts=[datetime(1969, 1, 1, tzinfo=UTC)],
            dur=[timedelta(days=1)],
            plain=[5],
        ),
        "Repeats",
    ),
    (c.Unpacked(i32=[1, -1], u64=[3], fl=[1.5], flag=[True], color=[Color.GREEN]), "Unpacked"),
    (c.Maps(i32={1: "a", -1: "bc"}, text={"k": c.Inner(2, "v")}, flag={True: b"\xff"}), "Maps"),
    (c.Optionals(i32=0, text="", flag=False, color=Color.COLOR_ZERO, db=0.0), "Optionals"),
    (c.Task(7, datetime(2021, 6, 1, tzinfo=UTC), "me", c.TaskPriority.HIGH, "do", ["a"]), "Task"),
    (c.Node(1, [c.Node(2, [c.Node(3)]), c.Node(4)]), "Node"),
    (c.Tree("a", c.Forest("f", [c.Tree("b")]), {"k": c.Tree("c")}), "Tree"),
    (c.Shape("s", label="circle"), "Shape"),
]


def _pb_class(name: str) -> Any:
    for module in (c.kinds_pb(), c.task_pb(), c.recursive_pb(), c.shape_pb()):
        if hasattr(module, name):
            return getattr(module, name)
    raise LookupError(name)


def times_fit(msg: Message) -> bool:
    """Whether every Timestamp/Duration in a Google message fits datetime/timedelta's range."""
    for fd, value in msg.ListFields():
        if fd.message_type is None:
            continue
        if fd.message_type.GetOptions().map_entry:
            if fd.message_type.fields_by_name["value"].message_type is None:
                continue
            values = list(value.values())
        elif fd.is_repeated:
            values = list(value)
        else:
            values = [value]
        for v in values:
            name = v.DESCRIPTOR.full_name
            if name == "google.protobuf.Timestamp":
                if not (-62135596800 <= v.seconds <= 253402300799 and 0 <= v.nanos < 10**9):
                    return False
            elif name == "google.protobuf.Duration":
                if abs(v.seconds) > 315576000000 or abs(v.nanos) >= 10**9:
                    return False
            elif not times_fit(v):
                return False
    return True


def check_like_upb(cls: Any, pb_cls: Any, data: bytes) -> Any:
    """Decode with both runtimes: protoattr must return or raise DecodeError, and
    reject exactly what upb rejects (plus times that datetime cannot hold)."""
    try:
        google: Message | None = pb_cls.FromString(data)
    except GoogleDecodeError:
        google = None
    try:
        obj = pa.deserialize(cls, data)
    except DecodeError as exc:
        assert isinstance(exc.offset, int) and 0 <= exc.offset <= len(data), repr(exc)
        assert google is None or not times_fit(google), (
            f"protoattr rejects what upb accepts: {data.hex(' ')}: {exc}"
        )
        return None
    assert google is not None, f"protoattr accepts what upb rejects: {data.hex(' ')}"
    return obj


@pytest.mark.parametrize(("obj", "name"), PREFIX_CASES, ids=[n for _, n in PREFIX_CASES])
def test_every_prefix_decodes_or_raises_decode_error(obj: Any, name: str) -> None:
    data = pa.serialize(obj)
    pb_cls = _pb_class(name)
    assert pb_cls.FromString(data) is not None
    for i in range(len(data)):
        check_like_upb(type(obj), pb_cls, data[:i])
    assert_same(pa.deserialize(type(obj), data), obj)


def test_every_prefix_of_a_proto2_message() -> None:
    data = pa.serialize(c.DnsResponse([c.DnsRecord("k", "v", "f", "l", "AAAA", 60)]))
    for i in range(len(data)):
        try:
            pa.deserialize(c.DnsResponse, data[:i])
        except DecodeError as exc:
            assert isinstance(exc.offset, int)


# ------------------------------------------------------------- garbage


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Fail instead of hanging (where the platform has SIGALRM)."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise TimeoutError(f"decoding took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


GARBAGE_CONTRACTS = [
    (c.Scalars, "Scalars"),
    (c.Repeats, "Repeats"),
    (c.Unpacked, "Unpacked"),
    (c.Maps, "Maps"),
    (c.Optionals, "Optionals"),
    (c.Node, "Node"),
    (c.Tree, "Tree"),
    (c.Task, "Task"),
    (c.Shape, "Shape"),
]


def decode_garbage(cls: Any, name: str, data: bytes) -> None:
    with time_limit(5):
        obj = check_like_upb(cls, _pb_class(name), data)
    if obj is not None:
        # whatever decodes re-encodes, and decodes again to the same object
        again = pa.deserialize(cls, pa.serialize(obj))
        assert_same(again, obj)


@GARBAGE
@given(st.sampled_from(GARBAGE_CONTRACTS), st.binary(max_size=48))
def test_random_bytes(contract: tuple[Any, str], data: bytes) -> None:
    decode_garbage(*contract, data)


@GARBAGE
@given(
    st.sampled_from(PREFIX_CASES),
    st.lists(
        st.tuples(
            st.sampled_from(["flip", "set", "insert", "delete", "truncate"]),
            st.integers(0, 1 << 16),
            st.integers(0, 255),
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_mutated_valid_encodings(case: tuple[Any, str], mutations: list[Any]) -> None:
    obj, name = case
    data = bytearray(pa.serialize(obj))
    for op, where, byte in mutations:
        i = where % (len(data) + 1)
        if op == "flip" and i < len(data):
            data[i] ^= 1 << (byte % 8)
        elif op == "set" and i < len(data):
            data[i] = byte
        elif op == "insert":
            data[i:i] = bytes([byte])
        elif op == "delete" and i < len(data):
            del data[i]
        elif op == "truncate":
            del data[i:]
    decode_garbage(type(obj), name, bytes(data))


@GARBAGE
@given(st.binary(max_size=48))
def test_random_bytes_into_proto2_and_recursive_contracts(data: bytes) -> None:
    with time_limit(5):
        for cls in (c.DnsResponse, c.DnsRecord, c.Defaults, c.Chain, c.Forest, FixedOuter):
            try:
                pa.deserialize(cls, data)
            except DecodeError as exc:
                assert isinstance(exc.offset, int)


def test_to_pb_helper_is_consistent() -> None:
    # the helper the checks above rely on: an object and its Google twin encode alike
    obj = PREFIX_CASES[0][0]
    assert to_pb(obj, c.kinds_pb().Scalars).SerializeToString() == pa.serialize(obj)
