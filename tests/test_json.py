"""Canonical JSON against Google's ``json_format``, both directions.

For every object: protoattr's bytes are parsed into the upb twin, and
``json_format.MessageToJson`` of that message must equal ``pa.to_json`` of
the object - as parsed JSON always, and byte for byte with the same options
(where map entries could come out in another order, with ``sort_keys``).
The other way, ``pa.from_json`` of Google's JSON equals ``pa.deserialize``
of Google's bytes, and Google parses protoattr's JSON to the same message.
"""

from __future__ import annotations

import json
import math
import sys
import threading
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from google.protobuf import json_format
from hypothesis import given, settings
from hypothesis import strategies as st

import protoattr as pa
from tests import contracts as c
from tests import test_interop as interop
from tests.contracts import UTC, Color, assert_same

SETTINGS = settings(derandomize=True, max_examples=60)

#: option sets tried on every object (json_format's names and defaults)
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"indent": None},
    {"indent": 0, "sort_keys": True},
    {"preserving_proto_field_name": True, "use_integers_for_enums": True},
    {"always_print_fields_with_no_presence": True, "ensure_ascii": False, "indent": 4},
    {"always_print_fields_with_no_presence": True, "preserving_proto_field_name": True},
]


def _has_nan(text: str) -> bool:
    return '"NaN"' in text


def check_json(obj: Any, pb_cls: Any, *, ordered: bool = True) -> str:
    """Every JSON check for one object; ``ordered=False`` where maps may be reordered."""
    pb = pb_cls.FromString(pa.serialize(obj))
    for options in OPTION_SETS:
        ours = pa.to_json(obj, **options)
        theirs = json_format.MessageToJson(pb, **options)
        assert json.loads(ours) == json.loads(theirs), options
        if ordered or options.get("sort_keys"):
            assert ours == theirs, options
        else:
            sorted_options = {**options, "sort_keys": True}
            assert pa.to_json(obj, **sorted_options) == json_format.MessageToJson(
                pb, **sorted_options
            )
        dict_options = {
            k: v for k, v in options.items() if k not in ("indent", "sort_keys", "ensure_ascii")
        }
        assert pa.to_dict(obj, **dict_options) == json_format.MessageToDict(pb, **dict_options)
    # Google's JSON reads back as Google's bytes decode
    theirs = json_format.MessageToJson(pb)
    back = pa.from_json(type(obj), theirs)
    expected = pa.deserialize(type(obj), pb.SerializeToString())
    if _has_nan(theirs):  # a NaN's payload does not survive JSON: compare the JSON
        assert pa.to_dict(back) == pa.to_dict(expected)
    else:
        assert_same(back, expected)
    # and protoattr's JSON (with any options) parses in Google's runtime to the same message,
    # unless json_format cannot read its own output (the largest float32 prints as
    # 3.4028235e+38, which its range check then refuses; protoattr reads it)
    try:
        json_format.Parse(theirs, pb_cls())
    except json_format.ParseError:
        return theirs
    for options in OPTION_SETS:
        parsed = json_format.Parse(pa.to_json(obj, **options), pb_cls())
        assert json_format.MessageToDict(parsed) == json_format.MessageToDict(pb)
    return theirs


# ---------------------------------------------------------------- scalars


@pytest.mark.parametrize("obj", interop.EXTREME_SCALARS, ids=repr)
def test_scalar_extremes(obj: c.Scalars) -> None:
    check_json(obj, c.kinds_pb().Scalars)


@SETTINGS
@given(interop.SCALARS)
def test_scalars(obj: c.Scalars) -> None:
    check_json(obj, c.kinds_pb().Scalars)


@SETTINGS
@given(interop.REPEATS)
def test_repeated(obj: c.Repeats) -> None:
    check_json(obj, c.kinds_pb().Repeats)


@SETTINGS
@given(interop.UNPACKED)
def test_unpacked_and_tuples(obj: c.Unpacked) -> None:
    check_json(obj, c.kinds_pb().Unpacked)


@SETTINGS
@given(interop.MAPS)
def test_maps(obj: c.Maps) -> None:
    check_json(obj, c.kinds_pb().Maps, ordered=False)


@SETTINGS
@given(interop.OPTIONALS)
def test_optionals(obj: c.Optionals) -> None:
    check_json(obj, c.kinds_pb().Optionals)


@SETTINGS
@given(interop.TASKS)
def test_tasks(obj: c.Task) -> None:
    check_json(obj, c.task_pb().Task)


def test_golden_scalars() -> None:
    obj = c.Scalars(
        i32=-1, i64=2**63 - 1, u64=2**64 - 1, fl=0.1, db=-math.inf, flag=True,
        text="é", data=b"\xfb\xff", color=Color.NEGATIVE, inner=c.Inner(), plain=-(2**63),
        ts=datetime(1972, 1, 1, 10, 0, 20, 21000, tzinfo=UTC), dur=timedelta(microseconds=-1),
    )  # fmt: skip
    assert pa.to_json(obj, indent=None) == (
        '{"i32": -1, "i64": "9223372036854775807", "u64": "18446744073709551615", '
        '"fl": 0.1, "db": "-Infinity", "flag": true, "text": "\\u00e9", "data": "+/8=", '
        '"color": "NEGATIVE", "inner": {}, "ts": "1972-01-01T10:00:20.021Z", '
        '"dur": "-0.000001s", "plain": "-9223372036854775808"}'
    )
    check_json(obj, c.kinds_pb().Scalars)


def test_field_order_with_always_print_is_json_formats() -> None:
    # set fields first in field-number order, then the unset ones without presence
    obj = c.Scalars(text="x")
    text = pa.to_json(obj, always_print_fields_with_no_presence=True, indent=None)
    assert text.startswith('{"text": "x", "i32": 0, "i64": "0"')
    assert '"inner"' not in text and '"ts"' not in text  # messages have presence
    check_json(obj, c.kinds_pb().Scalars)


# ------------------------------------------------ proto2, recursion, oneof


@pytest.mark.parametrize(
    "obj",
    [
        c.Defaults(),
        c.Defaults(i32=0, u64=0, s32=0, sf64=0, fl=0.0, db=0.0, flag=False, text="", data=b""),
        c.Defaults(color=Color.COLOR_ZERO),
        c.Defaults(i32=-6, u64=2**64 - 2, s32=1, sf64=2**63 - 1, fl=-0.0, db=2.25),
    ],
    ids=repr,
)
def test_proto2_defaults(obj: c.Defaults) -> None:
    check_json(obj, c.dns_pb().Defaults)


def test_proto2_defaults_fill_missing_fields() -> None:
    assert pa.from_json(c.Defaults, "{}") == c.Defaults()
    assert pa.from_json(c.DnsRecord, '{"key": "k", "value": "v", "first": "f", "last": "l"}') == (
        c.DnsRecord("k", "v", "f", "l", type="A", ttl=86400)
    )


def test_dns_records() -> None:
    records = c.DnsResponse(
        [
            interop.DNS,
            c.DnsRecord("a", "b", "c", "d", type="AAAA", ttl=60),
            c.DnsRecord("", "", "", ""),
        ]
    )
    check_json(records, c.dns_pb().DnsResponse)


def test_required_field_missing_is_a_decode_error() -> None:
    with pytest.raises(pa.DecodeError, match=r"^DnsResponse\.records\[0\]: required field 'last'"):
        pa.from_json(c.DnsResponse, '{"records": [{"key": "k", "value": "v", "first": "f"}]}')


def test_recursive_contracts() -> None:
    pb = c.recursive_pb()
    check_json(c.Node(1, [c.Node(2, [c.Node(3)]), c.Node()]), pb.Node)
    check_json(c.chain(30), pb.Chain)
    tree = c.Tree("t", c.Forest("f", [c.Tree("u")]), {"a": c.Tree("v")})
    check_json(c.Forest("root", [tree, c.Tree()]), pb.Forest)


def test_nesting_past_max_depth_is_a_decode_error() -> None:
    model = pa.TypeModel(max_depth=10)
    text = pa.to_json(c.chain(9))
    assert model.from_json(c.Chain, text) == c.chain(9)
    with pytest.raises(pa.DecodeError, match="deeper than 10"):
        model.from_json(c.Chain, pa.to_json(c.chain(11)))


@pytest.mark.parametrize(
    "obj",
    [c.Shape("none"), c.Shape("c", radius=0.0), c.Shape("s", side=-3), c.Shape(label="")],
    ids=repr,
)
def test_oneof(obj: c.Shape) -> None:
    check_json(obj, c.shape_pb().Shape)


def test_oneof_null_members_do_not_count() -> None:
    assert pa.from_json(c.Shape, '{"radius": null, "side": 2}') == c.Shape(side=2)


# ----------------------------------------------------------- parse forms


def test_parse_accepts_proto_names_numbers_and_alternative_spellings() -> None:
    text = json.dumps(
        {
            "i32": 1.0,  # an integral float
            "i64": "-12",
            "u64": 1e3,
            "s64": "2e2",  # an exponent in a string
            "f64": 7,  # a number for a 64-bit field
            "fl": "Infinity",
            "db": "-1.5",
            "data": "-_8",  # URL-safe, unpadded
            "color": 2,
            "plain": "9223372036854775807",
            "ts": "1972-01-01T10:00:20.021-05:00",
            "dur": "-1.5s",
        }
    )
    obj = pa.from_json(c.Scalars, text)
    assert obj == c.Scalars(
        i32=1, i64=-12, u64=1000, s64=200, f64=7, fl=math.inf, db=-1.5, data=b"\xfb\xff",
        color=Color.GREEN, plain=2**63 - 1,
        ts=datetime(1972, 1, 1, 15, 0, 20, 21000, tzinfo=UTC), dur=timedelta(seconds=-1.5),
    )  # fmt: skip
    google = json_format.Parse(text, c.kinds_pb().Scalars())
    assert pa.serialize(obj) == google.SerializeToString()


def test_parse_accepts_both_names() -> None:
    assert pa.from_json(c.Task, '{"created_by": "a"}').created_by == "a"
    assert pa.from_json(c.Task, '{"createdBy": "a"}').created_by == "a"


def test_unknown_enum_number_is_kept_in_an_open_enum() -> None:
    obj = pa.from_json(c.Scalars, '{"color": 99}')
    assert obj.color == 99 and type(obj.color) is int
    assert pa.to_json(obj, indent=None) == '{"color": 99}'


def test_ignore_unknown_fields() -> None:
    text = '{"a": 1, "nope": {"x": [1]}, "s": "k"}'
    with pytest.raises(pa.DecodeError, match=r"^Inner\.nope: Inner has no field 'nope'"):
        pa.from_json(c.Inner, text)
    assert pa.from_json(c.Inner, text, ignore_unknown_fields=True) == c.Inner(1, "k")
    # and unknown enum names are dropped, as json_format drops them
    obj = pa.from_json(c.Repeats, '{"color": ["RED", "PURPLE", 2]}', ignore_unknown_fields=True)
    assert obj.color == [Color.RED, Color.GREEN]
    assert pa.from_json(c.Scalars, '{"color": "PURPLE"}', ignore_unknown_fields=True) == c.Scalars()


def test_null_is_the_default() -> None:
    text = '{"i32": null, "text": null, "inner": null, "ts": null, "color": null}'
    assert pa.from_json(c.Scalars, text) == c.Scalars()
    assert pa.from_json(c.Repeats, '{"i32": null}') == c.Repeats()
    assert pa.from_json(c.Maps, '{"i32": null}') == c.Maps()
    json_format.Parse(text, c.kinds_pb().Scalars())  # Google agrees


def test_bytes_input_and_top_level_forms() -> None:
    assert pa.from_json(c.Inner, b'{"a": 5}') == c.Inner(5)
    assert pa.from_dict(c.Inner, {"a": 5, "s": "x"}) == c.Inner(5, "x")
    assert pa.to_dict(c.Inner(5, "x")) == {"a": 5, "s": "x"}


def test_from_dict_takes_mappings_and_tuples_as_json_format_does() -> None:
    from collections import OrderedDict

    data = OrderedDict(
        [("text", OrderedDict([("k", OrderedDict([("a", 1)]))])), ("i32", {"1": "x"})]
    )
    assert pa.from_dict(c.Maps, data) == c.Maps(text={"k": c.Inner(1)}, i32={1: "x"})
    assert pa.from_dict(c.Repeats, {"i32": (1, 2)}) == c.Repeats(i32=[1, 2])


def test_model_methods() -> None:
    model = pa.TypeModel()
    task = c.Task(1, datetime(2020, 1, 1, tzinfo=UTC), "me", c.TaskPriority.HIGH)
    text = model.to_json(task)
    assert text == pa.to_json(task)
    assert model.from_json(c.Task, text) == task
    assert model.from_dict(c.Task, model.to_dict(task)) == task


# ---------------------------------------------------------- timestamps


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (datetime(1970, 1, 1, tzinfo=UTC), "1970-01-01T00:00:00Z"),
        (datetime(1, 1, 1, tzinfo=UTC), "0001-01-01T00:00:00Z"),
        (datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC), "9999-12-31T23:59:59.999999Z"),
        (datetime(2000, 2, 29, 1, 2, 3, 400000, tzinfo=UTC), "2000-02-29T01:02:03.400Z"),
        (datetime(2000, 2, 29, 1, 2, 3, 450), "2000-02-29T01:02:03.000450Z"),  # naive is UTC
        (
            datetime(2000, 1, 1, 5, 30, tzinfo=timezone(timedelta(hours=5, minutes=30))),
            "2000-01-01T00:00:00Z",
        ),
    ],
)
def test_timestamp_forms(value: datetime, text: str) -> None:
    obj = c.Scalars(ts=value)
    assert json.loads(pa.to_json(obj))["ts"] == text
    check_json(obj, c.kinds_pb().Scalars)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (timedelta(0), "0s"),
        (timedelta(seconds=1, microseconds=340), "1.000340s"),
        (timedelta(seconds=-3, microseconds=-100000), "-3.100s"),
        (timedelta(microseconds=-500000), "-0.500s"),
        (timedelta(seconds=315576000000), "315576000000s"),
    ],
)
def test_duration_forms(value: timedelta, text: str) -> None:
    obj = c.Scalars(dur=value)
    assert json.loads(pa.to_json(obj))["dur"] == text
    check_json(obj, c.kinds_pb().Scalars)


def test_nine_fractional_digits_parse_to_microseconds() -> None:
    obj = pa.from_json(c.Scalars, '{"ts": "1970-01-01T00:00:01.123456789Z", "dur": "1.000340012s"}')
    assert obj.ts == datetime(1970, 1, 1, 0, 0, 1, 123456, tzinfo=UTC)
    assert obj.dur == timedelta(seconds=1, microseconds=340)


@pytest.mark.parametrize(
    "obj",
    [
        c.Scalars(dur=timedelta(seconds=315576000001)),
        c.Scalars(ts=datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=1)))),
        c.Scalars(i32=2**31),
        c.Scalars(u64=-1),
        c.Scalars(text=b"x"),  # type: ignore[arg-type]
        c.Scalars(fl=1e39),
        c.Scalars(color="RED"),  # type: ignore[arg-type]
        c.Repeats(i32=[1, "2"]),  # type: ignore[list-item]
        c.Maps(i32={"k": "v"}),  # type: ignore[dict-item]
    ],
    ids=repr,
)
def test_values_that_do_not_fit_are_encode_errors(obj: Any) -> None:
    with pytest.raises(pa.EncodeError, match=rf"^{type(obj).__name__}\.\w+"):
        pa.to_json(obj)


@settings(derandomize=True, max_examples=200)
@given(st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31, 23, 59, 59)))
def test_timestamps_agree_with_google_both_ways(value: datetime) -> None:
    obj = c.Scalars(ts=value.replace(tzinfo=UTC))
    check_json(obj, c.kinds_pb().Scalars)


@settings(derandomize=True, max_examples=200)
@given(interop.TIMEDELTAS)
def test_durations_agree_with_google_both_ways(value: timedelta) -> None:
    check_json(c.Scalars(dur=value), c.kinds_pb().Scalars)


def test_enum_names_the_exported_schema_may_prefix_are_read() -> None:
    assert pa.from_json(c.Scalars, '{"color": "COLOR_RED"}').color is Color.RED
    assert pa.from_json(c.Scalars, '{"color": "RED"}').color is Color.RED
    with pytest.raises(pa.DecodeError, match=r"^Scalars\.color: 'COLOR_PURPLE' is not a value"):
        pa.from_json(c.Scalars, '{"color": "COLOR_PURPLE"}')


def test_threads_racing_on_first_use_get_the_same_json() -> None:
    forest = c.Forest("f", [c.Tree("t", c.Forest("g", [c.Tree("u")]), {"k": c.Tree("v")})])
    expected = pa.to_json(forest)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible: races show
    try:
        _race(forest, expected)
    finally:
        sys.setswitchinterval(interval)


def _race(forest: c.Forest, expected: str) -> None:
    for _ in range(10):
        model = pa.TypeModel()
        results: list[Any] = []
        barrier = threading.Barrier(8)

        def work(
            model: pa.TypeModel = model,
            results: list[Any] = results,
            barrier: threading.Barrier = barrier,
        ) -> None:
            barrier.wait()
            text = model.to_json(forest)
            results.append((text, model.from_json(c.Forest, text)))

        threads = [threading.Thread(target=work) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert results == [(expected, forest)] * 8
