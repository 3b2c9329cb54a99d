"""The well-known types the C engine's JSON reader and writer take on, against the
Python reference and ``google.protobuf.json_format``.

Each text is read by a native model and by a Python model, which must agree exactly
(the same object by ``repr``, or the same ``DecodeError``); canonical texts must be
taken by the C reader itself (its fallback count stays put, so a silent hand-over to
the reference fails here).  What the engine reads is also compared with what
``json_format.Parse`` reads into the upb message of the contract's own schema.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from google.protobuf import (
    any_pb2,
    descriptor_pb2,
    descriptor_pool,
    duration_pb2,
    field_mask_pb2,
    json_format,
    message_factory,
    struct_pb2,
    timestamp_pb2,
    wrappers_pb2,
)
from hypothesis import given
from hypothesis import strategies as st

import protoattr as pa
import protoattr._native as native
from protoattr import field, proto_contract
from protoattr._core import wkt as _wkt
from tests.test_json_native_read import FEW, NAT, PY, _outcome, same
from tests.test_json_native_write import OPTIONS as WRITE_OPTIONS
from tests.test_json_native_write import reference, taken
from tests.test_json_native_write import same as write_same

pytestmark = pytest.mark.skipif(not native.available(), reason="C engine not built")


@proto_contract
@dataclasses.dataclass
class Doc:
    s: pa.Struct = field(1, default_factory=dict)  # type: ignore[assignment]
    v: pa.JsonValue = field(2, default=None)
    items: pa.ListValue = field(3, default_factory=list)  # type: ignore[assignment]
    values: list[pa.JsonValue] = field(4, default_factory=list)
    by_key: dict[str, pa.JsonValue] = field(5, default_factory=dict)
    structs: list[pa.Struct] = field(6, default_factory=list)  # type: ignore[valid-type]
    when: datetime = field(7, default=datetime(1970, 1, 1, tzinfo=timezone.utc))
    took: timedelta = field(8, default=timedelta(0))
    n: pa.int32 = field(9, default=0)


def _upb_class(cls: type, package: str) -> Any:
    pool = descriptor_pool.DescriptorPool()
    fds = descriptor_pb2.FileDescriptorSet.FromString(
        pa.default_model.descriptor_set(cls, package=package)
    )
    for f in fds.file:
        pool.Add(f)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{package}.{cls.__name__}"))


UPB_DOC = _upb_class(Doc, "nativewkt")


def _as_google_reads(cls: type, upb_cls: Any, text: str) -> Any:
    """What ``json_format.Parse`` reads from ``text``, brought back through the wire."""
    message = json_format.Parse(text, upb_cls())
    return NAT.deserialize(cls, message.SerializeToString())


# ------------------------------------------------- Struct, Value, ListValue reading

VALUE_CASES: list[tuple[str, bool]] = [
    ('{"s": {"a": 1, "b": [null, true, "x", {"c": -0}], "d": -0.0, "e": 1e300}}', True),
    ('{"v": null}', True),
    ('{"v": 1}', True),
    ('{"v": "t\\u00e9\\ud83d\\ude00"}', True),
    ('{"v": [1, [2, [3, {}]], {"k": null}]}', True),
    ('{"v": {"a": {"b": {}}}}', True),
    ('{"items": [1.5, [], {}, null, false]}', True),
    ('{"values": [null, 1, "a", [], {"x": [null]}]}', True),
    ('{"byKey": {"a": null, "b": {"c": 2}}}', True),
    ('{"structs": [{}, {"a": "b"}]}', True),
    ('{"s": null, "items": null, "values": null, "byKey": null, "structs": null}', True),
    ('{"s": {}, "v": {}, "items": [], "values": [], "byKey": {}, "structs": []}', True),
    ('{"v": 123456789012345678901234567890}', True),  # float() of a big int
    ('{"v": 1e400}', False),  # not a finite number
    ('{"v": -1e400}', False),
    ('{"v": NaN}', False),
    ('{"v": Infinity}', False),
    ('{"s": {"a": 1, "a": 2}}', False),  # a key twice
    ('{"v": {"a": {"b": 1, "b": 1}}}', False),
    ('{"s": {"\\ud800": 1}}', False),  # a lone surrogate
    ('{"v": "\\udc00"}', False),
    ('{"s": []}', False),
    ('{"s": 1}', False),
    ('{"items": {}}', False),
    ('{"items": "x"}', False),
    ('{"structs": [null]}', False),
    ('{"structs": [[]]}', False),
    ('{"v": [1,]}', False),
    ('{"v": {"a" 1}}', False),
    ('{"v": tru}', False),
    ('{"v": 01}', False),
    ('{"s": {"a": 1}', False),
    ('{"v": 1, "v": 2}', False),
]


@pytest.mark.parametrize(("text", "taken"), VALUE_CASES)
def test_json_values_read_as_the_reference_reads_them(text: str, taken: bool) -> None:
    same(Doc, text, taken=taken)
    same(Doc, text, True, taken=taken)


#: json_format fails on a null repeated Value field (it looks for ``null_value`` on the list)
_JSON_FORMAT_FAILS = {VALUE_CASES[10][0]}


@pytest.mark.parametrize(
    "text", [t for t, taken in VALUE_CASES if taken and t not in _JSON_FORMAT_FAILS]
)
def test_json_values_read_as_json_format_reads_them(text: str) -> None:
    assert NAT.from_json(Doc, text) == _as_google_reads(Doc, UPB_DOC, text)


def test_json_values_written_by_the_reference_are_read_in_c() -> None:
    doc = Doc(
        s={"a": [1.0, None, {"b": "c"}], "": True},
        v=pa.NullValue.NULL_VALUE,
        items=["x", 2.5, [], {}],
        values=[pa.NullValue.NULL_VALUE, {"k": None}, "s"],
        by_key={"n": pa.NullValue.NULL_VALUE, "l": [False]},
        structs=[{}, {"z": 0.0}],
    )
    for options in ({}, {"indent": None}, {"ensure_ascii": False, "sort_keys": True}):
        text = PY.to_json(doc, **options)
        same(Doc, text, taken=True)
        assert NAT.from_json(Doc, text) == doc


@given(
    st.recursive(
        st.none()
        | st.booleans()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.integers(-(2**70), 2**70)
        | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
        ),
        max_leaves=12,
    )
)
@FEW
def test_random_json_values_are_read_in_c(value: Any) -> None:
    text = json.dumps({"v": value, "items": [value], "byKey": {"k": value}})
    got = same(Doc, text, taken=True)
    assert got[0] == "Doc"


def test_json_values_count_towards_max_depth_as_the_reference_counts_them() -> None:
    texts = [
        '{"v": 1}', '{"v": []}', '{"v": [1]}', '{"v": {}}', '{"v": {"a": 1}}',
        '{"v": [[[]]]}', '{"v": {"a": {"b": {}}}}', '{"s": {}}', '{"s": {"a": 1}}',
        '{"s": {"a": {"b": 1}}}', '{"items": []}', '{"items": [1]}', '{"items": [[1]]}',
        '{"values": [1]}', '{"byKey": {"a": 1}}', '{"byKey": {"a": {"b": [1]}}}',
        '{"structs": [{"a": 1}]}', '{"when": "1970-01-01T00:00:00+01:00"}',
    ]  # fmt: skip
    for max_depth in range(1, 9):
        nat = pa.TypeModel(backend="native", max_depth=max_depth)
        py = pa.TypeModel(backend="python", max_depth=max_depth)
        for text in texts:
            assert _outcome(nat, Doc, text, False) == _outcome(py, Doc, text, False), (
                max_depth,
                text,
            )
    deep = '{"v": ' + "[" * 3000 + "]" * 3000 + "}"
    assert _outcome(NAT, Doc, deep, False) == _outcome(PY, Doc, deep, False)


# ------------------------------------------------------- Timestamps with an offset

OFFSET_CASES: list[tuple[str, bool]] = [
    ('{"when": "2020-01-01T00:30:00+01:00"}', True),
    ('{"when": "2020-01-01T00:30:00.123456789-01:30"}', True),
    ('{"when": "2020-02-29T23:59:59.5+00:00"}', True),
    ('{"when": "2020-02-29T23:59:59-00:00"}', True),
    ('{"when": "1999-12-31T23:00:00-23:59"}', True),
    ('{"when": "0001-01-01T00:30:00-01:00"}', True),
    ('{"when": "0001-01-01T00:59:59+00:59"}', True),
    ('{"when": "9999-12-31T23:30:00+01:00"}', True),
    ('{"when": "9999-12-31T23:30:00-00:30"}', False),  # past 9999 in UTC
    ('{"when": "0001-01-01T00:30:00+01:00"}', False),  # before 0001 in UTC
    ('{"when": "2020-01-01T00:30:00+24:00"}', False),
    ('{"when": "2020-01-01T00:30:00+01:60"}', False),
    ('{"when": "2020-01-01T00:30:00+0100"}', False),
    ('{"when": "2020-01-01T00:30:00+01:00Z"}', False),
    ('{"when": "2020-01-01T00:30:00.+01:00"}', False),
    ('{"when": "2020-01-01T00:30:00.1234567890+01:00"}', False),
    ('{"when": "2021-02-29T00:30:00+01:00"}', False),
    ('{"when": "2020-01-01T24:00:00+01:00"}', False),
    ('{"when": "2020-01-01 00:30:00+01:00"}', False),
    ('{"when": "2020-01-01T00:30:00 01:00"}', False),
]


@pytest.mark.parametrize(("text", "taken"), OFFSET_CASES)
def test_offset_timestamps_read_as_the_reference_reads_them(text: str, taken: bool) -> None:
    same(Doc, text, taken=taken)
    if taken:
        assert NAT.from_json(Doc, text) == _as_google_reads(Doc, UPB_DOC, text)


@given(
    st.datetimes(datetime(1, 1, 2), datetime(9999, 12, 30)),
    st.integers(-(23 * 60 + 59), 23 * 60 + 59),
)
@FEW
def test_random_offset_timestamps_are_read_in_c(when: datetime, minutes: int) -> None:
    sign = "-" if minutes < 0 else "+"
    offset = f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
    text = json.dumps({"when": when.isoformat(timespec="microseconds") + offset})
    same(Doc, text, taken=True)


# ------------------------------------- pa.Timestamp, pa.Duration, pa.FieldMask messages


@proto_contract
@dataclasses.dataclass
class Marks:
    at: pa.Timestamp | None = field(1, default=None)
    took: pa.Duration | None = field(2, default=None)
    mask: pa.FieldMask | None = field(3, default=None)
    ats: list[pa.Timestamp] = field(4, default_factory=list)
    by_key: dict[str, pa.Duration] = field(5, default_factory=dict)
    masks: list[pa.FieldMask] = field(6, default_factory=list)


UPB_MARKS = _upb_class(Marks, "nativewkt")

MARKS = [
    Marks(),
    Marks(pa.Timestamp(0, 0), pa.Duration(0, 0), pa.FieldMask(())),
    Marks(
        pa.Timestamp(-62135596800, 1), pa.Duration(-5, -100000000), pa.FieldMask(("a.b_c", "x")),
        [pa.Timestamp(253402300799, 999999999), pa.Timestamp(1, 1000), pa.Timestamp(2, 5000000)],
        {"k": pa.Duration(315576000000, 0), "": pa.Duration(0, -1), "m": pa.Duration(-1, 0)},
        [pa.FieldMask(("one_two_three", "a1.b_c2")), pa.FieldMask(())],
    ),
    Marks(pa.Timestamp(1577835000, 123456000), pa.Duration(-315576000000, -999999999)),
]  # fmt: skip


@pytest.mark.parametrize("obj", MARKS)
def test_time_and_mask_messages_are_written_in_c(obj: Marks) -> None:
    write_same(obj)
    for options in WRITE_OPTIONS:
        assert taken(obj, **options), options
    google = UPB_MARKS.FromString(NAT.serialize(obj))  # upb orders map entries its own way
    assert NAT.to_json(obj, sort_keys=True) == json_format.MessageToJson(google, sort_keys=True)


BAD_MARKS = [
    Marks(at=pa.Timestamp(253402300800, 0)),
    Marks(at=pa.Timestamp(-62135596801, 0)),
    Marks(at=pa.Timestamp(0, -1)),
    Marks(at=pa.Timestamp(0, 10**9)),
    Marks(at=pa.Timestamp(2**70, 0)),
    Marks(took=pa.Duration(1, -1)),
    Marks(took=pa.Duration(-1, 1)),
    Marks(took=pa.Duration(315576000001, 0)),
    Marks(took=pa.Duration(0, 10**9)),
    Marks(mask=pa.FieldMask(("a_1",))),
    Marks(mask=pa.FieldMask(("aB",))),
    Marks(mask=pa.FieldMask(("a_",))),
    Marks(mask=pa.FieldMask(("a__b",))),
    Marks(mask=pa.FieldMask(("\u00e9_b",))),  # non-ASCII: the reference's
    Marks(ats=[None]),  # type: ignore[list-item]
    Marks(at=pa.Duration(1, 0)),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("obj", BAD_MARKS)
def test_unusual_time_and_mask_messages_are_the_references(obj: Marks) -> None:
    write_same(obj)
    assert not taken(obj)


MARK_CASES: list[tuple[str, bool]] = [
    ('{"at": "1970-01-01T00:00:00Z", "took": "0s", "mask": ""}', True),
    ('{"at": "0001-01-01T00:00:00.000000001Z", "took": "-0.5s", "mask": "a.bC,dEf,,x"}', True),
    ('{"at": "2020-01-01T00:30:00.123456789+01:00", "took": "-0s"}', True),
    (
        '{"ats": ["9999-12-31T23:59:59.999999999Z"], "byKey": {"a": "315576000000.999999999s"}}',
        True,
    ),
    ('{"masks": ["", "aB", "a.b.cDE"], "at": null, "took": null, "mask": null}', True),
    ('{"at": "9999-12-31T23:59:59-00:01"}', False),
    ('{"at": "1970-01-01T00:00:00"}', False),
    ('{"at": 0}', False),
    ('{"ats": [null]}', False),
    ('{"took": "315576000001s"}', False),
    ('{"took": "1.0000000001s"}', False),
    ('{"took": "1"}', False),
    ('{"took": 1}', False),
    ('{"byKey": {"a": null}}', False),
    ('{"mask": "a_b"}', False),
    ('{"mask": "\\u00e9"}', False),
    ('{"mask": 1}', False),
    ('{"masks": [null]}', False),
]


@pytest.mark.parametrize(("text", "taken_"), MARK_CASES)
def test_time_and_mask_messages_read_as_the_reference_reads_them(text: str, taken_: bool) -> None:
    same(Marks, text, taken=taken_)
    if taken_:
        assert NAT.from_json(Marks, text) == _as_google_reads(Marks, UPB_MARKS, text)


def test_time_and_mask_messages_are_levels_of_nesting() -> None:
    for max_depth in (1, 2, 3):
        nat = pa.TypeModel(backend="native", max_depth=max_depth)
        py = pa.TypeModel(backend="python", max_depth=max_depth)
        for text in ('{"at": "1970-01-01T00:00:00Z"}', '{"byKey": {"a": "1s"}}', '{"mask": ""}'):
            assert _outcome(nat, Marks, text, False) == _outcome(py, Marks, text, False)


@given(
    st.integers(-62135596800, 253402300799),
    st.integers(0, 10**9 - 1),
    st.integers(-315576000000, 315576000000),
    st.integers(0, 10**9 - 1),
    st.lists(st.from_regex(r"[a-z][a-z0-9]{0,3}(_[a-z][a-z0-9]{0,2}){0,2}", fullmatch=True)),
)
@FEW
def test_random_time_and_mask_messages_round_trip_in_c(
    seconds: int, nanos: int, span: int, span_nanos: int, paths: list[str]
) -> None:
    took = pa.Duration(span, span_nanos if span >= 0 else -span_nanos)
    obj = Marks(pa.Timestamp(seconds, nanos), took, pa.FieldMask(tuple(paths)))
    assert taken(obj)
    text = NAT.to_json(obj)
    assert text == reference(obj)
    same(Marks, text, taken=True)
    assert NAT.from_json(Marks, text) == obj


# ----------------------------------------------------------------------------- Any


@proto_contract(package="nativewkt.any")
@dataclasses.dataclass
class Payload:
    n: pa.int32 = field(1, default=0)
    name: str = field(2, default="")
    tags: list[str] = field(3, default_factory=list)
    big: int = field(4, default=0)


@proto_contract(package="nativewkt.any")
@dataclasses.dataclass
class Envelope:
    body: pa.Any | None = field(1, default=None)
    bodies: list[pa.Any] = field(2, default_factory=list)
    by_key: dict[str, pa.Any] = field(3, default_factory=dict)
    example: Payload | None = field(4, default=None)  # puts Payload in the schema


def _pool_class(cls: type) -> tuple[Any, Any]:
    """A pool holding ``cls``'s schema and every well-known type (Any payloads), and its class."""
    pool = descriptor_pool.DescriptorPool()
    fds = descriptor_pb2.FileDescriptorSet.FromString(pa.default_model.descriptor_set(cls))
    have = {f.name for f in fds.file}
    for module in (any_pb2, duration_pb2, field_mask_pb2, struct_pb2, timestamp_pb2, wrappers_pb2):
        if module.DESCRIPTOR.name not in have:
            pool.Add(descriptor_pb2.FileDescriptorProto.FromString(module.DESCRIPTOR.serialized_pb))
    for f in fds.file:
        pool.Add(f)
    full = pa.default_model.full_name(cls)
    return pool, message_factory.GetMessageClass(pool.FindMessageTypeByName(full))


ANY_POOL, UPB_ENVELOPE = _pool_class(Envelope)

ENVELOPES = [
    Envelope(pa.Any.pack(Payload(1, "x", ["a", "b"], 2**40))),
    Envelope(pa.Any.pack(Payload())),
    Envelope(pa.Any()),
    Envelope(
        bodies=[
            pa.Any.pack(pa.Timestamp(5, 1000)), pa.Any.pack(pa.Duration(-1, -5)),
            pa.Any.pack(pa.FieldMask(("a_b", "c"))), pa.Any.pack(pa.Any.pack(Payload(2))),
            pa.Any.pack(pa.Any()),
        ] + [pa.Any.pack(contract(value)) for contract, value in (
            (_wkt.Int32ValueMessage, -5), (_wkt.UInt32ValueMessage, 7),
            (_wkt.Int64ValueMessage, -(2**63)), (_wkt.UInt64ValueMessage, 2**64 - 1),
            (_wkt.DoubleValueMessage, float("nan")), (_wkt.DoubleValueMessage, -0.0),
            (_wkt.FloatValueMessage, 0.1), (_wkt.FloatValueMessage, float("-inf")),
            (_wkt.BoolValueMessage, True), (_wkt.StringValueMessage, "s\u00e9\U0001f600"),
            (_wkt.BytesValueMessage, b"\x00\xff"), (_wkt.Int32ValueMessage, 0),
        )],
        by_key={"k": pa.Any.pack(Payload(3)), "": pa.Any()},
    ),
    Envelope(
        bodies=[
            pa.Any.pack(_wkt.to_struct({"a": [1.0, None, {"b": "c"}], "": True})),
            pa.Any.pack(_wkt.to_struct({})), pa.Any.pack(_wkt.to_value(pa.NullValue.NULL_VALUE)),
            pa.Any.pack(_wkt.to_value({"x": [False]})), pa.Any.pack(_wkt.to_value(2.5)),
            pa.Any.pack(_wkt.to_list_value(["s", [], {}])), pa.Any.pack(_wkt.to_list_value([])),
        ]
    ),
]  # fmt: skip


@pytest.mark.parametrize("obj", ENVELOPES, ids=range(len(ENVELOPES)))
def test_any_is_written_in_c(obj: Envelope) -> None:
    write_same(obj)
    for options in WRITE_OPTIONS:
        assert taken(obj, **options), options
    google = UPB_ENVELOPE.FromString(NAT.serialize(obj))
    for options in ({}, {"preserving_proto_field_name": True}):
        ours = NAT.to_json(obj, sort_keys=True, **options)
        theirs = json_format.MessageToJson(
            google, sort_keys=True, descriptor_pool=ANY_POOL, **options
        )
        assert ours == theirs


@proto_contract(package="nativewkt.any")
@dataclasses.dataclass
class OddKeys:  # a key that sorts before "@type"
    n: pa.int32 = field(1, default=0, name="0n")


def test_unusual_anys_are_the_references() -> None:
    unknown = pa.Any("type.googleapis.com/nativewkt.any.Nothing", b"")
    for obj in (
        Envelope(unknown),  # no contract of that name: the reference's EncodeError
        Envelope(pa.Any(pa.Any.pack(Payload()).type_url, b"\xff")),  # does not decode
        Envelope(pa.Any.pack(_wkt.to_value(float("nan")))),  # no JSON form
        Envelope(pa.Any.pack(pa.Timestamp(2**40, 0))),  # no RFC 3339 form
    ):
        write_same(obj)
        assert not taken(obj)
    odd = Envelope(pa.Any.pack(OddKeys(1)))
    write_same(odd)
    assert taken(odd) and not taken(odd, sort_keys=True)


def test_an_any_type_declared_later_is_found() -> None:
    name = "nativewkt.any.Later"
    obj = Envelope(pa.Any(f"type.googleapis.com/{name}", b"\x08\x01"))
    write_same(obj)
    assert not taken(obj)

    @proto_contract(package="nativewkt.any", name="Later")
    @dataclasses.dataclass
    class Later:
        n: pa.int32 = field(1, default=0)

    write_same(obj)
    assert taken(obj)
    assert json.loads(NAT.to_json(obj))["body"] == {"@type": obj.body.type_url, "n": 1}  # type: ignore[union-attr]


@pytest.mark.parametrize("obj", ENVELOPES, ids=range(len(ENVELOPES)))
def test_any_written_by_the_reference_is_read_in_c(obj: Envelope) -> None:
    for options in ({}, {"indent": None, "preserving_proto_field_name": True}):
        text = PY.to_json(obj, **options)
        same(Envelope, text, taken=True)
        same(Envelope, text, True, taken=True)
        assert NAT.from_json(Envelope, text) == obj


_URL = "type.googleapis.com/"
ANY_CASES: list[tuple[str, bool]] = [
    ('{"body": {"@type": "' + _URL + 'nativewkt.any.Payload", "n": 1, "tags": ["a"]}}', True),
    ('{"body": {"@type": "' + _URL + 'nativewkt.any.Payload"}}', True),
    ('{"body": {"@type": "x/y/nativewkt.any.Payload", "big": "5"}}', True),
    ('{"body": {}, "bodies": [{}], "byKey": {"a": {}}}', True),
    ('{"body": {"@type": "' + _URL + 'google.protobuf.Duration", "value": "-1.5s"}}', True),
    ('{"body": {"@type": "' + _URL + 'google.protobuf.UInt64Value", "value": 7}}', True),
    ('{"body": {"@type": "' + _URL + 'google.protobuf.FloatValue", "value": "NaN"}}', True),
    ('{"body": {"@type": "' + _URL + 'google.protobuf.FieldMask", "value": "aB,c"}}', True),
    (
        '{"body": {"@type": "' + _URL + 'google.protobuf.Any", "value": '
        '{"@type": "' + _URL + 'nativewkt.any.Payload", "name": "in"}}}',
        True,
    ),
    ('{"body": {"n": 1, "@type": "' + _URL + 'nativewkt.any.Payload"}}', True),  # not first
    ('{"body": {"n": 1, "tags": ["@type"], "@type": "' + _URL + 'nativewkt.any.Payload"}}', True),
    ('{"body": {"n": 1, "@type": "' + _URL + 'nativewkt.any.Payload", "name": "x"}}', True),
    ('{"body": {"n": 1, "@type": "' + _URL + 'nativewkt.any.Payload", "@type": "y"}}', False),
    ('{"body": {"n": 1, "n": 2, "@type": "' + _URL + 'nativewkt.any.Payload"}}', False),
    ('{"body": {"n": 1}}', False),  # no @type
    ('{"body": {"value": "1s", "@type": "' + _URL + 'google.protobuf.Duration"}}', False),
    ('{"body": {"@type": "' + _URL + 'nativewkt.any.Nothing"}}', False),
    ('{"body": {"@type": "' + _URL + 'nativewkt.any.Payload", "nope": 1}}', False),
    ('{"body": {"@type": "' + _URL + 'nativewkt.any.Payload", "@type": "x"}}', False),
    ('{"body": {"@type": "' + _URL + 'nativewkt.any.Payload", "n": "x"}}', False),
    ('{"body": {"@type": 1}}', False),
    ('{"body": {"@type": null}}', False),
    ('{"body": {"value": "1s"}}', False),
    ('{"body": []}', False),
    ('{"body": "x"}', False),
    ('{"bodies": [null]}', False),
    ('{"body": {"@type": "' + _URL + 'google.protobuf.Duration"}}', False),
    ('{"body": {"@type": "' + _URL + 'google.protobuf.Duration", "value": "1"}}', False),
    ('{"body": {"@type": "' + _URL + 'google.protobuf.Duration", "value": "1s", "x": 1}}', False),
    ('{"body": {"@type": "' + _URL + 'google.protobuf.Int32Value", "value": null}}', False),
    ('{"body": {"@type": "' + _URL + 'google.protobuf.Int32Value", "value": 2147483648}}', False),
    ('{"body": {"@type": "' + _URL + 'google.protobuf.Struct", "value": {}}}', True),
    ('{"body": {"@type": "' + _URL + 'google.protobuf.Struct", "value": {"a": [null, 1]}}}', True),
    ('{"body": {"@type": "' + _URL + 'google.protobuf.Value", "value": null}}', True),
    ('{"body": {"@type": "' + _URL + 'google.protobuf.Value", "value": {"a": "b"}}}', True),
    ('{"body": {"@type": "' + _URL + 'google.protobuf.ListValue", "value": [1, "x", []]}}', True),
    ('{"body": {"@type": "' + _URL + 'google.protobuf.Struct", "value": []}}', False),
    ('{"body": {"@type": "' + _URL + 'google.protobuf.Struct", "value": {"a": 1, "a": 2}}}', False),
    ('{"body": {"@type": "' + _URL + 'google.protobuf.ListValue", "value": null}}', False),
    ('{"body": {"@type": "' + _URL + 'google.protobuf.Value", "value": 1e999}}', False),
    ('{"body": {"@type": "' + _URL + 'nativewkt.any.Payload", "n": 1}', False),
]


@pytest.mark.parametrize(("text", "taken_"), ANY_CASES)
def test_any_read_as_the_reference_reads_it(text: str, taken_: bool) -> None:
    same(Envelope, text, taken=taken_)
    same(Envelope, text, True)
    if taken_:
        google = json_format.Parse(text, UPB_ENVELOPE(), descriptor_pool=ANY_POOL)
        assert NAT.from_json(Envelope, text) == NAT.deserialize(
            Envelope, google.SerializeToString()
        )


def test_any_counts_towards_max_depth_as_the_reference_counts_it() -> None:
    inner = '{"@type": "' + _URL + 'nativewkt.any.Payload", "n": 1}'
    nested = '{"@type": "' + _URL + 'google.protobuf.Any", "value": ' + inner + "}"
    timed = '{"@type": "' + _URL + 'google.protobuf.Timestamp", "value": "1970-01-01T00:00:00Z"}'
    texts = [
        '{"body": {}}', '{"body": ' + inner + "}", '{"body": ' + nested + "}",
        '{"bodies": [' + nested + "]}", '{"byKey": {"k": ' + nested + "}}",
        '{"body": ' + timed + "}",
        '{"body": {"@type": "' + _URL + 'google.protobuf.Struct", "value": {"a": {"b": 1}}}}',
        '{"body": {"@type": "' + _URL + 'google.protobuf.Value", "value": [[1]]}}',
    ]  # fmt: skip
    for max_depth in range(1, 6):
        nat = pa.TypeModel(backend="native", max_depth=max_depth)
        py = pa.TypeModel(backend="python", max_depth=max_depth)
        for text in texts:
            assert _outcome(nat, Envelope, text, False) == _outcome(py, Envelope, text, False)
    deep = '{"body": ' + '{"@type": "x/google.protobuf.Any", "value": ' * 120 + "{}" + "}" * 121
    assert _outcome(NAT, Envelope, deep, False) == _outcome(PY, Envelope, deep, False)
