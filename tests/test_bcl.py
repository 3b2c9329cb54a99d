"""protobuf-net's bcl.proto forms (pa.bcl.*, compatibility_level): golden bytes.

The time vectors are protobuf-net's own test expectations (a root value is field 1 of
a wrapper); the decimal and Guid vectors are derived from its PrimaryTypeProvider
(lo/hi/signScale of decimal.GetBits; the halves of Guid.ToByteArray() as fixed64) and
its layout check (12345678-2345-3456-4567-56789a6789ab -> lo 0x3456234512345678,
hi 0xAB89679A78566745).  Run under each backend (PROTOATTR_BACKEND).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from typing import Annotated
from uuid import UUID

import pytest

import protoattr as pa
from protoattr import DecodeError, EncodeError, field, proto_contract

UTC = timezone.utc
H = bytes.fromhex


@proto_contract
@dataclass
class DT:
    v: pa.bcl.DateTime = field(1)


@proto_contract
@dataclass
class DTK:
    v: pa.bcl.DateTimeWithKind = field(1)


@proto_contract
@dataclass
class DTs:
    v: list[pa.bcl.DateTime] = field(1)


@proto_contract
@dataclass
class TS:
    v: pa.bcl.TimeSpan = field(1, default=timedelta(0))


@proto_contract
@dataclass
class TSs:
    v: list[pa.bcl.TimeSpan] = field(1)


@proto_contract
@dataclass
class Dec:
    v: pa.bcl.Decimal = field(1, default=Decimal(0))


@proto_contract
@dataclass
class Decs:
    v: list[pa.bcl.Decimal] = field(1)


@proto_contract
@dataclass
class G:
    v: pa.bcl.Guid = field(1, default=UUID(int=0))


@proto_contract
@dataclass
class Gs:
    v: list[pa.bcl.Guid] = field(1)


MODEL = pa.TypeModel()


def roundtrip(obj: object, expected: bytes) -> None:
    data = MODEL.serialize(obj)
    assert data.hex(" ") == expected.hex(" ")
    assert MODEL.measure(obj) == len(expected)
    assert MODEL.deserialize(type(obj), expected) == obj
    assert MODEL.deep_clone(obj) == obj


MOMENT = datetime(2019, 9, 27, 10, 25, 32, 123000)

TIME_VECTORS = [
    (DT(datetime.min), "0A 04 08 01 10 0F"),
    (DT(datetime.max), "0A 04 08 02 10 0F"),
    (DT(MOMENT), "0A 09 08 B6 E7 88 A4 AE 5B 10 04"),
    (DTK(MOMENT), "0A 09 08 B6 E7 88 A4 AE 5B 10 04"),  # unspecified: no kind written
    (DTK(MOMENT.replace(tzinfo=UTC)), "0A 0B 08 B6 E7 88 A4 AE 5B 10 04 18 01"),
    (DTK(datetime.min), "0A 04 08 01 10 0F"),  # MinValue: never a kind
    (
        DTs([datetime(2010, 2, 1), datetime(2019, 9, 3, 10, 30, 32)]),
        "0A 04 08 E2 E4 01 0A 08 08 90 83 F2 D6 0B 10 03",
    ),
    (
        TS(timedelta(days=32, hours=10, minutes=25, seconds=32, milliseconds=123)),
        "0A 08 08 B6 C7 C1 F0 14 10 04",
    ),
    (
        # new TimeSpan(2010, 2, 1) is 2010 h 2 min 1 s; new TimeSpan(9, 3, 10, 30, 32)
        TSs(
            [
                timedelta(hours=2010, minutes=2, seconds=1),
                timedelta(days=9, hours=3, minutes=10, seconds=30, milliseconds=32),
            ]
        ),
        "0A 07 08 B2 A8 F3 06 10 03 0A 08 08 A0 92 BD F0 05 10 04",
    ),
    (TS(timedelta(0)), ""),  # default(TimeSpan) as a member: nothing written
    (TS(timedelta.min), "0A 04 08 01 10 0F"),
    (TS(timedelta.max), "0A 04 08 02 10 0F"),
]


@pytest.mark.parametrize(("obj", "hexbytes"), TIME_VECTORS)
def test_protobuf_net_time_vectors(obj: object, hexbytes: str) -> None:
    roundtrip(obj, H(hexbytes))


def test_the_kind_is_read_whatever_the_annotation() -> None:
    body = "0A 0B 08 B6 E7 88 A4 AE 5B 10 04 18 0"
    assert MODEL.deserialize(DT, H(body + "1")).v == MOMENT.replace(tzinfo=UTC)
    assert MODEL.deserialize(DT, H(body + "2")).v == MOMENT  # local: naive wall clock
    assert MODEL.deserialize(DT, H(body + "0")).v == MOMENT


def test_an_aware_datetime_in_another_zone_writes_its_utc_instant() -> None:
    paris = MOMENT.replace(tzinfo=timezone(timedelta(hours=2)))
    assert MODEL.serialize(DT(paris)) == MODEL.serialize(DT(MOMENT - timedelta(hours=2)))
    assert MODEL.serialize(DTK(paris)) == MODEL.serialize(
        DTK((MOMENT - timedelta(hours=2)).replace(tzinfo=UTC))
    )


def test_datetime_is_written_even_at_min_value() -> None:
    @proto_contract
    @dataclass
    class WithDefault:
        v: pa.bcl.DateTime = field(1, default=datetime.min)

    assert MODEL.serialize(WithDefault()) == H("0A 04 08 01 10 0F")
    assert MODEL.deserialize(WithDefault, b"") == WithDefault(datetime.min)


@pytest.mark.parametrize(
    ("scale", "value", "expected"),
    [
        (0, 1, datetime(1970, 1, 2)),
        (1, 1, datetime(1970, 1, 1, 1)),
        (2, 1, datetime(1970, 1, 1, 0, 1)),
        (3, -1, datetime(1969, 12, 31, 23, 59, 59)),
        (4, 1, datetime(1970, 1, 1, 0, 0, 0, 1000)),
        (5, 10, datetime(1970, 1, 1, 0, 0, 0, 1)),
    ],
)
def test_every_scale_is_read(scale: int, value: int, expected: datetime) -> None:
    z = (value << 1) ^ (value >> 63)
    body = bytes([0x08, z, 0x10, scale])
    assert MODEL.deserialize(DT, bytes([0x0A, len(body)]) + body).v == expected


def test_sub_microsecond_ticks_are_an_error_and_scaled_ticks_keep_them() -> None:
    data = H("0A 04 08 02 10 05")  # 1 tick
    with pytest.raises(DecodeError, match=r"whole microseconds.*ScaledTicks"):
        MODEL.deserialize(DT, data)
    with pytest.raises(DecodeError, match="whole microseconds"):
        MODEL.deserialize(TS, data)

    @proto_contract
    @dataclass
    class Relay:
        v: pa.bcl.ScaledTicks | None = field(1, default=None)

    relayed = MODEL.deserialize(Relay, data)
    assert relayed.v == pa.bcl.ScaledTicks(value=1, scale=5)
    assert MODEL.serialize(relayed) == data


@pytest.mark.parametrize(
    "hexbytes",
    [
        "0A 02 10 06",  # unknown scale
        "0A 04 08 06 10 0F",  # MINMAX with value 3
        "0A 02 18 03",  # unknown kind
        "0A 04 08 FE FF",  # truncated
        "0A 0B 08 FE FF FF FF FF FF FF FF FF 01",  # ticks overflow
        "0A 05 08 80 9B EE 02",  # 3,000,000 days: beyond year 9999
    ],
)
def test_bad_time_bodies_are_decode_errors(hexbytes: str) -> None:
    with pytest.raises(DecodeError):
        MODEL.deserialize(DT, H(hexbytes))


def test_unknown_fields_in_a_body_are_skipped() -> None:
    assert MODEL.deserialize(DT, H("0A 06 08 02 10 00 20 07")).v == datetime(1970, 1, 2)
    assert MODEL.deserialize(G, H("0A 02 20 07")).v == UUID(int=0)


def test_timespan_out_of_range_is_an_encode_error() -> None:
    with pytest.raises(EncodeError, match="TimeSpan"):
        MODEL.serialize(TS(timedelta(days=20_000_000)))


# -- decimal ---------------------------------------------------------------------------

MAX_DEC = "79228162514264337593543950335"
DECIMAL_VECTORS = [
    (MAX_DEC, "0A 11 08 FF FF FF FF FF FF FF FF FF 01 10 FF FF FF FF 0F"),
    ("-" + MAX_DEC, "0A 13 08 FF FF FF FF FF FF FF FF FF 01 10 FF FF FF FF 0F 18 01"),
    ("1", "0A 02 08 01"),
    ("-1.5", "0A 04 08 0F 18 03"),
    ("1.0000000000000000000000000000",  # decimal.GetBits: 001C0000 204FCE5E 3E250261 10000000
     "0A 12 08 80 80 80 80 91 CC C0 92 3E 10 DE 9C BF 82 02 18 38"),
    ("0.0000000000000000000000000001", "0A 04 08 01 18 38"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "hexbytes"), DECIMAL_VECTORS)
def test_decimal_vectors(text: str, hexbytes: str) -> None:
    obj = Decs([Decimal(text)])
    roundtrip(obj, H(hexbytes))
    assert MODEL.deserialize(Decs, H(hexbytes)).v[0].as_tuple() == Decimal(text).as_tuple()


@pytest.mark.parametrize("scale", range(29))
def test_decimal_every_scale(scale: int) -> None:
    value = Decimal(12345).scaleb(-scale)
    expected = H("0A") + bytes([5 if scale else 3]) + H("08 B9 60")
    if scale:
        expected += bytes([0x18, scale << 1])
    roundtrip(Decs([value]), expected)
    assert MODEL.deserialize(Decs, expected).v[0].as_tuple() == value.as_tuple()


def test_decimal_zero_negative_zero_and_the_default() -> None:
    roundtrip(Decs([Decimal(0), Decimal("-0")]), H("0A 00 0A 02 18 01"))
    back = MODEL.deserialize(Decs, H("0A 02 18 01")).v[0]
    assert back.is_signed() and back == 0
    assert MODEL.serialize(Dec(Decimal("0.00"))) == b""  # == 0, as in .NET: not written
    assert MODEL.serialize(Dec(Decimal("-0"))) == b""


def test_decimal_that_does_not_fit_is_an_encode_error() -> None:
    for bad in ["1" * 30, "NaN", "Infinity", "1E-29"]:
        with pytest.raises(EncodeError):
            MODEL.serialize(Dec(Decimal(bad)))
    # trailing zeros go where that makes it fit, exactly
    assert MODEL.deserialize(Dec, MODEL.serialize(Dec(Decimal("1E+5")))).v == 100000
    assert MODEL.deserialize(Dec, MODEL.serialize(Dec(Decimal("1.0E-27")))).v == Decimal("1E-27")


def test_decimal_scale_beyond_28_is_a_decode_error() -> None:
    with pytest.raises(DecodeError, match="scale 29"):
        MODEL.deserialize(Dec, H("0A 04 08 01 18 3A"))


# -- guid ------------------------------------------------------------------------------


def test_guid_vectors() -> None:
    g = UUID("12345678-2345-3456-4567-56789a6789ab")
    wire = H("0A 12 09") + (0x3456234512345678).to_bytes(8, "little")
    wire += H("11") + (0xAB89679A78566745).to_bytes(8, "little")
    roundtrip(Gs([g]), wire)
    roundtrip(Gs([UUID(int=0)]), H("0A 00"))  # Guid.Empty: an empty body
    roundtrip(G(UUID(int=0)), b"")  # and not written as a member
    roundtrip(G(g), wire)


# -- compatibility levels --------------------------------------------------------------


@proto_contract(compatibility_level=200)
@dataclass
class Level200:
    when: datetime = field(1)
    wait: timedelta = field(2, default=timedelta(0))
    total: Decimal = field(3, default=Decimal(0))
    ref: UUID = field(4, default=UUID(int=0))


@proto_contract
@dataclass
class Explicit:
    when: pa.bcl.DateTime = field(1)
    wait: pa.bcl.TimeSpan = field(2, default=timedelta(0))
    total: pa.bcl.Decimal = field(3, default=Decimal(0))
    ref: pa.bcl.Guid = field(4, default=UUID(int=0))


@proto_contract(compatibility_level=240)
@dataclass
class Level240:
    when: datetime = field(1)
    total: Decimal = field(3, default=Decimal(0))
    ref: UUID = field(4, default=UUID(int=0))


@proto_contract(compatibility_level=300)
@dataclass
class Level300:
    when: datetime = field(1)
    total: Decimal = field(3, default=Decimal(0))
    at: pa.bcl.DateTime = field(5, default=datetime.min)  # explicit wins over the level


LEVEL_VALUES = [
    (datetime.min, timedelta(0), Decimal(0), UUID(int=0)),
    (datetime(2012, 4, 13, 9, 30), timedelta(minutes=90), Decimal("-12.345"),
     UUID("12345678-2345-3456-4567-56789a6789ab")),
]  # fmt: skip


@pytest.mark.parametrize("values", LEVEL_VALUES)
def test_level_200_is_the_bcl_forms(values: tuple[object, ...]) -> None:
    a, b = Level200(*values), Explicit(*values)  # type: ignore[arg-type]
    assert MODEL.serialize(a) == MODEL.serialize(b)
    assert MODEL.deserialize(Level200, MODEL.serialize(b)) == a


def test_level_240_and_300() -> None:
    when = datetime(2012, 4, 13, 9, 30, tzinfo=UTC)
    obj = Level240(when, Decimal("1.5"), UUID("12345678-2345-3456-4567-56789a6789ab"))
    data = MODEL.serialize(obj)
    assert data.startswith(H("0A 06 08 98 E4 9F FC 04"))  # a Timestamp (seconds only)
    assert H("1A 04 08 0F 18 02") in data  # bcl.Decimal 1.5
    assert MODEL.deserialize(Level240, data) == obj
    old = Level300(when, Decimal("1.5"))
    assert MODEL.serialize(old) == H("0A 06 08 98 E4 9F FC 04 1A 03 31 2E 35 2A 04 08 01 10 0F")


def test_bad_level_is_a_contract_error() -> None:
    with pytest.raises(pa.ContractError, match="compatibility_level"):

        @proto_contract(compatibility_level=250)
        @dataclass
        class Bad:
            x: int = field(1)


def test_a_bcl_annotation_on_the_wrong_type_is_a_contract_error() -> None:
    with pytest.raises(pa.ContractError, match=r"bcl\.DateTime annotates datetime"):

        @proto_contract
        @dataclass
        class Bad:
            x: Annotated[int, pa.bcl.DateTime.__metadata__[0]] = field(1)


# -- the README's Task, as protobuf-net writes it at its default level ----------------


@proto_contract(compatibility_level=200)
@dataclass
class Task:
    id: int = field(1)
    name: str = field(2, default="")
    created_at: datetime | None = field(3, default=None)


def test_protobuf_net_task_is_read_at_level_200() -> None:
    # what protobuf-net writes for Task { Id = 1, Name = "x", CreatedAt = 2012-04-13 09:30 }
    data = H("08 01 12 01 78 1A 07 08 B4 D4 9A 15 10 02")
    task = MODEL.deserialize(Task, data)
    assert task.created_at == datetime(2012, 4, 13, 9, 30)
    assert MODEL.serialize(task) == data


# -- streams and JSON --------------------------------------------------------------------


def test_streams_carry_bcl_values() -> None:
    items = [Explicit(*v) for v in LEVEL_VALUES]  # type: ignore[arg-type]
    buf = io.BytesIO()
    pa.serialize_items(buf, items, model=MODEL)
    buf.seek(0)
    assert list(pa.deserialize_items(Explicit, buf, model=MODEL)) == items


def test_json_prints_the_bcl_messages_as_objects_and_reads_them_back() -> None:
    obj = Explicit(*LEVEL_VALUES[1])  # type: ignore[arg-type]
    as_dict = MODEL.to_dict(obj)
    assert as_dict == {
        "when": {"value": "22238490", "scale": "MINUTES"},
        "wait": {"value": "90", "scale": "MINUTES"},
        "total": {"lo": "12345", "signScale": 7},
        "ref": {"lo": str(0x3456234512345678), "hi": str(0xAB89679A78566745)},
    }
    assert MODEL.from_dict(Explicit, as_dict) == obj
    assert MODEL.from_json(Explicit, MODEL.to_json(obj)) == obj
    assert MODEL.to_dict(Explicit(datetime.min)) == {"when": {"value": "-1", "scale": "MINMAX"}}
    with pytest.raises(DecodeError, match="scale"):
        MODEL.from_dict(Explicit, {"when": {"scale": "WEEKS"}})


def test_schema_imports_protobuf_net_bcl_proto() -> None:
    text = MODEL.schema(Explicit)
    assert 'import "protobuf-net/bcl.proto";' in text
    for name in ("DateTime when = 1", "TimeSpan wait = 2", "Decimal total = 3", "Guid ref = 4"):
        assert f".bcl.{name};" in text


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        (Explicit("x"), r"Explicit\.when: expected datetime, got str"),  # type: ignore[arg-type]
        (Explicit(datetime.min, timedelta(days=10**8)), r"Explicit\.wait: .*TimeSpan's range"),
        (Explicit(datetime.min, total=Decimal("NaN")), r"Explicit\.total: NaN has no"),
        (Explicit(datetime.min, ref="x"), r"Explicit\.ref: expected UUID"),  # type: ignore[arg-type]
        (Explicit(None), r"Explicit\.when: None is not a bcl\.DateTime"),  # type: ignore[arg-type]
    ],
)
def test_encode_errors_name_the_field(obj: object, message: str) -> None:
    with pytest.raises(EncodeError, match=message):
        MODEL.serialize(obj)


@proto_contract
@dataclass
class Plain:
    when: datetime = field(1)
    wait: timedelta = field(2, default=timedelta(0))
    total: Decimal = field(3, default=Decimal(0))
    ref: UUID = field(4, default=UUID(int=0))


def test_model_level_and_what_wins_over_it() -> None:
    legacy = pa.TypeModel(compatibility_level=200)
    for values in LEVEL_VALUES:
        plain = Plain(*values)  # type: ignore[arg-type]
        data = MODEL.serialize(Explicit(*values))  # type: ignore[arg-type]
        assert legacy.serialize(plain) == data
        assert legacy.deserialize(Plain, data) == plain
        assert legacy.measure(plain) == len(data)
        assert legacy.deep_clone(plain) == plain
    assert legacy.deserialize(Plain, b"").when == datetime.min  # .NET's default(DateTime)
    assert MODEL.deserialize(Plain, b"").when == datetime(1970, 1, 1, tzinfo=UTC)
    # a contract's own level wins over the model's; pa.bcl.* wins over both
    when = datetime(2012, 4, 13, 9, 30, tzinfo=UTC)
    assert legacy.serialize(Level300(when, Decimal("1.5"))) == MODEL.serialize(
        Level300(when, Decimal("1.5"))
    )
    assert pa.TypeModel(compatibility_level=300).serialize(Explicit(when)) == MODEL.serialize(
        Explicit(when)
    )
    with pytest.raises(ValueError, match="compatibility_level"):
        pa.TypeModel(compatibility_level=201)
    plain = Plain(*LEVEL_VALUES[1])  # type: ignore[arg-type]
    assert legacy.from_json(Plain, legacy.to_json(plain)) == plain
    assert legacy.to_dict(plain) == MODEL.to_dict(Explicit(*LEVEL_VALUES[1]))  # type: ignore[arg-type]
    assert ".bcl.DateTime when = 1;" in legacy.schema(Plain)


@proto_contract(include_date_time_kind=True)
@dataclass
class Kinded:
    at: pa.bcl.DateTime = field(1)
    plain: datetime = field(2, default=datetime(1970, 1, 1, tzinfo=UTC))  # a Timestamp still


@proto_contract(compatibility_level=200, include_date_time_kind=False)
@dataclass
class Unkinded:
    at: datetime = field(1)


def test_include_date_time_kind_on_the_contract_and_the_model() -> None:
    utc = MOMENT.replace(tzinfo=UTC)
    with_kind = H("0A 0B 08 B6 E7 88 A4 AE 5B 10 04 18 01")
    assert MODEL.serialize(Kinded(utc)) == with_kind + H("12 00")  # and the Timestamp
    model = pa.TypeModel(include_date_time_kind=True)
    assert model.serialize(DT(utc)) == with_kind
    assert model.serialize(Unkinded(utc)) == H("0A 09 08 B6 E7 88 A4 AE 5B 10 04")  # its own
    assert model.deserialize(DT, with_kind) == DT(utc)
    legacy = pa.TypeModel(compatibility_level=200, include_date_time_kind=True)
    assert legacy.serialize(Plain(utc)).startswith(with_kind)


@proto_contract
@dataclass
class Fixed:
    at: pa.bcl.DateTimeTicks = field(1, default=datetime.min)
    wait: pa.bcl.TimeSpanTicks = field(2, default=timedelta(0))
    many: list[pa.bcl.DateTimeTicks] = field(3, default_factory=list, packed=False)
    packed: list[pa.bcl.TimeSpanTicks] = field(4, default_factory=list)


def test_fixed_size_forms_are_bare_fixed64_ticks() -> None:
    # DataFormat.FixedSize: WriteInt64(ticks) with wire type fixed64 (BclHelpers)
    ticks = 15_695_799_321_230_000  # 2019-09-27 10:25:32.123 from 1970, in 100 ns
    obj = Fixed(MOMENT, timedelta(milliseconds=1))
    expected = H("09") + ticks.to_bytes(8, "little") + H("11") + (10_000).to_bytes(8, "little")
    roundtrip(obj, expected)
    minmax = (
        H("09") + (1 << 63).to_bytes(8, "little") + H("11") + ((1 << 63) - 1).to_bytes(8, "little")
    )
    assert MODEL.deserialize(Fixed, minmax) == Fixed(datetime.min, timedelta.max)
    roundtrip(Fixed(many=[datetime(1970, 1, 1)]), H("19 00 00 00 00 00 00 00 00"))
    roundtrip(
        Fixed(packed=[timedelta(0), timedelta.min]),
        H("22 10") + bytes(8) + (1 << 63).to_bytes(8, "little"),
    )
    aware = MOMENT.replace(tzinfo=timezone(timedelta(hours=-5)))
    assert MODEL.serialize(Fixed(aware)) == MODEL.serialize(Fixed(MOMENT + timedelta(hours=5)))
    with pytest.raises(DecodeError, match="whole microseconds"):
        MODEL.deserialize(Fixed, H("09 01 00 00 00 00 00 00 00"))
    with pytest.raises(pa.ContractError, match="annotates datetime"):

        @proto_contract
        @dataclass
        class Bad:
            x: Annotated[timedelta, pa.bcl.DateTimeTicks.__metadata__[0]] = field(1)

    with pytest.raises(DecodeError, match="whole microseconds"):
        MODEL.deserialize(Fixed, H("22 08 01 00 00 00 00 00 00 00"))  # in a packed run


def test_an_oversized_uint32_is_an_error_even_if_a_later_one_fits() -> None:
    # found by fuzzing: the engine took the last signScale, Python refused the first
    data = H("0A 0E 18 FF FF FF FF FF FF FF FF FF 01 18 01 10 01")
    with pytest.raises(DecodeError, match="does not fit uint32"):
        MODEL.deserialize(Dec, data)


@proto_contract(compatibility_level=200)
@dataclass
class BaseEvent:
    at: datetime = field(1)


@proto_contract(subtype_tag=10)
@dataclass
class Shipped(BaseEvent):
    eta: datetime = field(2, default=datetime.min)


def test_a_subtype_inherits_its_base_level() -> None:
    # protobuf-net's [CompatibilityLevel] is inherited by derived types
    data = MODEL.serialize(Shipped(datetime.min, datetime.min))
    assert data == H("52 06 12 04 08 01 10 0F 0A 04 08 01 10 0F")
    assert MODEL.deserialize(BaseEvent, data) == Shipped(datetime.min, datetime.min)
