"""Bad JSON: every input ``json_format.Parse`` rejects, protoattr rejects too.

Each row of the table is one bad input; both libraries must refuse it, and
protoattr's :class:`DecodeError` must start with the JSON path of the
offending value.  Garbled JSON (hypothesis) never raises anything else.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from google.protobuf import json_format
from hypothesis import given, settings
from hypothesis import strategies as st

import protoattr as pa
from tests import contracts as c

# (contract, JSON text, the start of protoattr's message)
BAD: list[tuple[type, str, str]] = [
    # wrong JSON types
    (c.Scalars, '{"i32": "x"}', "Scalars.i32: "),
    (c.Scalars, '{"i32": true}', "Scalars.i32: "),
    (c.Scalars, '{"i32": 1.5}', "Scalars.i32: "),
    (c.Scalars, '{"i32": "1.5"}', "Scalars.i32: "),
    (c.Scalars, '{"i32": " 1"}', "Scalars.i32: "),
    (c.Scalars, '{"i32": [1]}', "Scalars.i32: "),
    (c.Scalars, '{"i32": {}}', "Scalars.i32: "),
    (c.Scalars, '{"i64": "1e400"}', "Scalars.i64: "),
    (c.Scalars, '{"i64": NaN}', "Scalars.i64: "),
    (c.Scalars, '{"text": 1}', "Scalars.text: "),
    (c.Scalars, '{"text": true}', "Scalars.text: "),
    (c.Scalars, '{"text": "\\ud800"}', "Scalars.text: "),
    (c.Scalars, '{"flag": "true"}', "Scalars.flag: "),
    (c.Scalars, '{"flag": 1}', "Scalars.flag: "),
    (c.Scalars, '{"db": "x"}', "Scalars.db: "),
    (c.Scalars, '{"db": "nan"}', "Scalars.db: "),
    (c.Scalars, '{"db": NaN}', "Scalars.db: "),
    (c.Scalars, '{"db": Infinity}', "Scalars.db: "),
    (c.Scalars, '{"db": -Infinity}', "Scalars.db: "),
    (c.Scalars, '{"db": 1e400}', "Scalars.db: "),
    (c.Scalars, '{"fl": 1e39}', "Scalars.fl: "),
    (c.Scalars, '{"fl": -1e39}', "Scalars.fl: "),
    (c.Scalars, '{"fl": 3.402823466385289e+38}', "Scalars.fl: "),  # just above the float32 max
    (c.Scalars, '{"inner": 1}', "Scalars.inner: "),
    (c.Scalars, '{"inner": {"a": "b"}}', "Scalars.inner.a: "),
    (c.Scalars, '{"inner": {"zz": 1}}', "Scalars.inner.zz: "),
    # out-of-range integers
    (c.Scalars, '{"i32": 2147483648}', "Scalars.i32: "),
    (c.Scalars, '{"i32": -2147483649}', "Scalars.i32: "),
    (c.Scalars, '{"u32": -1}', "Scalars.u32: "),
    (c.Scalars, '{"u32": 4294967296}', "Scalars.u32: "),
    (c.Scalars, '{"i64": "9223372036854775808"}', "Scalars.i64: "),
    (c.Scalars, '{"i64": -9223372036854775809}', "Scalars.i64: "),
    (c.Scalars, '{"u64": "18446744073709551616"}', "Scalars.u64: "),
    (c.Scalars, '{"u64": "-1"}', "Scalars.u64: "),
    (c.Scalars, '{"f32": 4294967296}', "Scalars.f32: "),
    (c.Scalars, '{"sf32": 2147483648}', "Scalars.sf32: "),
    (c.Scalars, '{"s64": 1e19}', "Scalars.s64: "),
    (c.Scalars, '{"f64": -1}', "Scalars.f64: "),
    # bad base64
    (c.Scalars, '{"data": "a"}', "Scalars.data: "),
    (c.Scalars, '{"data": "abcde"}', "Scalars.data: "),
    (c.Scalars, '{"data": 5}', "Scalars.data: "),
    (c.Scalars, '{"data": ["AA=="]}', "Scalars.data: "),
    # bad enums
    (c.Scalars, '{"color": "PURPLE"}', "Scalars.color: "),
    (c.Scalars, '{"color": "red"}', "Scalars.color: "),
    (c.Scalars, '{"color": 2147483648}', "Scalars.color: "),
    (c.Scalars, '{"color": [1]}', "Scalars.color: "),
    (c.Repeats, '{"color": ["RED", "PURPLE"]}', "Repeats.color[1]: "),
    # bad timestamps
    (c.Scalars, '{"ts": "1970-01-01T00:00:00"}', "Scalars.ts: "),
    (c.Scalars, '{"ts": "1970-01-01 00:00:00Z"}', "Scalars.ts: "),
    (c.Scalars, '{"ts": "1970-01-01t00:00:00Z"}', "Scalars.ts: "),
    (c.Scalars, '{"ts": "1970-13-01T00:00:00Z"}', "Scalars.ts: "),
    (c.Scalars, '{"ts": "1970-02-30T00:00:00Z"}', "Scalars.ts: "),
    (c.Scalars, '{"ts": "1970-01-01T24:00:00Z"}', "Scalars.ts: "),
    (c.Scalars, '{"ts": "1970-01-01T00:00:00.1234567890Z"}', "Scalars.ts: "),
    (c.Scalars, '{"ts": "1970-01-01T00:00:00Zjunk"}', "Scalars.ts: "),
    (c.Scalars, '{"ts": "1970-01-01T00:00:00+0100"}', "Scalars.ts: "),
    (c.Scalars, '{"ts": "0001-01-01T00:00:00+01:00"}', "Scalars.ts: "),
    (c.Scalars, '{"ts": "9999-12-31T23:59:59-01:00"}', "Scalars.ts: "),
    (c.Scalars, '{"ts": 0}', "Scalars.ts: "),
    (c.Scalars, '{"ts": {"seconds": 1}}', "Scalars.ts: "),
    (c.Repeats, '{"ts": ["1970-01-01T00:00:00Z", "x"]}', "Repeats.ts[1]: "),
    # bad durations
    (c.Scalars, '{"dur": "1"}', "Scalars.dur: "),
    (c.Scalars, '{"dur": 1}', "Scalars.dur: "),
    (c.Scalars, '{"dur": "1.5"}', "Scalars.dur: "),
    (c.Scalars, '{"dur": "s"}', "Scalars.dur: "),
    (c.Scalars, '{"dur": "315576000001s"}', "Scalars.dur: "),
    (c.Scalars, '{"dur": "-315576000001s"}', "Scalars.dur: "),
    (c.Scalars, '{"dur": "1.5S"}', "Scalars.dur: "),
    # repeated fields
    (c.Repeats, '{"i32": {"a": 1}}', "Repeats.i32: "),
    (c.Repeats, '{"i32": 1}', "Repeats.i32: "),
    (c.Repeats, '{"i32": "1"}', "Repeats.i32: "),
    (c.Repeats, '{"i32": [1, null]}', "Repeats.i32[1]: "),
    (c.Repeats, '{"inner": [{}, null]}', "Repeats.inner[1]: "),
    (c.Repeats, '{"inner": [{}, {"a": "x"}]}', "Repeats.inner[1].a: "),
    (c.Repeats, '{"i64": [1, "2", 3.5]}', "Repeats.i64[2]: "),
    # maps
    (c.Maps, '{"i32": [1, 2]}', "Maps.i32: "),
    (c.Maps, '{"i32": "x"}', "Maps.i32: "),
    (c.Maps, '{"i32": {"x": "v"}}', 'Maps.i32["x"]: '),
    (c.Maps, '{"i32": {"2147483648": "v"}}', 'Maps.i32["2147483648"]: '),
    (c.Maps, '{"u32": {"-1": 1}}', 'Maps.u32["-1"]: '),
    (c.Maps, '{"sf64": {"1": "yes"}}', 'Maps.sf64["1"]: '),
    (c.Maps, '{"flag": {"yes": "AA=="}}', 'Maps.flag["yes"]: '),
    (c.Maps, '{"flag": {"True": "AA=="}}', 'Maps.flag["True"]: '),
    (c.Maps, '{"i32": {"1": null}}', 'Maps.i32["1"]: '),
    (c.Maps, '{"text": {"k": null}}', 'Maps.text["k"]: '),
    (c.Maps, '{"text": {"k": {"s": 1}}}', 'Maps.text["k"].s: '),
    (c.Maps, '{"color": {"k": "PURPLE"}}', 'Maps.color["k"]: '),
    # unknown fields, duplicates, oneofs
    (c.Scalars, '{"nope": 1}', "Scalars.nope: "),
    (c.Scalars, '{"i32": 1, "i32": 2}', "Scalars: "),
    (c.Scalars, '{"inner": {"a": 1, "a": 2}}', "Scalars.inner: "),
    (c.Shape, '{"radius": 1.0, "side": 2}', "Shape.side: "),
    (c.Shape, '{"label": "x", "radius": 1.0}', "Shape.radius: "),
    # the top level
    (c.Scalars, "1", "Scalars: "),
    (c.Scalars, '"x"', "Scalars: "),
    (c.Scalars, "null", "Scalars: "),
    # proto2: required fields
    (c.DnsRecord, '{"key": "k", "value": "v", "first": "f"}', "DnsRecord: "),
    (c.DnsResponse, '{"records": [{"key": "k"}]}', "DnsResponse.records[0]: "),
]


@pytest.mark.parametrize(("cls", "text", "where"), BAD, ids=[t for _, t, _ in BAD])
def test_both_reject(cls: type, text: str, where: str) -> None:
    pb_cls = _twin(cls)
    with pytest.raises(json_format.ParseError):
        message = json_format.Parse(text, pb_cls())
        if not message.IsInitialized():  # Parse leaves required fields to IsInitialized
            raise json_format.ParseError("missing required fields")
    with pytest.raises(pa.DecodeError) as info:
        pa.from_json(cls, text)
    assert str(info.value).startswith(where), str(info.value)


def _twin(cls: type) -> Any:
    for module in (c.kinds_pb(), c.task_pb(), c.shape_pb(), c.dns_pb()):
        found = getattr(module, cls.__name__, None)
        if found is not None:
            return found
    raise LookupError(cls)


# Where json_format is lax and protoattr is not (the spec is on protoattr's side).
STRICTER: list[tuple[type, str, str]] = [
    (c.Scalars, '{"db": true}', "Scalars.db: "),  # json_format: float(True)
    (c.Scalars, '{"inner": []}', "Scalars.inner: "),  # json_format: iterates the empty list
    (c.Scalars, "[]", "Scalars: "),
    (c.Scalars, '{"dur": "1.0000000001s"}', "Scalars.dur: "),  # json_format rounds
    (c.Scalars, '{"i32": "1_000"}', "Scalars.i32: "),  # json_format: Python's int()
    (c.Scalars, '{"db": "inf"}', "Scalars.db: "),  # json_format: Python's float()
    (c.Scalars, '{"data": "!!!!"}', "Scalars.data: "),  # json_format drops non-base64
    (c.Scalars, '{"color": true}', "Scalars.color: "),  # json_format: int(True)
    (c.Scalars, '{"fl": "1e39"}', "Scalars.fl: "),  # json_format: infinity
    (c.Scalars, '{"ts": "1970-1-1T0:0:0Z"}', "Scalars.ts: "),  # json_format: strptime
    # the same field under its JSON name and its proto name: json_format keeps the last
    (c.Task, '{"createdBy": "a", "created_by": "b"}', "Task.created_by: "),
]


@pytest.mark.parametrize(("cls", "text", "where"), STRICTER, ids=[t for _, t, _ in STRICTER])
def test_only_protoattr_rejects(cls: type, text: str, where: str) -> None:
    json_format.Parse(text, _twin(cls)())
    with pytest.raises(pa.DecodeError) as info:
        pa.from_json(cls, text)
    assert str(info.value).startswith(where), str(info.value)


@pytest.mark.parametrize(
    "text",
    ['{"i32": 1', '{"i32": 1,}', "{'i32': 1}", "", '{"i32": 01}', '{"a": 1} x', "\x00"],
)
def test_malformed_json_is_a_decode_error_with_its_position(text: str) -> None:
    with pytest.raises(json_format.ParseError):
        json_format.Parse(text, c.kinds_pb().Scalars())
    with pytest.raises(pa.DecodeError, match=r"^malformed JSON: .* \(char \d+\)$") as info:
        pa.from_json(c.Scalars, text)
    assert isinstance(info.value.offset, int)


def test_the_largest_float32_as_json_format_prints_it_is_read() -> None:
    # json_format prints the largest float32 as 3.4028235e+38 and then refuses to read it
    google = c.kinds_pb().Scalars(fl=3.4028234663852886e38)
    text = json_format.MessageToJson(google)
    assert '"fl": 3.4028235e+38' in text
    with pytest.raises(json_format.ParseError):
        json_format.Parse(text, c.kinds_pb().Scalars())
    assert pa.from_json(c.Scalars, text).fl == 3.4028234663852886e38
    assert pa.from_json(c.Scalars, '{"fl": -3.4028235e+38}').fl == -3.4028234663852886e38


def test_invalid_utf8_is_a_decode_error() -> None:
    with pytest.raises(pa.DecodeError, match=r"not UTF-8.*\(char 7\)"):
        pa.from_json(c.Scalars, b'{"a": "\xff"}')


def test_deep_nesting_is_a_decode_error() -> None:
    text = '{"child": ' * 200 + "{}" + "}" * 200
    with pytest.raises(pa.DecodeError, match="deeper than 100"):
        pa.from_json(c.Chain, text)
    with pytest.raises(pa.DecodeError):
        pa.from_json(c.Chain, "[" * 100_000)


def test_paths_name_the_offending_value() -> None:
    text = json.dumps({"records": [{"key": "k", "value": "v", "first": "f", "last": "l"}] * 3})
    bad = json.loads(text)
    bad["records"][2]["ttl"] = "soon"
    pattern = r'^DnsResponse\.records\[2\]\.ttl: "soon" is not an integer$'
    with pytest.raises(pa.DecodeError, match=pattern):
        pa.from_dict(c.DnsResponse, bad)


# ----------------------------------------------------------- garbled input

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False),
    st.text(max_size=8),
    st.sampled_from(["NaN", "Infinity", "1e5", "AA==", "RED", "1970-01-01T00:00:00Z", "1s"]),
)
_JSON = st.recursive(
    _SCALARS,
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                ["i32", "inner", "ts", "dur", "color", "a", "s", "text", "x", "1", "true"]
            ),
            children,
            max_size=4,
        )
    ),
    max_leaves=12,
)
_KEYS = ["i32", "i64", "fl", "db", "flag", "text", "data", "color", "inner", "ts", "dur", "a"]


@settings(derandomize=True, max_examples=300)
@given(
    st.sampled_from([c.Scalars, c.Repeats, c.Maps, c.Optionals, c.Shape, c.DnsResponse, c.Tree]),
    st.dictionaries(st.sampled_from([*_KEYS, "records", "sizes", "label", "radius"]), _JSON),
)
def test_garbled_json_only_raises_decode_error(cls: type, data: dict[str, Any]) -> None:
    with contextlib.suppress(pa.DecodeError):
        pa.from_dict(cls, data)
    text = json.dumps(data)
    for cut in (len(text) // 2, len(text) - 1):
        with contextlib.suppress(pa.DecodeError):
            pa.from_json(cls, text[:cut])


_FIELD_KEYS = {
    c.Scalars: ["i32", "i64", "u32", "u64", "s64", "f64", "fl", "db", "flag", "text", "data",
                "color", "inner", "ts", "dur", "plain"],
    c.Repeats: ["i32", "u64", "fl", "flag", "text", "data", "color", "inner", "ts", "dur"],
    c.Maps: ["i32", "u64", "sf64", "flag", "text", "color", "ts"],
    c.Shape: ["name", "radius", "side", "label"],
}  # fmt: skip


@settings(derandomize=True, max_examples=400)
@given(st.data())
def test_whatever_json_format_rejects_protoattr_rejects(data: st.DataObject) -> None:
    cls = data.draw(st.sampled_from(list(_FIELD_KEYS)), label="cls")
    doc = data.draw(st.dictionaries(st.sampled_from(_FIELD_KEYS[cls]), _JSON), label="doc")
    text = json.dumps(doc)
    try:
        google = json_format.Parse(text, _twin(cls)())
    except json_format.ParseError:
        with pytest.raises(pa.DecodeError):
            pa.from_json(cls, text)
        return
    try:
        ours = pa.from_json(cls, text)
    except pa.DecodeError:
        return  # protoattr may be stricter (see STRICTER)
    # where both read it, they read the same values
    assert pa.to_dict(ours) == json_format.MessageToDict(google)
