"""Values that do not fit their field raise EncodeError, name class and field, and write nothing."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pytest

import protoattr as pa
from protoattr import EncodeError, field, proto_contract
from tests import contracts as c


@proto_contract
@dataclass
class Holder:
    """One field per failure mode; every value defaults to something valid."""

    i32: pa.int32 = field(1, default=0)
    u32: pa.uint32 = field(2, default=0)
    i64: pa.int64 = field(3, default=0)
    u64: pa.uint64 = field(4, default=0)
    s32: pa.sint32 = field(5, default=0)
    s64: pa.sint64 = field(6, default=0)
    f32: pa.fixed32 = field(7, default=0)
    f64: pa.fixed64 = field(8, default=0)
    sf32: pa.sfixed32 = field(9, default=0)
    sf64: pa.sfixed64 = field(10, default=0)
    text: str = field(11, default="")
    data: bytes = field(12, default=b"")
    flag: bool = field(13, default=False)
    db: float = field(14, default=0.0)
    color: c.Color = field(15, default=c.Color.COLOR_ZERO)
    when: datetime | None = field(16, default=None)
    span: timedelta | None = field(17, default=None)
    inner: c.Inner | None = field(18, default=None)
    maybe: pa.int32 | None = field(19, default=None)
    plain: int = field(20, default=0)


@proto_contract
@dataclass
class Lists:
    packed: list[pa.int32] = field(1, default_factory=list)
    unpacked: list[pa.uint32] = field(2, default_factory=list, packed=False)
    fixed: list[pa.sfixed32] = field(3, default_factory=list)
    texts: list[str] = field(4, default_factory=list)
    flags: list[bool] = field(5, default_factory=list)
    inners: list[c.Inner] = field(6, default_factory=list)
    mapping: dict[pa.int32, str] = field(7, default_factory=dict)


@proto_contract
@dataclass
class Outer:
    name: str = field(1, default="")
    holder: Holder | None = field(2, default=None)


BAD_VALUES: list[tuple[str, Any]] = [
    ("i32", 2**31),
    ("i32", -(2**31) - 1),
    ("i32", 1.5),
    ("i32", "1"),
    ("i32", None),
    ("u32", -1),
    ("u32", 2**32),
    ("i64", 2**63),
    ("i64", -(2**63) - 1),
    ("u64", -1),
    ("u64", 2**64),
    ("s32", 2**31),
    ("s32", -(2**31) - 1),
    ("s64", 2**63),
    ("f32", -1),
    ("f32", 2**32),
    ("f64", -1),
    ("f64", 2**64),
    ("sf32", 2**31),
    ("sf64", -(2**63) - 1),
    ("text", b"bytes"),
    ("text", None),
    ("text", 5),
    ("text", "lone surrogate \ud800"),
    ("data", "str"),
    ("data", None),
    ("data", 5),
    ("flag", "yes"),
    ("flag", 2),
    ("flag", None),
    ("db", "1.0"),
    ("db", None),
    ("color", 2**31),
    ("color", "RED"),
    ("when", "2020-01-01"),
    ("span", 5),
    ("inner", "not a message"),
    ("inner", c.Task),
    ("maybe", 2**40),
    ("maybe", "0"),
    ("plain", 2**64),
]


def assert_nothing_written(obj: Any, field_name: str, cls_name: str | None = None) -> EncodeError:
    """Every entry point raises EncodeError naming ``Class.field``; streams stay empty."""
    cls_name = cls_name or type(obj).__qualname__
    pattern = rf"\b{re.escape(cls_name)}\.{field_name}\b"
    with pytest.raises(EncodeError) as info:
        pa.serialize(obj)
    assert re.search(pattern, str(info.value)), str(info.value)
    stream = io.BytesIO()
    with pytest.raises(EncodeError):
        pa.serialize_to(stream, obj)
    assert stream.getvalue() == b""
    with pytest.raises(EncodeError):
        pa.measure(obj)
    model = pa.TypeModel()  # a fresh model says the same
    with pytest.raises(EncodeError, match=pattern):
        model.serialize(obj)
    return info.value


@pytest.mark.parametrize(("name", "value"), BAD_VALUES, ids=[f"{n}={v!r}" for n, v in BAD_VALUES])
def test_value_that_does_not_fit(name: str, value: Any) -> None:
    error = assert_nothing_written(Holder(**{name: value}), name)
    assert isinstance(error, ValueError)
    assert isinstance(error, pa.ProtoError)


@pytest.mark.parametrize(("name", "value"), BAD_VALUES, ids=[f"{n}={v!r}" for n, v in BAD_VALUES])
def test_bad_value_in_a_nested_message_names_the_nested_field(name: str, value: Any) -> None:
    assert_nothing_written(Outer("x", Holder(**{name: value})), f"holder.{name}", "Outer")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("packed", [1, 2**31]),
        ("packed", [1, None]),
        ("packed", [1, "2"]),
        ("unpacked", [0, -1]),
        ("fixed", [2**31]),
        ("fixed", [1.5]),
        ("texts", ["ok", b"bytes"]),
        ("texts", [None]),
        ("flags", [True, "yes"]),
        ("flags", [True, 2]),
        ("inners", [c.Inner(), "not a message"]),
        ("mapping", {2**31: "x"}),
        ("mapping", {"k": "x"}),
        ("mapping", {1: b"x"}),
        ("mapping", {1: None}),
    ],
    ids=repr,
)
def test_bad_element_in_a_list_or_map(name: str, value: Any) -> None:
    assert_nothing_written(Lists(**{name: value}), name)


def test_bad_value_in_a_listed_message_names_the_path_to_it() -> None:
    error = assert_nothing_written(Lists(inners=[c.Inner(), c.Inner(a=2**31)]), r"inners\[1\]\.a")
    assert str(error).startswith("Lists.inners[1].a: ")


def test_none_in_a_required_field() -> None:
    assert_nothing_written(c.DnsRecord(None, "v", "f", "l"), "key")  # type: ignore[arg-type]


def test_none_in_a_non_optional_int_field() -> None:
    error = assert_nothing_written(Holder(i32=None), "i32")  # type: ignore[arg-type]
    assert "None" in str(error)


@pytest.mark.parametrize(
    ("shape", "set_members"),
    [
        (c.Shape("s", radius=1.0, side=2), ["radius", "side"]),
        # falsy values count as set: only None is "not set"
        (c.Shape("s", side=0, label=""), ["side", "label"]),
        (c.Shape(radius=0.0, side=0, label=""), ["radius", "side", "label"]),
    ],
    ids=repr,
)
def test_two_oneof_members_set(shape: c.Shape, set_members: list[str]) -> None:
    with pytest.raises(EncodeError) as info:
        pa.serialize(shape)
    message = str(info.value)
    assert "Shape" in message and "kind" in message, message
    for name in set_members:
        assert re.search(rf"\b{name}\b", message), message
    stream = io.BytesIO()
    with pytest.raises(EncodeError):
        pa.serialize_to(stream, shape)
    assert stream.getvalue() == b""


def test_one_oneof_member_set_is_fine() -> None:
    for shape in (c.Shape(radius=0.0), c.Shape(side=0), c.Shape(label=""), c.Shape()):
        assert pa.deserialize(c.Shape, pa.serialize(shape)) == shape


def test_top_level_list_with_a_bad_item() -> None:
    tasks = [
        c.Task(1, datetime(2020, 1, 1), "a", c.TaskPriority.LOW),
        c.Task(2**31, datetime(2020, 1, 1), "b", c.TaskPriority.LOW),
    ]
    with pytest.raises(EncodeError, match=r"^list\[Task\]\[1\]\.id: "):
        pa.serialize(tasks, type=list[c.Task])
    stream = io.BytesIO()
    with pytest.raises(EncodeError):
        pa.serialize_to(stream, tasks, type=list[c.Task])
    assert stream.getvalue() == b""


@pytest.mark.parametrize(
    "span", [timedelta(days=3_652_500 + 1), -timedelta(days=3_652_500 + 1)], ids=repr
)
def test_duration_out_of_range(span: timedelta) -> None:
    # google.protobuf.Duration is specified for +-315576000000 s (10000 years), and
    # protoattr's own decoder rejects anything longer: it must not write it either
    assert_nothing_written(Holder(span=span), "span")


def test_valid_values_at_the_limits_encode() -> None:
    obj = Holder(
        i32=-(2**31),
        u32=2**32 - 1,
        i64=-(2**63),
        u64=2**64 - 1,
        s32=2**31 - 1,
        s64=-(2**63),
        f32=2**32 - 1,
        f64=2**64 - 1,
        sf32=-(2**31),
        sf64=2**63 - 1,
        flag=True,
        color=c.Color.NEGATIVE,
        maybe=0,
        plain=-(2**63),
    )
    assert pa.deserialize(Holder, pa.serialize(obj)) == obj


# ------------------------------------------------ the path to a nested field (issue 22.5)


@proto_contract
@dataclass
class PathLeaf:
    n: pa.int32 = field(1, default=0)


@proto_contract
@dataclass
class PathRoot:
    items: list[PathLeaf] = field(1, default_factory=list)
    by_key: dict[str, PathLeaf] = field(2, default_factory=dict)
    one: PathLeaf = field(3, default_factory=PathLeaf)


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        (
            PathRoot(items=[PathLeaf(), PathLeaf(), PathLeaf("x")]),  # type: ignore[arg-type]
            r"^PathRoot\.items\[2\]\.n: expected int32, got str 'x'$",
        ),
        (
            PathRoot(items=[PathLeaf(2**40)]),
            r"^PathRoot\.items\[0\]\.n: 1099511627776 does not fit",
        ),
        (
            PathRoot(by_key={"k": PathLeaf("x")}),  # type: ignore[arg-type]
            r"^PathRoot\.by_key\['k'\]\.n: expected int32",
        ),
        (PathRoot(one=PathLeaf("x")), r"^PathRoot\.one\.n: expected int32"),  # type: ignore[arg-type]
    ],
    ids=["list", "range", "map", "message"],
)
def test_a_nested_encode_error_names_the_whole_path(obj: PathRoot, message: str) -> None:
    with pytest.raises(pa.EncodeError, match=message):
        pa.serialize(obj)
    with pytest.raises(pa.EncodeError, match=message):
        pa.measure(obj)


def test_text_given_for_bytes_says_bytes_are_needed() -> None:
    with pytest.raises(TypeError, match=r"bytes \(bytes, bytearray or memoryview\), not str"):
        pa.deserialize(PathLeaf, "08 01")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"bytes.fromhex"):
        pa.deserialize(list[PathLeaf], "08 01")  # type: ignore[arg-type]
    assert pa.deserialize(PathLeaf, bytes.fromhex("08 01")) == PathLeaf(1)
