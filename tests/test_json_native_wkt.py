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
from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
from hypothesis import given
from hypothesis import strategies as st

import protoattr as pa
import protoattr._native as native
from protoattr import field, proto_contract
from tests.test_json_native_read import FEW, NAT, PY, _outcome, same

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
