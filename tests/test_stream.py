"""Streams of length-prefixed messages (API section 3, seed 001).

Golden frames for every prefix style, round trips over every kind of stream a
user hands us (BytesIO, real and unbuffered files, gzip, sockets, a trickling
non-seekable reader and a short-writing writer), byte-for-byte interop with
Google's runtime in both directions, and the failure modes: truncation
anywhere, lying length prefixes (without allocating what they claim), bad tags
and bad bodies, each reported with the item's index and stream offset.
"""

# protoattr.field() returns a dataclasses.Field, like dataclasses.field(), but
# ruff cannot know that (the project-wide fix is extend-immutable-calls).

from __future__ import annotations

import gzip
import io
import socket
import tracemalloc
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import protoattr as pa
from protoattr import DecodeError, EncodeError, field, proto_contract
from protoattr._stream import (
    PrefixStyle,
    deserialize_items,
    deserialize_with_length_prefix,
    serialize_items,
    serialize_with_length_prefix,
)

BASE128 = PrefixStyle.BASE128
FIXED32 = PrefixStyle.FIXED32
FIXED32_BE = PrefixStyle.FIXED32_BIG_ENDIAN


@proto_contract
@dataclass
class Point:
    x: pa.int32 = field(1, default=0)


@proto_contract
@dataclass
class Blob:
    data: bytes = field(1, default=b"")


@proto_contract
@dataclass
class Boiler:
    boiler_id: str = field(1, required=True)
    table_number: pa.int32 = field(2, required=True)
    table_name: str = field(3, required=True)
    boiler_data: str = field(4, required=True)
    brand_name: str = field(5, required=True)
    qualifier: str = field(6, required=True)
    model_name: str = field(7, required=True)


BOILER_PROTO = """
syntax = "proto2";
package pcdf;
message Boiler {
  required string BoilerId = 1;
  required int32 TableNumber = 2;
  required string TableName = 3;
  required string BoilerData = 4;
  required string BrandName = 5;
  required string Qualifier = 6;
  required string ModelName = 7;
}
// The field_number=3 form of a stream, plus other fields (of every wire
// type) that a reader picking field 3 must skip.
message W {
  optional string name = 1;
  optional int32 count = 2;
  repeated Boiler items = 3;
  optional group Extra = 4 { optional int32 a = 1; optional string b = 2; }
  optional fixed64 f64 = 5;
  optional fixed32 f32 = 6;
}
"""

# (style, field_number) pairs that are valid framings.
FRAMINGS = [(BASE128, 0), (BASE128, 3), (BASE128, 1000), (FIXED32, 0), (FIXED32_BE, 0)]
FRAMING_IDS = ["base128", "base128-field3", "base128-field1000", "fixed32", "fixed32be"]


def boiler(i: int) -> Boiler:
    return Boiler(
        boiler_id=f"ID-{i}",
        table_number=i,
        table_name="Name",
        boiler_data="Data" * (i % 50),  # some bodies > 127 bytes: two-byte prefixes
        brand_name="Brand",
        qualifier="Qualifier",
        model_name="Model",
    )


BOILERS = [boiler(i) for i in range(60)]


def written(items: list[object], style: PrefixStyle = BASE128, field_number: int = 0) -> bytes:
    out = io.BytesIO()
    assert serialize_items(out, items, style, field_number) == len(items)
    return out.getvalue()


class TrickleReader:
    """A non-seekable stream that returns at most 3 bytes per read (like a slow pipe)."""

    def __init__(self, data: bytes) -> None:
        self._data = io.BytesIO(data)
        self.consumed = 0

    def read(self, size: int = -1) -> bytes:
        chunk = self._data.read(3 if size < 0 else min(size, 3))
        self.consumed += len(chunk)
        return chunk


class TrickleWriter:
    """A raw-style writer that accepts at most 3 bytes per call and says how many."""

    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, data: bytes) -> int:
        self.data += data[:3]
        return min(len(data), 3)


# --------------------------------------------------------------------------- #
# Golden bytes
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(
    ("style", "field_number", "obj", "frame"),
    [
        (BASE128, 0, Point(150), b"\x03\x08\x96\x01"),
        (BASE128, 0, Point(0), b"\x00"),  # an empty message is a zero-length frame
        (BASE128, 3, Point(150), b"\x1a\x03\x08\x96\x01"),  # tag 3, wire type 2
        (BASE128, 16, Point(150), b"\x82\x01\x03\x08\x96\x01"),  # two-byte tag
        (BASE128, 0, Blob(b"z" * 300), b"\xaf\x02\x0a\xac\x02" + b"z" * 300),  # 303 bytes
        (FIXED32, 0, Point(150), b"\x03\x00\x00\x00\x08\x96\x01"),
        (FIXED32, 0, Blob(b"z" * 300), b"\x2f\x01\x00\x00\x0a\xac\x02" + b"z" * 300),
        (FIXED32_BE, 0, Point(150), b"\x00\x00\x00\x03\x08\x96\x01"),
        (FIXED32_BE, 0, Blob(b"z" * 300), b"\x00\x00\x01\x2f\x0a\xac\x02" + b"z" * 300),
    ],
)
def test_golden_frames(style: PrefixStyle, field_number: int, obj: object, frame: bytes) -> None:
    out = io.BytesIO()
    serialize_with_length_prefix(out, obj, style, field_number)
    assert out.getvalue() == frame

    src = io.BytesIO(frame)
    assert deserialize_with_length_prefix(type(obj), src, style, field_number) == obj
    assert src.tell() == len(frame)
    assert deserialize_with_length_prefix(type(obj), src, style, field_number) is None


def test_serialize_items_is_the_concatenation_of_single_frames() -> None:
    for style, field_number in FRAMINGS:
        single = io.BytesIO()
        for b in BOILERS:
            serialize_with_length_prefix(single, b, style, field_number)
        assert written(list(BOILERS), style, field_number) == single.getvalue()


def test_serialize_items_counts_any_iterable_and_writes_nothing_for_none() -> None:
    out = io.BytesIO()
    assert serialize_items(out, (Point(i) for i in range(5))) == 5
    assert out.getvalue() == b"\x00\x02\x08\x01\x02\x08\x02\x02\x08\x03\x02\x08\x04"
    empty = io.BytesIO()
    assert serialize_items(empty, []) == 0
    assert empty.getvalue() == b""


def test_an_explicit_model_is_used() -> None:
    model = pa.TypeModel()
    out = io.BytesIO()
    serialize_with_length_prefix(out, Point(1), model=model)
    serialize_items(out, [Point(2)], model=model)
    out.seek(0)
    assert deserialize_with_length_prefix(Point, out, model=model) == Point(1)
    assert list(deserialize_items(Point, out, model=model)) == [Point(2)]


# --------------------------------------------------------------------------- #
# Round trips over real streams
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(("style", "field_number"), FRAMINGS, ids=FRAMING_IDS)
def test_round_trip_bytesio(style: PrefixStyle, field_number: int) -> None:
    data = written(list(BOILERS), style, field_number)
    assert list(deserialize_items(Boiler, io.BytesIO(data), style, field_number)) == BOILERS


@pytest.mark.parametrize(("style", "field_number"), FRAMINGS, ids=FRAMING_IDS)
def test_round_trip_trickling_non_seekable_streams(style: PrefixStyle, field_number: int) -> None:
    out = TrickleWriter()
    assert serialize_items(out, BOILERS, style, field_number) == len(BOILERS)
    assert bytes(out.data) == written(list(BOILERS), style, field_number)
    src = TrickleReader(bytes(out.data))
    assert not hasattr(src, "seek") and not hasattr(src, "tell")
    assert list(deserialize_items(Boiler, src, style, field_number)) == BOILERS


@pytest.mark.parametrize("buffering", [-1, 0], ids=["buffered", "raw"])
def test_round_trip_real_file(tmp_path: Path, buffering: int) -> None:
    path = tmp_path / "boilers.bin"
    with open(path, "wb", buffering=buffering) as f:
        assert serialize_items(f, BOILERS) == len(BOILERS)
        serialize_with_length_prefix(f, Point(7), FIXED32)
    with open(path, "rb", buffering=buffering) as f:
        got = [deserialize_with_length_prefix(Boiler, f) for _ in BOILERS]
        assert deserialize_with_length_prefix(Point, f, FIXED32) == Point(7)
        assert f.read() == b""
    assert got == BOILERS


def test_round_trip_gzip_file(tmp_path: Path) -> None:
    path = tmp_path / "boilers.bin.gz"
    with gzip.open(path, "wb") as f:
        assert serialize_items(f, BOILERS, BASE128, 1) == len(BOILERS)
    with gzip.open(path, "rb") as f:
        assert list(deserialize_items(Boiler, f, BASE128, 1)) == BOILERS


def test_round_trip_socket() -> None:
    left, right = socket.socketpair()
    with left, right:
        with left.makefile("wb") as w:
            serialize_items(w, BOILERS[:10])
            w.write(b"rest of the protocol")
        left.shutdown(socket.SHUT_WR)
        with right.makefile("rb") as r:
            assert [deserialize_with_length_prefix(Boiler, r) for _ in range(10)] == BOILERS[:10]
            # Nothing past the tenth item was consumed by us.
            assert r.read() == b"rest of the protocol"


@pytest.mark.parametrize(("style", "field_number"), FRAMINGS, ids=FRAMING_IDS)
def test_stream_is_left_right_after_the_item(style: PrefixStyle, field_number: int) -> None:
    frames = [written([b], style, field_number) for b in BOILERS[:3]]
    data = b"".join(frames) + b"TRAILER"

    seekable = io.BytesIO(data)
    trickle = TrickleReader(data)
    end = 0
    for frame, expected in zip(frames, BOILERS[:3], strict=True):
        end += len(frame)
        assert deserialize_with_length_prefix(Boiler, seekable, style, field_number) == expected
        assert deserialize_with_length_prefix(Boiler, trickle, style, field_number) == expected
        assert seekable.tell() == end
        assert trickle.consumed == end
    assert seekable.read() == b"TRAILER"


def test_clean_end_of_stream() -> None:
    for style, field_number in FRAMINGS:
        assert deserialize_with_length_prefix(Point, io.BytesIO(b""), style, field_number) is None
        assert list(deserialize_items(Point, io.BytesIO(b""), style, field_number)) == []
    # Only other fields before the end: no items, and no error.
    assert list(deserialize_items(Point, io.BytesIO(b"\x08\x01\x12\x00"), BASE128, 3)) == []


@given(
    st.lists(st.integers(-(2**31), 2**31 - 1), max_size=20),
    st.sampled_from(FRAMINGS),
)
def test_round_trip_property(xs: list[int], framing: tuple[PrefixStyle, int]) -> None:
    style, field_number = framing
    points = [Point(x) for x in xs]
    out = TrickleWriter()
    assert serialize_items(out, points, style, field_number) == len(points)
    assert list(deserialize_items(Point, TrickleReader(bytes(out.data)), style, field_number)) == (
        points
    )


# --------------------------------------------------------------------------- #
# Laziness
# --------------------------------------------------------------------------- #


def test_deserialize_items_is_lazy() -> None:
    first = written([BOILERS[0]])
    src = TrickleReader(first + written(list(BOILERS[1:])))
    items = deserialize_items(Boiler, src)
    assert src.consumed == 0  # nothing read before the first next()
    assert next(items) == BOILERS[0]
    assert src.consumed == len(first)  # exactly the first frame, not a byte more
    assert list(items) == BOILERS[1:]


def test_deserialize_items_yields_from_an_endless_stream() -> None:
    def endless() -> Iterator[bytes]:
        frame = written([Point(5)])
        while True:
            yield from (frame[i : i + 1] for i in range(len(frame)))

    chunks = endless()

    class Endless:
        def read(self, size: int) -> bytes:
            return next(chunks)

    items = deserialize_items(Point, Endless())
    assert [next(items) for _ in range(100)] == [Point(5)] * 100


# --------------------------------------------------------------------------- #
# Interop with Google's runtime
# --------------------------------------------------------------------------- #


@pytest.fixture(scope="module")
def pb(protoc: Callable[[str, str], ModuleType]) -> ModuleType:
    return protoc(BOILER_PROTO, "stream_boilers")


def to_google(pb: ModuleType, b: Boiler) -> Any:
    return pb.Boiler(
        BoilerId=b.boiler_id,
        TableNumber=b.table_number,
        TableName=b.table_name,
        BoilerData=b.boiler_data,
        BrandName=b.brand_name,
        Qualifier=b.qualifier,
        ModelName=b.model_name,
    )


def test_google_reads_our_stream_item_by_item(pb: ModuleType) -> None:
    from google.protobuf.internal.decoder import _DecodeVarint32

    data = written(list(BOILERS))
    pos, got = 0, []
    while pos < len(data):
        size, pos = _DecodeVarint32(data, pos)
        got.append(pb.Boiler.FromString(data[pos : pos + size]))
        pos += size
    assert got == [to_google(pb, b) for b in BOILERS]


def test_we_read_googles_delimited_stream(pb: ModuleType) -> None:
    from google.protobuf.internal.encoder import _VarintBytes

    data = b"".join(
        _VarintBytes(len(body)) + body
        for body in (to_google(pb, b).SerializeToString() for b in BOILERS)
    )
    assert data == written(list(BOILERS))
    assert list(deserialize_items(Boiler, TrickleReader(data))) == BOILERS


def test_field_number_form_is_a_repeated_field_to_google(pb: ModuleType) -> None:
    data = written(list(BOILERS), BASE128, 3)
    assert list(pb.W.FromString(data).items) == [to_google(pb, b) for b in BOILERS]
    assert pb.W(items=[to_google(pb, b) for b in BOILERS]).SerializeToString() == data


def test_field_number_form_skips_every_other_field(pb: ModuleType) -> None:
    # Two wrapper messages back to back (protobuf's merge by concatenation):
    # fields 1, 2, 4 (a group), 5 and 6 surround the items and are skipped.
    def wrapper(items: list[Boiler], i: int) -> bytes:
        w = pb.W(
            name="x" * 200, count=-1, f64=2**64 - 1, f32=7, items=[to_google(pb, b) for b in items]
        )
        w.Extra.a = i
        w.Extra.b = "in a group"
        data: bytes = w.SerializeToString()
        return data

    data = wrapper(BOILERS[:5], 1) + wrapper(BOILERS[5:9], 2)
    assert list(deserialize_items(Boiler, TrickleReader(data), BASE128, 3)) == BOILERS[:9]
    src = io.BytesIO(data)
    got = [deserialize_with_length_prefix(Boiler, src, BASE128, 3) for _ in range(9)]
    assert got == BOILERS[:9]
    assert deserialize_with_length_prefix(Boiler, src, BASE128, 3) is None
    assert src.tell() == len(data)
    # Reading for a field number that is not there yields nothing.
    assert list(deserialize_items(Boiler, io.BytesIO(data), BASE128, 9)) == []


def test_field_number_skips_its_own_number_with_another_wire_type() -> None:
    # field 3 as a varint is not an item: skipped, like any unexpected wire type.
    data = b"\x18\x05" + written([Point(1)], BASE128, 3) + b"\x1d\x01\x02\x03\x04"
    assert list(deserialize_items(Point, io.BytesIO(data), BASE128, 3)) == [Point(1)]


# --------------------------------------------------------------------------- #
# Bad streams
# --------------------------------------------------------------------------- #


def read_all(
    data: bytes,
    style: PrefixStyle = BASE128,
    field_number: int = 0,
    max_message_size: int = 2**31 - 1,
) -> tuple[list[Point], DecodeError]:
    """Items yielded before the error, and the error."""
    got: list[Point] = []
    items = deserialize_items(
        Point, TrickleReader(data), style, field_number, max_message_size=max_message_size
    )
    with pytest.raises(DecodeError) as info:
        for p in items:
            got.append(p)
    return got, info.value


GOOD = b"\x02\x08\x01\x02\x08\x02"  # Point(1), Point(2): offsets 0..5, then item 2 at 6


@pytest.mark.parametrize(
    ("tail", "offset", "words"),
    [
        (b"\x96", 6, "length prefix is cut short"),  # EOF inside the varint
        (b"\x05\x08\x01", 9, "body of 5 bytes starting at stream offset 7 is cut short"),
        (b"\xff" * 10 + b"\x01", 6, "longer than 10 bytes"),
        (
            b"\xff\xff\xff\xff\x0f" + b"\x08" * 5,
            6,
            "claims 4294967295 bytes, more than max_message_size",
        ),
    ],
)
def test_bad_base128_stream(tail: bytes, offset: int, words: str) -> None:
    got, err = read_all(GOOD + tail)
    assert got == [Point(1), Point(2)]  # the items before it were yielded
    assert err.offset == offset
    assert "item 2" in str(err) and words in str(err)
    assert f"offset {offset}" in str(err)


@pytest.mark.parametrize("style", [FIXED32, FIXED32_BE])
def test_bad_fixed32_stream(style: PrefixStyle) -> None:
    good = written([Point(1)], style)
    got, err = read_all(good + b"\x00\x00", style)  # EOF inside the 4-byte prefix
    assert got == [Point(1)]
    assert (err.offset, "item 1" in str(err)) == (6, True)
    assert f"{style.name} length prefix is cut short: stream ends after 2 of 4 bytes" in str(err)

    three = b"\x03\x00\x00\x00" if style is FIXED32 else b"\x00\x00\x00\x03"
    got, err = read_all(good + three + b"\x08", style)  # body cut short
    assert got == [Point(1)]
    assert err.offset == 11 and "body of 3 bytes starting at stream offset 10" in str(err)


def test_bad_field_number_stream() -> None:
    good = written([Point(1), Point(2)], BASE128, 3)  # 8 bytes
    cases = [
        (b"\x1a", 9, "item 2: length prefix is missing"),  # tag, then EOF
        (b"\x1a\x80", 9, "item 2: length prefix is cut short"),
        (b"\x1f", 8, "invalid wire type 7"),
        (b"\x00", 8, "invalid field number 0"),
        (b"\x0a\x05ab", 12, "skipped field 1: value of 5 bytes starting at stream offset 10"),
        (b"\x08", 9, "skipped field 1: varint is missing"),
        (b"\x09\x01", 10, "skipped field 1: fixed64 of 8 bytes"),
        (b"\x23\x08\x01", 11, "skipped field 4: tag inside a group is missing"),
        (b"\x23\x2c", 9, "end-group of field 5 without its start-group"),
        (b"\x24", 8, "end-group of field 4 without its start-group"),
    ]
    for tail, offset, words in cases:
        got, err = read_all(good + tail, BASE128, 3)
        assert got == [Point(1), Point(2)], tail
        assert (err.offset, words in str(err)) == (offset, True), (tail, str(err))


def test_groups_nested_too_deep_are_refused() -> None:
    ok = b"\x23" * 100 + b"\x24" * 100  # field 4 groups, 100 deep: skipped fine
    assert list(deserialize_items(Point, io.BytesIO(ok + b"\x1a\x00"), BASE128, 3)) == [Point()]
    got, err = read_all(b"\x23" * 101, BASE128, 3)
    assert got == [] and "groups nested deeper than 100" in str(err)


def test_max_message_size() -> None:
    data = written([Point(1), Point(300), Point(2)])  # bodies of 2, 3, 2 bytes
    got, err = read_all(data, max_message_size=2)
    assert got == [Point(1)]
    assert err.offset == 3
    assert (
        "item 1: length prefix at stream offset 3 claims 3 bytes, more than max_message_size=2"
        in str(err)
    )
    src = io.BytesIO(data)
    assert deserialize_with_length_prefix(Point, src, max_message_size=2) == Point(1)
    with pytest.raises(DecodeError, match=r"^item: length prefix at stream offset 3 "):
        deserialize_with_length_prefix(Point, src, max_message_size=2)
    assert list(deserialize_items(Point, io.BytesIO(data), max_message_size=3)) == [
        Point(1),
        Point(300),
        Point(2),
    ]


@pytest.mark.parametrize(
    ("prefix", "limit"),
    [
        (b"\x80\x80\x80\x80\x10", 2**40),  # 4 GiB, allowed by a raised limit
        (b"\xff\xff\xff\xff\x07", 2**31 - 1),  # 2 GiB - 1: the default limit
        (b"\xff\xff\xff\xff\x0f", 2**31 - 1),  # 4 GiB - 1: refused by the default limit
    ],
)
def test_huge_prefix_on_a_tiny_stream_fails_without_allocating(prefix: bytes, limit: int) -> None:
    data = prefix + b"\x08\x01\x08\x01\x08"  # a 10-byte stream
    tracemalloc.start()
    try:
        with pytest.raises(DecodeError) as info:
            list(deserialize_items(Point, io.BytesIO(data), max_message_size=limit))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 10 * 2**20
    assert "item 0" in str(info.value)


def test_fixed32_prefix_of_4_gib_on_a_tiny_stream() -> None:
    tracemalloc.start()
    try:
        src = io.BytesIO(b"\xff\xff\xff\xff" + b"\x08\x01")
        with pytest.raises(DecodeError, match=r"body of 4294967295 bytes .* cut short"):
            deserialize_with_length_prefix(Point, src, FIXED32, max_message_size=2**32)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 10 * 2**20


def test_bad_body_is_reported_with_item_index_and_stream_offset() -> None:
    # Item 1's body is a truncated varint: b"\x08\x96" (field 1, varint cut short).
    data = written([Point(1)]) + b"\x02\x08\x96" + written([Point(3)])
    got, err = read_all(data)
    assert got == [Point(1)]
    assert "item 1" in str(err) and "body starting at stream offset 4" in str(err)
    assert isinstance(err.__cause__, DecodeError)
    inner = err.__cause__.offset
    assert err.offset == 4 + (inner or 0)
    assert 4 <= err.offset <= 6


def test_missing_required_field_is_reported_with_item_index() -> None:
    ok = written([BOILERS[0]])
    got: list[Boiler] = []
    with pytest.raises(DecodeError, match="item 1") as info:
        got.extend(deserialize_items(Boiler, io.BytesIO(ok + b"\x04\x0a\x02ID")))
    assert got == [BOILERS[0]]
    assert info.value.offset is not None and info.value.offset >= len(ok) + 1


# --------------------------------------------------------------------------- #
# Arguments
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("style", [FIXED32, FIXED32_BE])
def test_fixed32_with_a_field_number_is_refused_before_anything_happens(style: PrefixStyle) -> None:
    out = io.BytesIO()
    with pytest.raises(ValueError, match=r"needs PrefixStyle\.BASE128"):
        serialize_with_length_prefix(out, Point(1), style, 1)
    with pytest.raises(ValueError, match=r"needs PrefixStyle\.BASE128"):
        serialize_items(out, [Point(1)], style, 1)
    assert out.getvalue() == b""
    src = TrickleReader(b"\x02\x00\x00\x00\x08\x01")
    with pytest.raises(ValueError, match=r"needs PrefixStyle\.BASE128"):
        deserialize_with_length_prefix(Point, src, style, 1)
    with pytest.raises(ValueError, match=r"needs PrefixStyle\.BASE128"):
        deserialize_items(Point, src, style, 1)  # eager: no next() needed
    assert src.consumed == 0


def test_bad_arguments() -> None:
    out = io.BytesIO()
    for bad in (-1, 2**29):
        with pytest.raises(ValueError, match="field_number"):
            serialize_with_length_prefix(out, Point(1), BASE128, bad)
        with pytest.raises(ValueError, match="field_number"):
            deserialize_items(Point, out, BASE128, bad)
    with pytest.raises(TypeError, match="field_number"):
        serialize_items(out, [], BASE128, True)
    with pytest.raises(TypeError, match="PrefixStyle"):
        serialize_items(out, [], 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_message_size"):
        deserialize_items(Point, out, max_message_size=-1)
    assert out.getvalue() == b""


def test_encode_error_leaves_earlier_items_written_and_the_bad_one_not() -> None:
    out = io.BytesIO()
    with pytest.raises(EncodeError):
        serialize_items(out, [Point(1), Point(2**40), Point(3)])
    assert out.getvalue() == written([Point(1)])
    with pytest.raises(EncodeError):
        serialize_with_length_prefix(out, Point(-(2**40)))
    assert out.getvalue() == written([Point(1)])


def test_message_too_big_for_a_fixed32_prefix() -> None:
    class Huge(bytes):
        def __len__(self) -> int:
            return 2**32

    class HugeModel:
        def serialize(self, obj: object) -> bytes:
            return Huge(b"")

    for style in (FIXED32, FIXED32_BE):
        out = io.BytesIO()
        with pytest.raises(EncodeError, match=f"does not fit a {style.name}"):
            serialize_with_length_prefix(out, Point(1), style, model=HugeModel())  # type: ignore[arg-type]
        assert out.getvalue() == b""


def test_text_streams_are_refused_up_front() -> None:
    with pytest.raises(TypeError, match="binary stream"):
        serialize_items(io.StringIO(), [Point(1)])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="binary stream"):
        deserialize_items(Point, io.StringIO("\x02\x08\x01"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="binary stream"):
        deserialize_with_length_prefix(Point, io.StringIO("\x02\x08\x01"))  # type: ignore[arg-type]


def test_non_blocking_stream_with_no_data_is_not_mistaken_for_the_end() -> None:
    class NothingReady:
        def read(self, size: int) -> None:
            return None

    with pytest.raises(BlockingIOError):
        deserialize_with_length_prefix(Point, NothingReady())
    with pytest.raises(BlockingIOError):
        list(deserialize_items(Point, NothingReady(), FIXED32))
