"""Golden bytes: hand-checked encodings of small contracts, in both directions.

The first rows are the examples of the protobuf encoding guide
(https://protobuf.dev/programming-guides/encoding/); the rest pin one
behaviour each (zigzag, ten-byte negatives, fixed widths, presence, defaults,
packing, maps, implicit tags, the well-known time types).  Every row must
encode to exactly its bytes and decode from them to an equal object.  Groups'
golden bytes are in ``test_interop.py``, attrs classes' in
``test_attrs_slots_frozen.py``.
"""

from __future__ import annotations

import enum
import struct
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

import protoattr as pa
from protoattr import field, proto_contract


@proto_contract
@dataclass
class Test1:
    __test__ = False  # not a pytest test class

    a: pa.int32 = field(1, default=0)


@proto_contract
@dataclass
class Test2:
    __test__ = False  # not a pytest test class

    b: str = field(2, default="")


@proto_contract
@dataclass
class Test3:
    __test__ = False  # not a pytest test class

    c: Test1 | None = field(3, default=None)


@proto_contract
@dataclass
class Test4:
    __test__ = False  # not a pytest test class

    d: list[pa.int32] = field(4, default_factory=list)


@proto_contract
@dataclass
class Test4Unpacked:
    __test__ = False  # not a pytest test class

    d: list[pa.int32] = field(4, default_factory=list, packed=False)


@proto_contract
@dataclass
class Ints:
    i32: pa.int32 = field(1, default=0)
    i64: pa.int64 = field(2, default=0)
    u32: pa.uint32 = field(3, default=0)
    u64: pa.uint64 = field(4, default=0)
    s32: pa.sint32 = field(5, default=0)
    s64: pa.sint64 = field(6, default=0)
    plain: int = field(7, default=0)


@proto_contract
@dataclass
class Fixed:
    f32: pa.fixed32 = field(1, default=0)
    f64: pa.fixed64 = field(2, default=0)
    sf32: pa.sfixed32 = field(3, default=0)
    sf64: pa.sfixed64 = field(4, default=0)
    fl: pa.float32 = field(5, default=0.0)
    db: float = field(6, default=0.0)


class Level(enum.IntEnum):
    ZERO = 0
    ONE = 1
    MINUS = -1


@proto_contract
@dataclass
class Misc:
    flag: bool = field(1, default=False)
    level: Level = field(2, default=Level.ZERO)
    data: bytes = field(3, default=b"")
    maybe: pa.int32 | None = field(4, default=None)
    big_tag: pa.int32 = field(536870911, default=0)


@proto_contract
@dataclass
class WithDefault:
    """proto2 ``[default = ...]`` without presence: equal values are not written."""

    ttl: pa.int32 = field(6, default=86400, wire_default=86400)
    kind: str = field(5, default="A", wire_default="A")


@proto_contract
@dataclass
class LocalDefault:
    """Python defaults are local: written unless zero, absent reads as zero (proto3)."""

    ttl: pa.int32 = field(6, default=86400)
    kind: str = field(5, default="A")


@proto_contract
@dataclass
class Required:
    key: str = field(1, required=True)


@proto_contract
@dataclass
class Times:
    ts: datetime | None = field(1, default=None)
    dur: timedelta | None = field(2, default=None)


@proto_contract
@dataclass
class Mapping:
    counts: dict[str, pa.int32] = field(1, default_factory=dict)


@proto_contract
@dataclass
class PackedKinds:
    s32: list[pa.sint32] = field(1, default_factory=list)
    f32: list[pa.fixed32] = field(2, default_factory=list)
    db: list[float] = field(3, default_factory=list)
    flag: list[bool] = field(4, default_factory=list)
    level: list[Level] = field(5, default_factory=list)


@proto_contract(implicit_fields=True)
@dataclass
class Implicit:
    x: pa.int32 = 0
    y: str = ""
    z: pa.int32 = field(5, default=0)
    w: bool = False


UTC = timezone.utc

GOLDEN: list[tuple[Any, str]] = [
    # the encoding guide
    (Test1(150), "08 96 01"),
    (Test2("testing"), "12 07 74 65 73 74 69 6e 67"),
    (Test3(Test1(150)), "1a 03 08 96 01"),
    (Test4([3, 270, 86942]), "22 06 03 8e 02 9e a7 05"),
    (Test4Unpacked([3, 270, 86942]), "20 03 20 8e 02 20 9e a7 05"),
    (Test1(), ""),
    (Test3(Test1()), "1a 00"),
    (Test4([]), ""),
    # varint kinds
    (Ints(i32=1), "08 01"),
    (Ints(i32=-1), "08 ff ff ff ff ff ff ff ff ff 01"),
    (Ints(i32=-2), "08 fe ff ff ff ff ff ff ff ff 01"),
    (Ints(i32=2**31 - 1), "08 ff ff ff ff 07"),
    (Ints(i32=-(2**31)), "08 80 80 80 80 f8 ff ff ff ff 01"),
    (Ints(i64=-1), "10 ff ff ff ff ff ff ff ff ff 01"),
    (Ints(i64=-(2**63)), "10 80 80 80 80 80 80 80 80 80 01"),
    (Ints(u32=2**32 - 1), "18 ff ff ff ff 0f"),
    (Ints(u64=2**64 - 1), "20 ff ff ff ff ff ff ff ff ff 01"),
    (Ints(u64=300), "20 ac 02"),
    (Ints(s32=0), ""),
    (Ints(s32=-1), "28 01"),
    (Ints(s32=1), "28 02"),
    (Ints(s32=-2), "28 03"),
    (Ints(s32=2**31 - 1), "28 fe ff ff ff 0f"),
    (Ints(s32=-(2**31)), "28 ff ff ff ff 0f"),
    (Ints(s64=-1), "30 01"),
    (Ints(s64=2**63 - 1), "30 fe ff ff ff ff ff ff ff ff 01"),
    (Ints(s64=-(2**63)), "30 ff ff ff ff ff ff ff ff ff 01"),
    (Ints(plain=-1), "38 ff ff ff ff ff ff ff ff ff 01"),
    # fixed widths
    (Fixed(f32=1), "0d 01 00 00 00"),
    (Fixed(f32=2**32 - 1), "0d ff ff ff ff"),
    (Fixed(f64=1), "11 01 00 00 00 00 00 00 00"),
    (Fixed(sf32=-1), "1d ff ff ff ff"),
    (Fixed(sf64=-2), "21 fe ff ff ff ff ff ff ff"),
    (Fixed(fl=1.0), "2d 00 00 80 3f"),
    (Fixed(fl=-0.0), "2d 00 00 00 80"),
    (Fixed(db=1.0), "31 00 00 00 00 00 00 f0 3f"),
    (Fixed(db=-0.0), "31 00 00 00 00 00 00 00 80"),
    (Fixed(db=float("inf")), "31 00 00 00 00 00 00 f0 7f"),
    # bool, enum, bytes, presence, large tags
    (Misc(flag=True), "08 01"),
    (Misc(level=Level.ONE), "10 01"),
    (Misc(level=Level.MINUS), "10 ff ff ff ff ff ff ff ff ff 01"),
    (Misc(data=b"\x00\xff"), "1a 02 00 ff"),
    (Misc(maybe=0), "20 00"),
    (Misc(big_tag=1), "f8 ff ff ff 0f 01"),
    # proto2 defaults and required
    (WithDefault(), ""),
    (WithDefault(ttl=0, kind=""), "2a 00 30 00"),
    (WithDefault(ttl=60), "30 3c"),
    (LocalDefault(), "2a 01 41 30 80 a3 05"),
    (LocalDefault(ttl=0, kind=""), ""),
    (Required(""), "0a 00"),
    # Timestamp and Duration
    (Times(ts=datetime(1970, 1, 1, tzinfo=UTC)), "0a 00"),
    (Times(ts=datetime(1970, 1, 1, 0, 0, 1, 500000, tzinfo=UTC)), "0a 08 08 01 10 80 ca b5 ee 01"),
    (
        Times(ts=datetime(1969, 12, 31, 23, 59, 59, tzinfo=UTC)),
        "0a 0b 08 ff ff ff ff ff ff ff ff ff 01",
    ),
    (Times(dur=timedelta(seconds=90)), "12 02 08 5a"),
    (Times(dur=timedelta(0)), "12 00"),
    (
        Times(dur=timedelta(seconds=-1, microseconds=500000)),
        "12 0b 10 80 b6 ca 91 fe ff ff ff ff 01",
    ),
    # maps, packed kinds
    (Mapping({"a": 1}), "0a 05 0a 01 61 10 01"),
    (Mapping({"": 0}), "0a 04 0a 00 10 00"),
    (PackedKinds(s32=[-1, 1]), "0a 02 01 02"),
    (PackedKinds(f32=[1, 2]), "12 08 01 00 00 00 02 00 00 00"),
    (PackedKinds(db=[1.0]), "1a 08 00 00 00 00 00 00 f0 3f"),
    (PackedKinds(flag=[True, False, True]), "22 03 01 00 01"),
    (PackedKinds(level=[Level.ONE, Level.MINUS]), "2a 0b 01 ff ff ff ff ff ff ff ff ff 01"),
    # implicit tags: 1, 2, (explicit 5), 3
    (Implicit(x=1, y="a", z=2, w=True), "08 01 12 01 61 18 01 28 02"),
]


@pytest.mark.parametrize(("obj", "hex_bytes"), GOLDEN, ids=[h or "empty" for _, h in GOLDEN])
def test_golden_encode(obj: Any, hex_bytes: str) -> None:
    assert pa.serialize(obj).hex(" ") == hex_bytes


@pytest.mark.parametrize(("obj", "hex_bytes"), GOLDEN, ids=[h or "empty" for _, h in GOLDEN])
def test_golden_decode(obj: Any, hex_bytes: str) -> None:
    decoded = pa.deserialize(type(obj), bytes.fromhex(hex_bytes))
    assert decoded == obj
    for name in vars(obj) if hasattr(obj, "__dict__") else ():
        value = getattr(obj, name)
        if isinstance(value, float):
            assert struct.pack("<d", getattr(decoded, name)) == struct.pack("<d", value)


@pytest.mark.parametrize(("obj", "hex_bytes"), GOLDEN, ids=[h or "empty" for _, h in GOLDEN])
def test_golden_measure(obj: Any, hex_bytes: str) -> None:
    assert pa.measure(obj) == len(bytes.fromhex(hex_bytes))


def test_implicit_fields_number_in_declaration_order() -> None:
    # Implicit: x -> 1, y -> 2, z keeps its explicit 5, w -> 3
    assert pa.serialize(Implicit(w=True)) == b"\x18\x01"
    assert pa.serialize(Implicit(z=1)) == b"\x28\x01"


def test_decode_accepts_bytes_bytearray_and_memoryview() -> None:
    data = b"\x08\x96\x01"
    for buf in (data, bytearray(data), memoryview(data), memoryview(b"xx" + data)[2:]):
        assert pa.deserialize(Test1, buf) == Test1(150)


def test_overlong_varints_decode() -> None:
    # a value may be written with redundant continuation bytes (up to ten in all)
    assert pa.deserialize(Test1, bytes.fromhex("08 96 81 80 80 00")) == Test1(150)
    # an int32 written as a 64-bit varint with high bits set is truncated to 32 bits
    assert pa.deserialize(Test1, bytes.fromhex("08 ff ff ff ff 0f")) == Test1(-1)
    # bool: any non-zero varint is True
    assert pa.deserialize(Misc, bytes.fromhex("08 02")) == Misc(flag=True)
