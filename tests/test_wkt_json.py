"""The well-known types' canonical-JSON forms, against ``google.protobuf.json_format``.

The forms are called directly, through :func:`protoattr._json.forms.form_for`
(the interface the JSON codec uses), with a tiny stand-in for the codec's
context; their output must equal ``json_format.MessageToDict`` of the same upb
message, and what they read must equal what ``json_format.Parse`` reads.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

import pytest
from google.protobuf import (
    any_pb2,
    duration_pb2,
    empty_pb2,
    field_mask_pb2,
    json_format,
    struct_pb2,
    timestamp_pb2,
    wrappers_pb2,
)
from hypothesis import given, settings
from hypothesis import strategies as st

import protoattr as pa
from protoattr import field as pfield
from protoattr import proto_contract
from protoattr._core import wkt as _wkt
from protoattr._json import forms as _jsonforms
from protoattr._json import wkt as _wkt_forms  # noqa: F401  (registers the forms under test)
from tests.protoc import compile_proto

SETTINGS = settings(derandomize=True, max_examples=80)
TS_MIN, TS_MAX = -62135596800, 253402300799


@proto_contract(package="wktjson.v1")
@dataclass
class Order:
    id: pa.int32 = pfield(1, default=0)
    note: str = pfield(2, default="")


class Ctx:
    """What the JSON codec hands a form: the model and the ordinary message mapping."""

    model = pa.default_model
    ignore_unknown = False

    def message_to_json(self, obj: Any) -> Any:
        assert isinstance(obj, (Order, pa.Empty))
        return {} if isinstance(obj, pa.Empty) else {k: v for k, v in vars(obj).items() if v}

    def message_from_json(self, cls: type, value: Any, path: str, depth: int = 0) -> Any:
        return cls(**value)


CTX = Ctx()


def to_json(cls: Any, value: Any) -> Any:
    form = _jsonforms.form_for(cls)
    assert form is not None, cls
    return form[0](value, CTX)


def from_json(cls: Any, value: Any, path: str = "M.f") -> Any:
    form = _jsonforms.form_for(cls)
    assert form is not None, cls
    return form[1](value, path, CTX)


def google(message: Any) -> Any:
    return json_format.MessageToDict(message)


def parse(text: Any, message: Any) -> Any:
    return json_format.Parse(json.dumps(text), message)


@pytest.fixture(scope="module")
def pb() -> Any:
    return compile_proto(pa.default_model.schema(Order), "wktjson_order", unique_package=False)


# -- Timestamp -----------------------------------------------------------------------

NANOS = st.sampled_from([0, 1, 999_999_999, 5_000_000, 123_000, 123_456_789]) | st.integers(
    0, 999_999_999
)


@SETTINGS
@given(st.integers(TS_MIN, TS_MAX), NANOS)
def test_timestamp_prints_and_reads_like_google(seconds: int, nanos: int) -> None:
    text = to_json(pa.Timestamp, pa.Timestamp(seconds, nanos))
    assert text == google(timestamp_pb2.Timestamp(seconds=seconds, nanos=nanos))
    assert from_json(pa.Timestamp, text) == pa.Timestamp(seconds, nanos)


def test_timestamp_fraction_digits() -> None:
    assert to_json(pa.Timestamp, pa.Timestamp(0, 0)) == "1970-01-01T00:00:00Z"
    assert to_json(pa.Timestamp, pa.Timestamp(0, 10_000_000)) == "1970-01-01T00:00:00.010Z"
    assert to_json(pa.Timestamp, pa.Timestamp(0, 10_000)) == "1970-01-01T00:00:00.000010Z"
    assert to_json(pa.Timestamp, pa.Timestamp(TS_MIN, 1)) == "0001-01-01T00:00:00.000000001Z"
    assert (
        to_json(pa.Timestamp, pa.Timestamp(TS_MAX, 999_999_999)) == "9999-12-31T23:59:59.999999999Z"
    )


@pytest.mark.parametrize(
    "text",
    [
        "1972-01-01T10:00:20.021-05:00",
        "1972-01-01T10:00:20+01:30",
        "2000-02-29T00:00:00.5Z",
        "0001-01-01T00:00:00Z",
        "9999-12-31T23:59:59.999999999Z",
        "1970-01-01T00:00:00.1234Z",
    ],
)
def test_timestamp_reads_what_google_reads(text: str) -> None:
    theirs = parse(text, timestamp_pb2.Timestamp())
    assert from_json(pa.Timestamp, text) == pa.Timestamp(theirs.seconds, theirs.nanos)


@pytest.mark.parametrize(
    "text",
    [
        "1972-01-01t10:00:20Z",
        "1972-01-01T10:00:20",
        "1972-01-01T10:00:20.0123456789Z",
        "10000-01-01T00:00:00Z",
        "1972-13-01T10:00:20Z",
        "1972-01-01T10:00:20Zjunk",
        5,
        None,
        "1972-02-30T00:00:00Z",
    ],
)
def test_timestamp_rejects_what_google_rejects(text: Any) -> None:
    with pytest.raises(json_format.ParseError):
        parse(text, timestamp_pb2.Timestamp())
    with pytest.raises(pa.DecodeError, match=r"^M\.f: "):
        from_json(pa.Timestamp, text)


def test_timestamp_outside_rfc3339_cannot_print() -> None:
    for seconds, nanos in [(TS_MAX + 1, 0), (TS_MIN - 1, 0), (0, -1), (0, 10**9), (2**63 - 1, 0)]:
        with pytest.raises(ValueError):
            google(timestamp_pb2.Timestamp(seconds=seconds, nanos=nanos))
        with pytest.raises(pa.EncodeError, match="outside 0001-01-01"):
            to_json(pa.Timestamp, pa.Timestamp(seconds, nanos))
    with pytest.raises(pa.DecodeError, match="outside 0001-01-01"):
        from_json(pa.Timestamp, "0001-01-01T00:00:00+00:01")


# -- Duration ------------------------------------------------------------------------

DMAX = 315_576_000_000


@SETTINGS
@given(st.integers(-DMAX, DMAX), st.integers(0, 999_999_999))
def test_duration_prints_and_reads_like_google(seconds: int, nanos: int) -> None:
    if seconds < 0 or (seconds == 0 and nanos % 2):
        nanos = -nanos  # seconds and nanos share one sign
    text = to_json(pa.Duration, pa.Duration(seconds, nanos))
    assert text == google(duration_pb2.Duration(seconds=seconds, nanos=nanos))
    assert from_json(pa.Duration, text) == pa.Duration(seconds, nanos)
    theirs = parse(text, duration_pb2.Duration())
    assert (theirs.seconds, theirs.nanos) == (seconds, nanos)


def test_duration_forms() -> None:
    assert to_json(pa.Duration, pa.Duration(1, 340012)) == "1.000340012s"
    assert to_json(pa.Duration, pa.Duration(0, -500_000_000)) == "-0.500s"
    assert to_json(pa.Duration, pa.Duration(-3, 0)) == "-3s"
    assert from_json(pa.Duration, "-0.5s") == pa.Duration(0, -500_000_000)
    for bad in [pa.Duration(DMAX + 1, 0), pa.Duration(1, -1), pa.Duration(0, 10**9)]:
        with pytest.raises(ValueError):
            google(duration_pb2.Duration(seconds=bad.seconds, nanos=bad.nanos))
        with pytest.raises(pa.EncodeError):
            to_json(pa.Duration, bad)


@pytest.mark.parametrize("text", ["1", "s", "315576000001s", "1m", 1.5, "--1s", "1.5S"])
def test_duration_rejects_what_google_rejects(text: Any) -> None:
    with pytest.raises(json_format.ParseError):
        parse(text, duration_pb2.Duration())
    with pytest.raises(pa.DecodeError, match=r"^M\.f: "):
        from_json(pa.Duration, text)


@pytest.mark.parametrize("text", ["1.s", "1.0000000001s", "+1s", " 1s", "1_0s"])
def test_duration_is_stricter_than_google(text: str) -> None:
    parse(text, duration_pb2.Duration())  # json_format lets these through (int(), float())
    with pytest.raises(pa.DecodeError, match=r"^M\.f: expected a duration like"):
        from_json(pa.Duration, text)


# -- FieldMask -----------------------------------------------------------------------


def test_field_mask_forms() -> None:
    mask = pa.FieldMask(("user.display_name", "id", "a.b_c.d"))
    text = to_json(pa.FieldMask, mask)
    assert (
        text == google(field_mask_pb2.FieldMask(paths=mask.paths)) == "user.displayName,id,a.bC.d"
    )
    assert from_json(pa.FieldMask, text) == mask
    assert list(parse(text, field_mask_pb2.FieldMask()).paths) == list(mask.paths)
    assert to_json(pa.FieldMask, pa.FieldMask()) == "" == google(field_mask_pb2.FieldMask())
    assert from_json(pa.FieldMask, "") == pa.FieldMask()


@pytest.mark.parametrize("path", ["userName", "user__name", "user_", "user_1"])
def test_field_mask_paths_that_have_no_json_form(path: str) -> None:
    with pytest.raises(ValueError):
        google(field_mask_pb2.FieldMask(paths=[path]))
    with pytest.raises(pa.EncodeError, match="FieldMask path"):
        to_json(pa.FieldMask, pa.FieldMask((path,)))


@pytest.mark.parametrize("text", ["user_name", "a,b_c", 3])
def test_field_mask_rejects_what_google_rejects(text: Any) -> None:
    with pytest.raises(json_format.ParseError):
        parse(text, field_mask_pb2.FieldMask())
    with pytest.raises(pa.DecodeError, match=r"^M\.f: "):
        from_json(pa.FieldMask, text)


# -- Struct, Value, ListValue, NullValue ---------------------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=10,
)


@SETTINGS
@given(st.dictionaries(st.text(max_size=4), JSON, max_size=4), JSON)
def test_struct_and_value_like_google(obj: dict[str, Any], value: Any) -> None:
    theirs = struct_pb2.Struct()
    theirs.update(obj)
    assert to_json(dict, obj) == google(theirs)
    assert from_json(dict, google(theirs)) == obj
    v = parse(value, struct_pb2.Value())
    assert to_json(object, value) == google(v)
    # a pa.JsonValue field reading null holds NULL_VALUE (None would be the absent field)
    assert from_json(object, value) == (pa.NullValue.NULL_VALUE if value is None else value)
    items = [value, obj]
    assert to_json(list, items) == google(parse(items, struct_pb2.ListValue()))
    assert from_json(list, items) == items


def test_json_values_are_doubles() -> None:
    assert to_json(object, 3) == 3.0 and isinstance(to_json(object, 3), float)
    assert from_json(object, {"n": 2}) == {"n": 2.0}
    assert to_json(dict, {"a": [1, True, None]}) == {"a": [1.0, True, None]}


def test_json_values_without_a_json_form() -> None:
    for bad in (math.nan, math.inf):
        with pytest.raises(ValueError):
            google(struct_pb2.Value(number_value=bad))
        with pytest.raises(pa.EncodeError, match="no JSON form"):
            to_json(object, bad)
    with pytest.raises(pa.EncodeError, match="not a JSON value"):
        to_json(dict, {"a": object()})
    with pytest.raises(pa.DecodeError, match=r"^M\.f: .*Struct is a JSON object"):
        from_json(dict, [1])
    with pytest.raises(pa.DecodeError, match=r"^M\.f: .*ListValue is a JSON array"):
        from_json(list, {"a": 1})
    with pytest.raises(pa.DecodeError, match=r"^M\.f\.a\[1\]: .*not a finite number"):
        from_json(dict, {"a": [1, math.inf]})


def test_null_value() -> None:
    # an enum, read as json_format reads it (null, its name, numbers); it prints null
    # (more in tests/test_json_conformance.py)
    @proto_contract
    @dataclass
    class M:
        f: pa.NullValue | None = pfield(1, default=None)

    assert pa.to_dict(M(pa.NullValue.NULL_VALUE)) == {"f": None}
    assert pa.from_dict(M, {"f": None}).f is pa.NullValue.NULL_VALUE
    assert pa.from_dict(M, {"f": "NULL_VALUE"}).f is pa.NullValue.NULL_VALUE
    assert pa.from_dict(M, {"f": 3}).f == 3  # an open enum keeps unknown numbers
    with pytest.raises(pa.DecodeError, match=r"^M\.f: 'NUL' is not a value of NullValue"):
        pa.from_dict(M, {"f": "NUL"})


# -- wrappers ------------------------------------------------------------------------

WRAPPERS = [
    ("DoubleValue", wrappers_pb2.DoubleValue, [0.0, -0.0, 1.5, 1e300, math.inf, -math.inf, 5e-324]),
    ("FloatValue", wrappers_pb2.FloatValue, [0.0, 0.1, 3.4e38, -math.inf, 1e-45]),
    ("Int64Value", wrappers_pb2.Int64Value, [0, -(2**63), 2**63 - 1]),
    ("UInt64Value", wrappers_pb2.UInt64Value, [0, 2**64 - 1]),
    ("Int32Value", wrappers_pb2.Int32Value, [0, -(2**31), 2**31 - 1]),
    ("UInt32Value", wrappers_pb2.UInt32Value, [0, 2**32 - 1]),
    ("BoolValue", wrappers_pb2.BoolValue, [False, True]),
    ("StringValue", wrappers_pb2.StringValue, ["", "héllo"]),
    ("BytesValue", wrappers_pb2.BytesValue, [b"", b"\x00\xff\xfe", b"abcd"]),
]


@pytest.mark.parametrize(("name", "upb", "values"), WRAPPERS, ids=[w[0] for w in WRAPPERS])
def test_wrappers_are_bare_values(name: str, upb: Any, values: list[Any]) -> None:
    contract = _wkt.WRAPPERS[name][0]
    for value in values:
        message = upb(value=value)
        text = to_json(contract, value)
        assert text == google(message), value
        back = from_json(contract, text)
        assert back == parse(text, upb()).value
        assert to_json(contract, contract(value)) == text  # an Any payload: the message itself
    assert to_json(contract, None) is None
    # a null field is absent before its form is asked; a null item of a list is refused
    with pytest.raises(pa.DecodeError, match=rf"^M\.f: a google\.protobuf\.{name} is not null"):
        from_json(contract, None)


def test_float_wrapper_reads_nan_and_shortest_form() -> None:
    contract = _wkt.WRAPPERS["FloatValue"][0]
    assert math.isnan(from_json(contract, "NaN"))
    assert to_json(contract, math.nan) == "NaN"
    assert to_json(contract, 0.1) == 0.1  # shortest float32 text, as json_format
    with pytest.raises(pa.DecodeError, match=r"M\.f: 1e\+39 is out of range for a float"):
        from_json(contract, 1e39)
    # json_format prints the largest float as 3.4028235e+38 and then refuses to read it
    # back (it is above FLT_MAX as a double); a wrapper reads it back as FLT_MAX, as an
    # ordinary float field does (docs/json.md: the one place protoattr is more lenient)
    assert to_json(contract, 3.4028234663852886e38) == 3.4028235e38
    with pytest.raises(json_format.ParseError):
        parse(3.4028235e38, wrappers_pb2.FloatValue())
    assert from_json(contract, 3.4028235e38) == 3.4028234663852886e38
    with pytest.raises(pa.EncodeError, match="does not fit float"):
        to_json(contract, 1e39)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("Int64Value", "1e2"),  # json_format reads integral exponent forms, for fields too
        ("Int32Value", "1.0"),
        ("DoubleValue", "1e3"),
        ("BytesValue", "YWI"),  # unpadded
    ],
)
def test_wrapper_values_read_like_fields_of_their_kind(name: str, text: str) -> None:
    """A wrapper's value follows the rules of an ordinary field of the same kind."""
    contract = _wkt.WRAPPERS[name][0]
    upb = getattr(wrappers_pb2, name)
    assert from_json(contract, text) == parse(text, upb()).value


@pytest.mark.parametrize(
    ("name", "text"),
    [("Int64Value", "\u0663"), ("DoubleValue", "1_0"), ("Int32Value", "1_000")],
)
def test_wrapper_values_refuse_python_only_spellings(name: str, text: str) -> None:
    """json_format reads these through Python's int()/float(); protoattr refuses them in
    ordinary fields (docs/json.md, "stricter") and now in wrappers alike."""
    contract = _wkt.WRAPPERS[name][0]
    with pytest.raises(pa.DecodeError, match=r"^M\.f: "):
        from_json(contract, text)


@pytest.mark.parametrize("text", ["\u0661\u0669\u0667\u0662-01-01T10:00:20Z", "\u0661s"])
def test_time_forms_take_ascii_digits_only(text: str) -> None:
    cls = _wkt.Timestamp if text.endswith("Z") else _wkt.Duration
    with pytest.raises(pa.DecodeError):
        from_json(cls, text)


@pytest.mark.parametrize(
    ("name", "upb", "text"),
    [
        ("Int32Value", wrappers_pb2.Int32Value, 2**31),
        ("Int32Value", wrappers_pb2.Int32Value, 1.5),
        ("Int32Value", wrappers_pb2.Int32Value, "1 "),
        ("Int32Value", wrappers_pb2.Int32Value, True),
        ("UInt64Value", wrappers_pb2.UInt64Value, -1),
        ("BoolValue", wrappers_pb2.BoolValue, "true"),
        ("StringValue", wrappers_pb2.StringValue, 1),
        ("BytesValue", wrappers_pb2.BytesValue, "a*b"),
        ("DoubleValue", wrappers_pb2.DoubleValue, "nan"),
        ("DoubleValue", wrappers_pb2.DoubleValue, []),
    ],
)
def test_wrappers_reject_what_google_rejects(name: str, upb: Any, text: Any) -> None:
    with pytest.raises(json_format.ParseError):
        parse(text, upb())
    with pytest.raises(pa.DecodeError, match=r"^M\.f: "):
        from_json(_wkt.WRAPPERS[name][0], text)


def test_wrappers_accept_what_google_accepts() -> None:
    i64, by, d = (_wkt.WRAPPERS[n][0] for n in ("Int64Value", "BytesValue", "DoubleValue"))
    for text in ["12", 12, 12.0, "-3", 1e3]:
        assert from_json(i64, text) == parse(text, wrappers_pb2.Int64Value()).value
    for text in ["AP_-", "AP/+", "AA", "AA=="]:
        assert from_json(by, text) == parse(text, wrappers_pb2.BytesValue()).value
    for text in ["1.5", "Infinity", "-Infinity", 7]:
        assert from_json(d, text) == parse(text, wrappers_pb2.DoubleValue()).value


# -- Any -----------------------------------------------------------------------------


def test_any_of_a_contract_merges_its_fields(pb: Any) -> None:
    ours = pa.Any.pack(Order(7, "seven"))
    theirs = any_pb2.Any()
    theirs.Pack(pb.Order(id=7, note="seven"))
    text = to_json(pa.Any, ours)
    assert (
        text
        == google(theirs)
        == {"@type": "type.googleapis.com/wktjson.v1.Order", "id": 7, "note": "seven"}
    )
    assert list(text) == ["@type", "id", "note"]  # @type first
    assert from_json(pa.Any, text) == ours
    assert from_json(pa.Any, text).unpack() == Order(7, "seven")


def test_any_of_special_forms_has_a_value() -> None:
    cases = [
        (pa.Any.pack(pa.Timestamp(1, 5)), timestamp_pb2.Timestamp(seconds=1, nanos=5)),
        (pa.Any.pack(pa.Duration(2)), duration_pb2.Duration(seconds=2)),
        (pa.Any.pack(pa.FieldMask(("a_b",))), field_mask_pb2.FieldMask(paths=["a_b"])),
        (pa.Any.pack(-5, type=pa.wrappers.Int64Value), wrappers_pb2.Int64Value(value=-5)),
        (pa.Any.pack(b"\x01", type=pa.wrappers.BytesValue), wrappers_pb2.BytesValue(value=b"\x01")),
        (pa.Any.pack({"a": [1.0, None]}, type=pa.Struct), struct_pb2.Struct()),
        (pa.Any.pack("x", type=pa.JsonValue), struct_pb2.Value(string_value="x")),
        (pa.Any.pack([True], type=pa.ListValue), struct_pb2.ListValue()),
        (pa.Any.pack(pa.Empty()), empty_pb2.Empty()),
        (pa.Any.pack(pa.Any.pack(pa.Duration(1))), None),
    ]
    cases[5][1].update({"a": [1.0, None]})
    cases[7][1].extend([True])
    for ours, message in cases:
        theirs = any_pb2.Any()
        if message is None:  # an Any inside an Any
            inner = any_pb2.Any()
            inner.Pack(duration_pb2.Duration(seconds=1))
            message = inner
        theirs.Pack(message)
        text = to_json(pa.Any, ours)
        assert text == google(theirs), text
        assert from_json(pa.Any, text) == ours


def test_empty_any_is_an_empty_object() -> None:
    assert to_json(pa.Any, pa.Any()) == {} == google(any_pb2.Any())
    assert from_json(pa.Any, {}) == pa.Any()


def test_any_with_a_custom_type_url_keeps_it() -> None:
    ours = pa.Any.pack(Order(1), type_url_prefix="example.com/t/")
    text = to_json(pa.Any, ours)
    assert text["@type"] == "example.com/t/wktjson.v1.Order"
    assert from_json(pa.Any, text) == ours


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ([], r"^M\.f: a google.protobuf.Any is a JSON object"),
        ({"id": 1}, r"^M\.f: @type is missing"),
        ({"@type": 5}, r"^M\.f\.@type: expected a type URL"),
        (
            {"@type": "type.googleapis.com/nowhere.X"},
            r"^M\.f\.@type: no contract is named 'nowhere.X'",
        ),
        ({"@type": "type.googleapis.com/google.protobuf.Duration"}, r"^M\.f: .*needs its 'value'"),
        (
            {"@type": "type.googleapis.com/google.protobuf.Duration", "value": 1},
            r"^M\.f\.value: expected a duration like",
        ),
    ],
)
def test_bad_any_json_names_the_path(text: Any, message: str) -> None:
    with pytest.raises(json_format.ParseError):
        parse(text, any_pb2.Any())
    with pytest.raises(pa.DecodeError, match=message):
        from_json(pa.Any, text)


def test_any_is_stricter_than_google_about_keys_beside_value() -> None:
    text = {"@type": "type.googleapis.com/google.protobuf.Duration", "value": "1s", "x": 1}
    parse(text, any_pb2.Any())  # json_format ignores "x"
    with pytest.raises(pa.DecodeError, match=r"^M\.f: unexpected 'x' beside @type and value"):
        from_json(pa.Any, text)


def test_any_of_an_unknown_type_cannot_print() -> None:
    with pytest.raises(pa.EncodeError, match=r"no contract is named 'nowhere\.X'"):
        to_json(pa.Any, pa.Any("type.googleapis.com/nowhere.X", b""))
