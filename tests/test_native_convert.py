"""The native engine on converted types and surrogates.

Decimal, UUID (as text or 16 bytes), date, bytearray and IntFlag travel as a
plain protobuf kind; surrogates, the wrappers and ``JsonValue`` travel as a
contract.  The engine runs such fields itself and calls back into Python only
for the conversion (or does it in C where that is clearly the same: a date's
day number, ``bytearray(bytes)``).  Checked against the generated Python
codec: same bytes, same objects (compared by ``repr``, which shows the types
and keeps ``Decimal('NaN')`` comparable), same errors, and no hand-over to the
Python codec on valid data.
"""

from __future__ import annotations

import datetime
import enum
import random
import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import protoattr as pa
import protoattr._native as native
from protoattr import field, proto_contract
from tests.garble import garble
from tests.test_native import _fallbacks, _native_model, _outcome

pytestmark = pytest.mark.skipif(not native.available(), reason="C engine not built")

PY = pa.TypeModel(backend="python")
NAT = _native_model()


class Perm(enum.IntFlag):
    X = 1
    W = 2
    R = 4


class Point:
    """A "foreign" class (no contract of its own) that travels as PointMessage."""

    __slots__ = ("label", "x", "y")

    def __init__(self, x: int, y: int, label: str = "") -> None:
        self.x, self.y, self.label = x, y, label

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Point) and (self.x, self.y, self.label) == (
            other.x,
            other.y,
            other.label,
        )

    def __hash__(self) -> int:
        return hash((self.x, self.y, self.label))

    def __repr__(self) -> str:
        return f"Point({self.x}, {self.y}, {self.label!r})"


@proto_contract
@dataclass
class PointMessage:
    x: pa.sint32 = field(1, default=0)
    y: pa.sint32 = field(2, default=0)
    label: str = field(3, default="")


def to_message(p: Point) -> PointMessage:
    return PointMessage(p.x, p.y, p.label)


def from_message(m: PointMessage) -> Point:
    if m.label == "refuse":
        raise ValueError("a point may not be called 'refuse'")
    return Point(m.x, m.y, m.label)


pa.add_surrogate(Point, PointMessage, to_message, from_message)


@proto_contract
@dataclass
class Converted:
    price: Decimal = field(1, default=Decimal("0"))
    rate: Decimal | None = field(2, default=None)
    id: uuid.UUID = field(3, default=uuid.UUID(int=0))
    raw_id: pa.UUIDBytes = field(4, default=uuid.UUID(int=0))
    day: datetime.date = field(5, default=datetime.date(1, 1, 1))
    since: datetime.date = field(6, default=datetime.date(2000, 1, 1))
    blob: bytearray = field(7, default_factory=bytearray)
    perm: Perm = field(8, default=Perm(0))
    prices: list[Decimal] = field(9, default_factory=list)
    days: list[datetime.date] = field(10, default_factory=list)
    perms: list[Perm] = field(11, default_factory=list)
    ids: list[uuid.UUID] = field(12, default_factory=list)
    by_id: dict[uuid.UUID, Decimal] = field(13, default_factory=dict)
    by_day: dict[datetime.date, bytearray] = field(14, default_factory=dict)
    blobs: list[bytearray] = field(15, default_factory=list)
    day_set: frozenset[datetime.date] = field(16, default_factory=frozenset)


@proto_contract
@dataclass
class Surrogates:
    point: Point = field(1)
    maybe: Point | None = field(2, default=None)
    points: list[Point] = field(3, default_factory=list)
    named: dict[str, Point] = field(4, default_factory=dict)
    count: pa.wrappers.Int32Value = field(5, default=None)
    title: pa.wrappers.StringValue = field(6, default=None)
    extra: pa.JsonValue = field(7, default=None)
    struct: pa.Struct = field(8, default_factory=dict)
    inner: Converted | None = field(9, default=None)


@proto_contract
@dataclass
class Required:
    price: Decimal = field(1, required=True)
    day: datetime.date = field(2, required=True)


CONTRACTS = (Converted, Surrogates, Required, PointMessage)


def _same(nat: tuple[str, Any], py: tuple[str, Any]) -> None:
    assert nat[0] == py[0], (nat, py)
    assert repr(nat[1]) == repr(py[1]), (nat, py)


def test_every_converted_contract_runs_natively() -> None:
    assert NAT._native is not None
    for cls in CONTRACTS:
        assert NAT._native.explain(cls) == "native", cls


decimals = st.decimals(allow_nan=True, allow_infinity=True, places=None) | st.sampled_from(
    [Decimal("0"), Decimal("0.0"), Decimal("-0"), Decimal("1E+3"), Decimal("sNaN")]
)
uuids = st.uuids() | st.just(uuid.UUID(int=0))
dates = st.dates() | st.sampled_from([datetime.date.min, datetime.date.max])
flags = st.integers(0, 7).map(Perm) | st.integers(8, 2**31 - 1).map(Perm)
blobs = st.binary(max_size=6).map(bytearray)


@st.composite
def converted(draw: st.DrawFn) -> Converted:
    return Converted(
        price=draw(decimals),
        rate=draw(st.none() | decimals),
        id=draw(uuids),
        raw_id=draw(uuids),
        day=draw(dates),
        since=draw(dates),
        blob=draw(blobs),
        perm=draw(flags),
        prices=draw(st.lists(decimals, max_size=3)),
        days=draw(st.lists(dates, max_size=3)),
        perms=draw(st.lists(flags, max_size=3)),
        ids=draw(st.lists(uuids, max_size=2)),
        by_id=draw(st.dictionaries(uuids, decimals, max_size=2)),
        by_day=draw(st.dictionaries(dates, blobs, max_size=2)),
        blobs=draw(st.lists(blobs, max_size=2)),
        day_set=frozenset(draw(st.lists(dates, max_size=2))),
    )


def _containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    # a named function: hypothesis checks that extend= uses its argument by reading its
    # source, which it could not always find for a lambda over several lines
    return st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=3), inner, max_size=2)


json_values = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=False) | st.text(max_size=4),
    _containers,
    max_leaves=4,
)
points = st.builds(
    Point, st.integers(-(2**31), 2**31 - 1), st.integers(-(2**31), 2**31 - 1), st.text(max_size=3)
)


@st.composite
def surrogates(draw: st.DrawFn) -> Surrogates:
    return Surrogates(
        point=draw(points),
        maybe=draw(st.none() | points),
        points=draw(st.lists(points, max_size=2)),
        named=draw(st.dictionaries(st.text(max_size=2), points, max_size=2)),
        count=draw(st.none() | st.integers(-(2**31), 2**31 - 1)),
        title=draw(st.none() | st.text(max_size=3)),
        extra=draw(json_values),
        struct=draw(st.dictionaries(st.text(max_size=3), json_values, max_size=2)),
        inner=draw(st.none() | converted()),
    )


DIFF = settings(
    derandomize=True,
    max_examples=150,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _differential(obj: Any, seed: int) -> None:
    cls = type(obj)
    encoded = PY.serialize(obj)
    before = _fallbacks(NAT)
    assert NAT.serialize(obj) == encoded
    _same(_outcome(NAT.deserialize, cls, encoded), _outcome(PY.deserialize, cls, encoded))
    assert _fallbacks(NAT) == before, "valid values must not need the Python codec"
    rnd = random.Random(seed)
    for _ in range(10):
        bad = garble(encoded, rnd)
        _same(_outcome(NAT.deserialize, cls, bad), _outcome(PY.deserialize, cls, bad))


@given(converted(), st.integers(0, 2**32))
@DIFF
def test_converted_types_match_python(obj: Converted, seed: int) -> None:
    _differential(obj, seed)


@given(surrogates(), st.integers(0, 2**32))
@DIFF
def test_surrogates_and_wrappers_match_python(obj: Surrogates, seed: int) -> None:
    _differential(obj, seed)


@given(st.binary(max_size=40))
@settings(derandomize=True, max_examples=300)
def test_random_bytes_match_python(data: bytes) -> None:
    for cls in CONTRACTS:
        _same(_outcome(NAT.deserialize, cls, data), _outcome(PY.deserialize, cls, data))


JUNK = st.one_of(
    st.none(),
    st.integers(-(2**40), 2**40),
    st.text(max_size=3),
    st.binary(max_size=3),
    st.sampled_from([Decimal("1.5"), uuid.UUID(int=5), datetime.date(2020, 2, 29), 1.5]),
    st.just(datetime.datetime(2020, 1, 1)),
    st.builds(Point, st.integers(0, 5), st.integers(0, 5)),
    st.lists(st.integers(0, 3), max_size=2),
)


@given(st.data())
@settings(derandomize=True, max_examples=200)
def test_bad_values_give_the_python_errors(data: st.DataObject) -> None:
    cls = data.draw(st.sampled_from([Converted, Surrogates, Required]))
    obj = {
        Converted: Converted(),
        Surrogates: Surrogates(Point(1, 2)),
        Required: Required(Decimal("1"), datetime.date(2000, 1, 1)),
    }[cls]
    name = data.draw(st.sampled_from(list(obj.__dataclass_fields__)))
    setattr(obj, name, data.draw(JUNK))
    nat, py = _outcome(NAT.serialize, obj), _outcome(PY.serialize, obj)
    assert nat == py


def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = bytearray()
    while n >= 128:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


@pytest.mark.parametrize(
    "data",
    [
        b"\x28" + _varint(-1),  # day -1: before 0001-01-01
        b"\x28" + _varint(3652059),  # after 9999-12-31
        b"\x28" + _varint(3652058),  # 9999-12-31 itself
        b"\x28" + _varint(2**31),  # an int32 varint beyond the range: negative
        b"\x0a\x03abc",  # not a decimal number
        b"\x1a\x04abcd",  # not a UUID
        b"\x22\x03abc",  # a UUID needs 16 bytes
        b"\x22\x10" + bytes(range(16)),
        b"\x40" + _varint(-5),  # a negative flag number stays an int
        b"\x40" + _varint(2**20 + 3),  # bits no member names
        b"\x5a\x02" + _varint(-1)[:1] + b"\x01",  # packed flags
        b"\x6a\x06\x0a\x01x\x12\x011",  # a map entry whose key is no UUID
        b"\x72\x02\x08\x01",  # a map entry without its value: bytearray()
    ],
)
def test_conversion_edges_match_python(data: bytes) -> None:
    _same(_outcome(NAT.deserialize, Converted, data), _outcome(PY.deserialize, Converted, data))


def test_surrogate_errors_and_absent_values_match_python() -> None:
    refused = PY.serialize(Surrogates(Point(1, 2, "refuse")))
    _same(
        _outcome(NAT.deserialize, Surrogates, refused),
        _outcome(PY.deserialize, Surrogates, refused),
    )
    # an absent non-Optional surrogate is from_surrogate(PointMessage())
    assert NAT.deserialize(Surrogates, b"") == Surrogates(Point(0, 0))
    # a map entry without its value: from_surrogate of the empty message
    entry = b"\x22\x03\x0a\x01k"
    assert NAT.deserialize(Surrogates, entry).named == {"k": Point(0, 0)}
    for data in (b"", entry):
        _same(
            _outcome(NAT.deserialize, Surrogates, data), _outcome(PY.deserialize, Surrogates, data)
        )


def test_required_converted_fields() -> None:
    obj = Required(Decimal("-1.25"), datetime.date(1999, 12, 31))
    assert NAT.serialize(obj) == PY.serialize(obj)
    assert repr(NAT.deserialize(Required, NAT.serialize(obj))) == repr(obj)
    for bad in (Required(None, obj.day), Required(obj.price, None)):  # type: ignore[arg-type]
        assert _outcome(NAT.serialize, bad) == _outcome(PY.serialize, bad)
    _same(_outcome(NAT.deserialize, Required, b""), _outcome(PY.deserialize, Required, b""))


def test_top_level_surrogates_and_lists() -> None:
    p = Point(3, -4, "p")
    assert NAT.serialize(p) == PY.serialize(p)
    assert NAT.deserialize(Point, NAT.serialize(p)) == p
    items = [Converted(price=Decimal("2.5")), Converted(day=datetime.date(2024, 2, 29))]
    data = NAT.serialize(items, type=list[Converted])
    assert data == PY.serialize(items, type=list[Converted])
    assert NAT.deserialize(list[Converted], data) == items


def test_every_day_converts_as_python_does() -> None:
    """The engine computes a date's day number and the date of a day number in C: every
    7th day of 0001-01-01..9999-12-31 (and the ends) round trips as in Python."""
    days = [datetime.date.fromordinal(n) for n in range(1, 3652060, 7)] + [datetime.date.max]
    obj = Converted(days=days)
    data = NAT.serialize(obj)
    assert data == PY.serialize(obj)
    assert NAT.deserialize(Converted, data).days == days


class MyUUID(uuid.UUID):
    def __str__(self) -> str:
        return "{" + super().__str__() + "}"


@pytest.mark.parametrize(
    "text",
    [
        "12345678-1234-5678-1234-567812345678",
        "ABCDEF01-ABCD-EF01-ABCD-EF0123456789",  # upper case: UUID keeps the number
        "{12345678-1234-5678-1234-567812345678}",
        "urn:uuid:12345678-1234-5678-1234-567812345678",
        "12345678123456781234567812345678",
        "1234567-81234-5678-1234-567812345678",  # dashes elsewhere: UUID drops them all
        "+2345678-1234-5678-1234-567812345678",  # int(..., 16) takes a sign
        "12345678-1234-5678-1234-56781234567g",
        "12345678-1234-5678-1234-5678123456789",
        "1234_678-1234-5678-1234-567812345678",
        "١٢٣٤٥٦٧٨-1234-5678-1234-567812345678",  # non-ASCII digits
    ],
)
def test_uuid_texts_decode_as_uuid_does(text: str) -> None:
    data = b"\x1a" + _varint(len(text.encode())) + text.encode()
    _same(_outcome(NAT.deserialize, Converted, data), _outcome(PY.deserialize, Converted, data))


def test_uuid_subclasses_and_odd_values_encode_as_python() -> None:
    u = MyUUID(int=2**127 + 5)
    for obj in (
        Converted(id=u, ids=[u]),
        Converted(raw_id=u),
        Converted(id="12345678-1234-5678-1234-567812345678"),  # type: ignore[arg-type]
        Converted(raw_id="x"),  # type: ignore[arg-type]
    ):
        assert _outcome(NAT.serialize, obj) == _outcome(PY.serialize, obj)
    odd = uuid.UUID(int=1)
    object.__setattr__(odd, "int", 2**130)  # more than 32 hex digits: str() says what it says
    assert _outcome(NAT.serialize, Converted(id=odd)) == _outcome(PY.serialize, Converted(id=odd))
    back = NAT.deserialize(Converted, NAT.serialize(Converted(id=uuid.UUID(int=3))))
    assert type(back.id) is uuid.UUID and back.id.is_safe is uuid.SafeUUID.unknown


def test_surrogates_seen_twice_merge_as_python_does() -> None:
    """A singular surrogate (and a map value) seen twice merges into the surrogate's
    contract (``to_surrogate(previous)``), whichever engine reads it."""
    twice = PY.serialize(Surrogates(Point(1, 2, "a"))) + PY.serialize(Surrogates(Point(0, 5)))
    entry = PY.serialize(Surrogates(Point(1, 2), named={"k": Point(3, 3)}))
    entry += b"\x22\x07\x0a\x01k\x12\x02\x10\x07"  # the same key again, its value as a message
    for data in (twice, entry):
        nat = _outcome(NAT.deserialize, Surrogates, data)
        _same(nat, _outcome(PY.deserialize, Surrogates, data))
    assert NAT.deserialize(Surrogates, twice).point == Point(1, 5, "a")
