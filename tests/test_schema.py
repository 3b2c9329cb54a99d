"""Schema export: every ``.proto`` protoattr writes compiles with protoc, and the
code Google generates from it interoperates with the contract.

For each root contract in :mod:`tests.schema_models` and each syntax that can
express it, the exported schema is compiled, each sample is built a second
time as a Google message (field by field, through the contract's own field
list), and then: protoattr's bytes parse in Google to that message, Google's
bytes decode in protoattr to the sample, and - unless a hierarchy puts a
subtype after the base's fields, which protoattr writes first - the bytes
are identical.
"""

from __future__ import annotations

import dataclasses
import enum
import struct
from datetime import datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import protoattr as pa
from protoattr import ContractError, field, proto_contract
from protoattr._core.contract import FieldInfo, Label, ValueType
from protoattr._core.types import Kind
from protoattr._schema.proto import schema
from tests import schema_models as m
from tests.contracts import assert_same, canonical
from tests.protoc import compile_proto

MODEL = pa.default_model
CASES = [(cls, syntax, samples) for cls, syntaxes, samples in m.SAMPLES for syntax in syntaxes]
REORDERED = m.REORDERED


def export(cls: Any, syntax: str, package: str | None = "exported") -> str:
    return schema(MODEL, cls, syntax=syntax, package=package)


def compiled(cls: type, syntax: str) -> Any:
    return compile_proto(export(cls, syntax), f"{cls.__name__.lower()}_{syntax}")


# ---------------------------------------------------- the contract's values, in Google's message


def _root(cls: type) -> type:
    link = MODEL._parent_of(cls)
    while link is not None:
        cls = link[0]
        link = MODEL._parent_of(cls)
    return cls


def to_google(obj: Any, msg: Any) -> Any:
    """Fill the Google message ``msg`` (of ``obj``'s hierarchy root) with ``obj``'s values."""
    chain = [type(obj)]
    link = MODEL._parent_of(chain[0])
    while link is not None:
        chain.insert(0, link[0])
        link = MODEL._parent_of(link[0])
    target = msg
    for i, level in enumerate(chain):
        for f in MODEL._own_fields(level):
            _set(target, f, getattr(obj, f.name))
        if i + 1 < len(chain):
            target = getattr(target, MODEL.info(chain[i + 1]).name)
            target.SetInParent()
    return msg


def _set(target: Any, f: FieldInfo, value: Any) -> None:
    name = f.proto_name
    if value is None:
        return
    if f.label is Label.MAP:
        assert f.key is not None
        entries = getattr(target, name)
        for k, v in value.items():
            key = _scalar(f.key, k)
            if _message_like(f.value):
                _message(entries[key], f.value, v)
            else:
                entries[key] = _scalar(f.value, v)
    elif f.label is Label.REPEATED:
        items = getattr(target, name)
        for v in value:
            if _message_like(f.value):
                _message(items.add(), f.value, v)
            else:
                items.append(_scalar(f.value, v))
    elif _message_like(f.value):
        _message(getattr(target, name), f.value, value)
    elif f.label is Label.SINGULAR and not f.required and _same(value, f.default):
        return  # protoattr does not write a value equal to its default
    else:
        setattr(target, name, _scalar(f.value, value))


def _message(target: Any, vt: ValueType, value: Any) -> None:
    if vt.kind is Kind.TIMESTAMP:
        target.FromDatetime(value)
    elif vt.kind is Kind.DURATION:
        target.FromTimedelta(value)
    else:
        to_google(value, target)
        target.SetInParent()


def _message_like(vt: ValueType) -> bool:
    return vt.kind in (Kind.MESSAGE, Kind.TIMESTAMP, Kind.DURATION)


def _scalar(vt: ValueType, value: Any) -> Any:
    if vt.encode_with is not None:
        return vt.encode_with(value)
    if isinstance(value, enum.Enum):
        return int(value.value)
    return value


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, (int, float)):
        return struct.pack("<d", a) == struct.pack("<d", float(b))
    return type(a) is type(b) and a == b


# --------------------------------------------------------------------- interop


@pytest.mark.parametrize(
    ("cls", "syntax", "samples"), CASES, ids=[f"{c.__name__}-{s}" for c, s, _ in CASES]
)
def test_google_interop(cls: type, syntax: str, samples: list[Any]) -> None:
    pb = compiled(cls, syntax)
    message_cls = getattr(pb, MODEL.info(_root(cls)).name)
    for obj in samples:
        ours = pa.serialize(obj)
        expected = to_google(obj, message_cls())
        theirs = expected.SerializeToString(deterministic=True)
        assert canonical(message_cls.FromString(ours)) == canonical(expected), obj
        assert_same(pa.deserialize(cls, theirs), obj)
        if cls not in REORDERED:
            assert ours == theirs, obj


_INT32 = st.integers(-(2**31), 2**31 - 1)
_INT64 = st.integers(-(2**63), 2**63 - 1)
_UINT32 = st.integers(0, 2**32 - 1)
_UINT64 = st.integers(0, 2**64 - 1)
_TEXT = st.text(st.characters(codec="utf-8"), max_size=8)
_POINTS = st.builds(m.Point, _INT32, _INT32)
_UTC = st.datetimes(
    min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31), timezones=st.just(m.UTC)
)
_SPAN = st.timedeltas(min_value=timedelta(days=-(10**6)), max_value=timedelta(days=10**6))


def _small_map(keys: Any, values: Any) -> Any:
    # One entry at most: protoattr writes a dict in its order, upb's deterministic order
    # is its own (descending for integer keys), so several entries would differ in order.
    return st.dictionaries(keys, values, max_size=1)


@st.composite
def _everything(draw: Any) -> m.Everything:
    key = draw(st.sampled_from(["by_num", "by_text", "by_point", None]))
    choice = {
        "by_num": _INT64,
        "by_text": _TEXT,
        "by_point": _POINTS,
    }
    return m.Everything(
        i32=draw(_INT32),
        i64=draw(_INT64),
        u32=draw(_UINT32),
        u64=draw(_UINT64),
        s32=draw(_INT32),
        s64=draw(_INT64),
        f32=draw(_UINT32),
        f64=draw(_UINT64),
        sf32=draw(_INT32),
        sf64=draw(_INT64),
        fl=draw(st.floats(width=32, allow_nan=False)),
        db=draw(st.floats(allow_nan=False)),
        flag=draw(st.booleans()),
        text=draw(_TEXT),
        data=draw(st.binary(max_size=8)),
        hue=draw(st.sampled_from(m.Hue)),
        plain=draw(_INT64),
        point=draw(st.none() | _POINTS),
        stamp=draw(st.builds(m.TimeStamp, st.none() | _UTC, st.none() | _SPAN, _TEXT)),
        when=draw(st.none() | _UTC),
        took=draw(st.none() | _SPAN),
        packed=draw(st.lists(_INT64, max_size=4)),
        expanded=draw(st.lists(_UINT32, max_size=4)),
        hues=draw(st.lists(st.sampled_from(m.Hue), max_size=4)),
        levels=draw(st.lists(st.sampled_from(m.Level), max_size=4)),
        names=draw(st.lists(_TEXT, max_size=3)),
        points=draw(st.lists(_POINTS, max_size=3)),
        times=draw(st.lists(_UTC, max_size=2)),
        by_id=draw(_small_map(_UINT32, _POINTS)),
        by_name=draw(_small_map(_TEXT, st.sampled_from(m.Hue))),
        flags=draw(_small_map(st.booleans(), st.binary(max_size=4))),
        maybe_i=draw(st.none() | _INT32),
        maybe_s=draw(st.none() | _TEXT),
        maybe_hue=draw(st.none() | st.sampled_from(m.Hue)),
        price=draw(st.decimals(allow_nan=False, allow_infinity=False)),
        ident=draw(st.uuids()),
        raw_id=draw(st.none() | st.uuids()),
        day=draw(st.dates()),
        perms=draw(st.sampled_from([m.Perm(0), m.Perm.R, m.Perm.W, m.Perm.X])),
        mood=draw(st.sampled_from(m.Mood)),
        weather=draw(st.lists(st.sampled_from(m.Weather), max_size=3)),
        **({key: draw(choice[key])} if key else {}),
    )


@pytest.mark.parametrize("syntax", ["proto2", "proto3", "editions"])
@settings(max_examples=40, derandomize=True)
@given(obj=_everything())
def test_google_interop_property(syntax: str, obj: m.Everything) -> None:
    message_cls = compiled(m.Everything, syntax).Everything
    ours = pa.serialize(obj)
    theirs = to_google(obj, message_cls()).SerializeToString(deterministic=True)
    assert ours == theirs
    assert_same(pa.deserialize(m.Everything, theirs), obj)


def test_subtype_bytes_differ_only_in_order() -> None:
    pb = compiled(m.Canvas, "proto3")
    obj = m.Canvas(main=m.Rect("r", None, 1, 2))
    theirs = to_google(obj, pb.Canvas()).SerializeToString()
    assert sorted(pa.serialize(obj)) == sorted(theirs)


def test_google_defaults_match_protoattr_defaults() -> None:
    """An empty message reads as every declared default, in Google and in protoattr."""
    for syntax in ("proto2", "editions"):
        empty = compiled(m.Legacy, syntax).Legacy()
        obj = m.Legacy(key="", origin=m.Point())
        for f in MODEL.info(m.Legacy).fields:
            if f.label is Label.SINGULAR and not _message_like(f.value):
                assert _same(getattr(empty, f.proto_name), _scalar(f.value, f.default)), f.name
                assert _same(getattr(obj, f.name), f.default)


# --------------------------------------------------------------------- the text itself


def test_proto3_text_seed_000() -> None:
    from tests.contracts import Task

    assert export(Task, "proto3", None) == (
        'syntax = "proto3";\n'
        "\n"
        'import "google/protobuf/timestamp.proto";\n'
        "\n"
        "message Task {\n"
        "  int32 id = 1;\n"
        "  google.protobuf.Timestamp created_at = 2;\n"
        "  string created_by = 3;\n"
        "  TaskPriority priority = 4;\n"
        "  string content = 5;\n"
        "  repeated string tags = 6;\n"
        "}\n"
        "\n"
        "enum TaskPriority {\n"
        "  LOW = 0;\n"
        "  MEDIUM = 1;\n"
        "  HIGH = 2;\n"
        "}\n"
    )


def test_editions_text_seed_002() -> None:
    from tests.contracts import Book, book_pb

    text = export(Book, "editions", None)
    assert text.startswith('edition = "2023";\n')
    assert "  string isbn = 1 [features.field_presence = IMPLICIT];\n" in text
    assert "  int32 pagecount = 4 [features.field_presence = IMPLICIT];\n" in text
    # interoperates with the seed's own schema (explicit presence): equal values
    book = Book("9781857232097", "The Fires of Heaven", "Robert Jordan", 912)
    ours = compile_proto(text, "book_export").Book.FromString(pa.serialize(book))
    seed = book_pb().Book.FromString(pa.serialize(book))
    assert ours.SerializeToString() == seed.SerializeToString() == pa.serialize(book)


def test_features_per_syntax() -> None:
    p2, p3, ed = (export(m.Everything, s) for s in ("proto2", "proto3", "editions"))
    assert "repeated sint64 packed = 22 [packed = true];" in p2
    assert "repeated fixed32 expanded = 23;" in p2
    assert "repeated sint64 packed = 22;" in p3
    assert "repeated fixed32 expanded = 23 [packed = false];" in p3
    assert "repeated fixed32 expanded = 23 [features.repeated_field_encoding = EXPANDED];" in ed
    assert "optional int32 maybe_i = 32;" in p3
    assert "  int32 maybe_i = 32;" in ed
    assert "optional Point point = 18;" in p2
    assert "  Point point = 18;" in p3
    assert "map<uint32, Point> by_id = 29;" in p2 and "map<uint32, Point> by_id = 29;" in ed
    assert "  oneof key {\n    int64 by_num = 35;\n" in p2
    assert "string price = 38;" in p3 and "bytes raw_id = 40;" in p3 and "int32 day = 41;" in p3
    assert 'message Stamp {\n  reserved 3, 5 to 7;\n  reserved "old_name";\n' in p3
    assert "  reserved old_name;\n" in ed
    assert "string proto_label = 4;" in p3
    # enums: zero first, a synthetic zero where proto3/open editions need one
    assert "enum Hue {\n  HUE_NONE = 0;\n  RED = 1;" in p3
    assert "enum Level {\n  LEVEL_UNSPECIFIED = 0;\n  LOW = 1;" in p3
    assert "enum Level {\n  LOW = 1;" in p2
    assert "enum Perm {\n  PERM_UNSPECIFIED = 0;" in p2  # a flag's zero is a value
    assert "MOOD_SUNNY = 0;" in p3 and "WEATHER_SUNNY = 0;" in p3  # shared scope


def test_legacy_features() -> None:
    p2, ed = export(m.Legacy, "proto2"), export(m.Legacy, "editions")
    assert "required string key = 1;" in p2
    assert "string key = 1 [features.field_presence = LEGACY_REQUIRED];" in ed
    assert "optional int32 count = 2 [default = 7];" in p2
    assert '[default = "h\\303\\251 \\"quoted\\" \\\\ \\012"]' in p2
    assert "optional double inf = 23 [default = inf];" in p2
    assert "optional group Card = 15 {" in p2 and "repeated group Hand = 16 {" in p2
    assert "Card card = 15 [features.message_encoding = DELIMITED];" in ed
    assert "enum Suit {\n  option features.enum_type = CLOSED;" in ed
    assert "Level level = 11 [default = LOW];" in ed  # LEVEL_UNSPECIFIED comes first there
    assert "optional Level level = 11;" in p2  # LOW is first: the default already


def test_group_named_like_a_message_is_qualified() -> None:
    text = export(m.Basket, "proto2", "shop")
    assert "optional group Item = 1 {" in text
    assert "optional .shop.Item other = 2;" in text


def test_inheritance_as_protobuf_net() -> None:
    text = export(m.Canvas, "proto3", None)
    assert (
        "message Figure {\n  oneof subtype {\n    Round Round = 10;\n    Rect Rect = 11;\n" in text
    )
    assert "message Rect {\n  oneof subtype {\n    Square Square = 5;\n  }\n  int32 width" in text
    assert "Figure main = 2;" in text  # a field typed Rect travels as its root, Figure
    # a subtype's schema declares the hierarchy it travels in
    assert "message Figure {" in export(m.Square, "proto3")


def test_several_roots_and_a_package() -> None:
    text = schema(MODEL, [m.Point, m.Card], syntax="proto2", package="a.b")
    assert "package a.b;" in text and "message Point" in text and "enum Suit" in text
    compile_proto(text, "two_roots")


# --------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("cls", "match"),
    [
        (m.Legacy, r"Legacy\.key: proto3 has no required fields: export with syntax='proto2'"),
        (m.Basket, r"Basket\.item: proto3 has no groups"),
        (m.Card, r"Card\.suit: Suit is a closed enum, which proto3 cannot declare"),
    ],
)
def test_proto3_refuses(cls: type, match: str) -> None:
    with pytest.raises(ContractError, match=match):
        export(cls, "proto3")


def test_proto3_refuses_a_nonzero_default_naming_the_field() -> None:
    @proto_contract
    @dataclasses.dataclass
    class Tuned:
        level: m.Level = field(1, default=m.Level.HIGH, wire_default=m.Level.HIGH)

    with pytest.raises(ContractError, match=r"Tuned\.level: proto3 cannot declare the default"):
        export(Tuned, "proto3")
    assert "optional Level level = 1 [default = HIGH];" in export(Tuned, "proto2")


def test_optional_with_a_default() -> None:
    @proto_contract
    @dataclasses.dataclass
    class Knob:
        turns: pa.int32 | None = field(1, default=3, wire_default=3)
        zero: pa.int32 | None = field(2, default=0)

    with pytest.raises(ContractError, match=r"Knob\.turns"):
        schema(MODEL, Knob, syntax="proto3", package=None)
    assert "  int32 turns = 1 [default = 3];\n  int32 zero = 2;" in export(Knob, "editions")
    assert "  optional int32 turns = 1 [default = 3];" in export(Knob, "proto2")


def test_python_defaults_are_local_and_export_as_proto3() -> None:
    """Issue 22.1: a non-zero Python default is the constructor's, not a wire default."""

    @proto_contract
    @dataclasses.dataclass
    class Line:
        quantity: int = field(1, default=1)
        turns: pa.int32 | None = field(2, default=3)

    assert "  int64 quantity = 1;\n  optional int32 turns = 2;" in export(Line, "proto3")
    assert "default" not in export(Line, "proto2")


def test_name_clash_and_bad_arguments() -> None:
    @proto_contract(name="Point")
    @dataclasses.dataclass
    class Other:
        p: m.Point | None = field(1, default=None)

    with pytest.raises(ContractError, match="both named 'Point'"):
        export(Other, "proto3")
    with pytest.raises(ValueError, match="syntax must be one of"):
        schema(MODEL, m.Point, syntax="proto4")
    with pytest.raises(ValueError, match="package"):
        schema(MODEL, m.Point, package="1bad")
    with pytest.raises(ContractError, match="not a contract"):
        schema(MODEL, datetime)


def test_timestamp_and_duration_imports_only_when_used() -> None:
    assert "import" not in export(m.Point, "proto3")
    text = export(m.TimeStamp, "proto3")
    assert 'import "google/protobuf/duration.proto";' in text
    assert 'import "google/protobuf/timestamp.proto";' in text
    assert timedelta  # (imports used in annotations of the models)


class JobStatus(enum.IntEnum):
    UNKNOWN = 0
    RUNNING = 1


class Colour(enum.IntEnum):
    UNKNOWN = 0
    RED = 1


def test_enum_value_names_depend_on_the_enum_only() -> None:
    # the names are the Python member names, whatever else the schema reaches
    @proto_contract
    @dataclasses.dataclass
    class Job:
        status: JobStatus = field(1, default=JobStatus.UNKNOWN)

    alone = export(Job, "proto3")
    assert "enum JobStatus {\n  UNKNOWN = 0;\n  RUNNING = 1;\n}" in alone

    @proto_contract
    @dataclasses.dataclass
    class Pair:
        job: Job | None = field(1, default=None)
        colour: Colour = field(2, default=Colour.UNKNOWN)

    # an unrelated enum sharing UNKNOWN is refused (protoc would refuse it too),
    # instead of silently renaming the first one's values
    with pytest.raises(ContractError, match=r"JobStatus: .*'UNKNOWN'.*Colour.*JOB_STATUS_UNKNOWN"):
        export(Pair, "proto3")
    assert export(Job, "proto3") == alone
