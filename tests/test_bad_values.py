"""Every value that does not fit its field is an EncodeError naming ``Class.field``.

No internal exception leaks (``OverflowError``, ``TypeError``, ``AttributeError``,
``RecursionError``), and nothing is silently turned into something else: a ``str``
is not a list of its characters, a ``dict`` not a list of its keys, a number a
closed enum does not define not its default, and ``None`` is written as
"absent" only where absent reads back as ``None`` (see docs/errors.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Any, Optional

import pytest

import protoattr as pa
from protoattr import EncodeError, field, proto_contract
from tests.test_closed_enums import Level


@proto_contract
@dataclass
class Part:
    x: pa.int32 = field(1, default=0)


@proto_contract
@dataclass
class Box:
    f32: pa.float32 = field(1, default=0.0)
    dbl: float = field(2, default=0.0)
    tags: list[str] = field(3, default_factory=list)
    parts: list[Part] = field(4, default_factory=list)
    counts: dict[str, int] = field(5, default_factory=dict)
    day: date = field(6, default=date(2000, 1, 1))
    inside: Optional[Box] = field(7, default=None)  # noqa: UP045
    level: Level = field(8, default=Level.LOW)
    part: Part = field(9, default_factory=Part)
    when: datetime = field(10, default=datetime(2000, 1, 1, tzinfo=timezone.utc))
    labels: set[str] = field(11, default_factory=set)
    levels: list[Level] = field(12, default_factory=list)
    packed: list[pa.int32] = field(13, default_factory=list)
    took: timedelta = field(14, default=timedelta(0))
    named: dict[str, Level] = field(15, default_factory=dict)


CASES: list[tuple[dict[str, Any], str]] = [
    ({"f32": 10**400}, r"Box.f32: 1000000000\d+\.\.\. \(401 characters\) does not fit float"),
    ({"dbl": 10**400}, r"Box.dbl: 1000000000\d+\.\.\. \(401 characters\) does not fit double"),
    ({"dbl": -(10**309)}, r"Box.dbl: .* does not fit double"),
    ({"tags": 5}, r"Box.tags: expected a list, got int 5"),
    ({"tags": Part()}, r"Box.tags: expected a list, got Part Part\(x=0\)"),
    ({"parts": 5}, r"Box.parts: expected a list, got int 5"),
    ({"parts": Part()}, r"Box.parts: expected a list, got Part"),
    ({"counts": [("a", 1)]}, r"Box.counts: expected a dict, got list \[\('a', 1\)\]"),
    ({"day": datetime(2000, 1, 1)}, r"Box.day: expected date, got datetime"),
    ({"tags": "abc"}, r"Box.tags: expected a list, got str 'abc' \(wrap it in a list: \[value\]\)"),
    ({"labels": "abc"}, r"Box.labels: expected a list, got str 'abc'"),
    ({"packed": b"\x01\x02"}, r"Box.packed: expected a list, got bytes"),
    ({"tags": {"a": 1}}, r"Box.tags: expected a list, got dict \{'a': 1\}"),
    ({"parts": {1: Part()}}, r"Box.parts: expected a list, got dict"),
    ({"level": 7}, r"Box.level: 7 is not a member of the closed enum Level"),
    ({"levels": [1, 7]}, r"Box.levels\[1\]: 7 is not a member of the closed enum Level"),
    ({"named": {"k": 9}}, r"Box.named\['k'\]: 9 is not a member of the closed enum Level"),
    ({"part": None}, r"Box.part: None is not a Part \(declare it Optional\[\.\.\.\]\)"),
    ({"when": None}, r"Box.when: None is not a .*Timestamp \(declare it Optional"),
    ({"took": None}, r"Box.took: None is not a .*Duration \(declare it Optional"),
    ({"tags": None}, r"Box.tags: None is not a repeated string \(use an empty one\)"),
    ({"parts": None}, r"Box.parts: None is not a repeated Part"),
    ({"counts": None}, r"Box.counts: None is not a map<string, int64> \(use an empty one\)"),
    ({"parts": [Part(), None]}, r"Box.parts\[1\]: expected Part, got NoneType None"),
    ({"inside": Box(part=None)}, r"Box.inside.part: None is not a Part"),  # one level down
]


@pytest.mark.parametrize(("values", "message"), CASES, ids=[str(v) for v, _ in CASES])
def test_a_bad_value_is_an_encode_error_naming_the_field(
    values: dict[str, Any], message: str
) -> None:
    obj = Box(**values)
    for operation in (pa.serialize, pa.measure, pa.deep_clone):
        with pytest.raises(EncodeError) as info:
            operation(obj)
        assert re.match(message, str(info.value)), str(info.value)


@proto_contract
@dataclass
class Crate:
    spare: Part = field(1, default=None)  # None is its declared default: absent reads as None
    maybe: Optional[Part] = field(2, default=None)  # noqa: UP045
    part: Part = field(3, default_factory=Part)
    parts: list[Part] = field(4, default_factory=list)


def test_none_is_absent_where_absent_reads_back_as_none() -> None:
    assert pa.serialize(Crate(spare=None, maybe=None)) == b"\x1a\x00"
    back = pa.deserialize(Crate, b"")
    assert back.spare is None and back.maybe is None and back.part == Part()
    assert back == Crate()


def test_a_shared_but_acyclic_object_is_no_cycle() -> None:
    shared = Part(x=1)
    data = pa.serialize(Crate(spare=shared, part=shared, parts=[shared, shared]))
    assert data == b"\x0a\x02\x08\x01" + b"\x1a\x02\x08\x01" + b"\x22\x02\x08\x01" * 2


def test_members_and_empty_containers_still_encode() -> None:
    obj = Box(level=Level.MINUS, levels=[Level.MID, 2], named={"k": Level.HIGH}, labels={"a"})
    assert pa.deserialize(Box, pa.serialize(obj)) == Box(
        level=Level.MINUS, levels=[Level.MID, Level.HIGH], named={"k": Level.HIGH}, labels={"a"}
    )
    empty = pa.serialize(Box())
    assert pa.serialize(Box(tags=[], parts=(), counts={})) == empty
    assert pa.serialize(Box(tags=("a", "b"))) == b"\x1a\x01a\x1a\x01b" + empty  # any sequence


def test_a_cycle_is_named_where_it_closes() -> None:
    a = Box()
    a.inside = a
    b = Box(inside=Box())
    assert b.inside is not None
    b.inside.inside = b
    for obj, where in [(a, "Box.inside"), (b, "Box.inside")]:
        for operation in (pa.serialize, pa.measure, pa.deep_clone):
            with pytest.raises(EncodeError, match=f"cycle at {where}"):
                operation(obj)


def test_an_object_nested_deeper_than_python_recurses_is_an_encode_error() -> None:
    deep = Box()
    for _ in range(5000):
        deep = Box(inside=deep)
    with pytest.raises(EncodeError, match="Box: nested"):
        pa.serialize(deep)


@pytest.mark.parametrize(
    ("items", "list_type", "message"),
    [
        ([Part(), None], list[Part], r"list\[Part\]\[1\]: expected Part, got NoneType None"),
        (
            [Part(), Part(x=2**31)],
            list[Part],
            r"list\[Part\]\[1\]\.x: 2147483648 does not fit int32",
        ),
        ([1, "x"], list[int], r"list\[int\]\[1\]: expected int64, got str 'x'"),
        ([1, None], list[pa.int32], r"list\[.*\]\[1\]: expected int32, got NoneType None"),
        ("abc", list[str], r"list\[str\]: expected a list, got str 'abc'"),
        ({1: Part()}, list[Part], r"list\[Part\]: expected a list, got dict"),
        (5, list[Part], r"list\[Part\]: expected a list, got int 5"),
        ([Level.MID, 7], list[Level], r"list\[Level\]\[1\]: 7 is not a member of the closed enum"),
    ],
)
def test_a_bad_item_of_a_top_level_list_names_its_index(
    items: Any, list_type: Any, message: str
) -> None:
    with pytest.raises(EncodeError) as info:
        pa.serialize(items, type=list_type)
    assert re.match(message, str(info.value)), str(info.value)
    with pytest.raises(EncodeError):
        pa.measure(items, type=list_type)
