"""Golden bytes and property tests for the wire primitives in ``protoattr._core.wire``."""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from typing import Any

import pytest
from google.protobuf.internal import decoder as pb_decoder
from google.protobuf.internal import encoder as pb_encoder
from google.protobuf.internal import wire_format as pb_wire_format
from hypothesis import example, given
from hypothesis import strategies as st

from protoattr._core import wire as w
from protoattr._core.errors import DecodeError
from tests.protoc import compile_proto

UINT64 = st.integers(0, 2**64 - 1)
INT64 = st.integers(-(2**63), 2**63 - 1)
INT32 = st.integers(-(2**31), 2**31 - 1)

Pack = Callable[[Any], bytes]
Unpack = Callable[..., tuple[Any, ...]]

# ---------------------------------------------------------------- varints

VARINTS = [
    (0, b"\x00"),
    (1, b"\x01"),
    (127, b"\x7f"),
    (128, b"\x80\x01"),
    (150, b"\x96\x01"),
    (270, b"\x8e\x02"),
    (300, b"\xac\x02"),
    (16383, b"\xff\x7f"),
    (16384, b"\x80\x80\x01"),
    (2**31 - 1, b"\xff\xff\xff\xff\x07"),
    (2**32 - 1, b"\xff\xff\xff\xff\x0f"),
    (2**63 - 1, b"\xff" * 8 + b"\x7f"),
    (2**63, b"\x80" * 9 + b"\x01"),
    (2**64 - 1, b"\xff" * 9 + b"\x01"),
]

# Negative numbers are written as their 64-bit two's complement: always ten bytes.
NEGATIVE_VARINTS = [
    (-1, b"\xff" * 9 + b"\x01"),
    (-2, b"\xfe" + b"\xff" * 8 + b"\x01"),
    (-(2**31), b"\x80\x80\x80\x80\xf8\xff\xff\xff\xff\x01"),
    (-(2**63), b"\x80" * 9 + b"\x01"),
]


@pytest.mark.parametrize(("value", "encoded"), VARINTS)
def test_encode_varint(value: int, encoded: bytes) -> None:
    assert w.encode_varint(value) == encoded


@pytest.mark.parametrize(("value", "encoded"), VARINTS)
def test_decode_varint(value: int, encoded: bytes) -> None:
    assert w.read_varint(encoded, 0) == (value, len(encoded))
    assert w.decode_varint(encoded) == (value, len(encoded))
    # at an offset, with trailing bytes left alone
    assert w.decode_varint(b"\xaa\xbb" + encoded + b"\xcc", 2) == (value, 2 + len(encoded))


@pytest.mark.parametrize(("value", "encoded"), NEGATIVE_VARINTS)
def test_negative_varint(value: int, encoded: bytes) -> None:
    assert w.encode_varint(value) == encoded
    unsigned, end = w.decode_varint(encoded)
    assert end == 10
    assert w.signed64(unsigned) == value


@pytest.mark.parametrize("buffer_type", [bytes, bytearray, memoryview])
def test_decode_accepts_any_buffer(buffer_type: type) -> None:
    buf = buffer_type(b"\x08\xac\x02")
    assert w.read_varint(buf, 1) == (300, 3)
    assert w.decode_varint(buf, 1) == (300, 3)
    assert w.decode_tag(buf, 0) == (1, w.WireType.VARINT, 1)


def test_ten_byte_varint_keeps_the_low_64_bits() -> None:
    # Bits past the 64th in a tenth byte are dropped, as Google's decoders do.
    data = b"\xff" * 9 + b"\x7f"
    assert w.decode_varint(data) == (2**64 - 1, 10)
    assert pb_decoder._DecodeVarint(data, 0) == (2**64 - 1, 10)


def test_overlong_but_ten_bytes_is_accepted() -> None:
    # Zero padding up to ten bytes is valid (non-canonical) protobuf.
    assert w.decode_varint(b"\x81\x80\x80\x80\x80\x80\x80\x80\x80\x00") == (1, 10)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\x80",
        b"\xff\xff",
        b"\xac",
        b"\xff" * 9,
    ],
)
@pytest.mark.parametrize("start", [0, 3])
def test_truncated_varint(data: bytes, start: int) -> None:
    buf = b"\x01" * start + data
    with pytest.raises(IndexError):
        w.read_varint(buf, start)
    with pytest.raises(DecodeError, match="truncated") as info:
        w.decode_varint(buf, start)
    assert info.value.offset == start
    assert f"offset {start}" in str(info.value)


@pytest.mark.parametrize(
    "data",
    [
        b"\xff" * 10 + b"\x01",  # eleven bytes
        b"\x80" * 10 + b"\x00",  # eleven bytes of zero padding
        b"\xff" * 10,  # ten continuation bytes, then nothing
        b"\xff" * 20,
    ],
)
@pytest.mark.parametrize("start", [0, 5])
def test_varint_over_ten_bytes(data: bytes, start: int) -> None:
    buf = b"\x00" * start + data
    for read in (w.read_varint, w.decode_varint):
        with pytest.raises(DecodeError, match="10 bytes") as info:
            read(buf, start)
        assert info.value.offset == start


@given(UINT64)
@example(0)
@example(2**64 - 1)
def test_varint_round_trip(value: int) -> None:
    encoded = w.encode_varint(value)
    assert w.decode_varint(encoded) == (value, len(encoded))
    assert w.read_varint(encoded + b"\x00", 0) == (value, len(encoded))
    assert len(encoded) == max(1, math.ceil(value.bit_length() / 7))


@given(UINT64)
def test_encode_varint_matches_google(value: int) -> None:
    assert w.encode_varint(value) == pb_encoder._VarintBytes(value)
    assert pb_decoder._DecodeVarint(w.encode_varint(value), 0) == w.decode_varint(
        w.encode_varint(value)
    )


@given(INT64)
@example(-1)
@example(-(2**63))
def test_signed_varint_matches_google(value: int) -> None:
    encoded = w.encode_varint(value)
    pieces: list[bytes] = []
    pb_encoder._EncodeSignedVarint(pieces.append, value)
    assert encoded == b"".join(pieces)
    unsigned, end = w.decode_varint(encoded)
    assert end == len(encoded)
    assert w.signed64(unsigned) == value
    assert pb_decoder._DecodeSignedVarint(encoded, 0) == (value, end)


# ---------------------------------------------------------- signed32/64

SIGNED64 = [
    (0, 0),
    (2**63 - 1, 2**63 - 1),
    (2**63, -(2**63)),
    (2**64 - 1, -1),
    (2**64 - 2, -2),
]

# int32 fields read a 64-bit varint and keep its low 32 bits.
SIGNED32 = [
    (0, 0),
    (2**31 - 1, 2**31 - 1),
    (2**31, -(2**31)),
    (2**32 - 1, -1),
    (2**32, 0),
    (2**32 + 5, 5),
    (2**64 - 1, -1),
    (2**64 - 2**31, -(2**31)),
]


@pytest.mark.parametrize(("unsigned", "signed"), SIGNED64)
def test_signed64(unsigned: int, signed: int) -> None:
    assert w.signed64(unsigned) == signed


@pytest.mark.parametrize(("unsigned", "signed"), SIGNED32)
def test_signed32(unsigned: int, signed: int) -> None:
    assert w.signed32(unsigned) == signed


@given(INT32)
def test_signed32_round_trip(value: int) -> None:
    unsigned, _ = w.decode_varint(w.encode_varint(value))
    assert w.signed32(unsigned) == value
    assert pb_decoder._DecodeSignedVarint32(w.encode_varint(value), 0)[0] == value


@given(UINT64)
@example(2**32 + 5)
@example(2**31)
def test_signed32_truncates_like_googles_runtime(value: int) -> None:
    # What the protobuf runtime in use (upb or C++) reads into an int32 field.
    pb = compile_proto('syntax = "proto3";\nmessage I { int32 v = 1; int64 w = 2; }\n', "wire_ints")
    msg = pb.I.FromString(b"\x08" + w.encode_varint(value) + b"\x10" + w.encode_varint(value))
    assert msg.v == w.signed32(value)
    assert msg.w == w.signed64(value)


# ---------------------------------------------------------------- zigzag

ZIGZAG32 = [
    (0, 0),
    (-1, 1),
    (1, 2),
    (-2, 3),
    (2, 4),
    (2**31 - 1, 2**32 - 2),
    (-(2**31), 2**32 - 1),
]

ZIGZAG64 = [
    *ZIGZAG32,
    (2**63 - 1, 2**64 - 2),
    (-(2**63), 2**64 - 1),
]


@pytest.mark.parametrize(("value", "encoded"), ZIGZAG32)
def test_zigzag32(value: int, encoded: int) -> None:
    assert w.zigzag_encode32(value) == encoded
    assert w.zigzag_decode(encoded) == value


@pytest.mark.parametrize(("value", "encoded"), ZIGZAG64)
def test_zigzag64(value: int, encoded: int) -> None:
    assert w.zigzag_encode64(value) == encoded
    assert w.zigzag_decode(encoded) == value


def test_zigzag_sint_extremes_on_the_wire() -> None:
    # sint32 min takes five bytes, sint64 min ten.
    assert w.encode_varint(w.zigzag_encode32(-(2**31))) == b"\xff\xff\xff\xff\x0f"
    assert w.encode_varint(w.zigzag_encode64(-(2**63))) == b"\xff" * 9 + b"\x01"
    assert w.encode_varint(w.zigzag_encode64(2**63 - 1)) == b"\xfe" + b"\xff" * 8 + b"\x01"


@given(INT32)
def test_zigzag32_matches_google(value: int) -> None:
    encoded = w.zigzag_encode32(value)
    assert encoded == pb_wire_format.ZigZagEncode(value)
    assert 0 <= encoded < 2**32
    assert w.zigzag_decode(encoded) == value == pb_wire_format.ZigZagDecode(encoded)


@given(INT64)
def test_zigzag64_matches_google(value: int) -> None:
    encoded = w.zigzag_encode64(value)
    assert encoded == pb_wire_format.ZigZagEncode(value)
    assert 0 <= encoded < 2**64
    assert w.zigzag_decode(encoded) == value == pb_wire_format.ZigZagDecode(encoded)


# ------------------------------------------------------------------ tags


def test_wire_types_match_google() -> None:
    assert [(t.name, int(t)) for t in w.WireType] == [
        ("VARINT", pb_wire_format.WIRETYPE_VARINT),
        ("I64", pb_wire_format.WIRETYPE_FIXED64),
        ("LEN", pb_wire_format.WIRETYPE_LENGTH_DELIMITED),
        ("SGROUP", pb_wire_format.WIRETYPE_START_GROUP),
        ("EGROUP", pb_wire_format.WIRETYPE_END_GROUP),
        ("I32", pb_wire_format.WIRETYPE_FIXED32),
    ]
    assert w.MAX_FIELD_NUMBER == 536870911 == 2**29 - 1


TAGS = [
    (1, w.WireType.VARINT, b"\x08"),
    (1, w.WireType.I64, b"\x09"),
    (2, w.WireType.LEN, b"\x12"),
    (3, w.WireType.SGROUP, b"\x1b"),
    (3, w.WireType.EGROUP, b"\x1c"),
    (15, w.WireType.I32, b"\x7d"),
    (16, w.WireType.VARINT, b"\x80\x01"),
    (2047, w.WireType.LEN, b"\xfa\x7f"),
    (2048, w.WireType.VARINT, b"\x80\x80\x01"),
    (18999, w.WireType.VARINT, b"\xb8\xa3\x09"),
    (w.MAX_FIELD_NUMBER, w.WireType.I32, b"\xfd\xff\xff\xff\x0f"),
]


@pytest.mark.parametrize(("field_number", "wire_type", "encoded"), TAGS)
def test_tag_bytes(field_number: int, wire_type: w.WireType, encoded: bytes) -> None:
    assert w.make_tag(field_number, wire_type) == (field_number << 3) | wire_type
    assert w.tag_bytes(field_number, wire_type) == encoded
    assert w.tag_bytes(field_number, wire_type) == pb_encoder.TagBytes(field_number, wire_type)


@pytest.mark.parametrize(("field_number", "wire_type", "encoded"), TAGS)
def test_decode_tag(field_number: int, wire_type: w.WireType, encoded: bytes) -> None:
    assert w.decode_tag(encoded) == (field_number, wire_type, len(encoded))
    assert w.decode_tag(b"\x00" + encoded + b"\x00", 1) == (
        field_number,
        wire_type,
        1 + len(encoded),
    )


@given(st.integers(1, w.MAX_FIELD_NUMBER), st.sampled_from(list(w.WireType)))
def test_tag_round_trip(field_number: int, wire_type: w.WireType) -> None:
    encoded = w.tag_bytes(field_number, wire_type)
    assert encoded == pb_encoder.TagBytes(field_number, wire_type)
    assert w.decode_tag(encoded) == (field_number, wire_type, len(encoded))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x00", "field number 0"),  # field 0, varint
        (b"\x02", "field number 0"),  # field 0, length-delimited
        (b"\x80\x00", "field number 0"),  # an overlong zero
        (b"\x0e", "wire type 6"),
        (b"\x0f", "wire type 7"),
        (b"\xfe\xff\x01", "wire type 6"),
        (w.encode_varint((w.MAX_FIELD_NUMBER + 1) << 3), "field number 536870912"),
        (b"\xff" * 9 + b"\x01", "invalid field number"),
    ],
)
@pytest.mark.parametrize("start", [0, 4])
def test_decode_tag_rejects(data: bytes, message: str, start: int) -> None:
    with pytest.raises(DecodeError, match=message) as info:
        w.decode_tag(b"\x08" * start + data, start)
    assert info.value.offset == start


@pytest.mark.parametrize("data", [b"", b"\x80", b"\xff\xff\xff"])
def test_decode_tag_truncated(data: bytes) -> None:
    with pytest.raises(DecodeError, match="truncated") as info:
        w.decode_tag(b"\x08" + data, 1)
    assert info.value.offset == 1


# ----------------------------------------------------- fixed-width numbers

PACKED = [
    (w.pack_fixed32, w.unpack_fixed32, 0, b"\x00\x00\x00\x00"),
    (w.pack_fixed32, w.unpack_fixed32, 1, b"\x01\x00\x00\x00"),
    (w.pack_fixed32, w.unpack_fixed32, 0x12345678, b"\x78\x56\x34\x12"),
    (w.pack_fixed32, w.unpack_fixed32, 2**32 - 1, b"\xff\xff\xff\xff"),
    (w.pack_fixed64, w.unpack_fixed64, 1, b"\x01" + b"\x00" * 7),
    (w.pack_fixed64, w.unpack_fixed64, 2**64 - 1, b"\xff" * 8),
    (w.pack_sfixed32, w.unpack_sfixed32, -1, b"\xff\xff\xff\xff"),
    (w.pack_sfixed32, w.unpack_sfixed32, -(2**31), b"\x00\x00\x00\x80"),
    (w.pack_sfixed32, w.unpack_sfixed32, 2**31 - 1, b"\xff\xff\xff\x7f"),
    (w.pack_sfixed64, w.unpack_sfixed64, -2, b"\xfe" + b"\xff" * 7),
    (w.pack_sfixed64, w.unpack_sfixed64, -(2**63), b"\x00" * 7 + b"\x80"),
    (w.pack_float, w.unpack_float, 1.0, b"\x00\x00\x80\x3f"),
    (w.pack_float, w.unpack_float, -2.5, b"\x00\x00\x20\xc0"),
    (w.pack_float, w.unpack_float, -0.0, b"\x00\x00\x00\x80"),
    (w.pack_float, w.unpack_float, math.inf, b"\x00\x00\x80\x7f"),
    (w.pack_double, w.unpack_double, 1.0, b"\x00" * 6 + b"\xf0\x3f"),
    (w.pack_double, w.unpack_double, 0.1, b"\x9a\x99\x99\x99\x99\x99\xb9\x3f"),
    (w.pack_double, w.unpack_double, -0.0, b"\x00" * 7 + b"\x80"),
    (w.pack_double, w.unpack_double, -math.inf, b"\x00" * 6 + b"\xf0\xff"),
]


@pytest.mark.parametrize(("pack", "unpack", "value", "encoded"), PACKED)
def test_fixed_width(pack: Pack, unpack: Unpack, value: float, encoded: bytes) -> None:
    assert pack(value) == encoded
    (decoded,) = unpack(encoded)
    assert decoded == value
    assert math.copysign(1, decoded) == math.copysign(1, value)
    # unpack_from reads at an offset without slicing
    assert unpack(b"\xee" * 3 + encoded + b"\xee", 3) == (decoded,)


def test_fixed_width_nan_keeps_its_bits() -> None:
    nan_bits = b"\x01" + b"\x00" * 5 + b"\xf8\x7f"  # a quiet NaN with a payload
    (value,) = w.unpack_double(nan_bits)
    assert math.isnan(value)
    assert w.pack_double(value) == nan_bits


@pytest.mark.parametrize(
    ("pack", "value"),
    [
        (w.pack_fixed32, 2**32),
        (w.pack_fixed32, -1),
        (w.pack_fixed64, 2**64),
        (w.pack_sfixed32, 2**31),
        (w.pack_sfixed64, -(2**63) - 1),
    ],
)
def test_fixed_width_out_of_range(pack: Pack, value: int) -> None:
    with pytest.raises(struct.error):
        pack(value)


@pytest.mark.parametrize(
    "unpack",
    [
        w.unpack_fixed32,
        w.unpack_fixed64,
        w.unpack_sfixed32,
        w.unpack_sfixed64,
        w.unpack_float,
        w.unpack_double,
    ],
)
def test_fixed_width_truncated(unpack: Unpack) -> None:
    # The codec boundary turns struct.error into DecodeError.
    with pytest.raises(struct.error):
        unpack(b"\x00\x00\x00", 0)
    with pytest.raises(struct.error):
        unpack(b"\x00" * 8, 6)


@given(st.integers(0, 2**64 - 1))
def test_fixed64_matches_google(value: int) -> None:
    pieces: list[bytes] = []
    pb_encoder.Fixed64Encoder(1, False, False)(pieces.append, value, True)
    assert b"".join(pieces) == b"\x09" + w.pack_fixed64(value)


@given(st.floats(width=32, allow_nan=False))
def test_float_matches_google(value: float) -> None:
    pieces: list[bytes] = []
    pb_encoder.FloatEncoder(1, False, False)(pieces.append, value, True)
    assert b"".join(pieces) == b"\x0d" + w.pack_float(value)
