"""The well-known types on the wire: byte for byte with Google's runtime (upb).

The twin of :class:`Everything` is its own schema export, compiled by protoc,
so these tests also pin that export imports ``google/protobuf/*.proto``
instead of declaring the types again.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import pytest
from google.protobuf import (
    any_pb2,
    duration_pb2,
    empty_pb2,
    field_mask_pb2,
    struct_pb2,
    timestamp_pb2,
    wrappers_pb2,
)
from hypothesis import given, settings
from hypothesis import strategies as st

import protoattr as pa
from protoattr import field, proto_contract
from tests.protoc import compile_proto

SETTINGS = settings(derandomize=True, max_examples=60)
INT64 = st.integers(-(2**63), 2**63 - 1)
INT32 = st.integers(-(2**31), 2**31 - 1)
INT64_MAX = 2**63 - 1


@proto_contract(package="wkt.test.v1")
@dataclass
class Order:
    id: pa.int32 = field(1, default=0)
    note: str = field(2, default="")


@proto_contract(package="wkt.test.v1")
@dataclass
class Everything:
    ts: pa.Timestamp | None = field(1, default=None)
    dur: pa.Duration | None = field(2, default=None)
    any: pa.Any | None = field(3, default=None)
    struct: pa.Struct | None = field(4, default=None)
    value: pa.JsonValue = field(5, default=None)
    lst: pa.ListValue | None = field(6, default=None)
    d: pa.wrappers.DoubleValue = field(7, default=None)
    f: pa.wrappers.FloatValue = field(8, default=None)
    i64: pa.wrappers.Int64Value = field(9, default=None)
    u64: pa.wrappers.UInt64Value = field(10, default=None)
    i32: pa.wrappers.Int32Value = field(11, default=None)
    u32: pa.wrappers.UInt32Value = field(12, default=None)
    b: pa.wrappers.BoolValue = field(13, default=None)
    s: pa.wrappers.StringValue = field(14, default=None)
    by: pa.wrappers.BytesValue = field(15, default=None)
    mask: pa.FieldMask | None = field(16, default=None)
    empty: pa.Empty | None = field(17, default=None)
    null: pa.NullValue = field(18, default=pa.NullValue.NULL_VALUE)
    values: dict[str, pa.JsonValue] = field(19, default_factory=dict)
    stamps: list[pa.Timestamp] = field(20, default_factory=list)
    order: Order | None = field(21, default=None)


@pytest.fixture(scope="module")
def pb() -> Any:
    return compile_proto(
        pa.default_model.schema(Everything), "wkt_everything", unique_package=False
    )


def test_schema_imports_every_well_known_file_and_declares_none() -> None:
    text = pa.default_model.schema(Everything)
    for name in ("any", "duration", "empty", "field_mask", "struct", "timestamp", "wrappers"):
        assert f'import "google/protobuf/{name}.proto";' in text
    assert "package wkt.test.v1;" in text
    assert "message Timestamp" not in text and "message Any" not in text
    assert "  google.protobuf.Int32Value i32 = 11;" in text
    assert "  map<string, google.protobuf.Value> values = 19;" in text


def test_the_twin_has_googles_types(pb: Any) -> None:
    fields = pb.Everything.DESCRIPTOR.fields_by_name
    assert fields["ts"].message_type.full_name == "google.protobuf.Timestamp"
    assert fields["any"].message_type.full_name == "google.protobuf.Any"
    assert fields["null"].enum_type.full_name == "google.protobuf.NullValue"
    assert pb.Everything.DESCRIPTOR.full_name == pa.default_model.full_name(Everything)


def same_both_ways(pb: Any, obj: Everything, upb: Any) -> None:
    """Equal bytes (deterministic on both sides), and each side reads the other's."""
    ours = pa.serialize(obj, deterministic=True)
    assert ours == upb.SerializeToString(deterministic=True)
    assert pa.deserialize(Everything, upb.SerializeToString()) == obj
    back = pb.Everything()
    back.ParseFromString(pa.serialize(obj))
    assert back == upb


# -- Timestamp and Duration -------------------------------------------------------


@SETTINGS
@given(INT64, INT32, INT64, INT32)
def test_timestamp_and_duration_keep_every_value(pb: Any, s: int, n: int, ds: int, dn: int) -> None:
    obj = Everything(ts=pa.Timestamp(s, n), dur=pa.Duration(ds, dn))
    upb = pb.Everything(
        ts=timestamp_pb2.Timestamp(seconds=s, nanos=n),
        dur=duration_pb2.Duration(seconds=ds, nanos=dn),
    )
    same_both_ways(pb, obj, upb)


def test_never_expires_and_nanos_survive_a_relay(pb: Any) -> None:
    upb = pb.Everything(ts=timestamp_pb2.Timestamp(seconds=INT64_MAX, nanos=123456789))
    data = upb.SerializeToString()
    relayed = pa.serialize(pa.deserialize(Everything, data))
    assert relayed == data
    assert pa.deserialize(Everything, data).ts == pa.Timestamp(INT64_MAX, 123456789)


@proto_contract
@dataclass
class Expiry:
    at: dt.datetime = field(1, default=dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc))
    ttl: dt.timedelta = field(2, default=dt.timedelta(0))


def test_a_datetime_field_that_cannot_hold_the_value_names_field_and_type() -> None:
    data = timestamp_pb2.Timestamp(seconds=INT64_MAX).SerializeToString()
    with pytest.raises(pa.DecodeError, match=r"Expiry\.at: .*pa\.Timestamp"):
        pa.deserialize(Expiry, b"\x0a" + bytes([len(data)]) + data)
    data = duration_pb2.Duration(seconds=INT64_MAX).SerializeToString()
    with pytest.raises(pa.DecodeError, match=r"Expiry\.ttl: .*pa\.Duration"):
        pa.deserialize(Expiry, b"\x12" + bytes([len(data)]) + data)


def test_timestamp_conversions() -> None:
    when = dt.datetime(2024, 2, 29, 12, 30, 15, 250000, tzinfo=dt.timezone.utc)
    ts = pa.Timestamp.from_datetime(when)
    assert ts == pa.Timestamp(1709209815, 250_000_000)
    assert ts.to_datetime() == when
    assert pa.Timestamp.from_datetime(when.replace(tzinfo=None)) == ts  # naive is UTC
    assert pa.Timestamp(0, 123_456_789).to_datetime().microsecond == 123_456  # cut, as upb
    assert pa.Timestamp.from_nanos(-1) == pa.Timestamp(-1, 999_999_999)
    assert pa.Timestamp.from_nanos(-1).to_nanos() == -1
    assert str(pa.Timestamp(0, 1000)) == "1970-01-01T00:00:00.000001Z"
    with pytest.raises(ValueError, match="outside the years"):
        pa.Timestamp(INT64_MAX).to_datetime()
    assert (
        abs(pa.Timestamp.now().to_nanos() - dt.datetime.now(dt.timezone.utc).timestamp() * 1e9)
        < 5e9
    )


def test_timestamps_order_and_hash_by_time() -> None:
    stamps = [pa.Timestamp(1, 5), pa.Timestamp(-1, 999_999_999), pa.Timestamp(1, 0)]
    assert sorted(stamps) == [pa.Timestamp(-1, 999_999_999), pa.Timestamp(1, 0), pa.Timestamp(1, 5)]
    assert len({pa.Timestamp(1, 2), pa.Timestamp(1, 2), pa.Timestamp(1, 3)}) == 2
    assert sorted([pa.Duration(0, -5), pa.Duration(-1, 0), pa.Duration(0, 5)]) == [
        pa.Duration(-1, 0),
        pa.Duration(0, -5),
        pa.Duration(0, 5),
    ]


@SETTINGS
@given(st.timedeltas())
def test_duration_conversions_match_upb(delta: dt.timedelta) -> None:
    ours = pa.Duration.from_timedelta(delta)
    theirs = duration_pb2.Duration()
    theirs.FromTimedelta(delta)
    assert (ours.seconds, ours.nanos) == (theirs.seconds, theirs.nanos)
    assert ours.to_timedelta() == delta == theirs.ToTimedelta()
    assert pa.Duration.from_nanos(ours.to_nanos()) == ours


def test_duration_to_timedelta_cuts_towards_zero() -> None:
    assert pa.Duration(0, -1500).to_timedelta() == dt.timedelta(microseconds=-1)
    assert str(pa.Duration(-1, -5000)) == "-1.000005s"
    with pytest.raises(ValueError, match="timedelta"):
        pa.Duration(INT64_MAX).to_timedelta()


# -- Struct, Value, ListValue ------------------------------------------------------

JSON_LEAVES = (
    st.none()
    | st.booleans()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
JSON = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
OBJECTS = st.dictionaries(st.text(max_size=6), JSON, max_size=5)


def upb_value(x: Any) -> Any:
    v = struct_pb2.Value()
    if isinstance(x, dict):
        v.struct_value.SetInParent()  # set, even when empty
        v.struct_value.update(x)
    elif isinstance(x, list):
        v.list_value.SetInParent()
        v.list_value.extend(x)
    elif x is None:
        v.null_value = struct_pb2.NULL_VALUE
    elif isinstance(x, bool):
        v.bool_value = x
    elif isinstance(x, float):
        v.number_value = x
    else:
        v.string_value = x
    return v


@SETTINGS
@given(OBJECTS, JSON, st.lists(JSON, max_size=4))
def test_struct_value_and_list_are_googles(
    pb: Any, obj: dict[str, Any], value: Any, items: list[Any]
) -> None:
    upb = pb.Everything()
    upb.struct.SetInParent()  # present, even when empty: the fields are Optional
    upb.struct.update(obj)
    upb.lst.SetInParent()
    upb.lst.extend(items)
    if value is not None:
        upb.value.CopyFrom(upb_value(value))
    same_both_ways(pb, Everything(struct=obj, value=value, lst=items), upb)


def test_struct_holds_plain_python_values(pb: Any) -> None:
    obj = Everything(struct={"n": 1, "ok": True, "tags": ["a", None], "sub": {"x": 2.5}})
    upb = pb.Everything()
    upb.ParseFromString(pa.serialize(obj))
    assert dict(upb.struct) == {
        "n": 1.0,
        "ok": True,
        "tags": upb.struct["tags"],
        "sub": upb.struct["sub"],
    }
    assert list(upb.struct["tags"]) == ["a", None]
    # numbers travel as doubles, so they come back as floats
    assert pa.deserialize(Everything, pa.serialize(obj)).struct == {
        "n": 1.0,
        "ok": True,
        "tags": ["a", None],
        "sub": {"x": 2.5},
    }


def test_a_map_of_json_values(pb: Any) -> None:
    # a pa.JsonValue holding null holds NULL_VALUE (None is what it writes the same way)
    obj = Everything(values={"a": pa.NullValue.NULL_VALUE, "b": [1.0], "c": {"d": "e"}})
    upb = pb.Everything()
    for k, v in obj.values.items():
        upb.values[k].CopyFrom(upb_value(None if v is pa.NullValue.NULL_VALUE else v))
    same_both_ways(pb, obj, upb)
    with_none = Everything(values={"a": None, "b": [1.0], "c": {"d": "e"}})
    assert pa.serialize(with_none, deterministic=True) == pa.serialize(obj, deterministic=True)


def test_values_that_are_not_json_name_the_field() -> None:
    with pytest.raises(pa.EncodeError, match=r"Everything\.struct: .*set"):
        pa.serialize(Everything(struct={"a": {1, 2}}))
    with pytest.raises(pa.EncodeError, match=r"Everything\.struct: .*keys are strings"):
        pa.serialize(Everything(struct={1: "a"}))  # type: ignore[dict-item]
    with pytest.raises(pa.EncodeError, match=r"Everything\.lst: expected list"):
        pa.serialize(Everything(lst="abc"))  # type: ignore[arg-type]


# -- wrappers ------------------------------------------------------------------------

WRAPPED = [
    ("d", wrappers_pb2.DoubleValue, [0.0, -0.0, 1.5, 1e300]),
    ("f", wrappers_pb2.FloatValue, [0.0, 0.5, -2.0]),
    ("i64", wrappers_pb2.Int64Value, [0, -1, -(2**63), 2**63 - 1]),
    ("u64", wrappers_pb2.UInt64Value, [0, 2**64 - 1]),
    ("i32", wrappers_pb2.Int32Value, [0, -1, 2**31 - 1]),
    ("u32", wrappers_pb2.UInt32Value, [0, 2**32 - 1]),
    ("b", wrappers_pb2.BoolValue, [False, True]),
    ("s", wrappers_pb2.StringValue, ["", "héllo"]),
    ("by", wrappers_pb2.BytesValue, [b"", b"\x00\xff"]),
]


@pytest.mark.parametrize(("name", "wrapper", "values"), WRAPPED, ids=[w[0] for w in WRAPPED])
def test_wrappers_write_zero_and_skip_none(
    pb: Any, name: str, wrapper: Any, values: list[Any]
) -> None:
    for v in values:
        upb = pb.Everything(**{name: wrapper(value=v)})
        same_both_ways(pb, Everything(**{name: v}), upb)
    assert pa.serialize(Everything(**{name: None})) == b""
    assert getattr(pa.deserialize(Everything, b""), name) is None


def test_a_wrapper_of_the_wrong_type_names_the_field() -> None:
    with pytest.raises(pa.EncodeError, match=r"Everything\.i32: .*Int32Value holds int, not str"):
        pa.serialize(Everything(i32="1"))  # type: ignore[arg-type]
    with pytest.raises(
        pa.EncodeError, match=r"Everything\.i32: 2147483648 does not fit Int32Value"
    ):
        pa.serialize(Everything(i32=2**31))


# -- FieldMask, Empty, NullValue ----------------------------------------------------------


def test_field_mask_empty_and_null(pb: Any) -> None:
    obj = Everything(mask=pa.FieldMask(["user.display_name", "id"]), empty=pa.Empty())
    assert obj.mask == pa.FieldMask(("user.display_name", "id"))
    upb = pb.Everything(
        mask=field_mask_pb2.FieldMask(paths=["user.display_name", "id"]), empty=empty_pb2.Empty()
    )
    same_both_ways(pb, obj, upb)
    with pytest.raises(TypeError, match="not one string"):
        pa.FieldMask("a.b")  # type: ignore[arg-type]


def test_repeated_timestamps(pb: Any) -> None:
    stamps = [pa.Timestamp(1, 2), pa.Timestamp(), pa.Timestamp(-5, 0)]
    upb = pb.Everything(
        stamps=[timestamp_pb2.Timestamp(seconds=s.seconds, nanos=s.nanos) for s in stamps]
    )
    same_both_ways(pb, Everything(stamps=stamps), upb)


# -- Any -----------------------------------------------------------------------------


def test_any_packs_like_google(pb: Any) -> None:
    order = Order(7, "seven")
    packed = pa.Any.pack(order)
    assert packed.type_url == "type.googleapis.com/wkt.test.v1.Order"
    theirs = any_pb2.Any()
    theirs.Pack(pb.Order(id=7, note="seven"))
    assert (packed.type_url, packed.value) == (theirs.type_url, theirs.value)
    same_both_ways(pb, Everything(any=packed), pb.Everything(any=theirs))
    assert packed.is_type(Order) and not packed.is_type(Everything)
    assert packed.unpack() == order == packed.unpack(Order)
    assert packed.type_name == "wkt.test.v1.Order"


def test_any_unpacks_what_google_packed(pb: Any) -> None:
    theirs = any_pb2.Any()
    theirs.Pack(pb.Everything(order=pb.Order(id=1), ts=timestamp_pb2.Timestamp(seconds=3)))
    ours = pa.deserialize(pa.Any, theirs.SerializeToString())
    assert ours.unpack() == Everything(order=Order(1), ts=pa.Timestamp(3))


def test_any_of_well_known_values(pb: Any) -> None:
    cases = [
        (pa.Any.pack(5, type=pa.wrappers.Int32Value), wrappers_pb2.Int32Value(value=5), 5),
        (
            pa.Any.pack({"a": 1.0}, type=pa.Struct),
            struct_pb2.Struct(fields={"a": upb_value(1.0)}),
            {"a": 1.0},
        ),
        (
            pa.Any.pack(pa.Timestamp(9, 1)),
            timestamp_pb2.Timestamp(seconds=9, nanos=1),
            pa.Timestamp(9, 1),
        ),
        (pa.Any.pack(pa.Empty()), empty_pb2.Empty(), pa.Empty()),
    ]
    for ours, message, held in cases:
        theirs = any_pb2.Any()
        theirs.Pack(message)
        assert (ours.type_url, ours.value) == (theirs.type_url, theirs.value)
        assert ours.unpack() == held
    assert cases[0][0].is_type(pa.wrappers.Int32Value)
    assert cases[0][0].unpack(pa.wrappers.Int32Value) == 5


def test_any_with_another_prefix_and_errors() -> None:
    packed = pa.Any.pack(Order(1), type_url_prefix="example.com/types")
    assert packed.type_url == "example.com/types/wkt.test.v1.Order"
    assert packed.unpack() == Order(1)
    with pytest.raises(
        pa.DecodeError, match=r"holds 'wkt\.test\.v1\.Order', not 'wkt\.test\.v1\.Everything'"
    ):
        packed.unpack(Everything)
    with pytest.raises(pa.ContractError, match=r"no contract is named 'nowhere\.Thing'"):
        pa.Any("type.googleapis.com/nowhere.Thing", b"").unpack()
    with pytest.raises(pa.ContractError, match="is not a contract"):
        pa.Any.pack(3)


def test_any_through_another_model() -> None:
    model = pa.TypeModel()
    packed = pa.Any.pack(Order(2, "x"), model=model)
    assert packed.unpack(model=model) == Order(2, "x")


AOT_MODELS = """
from dataclasses import dataclass
from typing import Optional
import protoattr as pa

@pa.proto_contract
@dataclass
class Webhook:
    headers: pa.Struct = pa.field(1, default_factory=dict)
    body: pa.JsonValue = pa.field(2, default=None)
    retries: pa.wrappers.Int32Value = pa.field(3, default=None)
    at: Optional[pa.Timestamp] = pa.field(4, default=None)
    detail: Optional[pa.Any] = pa.field(5, default=None)
    tags: pa.ListValue = pa.field(6, default_factory=list)
    mask: pa.FieldMask = pa.field(7, default=pa.FieldMask())
"""


def test_ahead_of_time_modules_hold_well_known_fields(tmp_path: Any) -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    (tmp_path / "hooks.py").write_text(AOT_MODELS)
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(root)]))

    def run(code: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env,
            timeout=60,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        return done.stdout

    run("import protoattr as pa, hooks\n"
        "pa.default_model.add(hooks.Webhook)\n"
        "pa.default_model.write_module('hooks_codecs.py')\n")  # fmt: skip
    out = run(
        "import protoattr as pa, protoattr._python.codegen as cg, hooks\n"
        "import hooks_codecs\n"
        "cg.codec_source = None  # nothing may be generated from here on\n"
        "w = hooks.Webhook({'a': [1]}, 'x', 0, pa.Timestamp(1, 2), pa.Any.pack(pa.Empty()),\n"
        "                  [None], pa.FieldMask(['a']))\n"
        "assert pa.deserialize(hooks.Webhook, pa.serialize(w)) == hooks.Webhook(\n"
        "    {'a': [1.0]}, 'x', 0, pa.Timestamp(1, 2), pa.Any.pack(pa.Empty()), [None],\n"
        "    pa.FieldMask(['a']))\n"
        "print('ok')\n"
    )
    assert out == "ok\n"


@proto_contract(package="wkt.test.v1")
@dataclass
class Plain:
    attrs: dict[str, Any] = field(1, default_factory=dict)


def test_a_plain_dict_of_any_is_a_struct(pb: Any) -> None:
    assert pa.default_model.info(Plain).fields[0].value.py_type is pa.default_model.find(
        "google.protobuf.Struct"
    )
    struct = struct_pb2.Struct()
    struct.update({"a": [1.0, "b"]})
    expected = b"\x0a" + bytes([struct.ByteSize()]) + struct.SerializeToString()
    assert pa.serialize(Plain({"a": [1, "b"]})) == expected
    assert "google.protobuf.Struct attrs = 1;" in pa.default_model.schema(Plain)


def test_str_of_values_without_a_json_form_is_their_repr() -> None:
    assert str(pa.Timestamp(INT64_MAX)) == f"Timestamp(seconds={INT64_MAX}, nanos=0)"
    assert str(pa.Duration(1, -1)) == "Duration(seconds=1, nanos=-1)"


def test_a_field_seen_twice_merges_as_upb_merges(pb: Any) -> None:
    cases = [
        bytes.fromhex("5a020805") + bytes.fromhex("5a00"),  # Int32Value 5, then an empty one
        pa.serialize(Everything(struct={"a": 1.0})) + pa.serialize(Everything(struct={"b": "x"})),
        pa.serialize(Everything(ts=pa.Timestamp(5, 0))) + bytes.fromhex("0a021007"),  # nanos only
        pa.serialize(Everything(mask=pa.FieldMask(["a"])))
        + pa.serialize(Everything(mask=pa.FieldMask(["b"]))),
    ]
    for data in cases:
        ours = pa.deserialize(Everything, data)
        assert pa.serialize(ours, deterministic=True) == pb.Everything.FromString(
            data
        ).SerializeToString(deterministic=True)
    assert pa.deserialize(Everything, cases[2]).ts == pa.Timestamp(5, 7)
    merged = pa.merge(Everything(struct={"a": 1.0}), pa.serialize(Everything(struct={"b": "x"})))
    assert merged.struct == {"a": 1.0, "b": "x"}


@proto_contract
@dataclass
class Choice:
    count: pa.wrappers.Int32Value = field(1, default=None, oneof="kind")
    doc: pa.JsonValue = field(2, default=None, oneof="kind")


def test_wrappers_and_json_values_can_be_oneof_members() -> None:
    assert pa.serialize(Choice(count=0)) == b"\x0a\x00"
    assert pa.deserialize(Choice, b"\x0a\x00") == Choice(count=0)
    assert pa.deserialize(Choice, pa.serialize(Choice(doc={"a": None}))) == Choice(doc={"a": None})
    assert pa.deserialize(Choice, b"\x0a\x00" + pa.serialize(Choice(doc="x"))) == Choice(doc="x")
    with pytest.raises(pa.EncodeError, match="oneof"):
        pa.serialize(Choice(count=1, doc="x"))


def test_timestamp_and_duration_arithmetic_is_exact() -> None:
    t = pa.Timestamp(10, 999_999_999)
    d = pa.Duration(1, 2)
    assert t + d == pa.Timestamp(12, 1) == d + t
    assert t - d == pa.Timestamp(9, 999_999_997)
    assert (t + d) - t == d
    assert pa.Timestamp(0) - pa.Timestamp(1, 5) == pa.Duration(-1, -5)
    assert d + d == pa.Duration(2, 4) and d - d == pa.Duration() and -d == pa.Duration(-1, -2)
    with pytest.raises(TypeError):
        t + t  # type: ignore[operator]
