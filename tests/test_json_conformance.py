"""JSON against ``json_format`` on the conformance messages: the findings of issue 21.

Each test reads the same text with protoattr and with ``json_format`` (upb) on the
twins of ``TestAllTypesProto3``/``Proto2`` (``conformance/``) and compares what they
make of it: both refuse, or both accept and write the same bytes.  Where protoattr
differs on purpose, the test says so and docs/json.md lists it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from google.protobuf import json_format

import protoattr as pa
from conformance import proto3
from fuzz import json_diff

M = proto3.TestAllTypesProto3


@pytest.fixture(scope="module")
def upb() -> Any:
    return json_diff.google_classes()[3]


def same_as_upb(upb: Any, text: str, *, ignore: bool = False) -> bytes | None:
    """Both accept ``text`` and write the same bytes (returned), or both refuse it (None)."""
    try:
        theirs: Any = json_format.Parse(text, upb(), ignore_unknown_fields=ignore)
    except json_format.ParseError:
        theirs = None
    try:
        ours = pa.from_json(M, text, ignore_unknown_fields=ignore)
    except pa.DecodeError as exc:
        assert theirs is None, f"upb accepts, protoattr refuses: {exc}"
        return None
    assert theirs is not None, "protoattr accepts, upb refuses"
    data = pa.serialize(ours)
    assert upb.FromString(data) == theirs
    assert pa.deserialize(M, data) == ours  # what decoding returns, encoding writes
    return data


# -- 2017/2017: JSON null is a Value's null_value and NullValue's value -----------------


def test_a_null_value_field_holds_null_value(upb: Any) -> None:
    assert same_as_upb(upb, '{"optionalValue": null}') == b"\x92\x13\x02\x08\x00"
    obj = pa.from_json(M, '{"optionalValue": null}')
    assert obj.optional_value is pa.NullValue.NULL_VALUE  # None is the absent field
    assert pa.to_json(obj, indent=None) == '{"optionalValue": null}'
    assert pa.from_json(M, "{}").optional_value is None


def test_null_items_of_repeated_values_and_nulls_inside_structs(upb: Any) -> None:
    text = '{"repeatedValue": [null, {"a": null}, [null]], "optionalStruct": {"b": null}}'
    same_as_upb(upb, text)
    obj = pa.from_json(M, text)
    assert obj.repeated_value == [pa.NullValue.NULL_VALUE, {"a": None}, [None]]
    assert obj.optional_struct == {"b": None}


def test_a_null_value_oneof_member_is_set_by_null(upb: Any) -> None:
    assert same_as_upb(upb, '{"oneofNullValue": null}') == b"\xc0\x07\x00"
    obj = pa.from_json(M, '{"oneofNullValue": null}')
    assert obj.oneof_null_value is pa.NullValue.NULL_VALUE
    assert pa.to_json(obj, indent=None) == '{"oneofNullValue": null}'


def test_binary_value_null_survives_and_a_value_with_no_kind_too() -> None:
    # finding 7: e2 13 00 (a repeated Value with no kind) re-encoded as e2 13 02 08 00
    for data in (
        b"\x92\x13\x02\x08\x00",
        b"\xe2\x13\x00",
        b"\x92\x13\x00",
        b"\xe2\x13\x02\x08\x00",
    ):
        assert pa.serialize(pa.deserialize(M, data)) == data
    no_kind = pa.deserialize(M, b"\x92\x13\x00").optional_value
    assert no_kind is not None and no_kind is not pa.NullValue.NULL_VALUE
    assert pa.to_dict(pa.deserialize(M, b"\x92\x13\x00")) == {"optionalValue": None}


# -- finding 1: NullValue reads like the open enum it is --------------------------------


@pytest.mark.parametrize(
    "text", ['{"oneofNullValue": 1}', '{"oneofNullValue": "0"}', '{"optionalNullValue": 2}']
)
def test_null_value_numbers(upb: Any, text: str) -> None:
    assert same_as_upb(upb, text) is not None


def test_an_unknown_null_value_name(upb: Any) -> None:
    assert same_as_upb(upb, '{"optionalNullValue": "FOO"}') is None
    assert same_as_upb(upb, '{"optionalNullValue": "FOO"}', ignore=True) == b""


def test_true_for_an_enum_is_refused_on_purpose() -> None:
    # json_format reads int(True); protoattr reads `true` for no number (docs/json.md)
    with pytest.raises(pa.DecodeError, match="expected a NullValue name or number"):
        pa.from_json(M, '{"oneofNullValue": true}')


# -- finding 2: no lone surrogate gets in -----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '{"mapStringString": {"\\ud800": ""}}',
        '{"optionalStringWrapper": "\\udc00"}',
        '{"repeatedStringWrapper": ["\\ud800"]}',
        '{"optionalFieldMask": "a\\ud800"}',
        '{"optionalStruct": {"\\ud800": 1}}',
        '{"optionalStruct": {"a": "\\ud800"}}',
        '{"optionalValue": ["\\ud800"]}',
    ],
)
def test_lone_surrogates_are_refused(upb: Any, text: str) -> None:
    assert same_as_upb(upb, text) is None


@pytest.mark.parametrize("name", ["mapStringNestedEnum", "mapStringForeignEnum"])
def test_a_map_key_is_read_even_when_its_value_is_dropped(upb: Any, name: str) -> None:
    # an unknown enum name, which ignore_unknown_fields drops with its entry: the key is
    # still read first, as json_format reads it (a fuzz finding)
    assert same_as_upb(upb, json.dumps({name: {"a": "NOPE"}}), ignore=True) == b""
    assert same_as_upb(upb, json.dumps({name: {"\udc00x": "NOPE"}}), ignore=True) is None


# -- finding 3: no null in repeated wrappers ----------------------------------------------


@pytest.mark.parametrize("name", ["repeatedInt32Wrapper", "repeatedStringWrapper"])
def test_null_items_of_repeated_wrappers_are_refused(upb: Any, name: str) -> None:
    assert same_as_upb(upb, json.dumps({name: [None]})) is None
    assert same_as_upb(upb, json.dumps({name: []})) == b""


# -- finding 4: depth counts through Value, Struct, ListValue and Any -------------------


def _anys(n: int) -> str:
    url = "type.googleapis.com/protobuf_test_messages.proto3.TestAllTypesProto3"
    text = "{}"
    for _ in range(n):
        text = json.dumps({"@type": url, "optionalAny": json.loads(text)})
    return json.dumps({"optionalAny": json.loads(text)})


@pytest.mark.parametrize(
    ("make", "deepest"),
    [
        (lambda n: '{"optionalValue": ' + "[" * n + "]" * n + "}", 49),  # upb: 49
        (_anys, 98),  # upb: 98
        (lambda n: '{"recursiveMessage": ' * n + "{}" + "}" * n, 99),
    ],
)
def test_nesting_is_counted_as_json_format_counts_it(upb: Any, make: Any, deepest: int) -> None:
    data = same_as_upb(upb, make(deepest))
    assert data is not None
    with pytest.raises(pa.DecodeError, match="nesting deeper than 100 levels"):
        pa.from_json(M, make(deepest + 1))


def test_map_entries_count_as_on_the_wire() -> None:
    # a Struct nests a map entry per level, which the binary decoder counts: JSON counts
    # it too, so that what from_json returns, deserialize reads back (docs/json.md)
    def nested(n: int) -> str:
        return '{"optionalStruct": ' + '{"a": ' * n + "1" + "}" * n + "}"

    obj = pa.from_json(M, nested(33))
    assert pa.deserialize(M, pa.serialize(obj)) == obj
    with pytest.raises(pa.DecodeError, match="nesting deeper than 100 levels"):
        pa.from_json(M, nested(34))


# -- finding 5: use_integers_for_enums prints NullValue as 0 ----------------------------


def test_integers_for_enums_print_null_value_as_zero(upb: Any) -> None:
    obj = pa.from_json(M, '{"oneofNullValue": null}')
    theirs = json_format.Parse('{"oneofNullValue": null}', upb())
    ours = pa.to_json(obj, use_integers_for_enums=True)
    assert ours == json_format.MessageToJson(theirs, use_integers_for_enums=True)
    assert json.loads(ours) == {"oneofNullValue": 0}


# -- finding 6: each followed, or documented --------------------------------------------


@pytest.mark.parametrize("key", ["1e3", "2147483647e0", "-5E0"])
def test_integer_map_keys_read_like_integer_values(upb: Any, key: str) -> None:
    assert same_as_upb(upb, json.dumps({"mapInt32Int32": {key: 1}})) is not None


def test_a_duplicate_key_inside_an_ignored_field_is_malformed(upb: Any) -> None:
    assert same_as_upb(upb, '{"unknown": {"a": 1, "a": 2}}', ignore=True) is None


def test_an_any_of_a_well_known_type_with_an_extra_key() -> None:
    text = json.dumps(
        {
            "optionalAny": {
                "@type": "type.googleapis.com/google.protobuf.Int32Value",
                "value": 1,
                "x": 2,
            }
        }
    )
    with pytest.raises(pa.DecodeError, match="unexpected 'x' beside @type and value"):
        pa.from_json(M, text)  # json_format drops "x" silently (docs/json.md)
    assert pa.from_json(M, text, ignore_unknown_fields=True).optional_any.value == b"\x08\x01"


@pytest.mark.parametrize("text", ['"QQ="', '"QQ==QQ=="', '"="'])
def test_malformed_base64_padding_is_refused_on_purpose(text: str) -> None:
    with pytest.raises(pa.DecodeError, match="base64"):
        pa.from_json(M, '{"optionalBytes": ' + text + "}")


def test_a_null_member_beside_another_member_is_two_members() -> None:
    # found by the fuzzer: json_format does not count the null and keeps the last member
    with pytest.raises(pa.DecodeError, match="oneof 'oneof_field' already has 'oneofNullValue'"):
        pa.from_json(M, '{"oneofNullValue": null, "oneofUint64": "0"}')
