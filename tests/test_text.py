"""protobuf's text format against ``google.protobuf.text_format`` (upb), on both backends.

Printing: ``pa.to_text(obj, **options)`` equals ``MessageToString`` of the same bytes
in upb, with every option, for the conformance messages' twins (every scalar kind,
strings and bytes escaping, enums, nested and repeated messages, maps, oneofs, the
proto2 group), the well-known types (as plain messages; ``Any`` expanded), subtypes and
unknown fields.  Parsing: ``pa.from_text`` reads what ``Parse`` reads into the same
message, and refuses what it refuses at the same line and column.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from google.protobuf import text_format

import protoattr as pa
from fuzz import alltypes, families, targets
from protoattr import field, proto_contract
from tests import test_wkt as wkt
from tests.protoc import compile_proto

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"as_one_line": True},
    {"use_short_repeated_primitives": True},
    {"use_short_repeated_primitives": True, "as_one_line": True},
    {"pointy_brackets": True, "force_colon": True},
    {"use_index_order": True},
    {"use_field_number": True},
    {"print_unknown_fields": True},
    {"print_unknown_fields": True, "as_one_line": True},
    {"as_utf8": False},
    {"indent": 3},
]


def check_print(obj: Any, pb_cls: Any) -> str:
    """Every printing option gives MessageToString's text; returns the default text."""
    pb = pb_cls.FromString(pa.serialize(obj))
    for options in OPTION_SETS:
        assert pa.to_text(obj, **options) == text_format.MessageToString(pb, **options), options
    return str(text_format.MessageToString(pb))


def parse_both(cls: type, pb_cls: Any, text: str) -> tuple[Any, str | None, Any, str | None]:
    """``(upb message, its error, protoattr object, its error)`` for one text."""
    try:
        with warnings.catch_warnings():  # text_format's "\q" goes through a deprecated path
            warnings.simplefilter("ignore", DeprecationWarning)
            theirs, their_error = text_format.Parse(text, pb_cls()), None
    except text_format.ParseError as exc:
        theirs, their_error = None, str(exc)
    except ValueError as exc:  # upb refuses an open enum's number beyond int32 so
        theirs, their_error = None, f"(no place) {exc}"
    try:
        ours, our_error = pa.from_text(cls, text), None
    except pa.DecodeError as exc:
        ours, our_error = None, str(exc)
    return theirs, their_error, ours, our_error


def check_parse(cls: type, pb_cls: Any, text: str) -> None:
    """Accepted by both into the same message, or refused by both at the same place."""
    theirs, their_error, ours, our_error = parse_both(cls, pb_cls, text)
    assert (their_error is None) == (our_error is None), (text, their_error, our_error)
    if their_error is not None:
        assert our_error is not None
        where = their_error.split(" ", 1)[0]
        if ":" in where:  # text_format gives no place for a few errors; protoattr always does
            assert our_error.split(" ", 1)[0] == where, (text, their_error, our_error)
        return
    mine = pb_cls.FromString(pa.serialize(ours))
    assert same(mine, theirs), text


def same(a: Any, b: Any) -> bool:
    """Equal messages (NaN equal to NaN: compared as canonical bytes)."""
    return bool(a.SerializeToString(deterministic=True) == b.SerializeToString(deterministic=True))


# ---------------------------------------------------------------- the conformance twins


@pytest.mark.parametrize("version", [3, 2])
def test_conformance_messages_print_and_parse_as_text_format(version: int) -> None:
    google = targets._google(version)
    cls = getattr(alltypes, f"TestAllTypesProto{version}")
    for data in targets.alltypes_seeds(version):
        obj = pa.deserialize(cls, data)
        text = check_print(obj, google)
        check_parse(cls, google, text)
        check_parse(cls, google, text_format.MessageToString(google.FromString(data)))
        for options in OPTION_SETS[1:5]:
            check_parse(cls, google, pa.to_text(obj, **options))


def test_every_scalar_edge_prints_like_text_format() -> None:
    google = targets._google(3)
    obj = alltypes.TestAllTypesProto3(
        optional_int32=-(2**31),
        optional_int64=-(2**63),
        optional_uint32=2**32 - 1,
        optional_uint64=2**64 - 1,
        optional_sint32=-1,
        optional_sint64=2**63 - 1,
        optional_fixed32=2**32 - 1,
        optional_fixed64=2**64 - 1,
        optional_sfixed32=-5,
        optional_sfixed64=-(2**63),
        optional_float=0.1,
        optional_double=1e100,
        optional_bool=True,
        optional_string="\x00\x07\t\n\r\"'\\é€😀\x7f",
        optional_bytes=bytes(range(256)),
        repeated_float=[float("inf"), float("-inf"), float("nan"), -0.0, 3.4028234663852886e38],
        repeated_double=[float("nan"), -0.0, 5e-324, 1.0, 123456789.125],
        repeated_nested_enum=[
            alltypes.proto3NestedEnum.NEG,
            alltypes.proto3NestedEnum.BAZ,
            7,  # type: ignore[list-item]  (an open enum keeps unknown numbers)
        ],
        oneof_double=-0.0,
    )
    check_print(obj, google)
    check_parse(alltypes.TestAllTypesProto3, google, pa.to_text(obj))


def test_a_proto2_group_prints_under_its_type_name() -> None:
    google = targets._google(2)
    obj = alltypes.TestAllTypesProto2(data=alltypes.proto2Data(group_int32=4))
    assert pa.to_text(obj) == "Data {\n  group_int32: 4\n}\n"
    check_print(obj, google)
    for text in ("Data { group_int32: 1 }", "data { group_int32: 1 }", "DATA { }"):
        check_parse(alltypes.TestAllTypesProto2, google, text)


# ---------------------------------------------------------------- well-known types, Any


@pytest.fixture(scope="module")
def everything_pb() -> Any:
    return wkt.pb.__wrapped__()  # type: ignore[attr-defined]


def test_well_known_types_print_as_their_messages_and_any_expands(everything_pb: Any) -> None:
    obj = wkt.Everything(
        ts=pa.Timestamp(1_700_000_000, 5),
        dur=pa.Duration(-3, -7),
        any=pa.Any.pack(wkt.Order(id=5, note="x")),
        struct={"a": [1.0, None, True, "s", {"b": 2.0}]},
        value="text",
        lst=[1.0, "x"],
        d=1.5,
        i64=-(2**63),
        u32=0,
        b=False,
        s="é",
        by=b"\xff",
        mask=pa.FieldMask(["a.b", "c"]),
        empty=pa.Empty(),
        null=pa.NullValue.NULL_VALUE,
        values={"k": 1.0, "n": None},
        stamps=[pa.Timestamp(0, 0), pa.Timestamp(-1, 999_999_999)],
        order=wkt.Order(id=1),
    )
    pb = everything_pb.Everything
    text = check_print(obj, pb)
    assert "any {\n  [type.googleapis.com/wkt.test.v1.Order] {\n    id: 5\n" in text
    check_parse(wkt.Everything, pb, text)
    check_parse(wkt.Everything, pb, pa.to_text(obj, as_one_line=True, pointy_brackets=True))


def test_an_any_of_an_unknown_type_prints_its_fields(everything_pb: Any) -> None:
    obj = wkt.Everything(any=pa.Any("type.googleapis.com/no.such.Type", b"\x08\x01"))
    check_print(obj, everything_pb.Everything)
    obj = wkt.Everything(any=pa.Any("no-slash", b""))
    check_print(obj, everything_pb.Everything)


@pytest.mark.parametrize(
    "text",
    [
        "any { [type.googleapis.com/wkt.test.v1.Order] { id: 1 } }",
        "any { [type.googleapis.com/wkt.test.v1.Order]: < id: 1 note: 'n' > }",
        "any { [ type.googleapis.com / wkt.test.v1.Order ] { } }",
        "any { [example.com/a/b/wkt.test.v1.Order] { id: 2 } }",
        "any { [type.googleapis.com/wkt.test.v1.Order] { id: 1 }, }",
        "any { [type.googleapis.com/wkt.test.v1.Nope] { } }",
        "any { [wkt.test.v1.Order] { } }",
        "any { [/wkt.test.v1.Order] { } }",
        "any { [a%zz/wkt.test.v1.Order] { } }",
        "any { [type.googleapis.com/1x] { } }",
        "any { type_url: 'a/b' value: '\\001' }",
        "any { [type.googleapis.com/wkt.test.v1.Order] { id: 1 } type_url: 'x' }",
        "any { [type.googleapis.com/google.protobuf.Int32Value] { value: 3 } }",
        "ts { seconds: 1 nanos: 2000 } dur < seconds: -1 >",
        "values { key: 'a' value { string_value: 'x' } }"
        " values { key: 'a' value { bool_value: true } }",
    ],
)
def test_any_and_well_known_types_parse_as_text_format(everything_pb: Any, text: str) -> None:
    check_parse(wkt.Everything, everything_pb.Everything, text)


# ---------------------------------------------------------------- subtypes, unknown fields


def test_subtypes_print_as_their_messages() -> None:
    pb = compile_proto(pa.default_model.schema(families.Zoo, syntax="proto2"), "text_zoo")
    for obj in families.samples()["inheritance"]:
        text = check_print(obj, pb.Zoo)
        check_parse(families.Zoo, pb.Zoo, text)


@proto_contract
@dataclass
class Small:
    optional_int32: pa.int32 = field(1, default=0)


def test_unknown_fields_print_as_text_format_prints_them() -> None:
    small = compile_proto('syntax = "proto3";\nmessage Small { int32 optional_int32 = 1; }\n', "s")
    seeds = targets.alltypes_seeds(3) + targets.alltypes_seeds(2)
    # groups, an unknown message that is not one, an empty one, fixed widths
    seeds += [
        b"\x0b\x10\x01\x1b\x08\x02\x1c\x0c",
        b"\x12\x02\x08\xff",
        b"\x12\x00",
        b"\x1d\1\2\3\4",
    ]
    seeds += [b"\x19" + bytes(range(8)) + b"\x22\x03abc\x2a\x01\x0c"]
    for data in seeds:
        obj = pa.deserialize(Small, data)
        check_print(obj, small.Small)


def test_a_map_entry_upb_cannot_hold_whole_is_an_unknown_field() -> None:
    """A closed enum's unknown number in a map value (proto2), an unknown field in an entry:
    upb keeps the whole entry as an unknown field (found by fuzzing the printer)."""
    google = targets._google(2)
    entry = b"\x0a\x01e\x10\x03"  # {key: "e", value: 3}, and 3 is no ForeignEnum
    data = b"\xd2\x04" + bytes([len(entry)]) + entry
    data += b"\xa2\x04\x04\x08\x01\x42\x00"  # map_bool_bool {key: true, 8: ""}
    obj = pa.deserialize(alltypes.TestAllTypesProto2, data)
    check_print(obj, google)
    assert "74 {" in pa.to_text(obj, print_unknown_fields=True)
    # upb re-encodes such an entry (key, value, then the rest): {15: "n", value {a: 5}}
    entry = b"\x7a\x01n\x12\x02\x08\x05"
    data = b"\xba\x04" + bytes([len(entry)]) + entry
    obj3 = pa.deserialize(alltypes.TestAllTypesProto3, data)
    assert check_print(obj3, targets._google(3)) == ""
    assert (
        pa.to_text(obj3, print_unknown_fields=True) == '71 {\n  2 {\n    1: 5\n  }\n  15: "n"\n}\n'
    )


# ---------------------------------------------------------------- parsing


PARSE_CASES = [
    "optional_int32: 0x10",
    "optional_int32: 010",
    "optional_int32: -0",
    "optional_int32: 1_000",
    "optional_int32: 0b101",
    "optional_int32: 2147483648",
    "optional_int32: 08",
    "optional_uint32: -1",
    "optional_int32: 1.5",
    "optional_int32: '1'",
    "optional_uint64: 18446744073709551615",
    "optional_float: 1e40",
    "optional_float: -inf",
    "optional_float: 1f",
    "optional_float: Infinity",
    "optional_float: 3.4028235e38",
    "optional_double: -nan",
    "optional_double: .5",
    "optional_double: 01.5",
    "optional_double: 1e",
    "optional_double: 0x1",
    "optional_bool: t",
    "optional_bool: True",
    "optional_bool: 2",
    'optional_string: "a" \'b\' "\\x41\\101\\u00e9\\U0001F600\\q"',
    'optional_string: "\\377"',
    'optional_string: "\\xc3"',
    'optional_string: "\\ud800"',
    'optional_string: "\\777"',
    'optional_string: "\\x"',
    'optional_string: "\\u12"',
    'optional_string: "abc',
    'optional_string: "a\\',
    'optional_bytes: "\\377\\xf\\0\\12"',
    "optional_string: abc",
    "optional_int32: 1 optional_int32: 2",
    "optional_int32: 0 optional_int32: 2",
    "optional_int32: 2 optional_int32: 0",
    "optional_double: -0.0 optional_double: 1",
    "oneof_uint32: 1 oneof_string: 'x'",
    "oneof_uint32: 1 oneof_uint32: 2",
    "oneof_nested_message { a: 1 } oneof_uint32: 1",
    "optional_nested_message { a: 1 } optional_nested_message < a: 2 >",
    "optional_nested_message: { a: 1 }",
    "optional_nested_message {",
    "optional_nested_message { a: 1 ",
    "optional_nested_message < a: 1 }",
    "optional_nested_message a: 1",
    "repeated_int32: [1, 2, 3] repeated_int32: [] repeated_int32: 4",
    "repeated_int32: [1, 2,]",
    "repeated_int32: [1 2]",
    "repeated_string: ['a', \"b\" 'c']",
    "repeated_nested_message [{a: 1}, <a: 2>]",
    "repeated_nested_message: [{a: 1}]",
    "map_int32_int32 { key: 1 value: 2 } map_int32_int32 { value: 3 } map_int32_int32 { }",
    "map_int32_int32 { key: 1 key: 2 }",
    "map_int32_int32 { key: 1 value: 2 } map_int32_int32 { key: 1 value: 5 }",
    "map_string_nested_message { key: 'a' value { a: 1 } }",
    "map_string_nested_message [{ key: 'a' }, { key: 'b' value < a: 2 > }]",
    "map_string_foreign_enum { key: 'a' value: FOREIGN_BAZ }",
    "optional_nested_enum: BAR",
    "optional_nested_enum: 7",
    "optional_nested_enum: -1",
    "optional_nested_enum: 0x1",
    "optional_nested_enum: NOPE",
    "optional_nested_enum: 'BAR'",
    "optional_foreign_enum: FOREIGN_BAR repeated_nested_enum: [FOO, 1, NEG]",
    "nope: 1",
    "[ext.thing]: 1",
    "1: 5",
    "# a comment\noptional_int32: 1 # another\n;",
    "optional_int32 1",
    "optional_int32: 1,optional_int64: 2;optional_uint32: 3",
    "optional_int32: 1;;",
    "\n\n  optional_int32: x",
    "\t optional_int32:\n\n  5\r\n",
    "optional_timestamp { seconds: 5 nanos: 7000 }",
    "recursive_message { recursive_message { optional_int32: 1 } }",
    "optional_int32: 1 }",
    "{",
    "",
    "  # only a comment",
    "optional_int32: -",
    "optional_int32: +5",
    "optional_int32: é",
    "é: 1",
    "optional-int32: 1",
]


@pytest.mark.parametrize("text", PARSE_CASES)
def test_parse_accepts_and_refuses_as_text_format(text: str) -> None:
    check_parse(alltypes.TestAllTypesProto3, targets._google(3), text)


@pytest.mark.parametrize(
    "text",
    [
        "optional_nested_enum: 7",
        "optional_nested_enum: 2",
        "optional_int32: 0 optional_int32: 0",
        "map_int32_int32 { key: 0 key: 0 }",
        "Data { group_int32: 1 } Data { }",
        "data < group_uint32: 3 >",
    ],
)
def test_proto2_parse_accepts_and_refuses_as_text_format(text: str) -> None:
    check_parse(alltypes.TestAllTypesProto2, targets._google(2), text)


def test_a_question_mark_escape_is_a_question_mark() -> None:
    """The text format spec (and C++, and the conformance suite) read ``\\?`` as ``?``;
    Python's text_format keeps the backslash: protoattr follows the spec."""
    cls = alltypes.TestAllTypesProto3
    obj = pa.from_text(cls, "optional_string: '\\a\\?\\\\?' optional_bytes: '\\?'")
    assert (obj.optional_string, obj.optional_bytes) == ("\a?\\?", b"?")


def test_parse_options() -> None:
    cls, google = alltypes.TestAllTypesProto3, targets._google(3)
    text = "1: 5 nope { a: [1, 2] b: 'x' c < d: e > } zzz: [{}, 1.5, -2, ident, 'a' 'b']"
    with pytest.raises(pa.DecodeError, match="1:6 : Message type"):
        pa.from_text(cls, text, allow_field_number=True)
    obj = pa.from_text(cls, text, allow_field_number=True, allow_unknown_field=True)
    theirs = text_format.Parse(text, google(), allow_field_number=True, allow_unknown_field=True)
    assert google.FromString(pa.serialize(obj)) == theirs
    deep = "recursive_message { " * 3 + "}" * 3
    pa.from_text(cls, deep, max_recursion_depth=4)
    with pytest.raises(pa.DecodeError, match="Message too deep"):
        pa.from_text(cls, deep, max_recursion_depth=3)
    with pytest.raises(pa.DecodeError, match="1:1 : Couldn't parse integer"):
        pa.from_text(cls, "²: 1", allow_field_number=True)  # a digit int() cannot read
    assert pa.from_text(cls, b"optional_string: '\xc3\xa9'").optional_string == "é"
    with pytest.raises(pa.DecodeError, match="UTF-8"):
        pa.from_text(cls, b"optional_string: '\xff'")


def test_model_methods_and_round_trip_of_datetimes() -> None:
    model = pa.TypeModel()
    obj = alltypes.TestAllTypesProto3(
        optional_timestamp=datetime(2024, 1, 2, 3, 4, 5, 6, tzinfo=timezone.utc),
        optional_duration=timedelta(seconds=-1, microseconds=5),
    )
    text = model.to_text(obj)
    assert "optional_timestamp {\n  seconds: 1704164645\n  nanos: 6000\n}\n" in text
    assert model.from_text(alltypes.TestAllTypesProto3, text) == obj


def test_deep_nesting_is_a_decode_error_not_a_recursion_error() -> None:
    cls = alltypes.TestAllTypesProto3
    ok = "recursive_message { " * 100 + "}" * 100
    assert pa.to_text(pa.from_text(cls, ok)).count("recursive_message {") == 100
    for n in (101, 5000):
        with pytest.raises(pa.DecodeError, match="max_depth"):
            pa.from_text(cls, "recursive_message { " * n + "}" * n)


def test_anys_nested_past_max_depth_are_a_decode_error() -> None:
    inner = pa.Any.pack(wkt.Order(id=1))
    for _ in range(150):
        inner = pa.Any.pack(wkt.Everything(any=inner))
    obj = wkt.Everything(any=inner)
    with pytest.raises(pa.DecodeError, match="max_depth"):
        pa.to_text(obj)
    shallow = wkt.Everything(any=pa.Any.pack(wkt.Everything(any=pa.Any.pack(wkt.Order(id=1)))))
    assert pa.to_text(shallow).count("[type.googleapis.com/") == 2


def test_protobuf_nets_bcl_forms_print_as_their_messages() -> None:
    from tests import test_bcl_schema as bcl

    cls = bcl.upb_class()
    for obj in [bcl.Order(datetime.min), bcl.Order(datetime(1970, 1, 1)), bcl.ORDER]:
        text = check_print(obj, cls)
        check_parse(bcl.Order, cls, text)
    assert "scale: MILLISECONDS" in pa.to_text(bcl.ORDER)


@proto_contract
@dataclass
class LateBase:
    name: str = field(1, default="")


@proto_contract
@dataclass
class LateSub(LateBase):
    size: pa.int32 = field(2, default=0)


def test_a_subtype_added_later_is_printed_as_its_message() -> None:
    model = pa.TypeModel()
    assert model.to_text(LateBase(name="a")) == 'name: "a"\n'
    model.add_subtype(LateBase, 10, LateSub)
    obj = LateSub(name="b", size=3)
    text = model.to_text(obj)
    assert text == 'name: "b"\nLateSub {\n  size: 3\n}\n'
    assert model.from_text(LateBase, text) == obj
